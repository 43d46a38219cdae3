/**
 * /guilds/recruitment/{id} (spec §2): the post with its view count (counted once per viewer per 10 minutes by the
 * server), an application form for a logged-in user in no guild, and the applications for that guild's staff.
 */
import { Link, useParams } from "@tanstack/react-router";
import { useAtomValue } from "jotai";
import { type FormEvent, useEffect, useState } from "react";
import { APPLICATION_MESSAGE_MAX } from "../../../../modules/guilds/rules";
import { isApiError } from "../../lib/api";
import { useDocumentTitle } from "../../lib/title";
import { ErrorNotice } from "../../ui/error-notice";
import { ReportButton } from "../moderation/report-dialog";
import { isAuthenticatedAtom } from "../session/atoms";
import { ApplicationsPanel } from "./applications-panel";
import { guildApi } from "./guild-api";
import type { MyGuild, RecruitmentPost } from "./types";
import { failureText, isStaff, Loading, parseId, When } from "./ui";

/** `onApplied` runs once the server took the application (the post then reads its new count). */
function ApplyForm({ postId, onApplied }: { postId: number; onApplied: () => void }) {
  const [message, setMessage] = useState("");
  const [state, setState] = useState<{ error?: string; done?: boolean; busy?: boolean }>({});
  async function submit(event: FormEvent) {
    event.preventDefault();
    setState({ busy: true });
    try {
      await guildApi.apply(postId, message.trim());
      setState({ done: true });
      onApplied();
    } catch (failure) {
      setState({ error: failureText(failure, "가입 신청에 실패했습니다.") });
    }
  }
  if (state.done) {
    return (
      <p className="notice notice-success" role="status">
        가입 신청을 보냈습니다. 길드 관리자의 승인을 기다려주세요.
      </p>
    );
  }
  return (
    <form className="guild-form" onSubmit={submit} aria-label="가입 신청">
      <ErrorNotice text={state.error} />
      <div className="field">
        <label className="field-label" htmlFor="apply-message">
          신청 메시지 (선택)
        </label>
        <textarea
          id="apply-message"
          className="input guild-textarea"
          rows={3}
          value={message}
          maxLength={APPLICATION_MESSAGE_MAX}
          onChange={(e) => setMessage(e.target.value)}
        />
      </div>
      <button type="submit" className="btn btn-primary" disabled={state.busy}>
        가입 신청
      </button>
    </form>
  );
}

export function RecruitmentPostPage() {
  const { id } = useParams({ strict: false }) as { id?: string };
  const postId = parseId(id);
  const loggedIn = useAtomValue(isAuthenticatedAtom);
  const [post, setPost] = useState<RecruitmentPost | null>(null);
  const [missing, setMissing] = useState<string | null>(postId === null ? "모집글을 찾을 수 없습니다." : null);
  const [mine, setMine] = useState<MyGuild | null>(null);
  useDocumentTitle(post?.title ?? "모집글");

  useEffect(() => {
    if (postId === null) return;
    const controller = new AbortController();
    // Count the visit first, then read the post with its new view count.
    guildApi
      .viewRecruitment(postId)
      .catch(() => null)
      .then(() => guildApi.recruitmentPost(postId, controller.signal))
      .then(setPost, (failure) => {
        if ((failure as Error)?.name === "AbortError") return;
        setMissing(
          isApiError(failure) && failure.status === 404
            ? "모집글을 찾을 수 없습니다."
            : failureText(failure, "모집글을 불러오지 못했습니다."),
        );
      });
    return () => controller.abort();
  }, [postId]);

  // After an application the post is read again (not viewed again): its 신청 count is the server's, never a guess.
  const [applied, setApplied] = useState(0);
  useEffect(() => {
    if (postId === null || applied === 0) return;
    const controller = new AbortController();
    guildApi.recruitmentPost(postId, controller.signal).then(setPost, () => {});
    return () => controller.abort();
  }, [postId, applied]);

  useEffect(() => {
    if (!loggedIn) return setMine(null);
    const controller = new AbortController();
    guildApi.my(controller.signal).then(setMine, () => setMine(null));
    return () => controller.abort();
  }, [loggedIn]);

  if (missing) {
    return (
      <section className="guild-page guild-narrow card" role="alert">
        <h1 className="guild-problem-title">{missing}</h1>
        <Link to="/guilds/recruitment" className="btn btn-primary">
          목록으로
        </Link>
      </section>
    );
  }
  if (!post) return <Loading />;

  const staffHere = mine?.guild?.id === post.guild_id && isStaff(mine.role);
  return (
    <section className="guild-page guild-narrow">
      <article className="card guild-section">
        <p className="muted guild-small">{post.guild_name}</p>
        <h1 className="page-title">{post.title}</h1>
        <p className="muted guild-small">
          {post.author_name} · <When value={post.created_at} /> · 조회{" "}
          <span data-testid="view-count">{post.view_count}</span> · 신청{" "}
          <span data-testid="reply-count">{post.reply_count}</span>
        </p>
        <div className="guild-content">{post.content}</div>
        <p className="guild-small">
          <ReportButton
            target={{ kind: "recruitment_post", post_id: post.id }}
            subject={`${post.author_name}님의 모집글: "${post.title}"`}
            authorId={post.author_id}
          />
        </p>
      </article>
      <section className="card guild-section">
        {!loggedIn && <p className="muted">가입 신청은 로그인 후 할 수 있습니다.</p>}
        {loggedIn && mine && !mine.guild && <ApplyForm postId={post.id} onApplied={() => setApplied((n) => n + 1)} />}
        {loggedIn && mine?.guild && !staffHere && <p className="muted">이미 길드에 가입되어 있습니다.</p>}
        <Link to="/guilds/recruitment" className="btn btn-ghost btn-small">
          목록으로
        </Link>
      </section>
      {staffHere && <ApplicationsPanel guildId={post.guild_id} />}
    </section>
  );
}
