/**
 * /guilds/{guildId}/board (spec §2 "Guild board"): list, detail and write-or-edit modes, comments, and the static
 * "AI 소식" block. Members only (the server refuses others; the page shows its reason). Edit and delete: the author
 * or the guild's admins and moderators (spec §6; hidden from others, refused by the server anyway). A member the
 * viewer blocked: their posts are left out of the list, their comments keep their place without their text (as on
 * the free board, moderation's blocks).
 */
import { Link, useParams } from "@tanstack/react-router";
import { useAtomValue } from "jotai";
import { type FormEvent, useCallback, useEffect, useState } from "react";
import { BOARD_TITLE_MAX, COMMENT_MAX, GUILD_MSG } from "../../../../modules/guilds/rules";
import { isApiError } from "../../lib/api";
import { useDocumentTitle } from "../../lib/title";
import { ErrorNotice } from "../../ui/error-notice";
import { BLOCKED_COMMENT, useIsBlocked, useWithoutBlocked } from "../moderation/blocks";
import { excerpt, ReportButton } from "../moderation/report-dialog";
import { currentUserAtom } from "../session/atoms";
import { guildApi } from "./guild-api";
import type { Guild, GuildComment, GuildPost, Standing } from "./types";
import { failureText, GuildProblem, isStaff, Loading, TitleAndContent, When } from "./ui";

type Mode = { kind: "list" } | { kind: "detail"; postId: number } | { kind: "write"; post?: GuildPost };

export function GuildBoardPage() {
  const { guildId: param } = useParams({ strict: false }) as { guildId?: string };
  const guildId = param && /^[1-9]\d{0,9}$/.test(param) ? Number(param) : null;
  if (guildId === null) return <GuildProblem title={GUILD_MSG.badGuildId} />;
  return <GuildBoard key={guildId} guildId={guildId} />;
}

function AiNews() {
  return (
    <aside className="card guild-section guild-ai-news" aria-labelledby="guild-ai-news">
      <h2 id="guild-ai-news" className="guild-section-title">
        AI 소식
      </h2>
      <ul className="guild-activity">
        <li>타자 연습은 하루 10분씩 꾸준히 하는 것이 가장 효과적이에요.</li>
        <li>받침이 있는 글자는 타수가 더 높게 계산됩니다. 정확도를 먼저 챙기세요!</li>
        <li>길드 게임에서는 문제와 똑같이 입력해야만 완료로 인정됩니다.</li>
      </ul>
    </aside>
  );
}

function GuildBoard({ guildId }: { guildId: number }) {
  const [guild, setGuild] = useState<Guild | null>(null);
  const [standing, setStanding] = useState<Standing | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [mode, setMode] = useState<Mode>({ kind: "list" });
  useDocumentTitle(guild ? `${guild.name} 게시판` : "길드 게시판");

  useEffect(() => {
    const controller = new AbortController();
    Promise.all([guildApi.get(guildId, controller.signal), guildApi.standing(guildId, controller.signal)]).then(
      ([g, s]) => {
        setGuild(g);
        setStanding(s);
        if (!s.is_member) setRefusal(GUILD_MSG.notMember);
      },
      (failure) => {
        if ((failure as Error)?.name !== "AbortError") setRefusal(failureText(failure, GUILD_MSG.guildNotFound));
      },
    );
    return () => controller.abort();
  }, [guildId]);

  if (refusal) return <GuildProblem title={refusal} />;
  if (!guild || !standing) return <Loading />;

  return (
    <section className="guild-page">
      <div className="guild-head">
        <h1 className="page-title">{guild.name} 게시판</h1>
        <div className="guild-actions">
          <Link to="/guilds/$guildId/room" params={{ guildId: String(guildId) }} className="btn btn-ghost btn-small">
            길드 방
          </Link>
          {mode.kind === "list" && (
            <button type="button" className="btn btn-primary btn-small" onClick={() => setMode({ kind: "write" })}>
              글쓰기
            </button>
          )}
        </div>
      </div>
      <div className="guild-columns guild-board-columns">
        <div>
          {mode.kind === "list" && (
            <PostList guildId={guildId} onOpen={(postId) => setMode({ kind: "detail", postId })} />
          )}
          {mode.kind === "detail" && (
            <PostDetail
              guildId={guildId}
              postId={mode.postId}
              standing={standing}
              onBack={() => setMode({ kind: "list" })}
              onEdit={(post) => setMode({ kind: "write", post })}
            />
          )}
          {mode.kind === "write" && (
            <PostForm
              guildId={guildId}
              post={mode.post}
              onDone={(post) => setMode(post ? { kind: "detail", postId: post.id } : { kind: "list" })}
            />
          )}
        </div>
        <AiNews />
      </div>
    </section>
  );
}

function PostList({ guildId, onOpen }: { guildId: number; onOpen: (postId: number) => void }) {
  const [loaded, setPosts] = useState<GuildPost[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const posts = useWithoutBlocked()(loaded ?? [], (post) => post.author_id);
  useEffect(() => {
    const controller = new AbortController();
    guildApi.board(guildId, controller.signal).then(setPosts, (failure) => {
      if ((failure as Error)?.name !== "AbortError") setError(failureText(failure, "게시글을 불러오지 못했습니다."));
    });
    return () => controller.abort();
  }, [guildId]);
  if (error) {
    return (
      <p className="notice notice-error" role="alert">
        {error}
      </p>
    );
  }
  if (!loaded) return <Loading />;
  if (posts.length === 0)
    return <p className="card guild-section muted">아직 게시글이 없습니다. 첫 글을 남겨보세요!</p>;
  return (
    <ul className="card guild-section guild-post-list">
      {posts.map((post) => (
        <li key={post.id} className="guild-post-item">
          <button type="button" className="guild-post-link" onClick={() => onOpen(post.id)}>
            {post.title}
            {post.comment_count > 0 && <span className="guild-badge">{post.comment_count}</span>}
          </button>
          <span className="muted guild-small">
            {post.author_name} · <When value={post.created_at} />
          </span>
        </li>
      ))}
    </ul>
  );
}

function PostDetail({
  guildId,
  postId,
  standing,
  onBack,
  onEdit,
}: {
  guildId: number;
  postId: number;
  standing: Standing;
  onBack: () => void;
  onEdit: (post: GuildPost) => void;
}) {
  const [post, setPost] = useState<GuildPost | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    guildApi.post(guildId, postId, controller.signal).then(setPost, (failure) => {
      if ((failure as Error)?.name === "AbortError") return;
      setError(
        isApiError(failure) && failure.status === 404
          ? GUILD_MSG.postNotFound
          : failureText(failure, "게시글을 불러오지 못했습니다."),
      );
    });
    return () => controller.abort();
  }, [guildId, postId]);

  async function remove() {
    if (!post || !window.confirm("게시글을 삭제하시겠습니까?")) return;
    try {
      await guildApi.removePost(guildId, post.id);
      onBack();
    } catch (failure) {
      setError(failureText(failure, "게시글을 삭제하지 못했습니다."));
    }
  }

  if (error) {
    return (
      <div className="card guild-section">
        <p className="notice notice-error" role="alert">
          {error}
        </p>
        <button type="button" className="btn btn-ghost btn-small" onClick={onBack}>
          목록으로
        </button>
      </div>
    );
  }
  if (!post) return <Loading />;
  const mayEdit = post.author_id === standing.user_id || isStaff(standing.role);
  return (
    <article className="card guild-section">
      <h2 className="guild-post-title">{post.title}</h2>
      <p className="muted guild-small">
        {post.author_name} · <When value={post.created_at} />{" "}
        <ReportButton
          target={{ kind: "guild_post", guild_id: guildId, post_id: post.id }}
          subject={`${post.author_name}님의 글: "${post.title}"`}
          authorId={post.author_id}
        />
      </p>
      <div className="guild-content">{post.content}</div>
      <div className="guild-actions">
        <button type="button" className="btn btn-ghost btn-small" onClick={onBack}>
          목록으로
        </button>
        {mayEdit && (
          <button type="button" className="btn btn-ghost btn-small" onClick={() => onEdit(post)}>
            수정
          </button>
        )}
        {mayEdit && (
          <button type="button" className="btn btn-ghost btn-small guild-danger" onClick={remove}>
            삭제
          </button>
        )}
      </div>
      <Comments guildId={guildId} postId={post.id} standing={standing} />
    </article>
  );
}

function Comments({ guildId, postId, standing }: { guildId: number; postId: number; standing: Standing }) {
  const user = useAtomValue(currentUserAtom);
  const isBlocked = useIsBlocked();
  const [comments, setComments] = useState<GuildComment[] | null>(null);
  const [draft, setDraft] = useState("");
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(
    (signal?: AbortSignal) =>
      guildApi.comments(guildId, postId, signal).then(setComments, (failure) => {
        if ((failure as Error)?.name !== "AbortError") setError(failureText(failure, "댓글을 불러오지 못했습니다."));
      }),
    [guildId, postId],
  );
  useEffect(() => {
    const controller = new AbortController();
    void load(controller.signal);
    return () => controller.abort();
  }, [load]);

  async function add(event: FormEvent) {
    event.preventDefault();
    const content = draft.trim();
    if (!content) return setError(GUILD_MSG.commentRequired);
    try {
      await guildApi.addComment(guildId, postId, content);
      setDraft("");
      setError(null);
      await load();
    } catch (failure) {
      setError(failureText(failure, "댓글을 등록하지 못했습니다."));
    }
  }

  async function remove(comment: GuildComment) {
    if (!window.confirm("댓글을 삭제하시겠습니까?")) return;
    try {
      await guildApi.removeComment(guildId, postId, comment.id);
      await load();
    } catch (failure) {
      setError(failureText(failure, "댓글을 삭제하지 못했습니다."));
    }
  }

  return (
    <section className="guild-comments" aria-label="댓글">
      <h3 className="guild-section-title">댓글 {comments ? comments.length : ""}</h3>
      <ErrorNotice text={error} />
      {comments && comments.length === 0 && <p className="muted">첫 댓글을 남겨보세요.</p>}
      {comments && comments.length > 0 && (
        <ul className="guild-rows">
          {comments.map((comment) => (
            <li key={comment.id} className="guild-row guild-comment">
              <div className="guild-row-main">
                <span className="guild-small">
                  <strong>{comment.author_name}</strong> · <When value={comment.created_at} />{" "}
                  <ReportButton
                    target={{ kind: "guild_comment", guild_id: guildId, post_id: postId, comment_id: comment.id }}
                    subject={`${comment.author_name}님의 댓글: "${excerpt(comment.content)}"`}
                    authorId={comment.author_id}
                  />
                </span>
                {isBlocked(comment.author_id) ? (
                  <p className="guild-comment-text blocked-note">{BLOCKED_COMMENT}</p>
                ) : (
                  <p className="guild-comment-text">{comment.content}</p>
                )}
              </div>
              {(comment.author_id === user?.id || isStaff(standing.role)) && (
                <button type="button" className="btn btn-ghost btn-small" onClick={() => remove(comment)}>
                  삭제
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <form className="guild-inline" onSubmit={add}>
        <input
          className="input"
          aria-label="댓글 입력"
          placeholder="댓글을 입력하세요"
          maxLength={COMMENT_MAX}
          value={draft}
          onChange={(e) => {
            setDraft(e.target.value);
            setError(null);
          }}
        />
        <button type="submit" className="btn btn-primary btn-small">
          등록
        </button>
      </form>
    </section>
  );
}

function PostForm({
  guildId,
  post,
  onDone,
}: {
  guildId: number;
  post?: GuildPost;
  onDone: (post: GuildPost | null) => void;
}) {
  const [title, setTitle] = useState(post?.title ?? "");
  const [content, setContent] = useState(post?.content ?? "");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const input = { title: title.trim(), content: content.trim() };
    if (!input.title || !input.content) return setError(GUILD_MSG.titleAndContentRequired);
    setBusy(true);
    try {
      const saved = post ? await guildApi.editPost(guildId, post.id, input) : await guildApi.writePost(guildId, input);
      onDone(saved);
    } catch (failure) {
      setError(failureText(failure, "게시글을 저장하지 못했습니다."));
      setBusy(false);
    }
  }

  return (
    <form className="card guild-form" onSubmit={submit} noValidate aria-label={post ? "글 수정" : "글쓰기"}>
      <h2 className="guild-section-title">{post ? "글 수정" : "글쓰기"}</h2>
      <ErrorNotice text={error} />
      <TitleAndContent
        title={title}
        content={content}
        titleMax={BOARD_TITLE_MAX}
        rows={8}
        onTitle={setTitle}
        onContent={setContent}
        onEdit={() => setError(null)}
      />
      <div className="guild-actions">
        <button type="button" className="btn btn-ghost" onClick={() => onDone(post ?? null)}>
          취소
        </button>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {post ? "수정" : "등록"}
        </button>
      </div>
    </form>
  );
}
