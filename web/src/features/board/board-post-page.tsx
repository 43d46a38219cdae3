/** /board/{postId} — a post with its comments (spec part 2 §2 "Board post detail", §8). */
import { getRouteApi, Link, useNavigate } from "@tanstack/react-router";
import { useAtomValue } from "jotai";
import { useCallback, useEffect, useRef, useState } from "react";
import { isApiError } from "../../lib/api";
import { useDocumentTitle } from "../../lib/title";
import { ReportButton } from "../moderation/report-dialog";
import { currentUserAtom } from "../session/atoms";
import { boardApi } from "./board-api";
import { alertFailure, PostDate, type PostLoad, PostPending, parsePostId, wasEdited } from "./board-ui";
import { CommentSection } from "./comments";
import { BOARD_TEXT } from "./messages";

const route = getRouteApi("/board/$postId");

/**
 * Loads the post, then records one view for this visit and reloads the post so the count includes it (spec
 * part 2 §2). `reload` re-reads the post after a comment changed its comment count, without counting a view.
 */
function usePostVisit(postId: number | null) {
  const [state, setState] = useState<PostLoad>({ status: "loading" });
  // The post a view was recorded for in this visit: StrictMode's second effect run must not count again, while
  // moving on to another post (same component, new param) is a new visit.
  const viewed = useRef<number | null>(null);

  const reload = useCallback(async () => {
    if (postId === null) return;
    try {
      const post = await boardApi.get(postId);
      setState({ status: "ready", post });
    } catch (error) {
      if (isApiError(error) && error.status === 404) setState({ status: "missing" });
    }
  }, [postId]);

  useEffect(() => {
    if (postId === null) {
      setState({ status: "missing" });
      return;
    }
    let active = true;
    setState({ status: "loading" });
    (async () => {
      try {
        const post = await boardApi.get(postId);
        if (!active) return;
        setState({ status: "ready", post });
      } catch (error) {
        if (active) setState(isApiError(error) && error.status === 404 ? { status: "missing" } : { status: "error" });
        return;
      }
      if (viewed.current === postId) return;
      viewed.current = postId;
      // A failed count must not spoil the page: the post is already shown.
      const counted = await boardApi.view(postId).catch(() => null);
      if (counted && active) await reload();
    })();
    return () => {
      active = false;
    };
  }, [postId, reload]);

  return { state, reload };
}

export function BoardPostPage() {
  const { postId: param } = route.useParams();
  const postId = parsePostId(param);
  const { state, reload } = usePostVisit(postId);
  const user = useAtomValue(currentUserAtom);
  const navigate = useNavigate();
  const [deleting, setDeleting] = useState(false);

  useDocumentTitle(
    state.status === "ready" ? state.post.title : state.status === "missing" ? "게시글을 찾을 수 없음" : "게시글",
  );

  if (state.status !== "ready") return <PostPending state={state} />;

  const { post } = state;
  const isAuthor = user?.id === post.user_id;

  async function remove() {
    if (!window.confirm(BOARD_TEXT.deletePostConfirm)) return;
    setDeleting(true);
    try {
      await boardApi.remove(post.id);
      await navigate({ to: "/board", search: {}, replace: true });
    } catch (error) {
      setDeleting(false);
      alertFailure(BOARD_TEXT.deletePostFailed, error);
    }
  }

  return (
    <section className="board-page board-narrow">
      <Link to="/board" search={{}} className="board-back">
        ← 목록으로
      </Link>
      <article className="card board-post">
        <header className="board-post-header">
          <h1 className="board-post-title">{post.title}</h1>
          <div className="board-post-meta">
            <span className="board-author">
              <span className="avatar board-avatar" aria-hidden="true">
                {[...post.user.username][0]}
              </span>
              <span className="board-author-name">{post.user.username}</span>
            </span>
            <span className="board-meta-item">
              <span className="sr-only">작성일 </span>
              <PostDate value={post.created_at} edited={wasEdited(post)} />
            </span>
            <span className="board-meta-item">조회 {post.view_count.toLocaleString("ko-KR")}</span>
            <span className="board-meta-item">댓글 {post.comment_count.toLocaleString("ko-KR")}</span>
            <ReportButton
              target={{ kind: "board_post", post_id: post.id }}
              subject={`${post.user.username}님의 글: "${post.title}"`}
              authorId={post.user_id}
            />
          </div>
        </header>
        <div className="board-post-content">{post.content}</div>
        {isAuthor && (
          <footer className="board-post-actions">
            <Link to="/board/edit/$postId" params={{ postId: String(post.id) }} className="btn btn-ghost btn-small">
              수정
            </Link>
            <button type="button" className="btn btn-small board-btn-danger" onClick={remove} disabled={deleting}>
              {deleting ? "삭제 중..." : "삭제"}
            </button>
          </footer>
        )}
      </article>
      <CommentSection postId={post.id} count={post.comment_count} onChanged={reload} />
    </section>
  );
}
