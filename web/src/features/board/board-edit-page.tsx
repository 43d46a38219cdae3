/** /board/edit/{postId} — the author edits a post (PUT /api/board/{id}); anyone else is sent to the post. */
import { getRouteApi, Link, Navigate, useNavigate } from "@tanstack/react-router";
import { useAtomValue } from "jotai";
import { useEffect, useState } from "react";
import { isApiError } from "../../lib/api";
import { useDocumentTitle } from "../../lib/title";
import { currentUserAtom } from "../session/atoms";
import { boardApi, type PostInput } from "./board-api";
import { type PostLoad, PostPending, parsePostId } from "./board-ui";
import { BOARD_TEXT } from "./messages";
import { PostForm } from "./post-form";

const route = getRouteApi("/board/edit/$postId");

export function BoardEditPage() {
  useDocumentTitle("글 수정");
  const { postId: param } = route.useParams();
  const postId = parsePostId(param);
  const user = useAtomValue(currentUserAtom);
  const navigate = useNavigate();
  const [state, setState] = useState<PostLoad>({ status: "loading" });

  useEffect(() => {
    if (postId === null) {
      setState({ status: "missing" });
      return;
    }
    const controller = new AbortController();
    setState({ status: "loading" });
    boardApi.get(postId, controller.signal).then(
      (post) => setState({ status: "ready", post }),
      (error) => {
        if (controller.signal.aborted) return;
        setState(isApiError(error) && error.status === 404 ? { status: "missing" } : { status: "error" });
      },
    );
    return () => controller.abort();
  }, [postId]);

  if (state.status !== "ready") return <PostPending state={state} />;

  const { post } = state;
  const params = { postId: String(post.id) };
  // Only the author edits (spec part 2 §2, §6); the server refuses others too.
  if (!user || user.id !== post.user_id) return <Navigate to="/board/$postId" params={params} replace />;

  async function save(input: PostInput): Promise<string | null> {
    try {
      await boardApi.update(post.id, input);
      await navigate({ to: "/board/$postId", params, replace: true });
      return null;
    } catch (error) {
      if (isApiError(error) && (error.status === 403 || error.status === 404)) return error.detail;
      return BOARD_TEXT.updateFailed;
    }
  }

  return (
    <section className="board-page board-narrow">
      <Link to="/board/$postId" params={params} className="board-back">
        ← 게시글로
      </Link>
      <PostForm
        heading="글 수정"
        initial={{ title: post.title, content: post.content }}
        submitLabel="수정 완료"
        busyLabel="저장 중..."
        onSubmit={save}
        cancel={{ to: "/board/$postId", params }}
      />
    </section>
  );
}
