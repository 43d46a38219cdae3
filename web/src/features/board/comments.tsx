/**
 * Comments of a post (spec part 2 §2): top-level comments with one level of replies, a reply form toggled per
 * top-level comment, an edit mode toggled per comment, deletes after a confirmation, forms only for signed-in
 * viewers. Every change reloads the thread and the post (its comment count).
 */
import { useAtomValue } from "jotai";
import { type FormEvent, useCallback, useEffect, useId, useState } from "react";
import { COMMENT_MAX, charLength, checkComment } from "../../../../modules/board/rules";
import { BLOCKED_COMMENT, useIsBlocked } from "../moderation/blocks";
import { excerpt, ReportButton } from "../moderation/report-dialog";
import { currentUserAtom } from "../session/atoms";
import type { User } from "../session/types";
import { boardApi } from "./board-api";
import { alertFailure, PostDate, wasEdited } from "./board-ui";
import { BOARD_TEXT } from "./messages";
import type { BoardComment } from "./types";

type Thread = { status: "loading" } | { status: "ready"; comments: BoardComment[] } | { status: "error" };

export function CommentSection({
  postId,
  count,
  onChanged,
}: {
  postId: number;
  count: number;
  onChanged: () => Promise<void>;
}) {
  const user = useAtomValue(currentUserAtom);
  const [thread, setThread] = useState<Thread>({ status: "loading" });

  const load = useCallback(
    async (signal?: AbortSignal) => {
      try {
        const comments = await boardApi.comments(postId, signal);
        setThread({ status: "ready", comments });
      } catch {
        if (!signal?.aborted) setThread({ status: "error" });
      }
    },
    [postId],
  );

  useEffect(() => {
    const controller = new AbortController();
    setThread({ status: "loading" });
    void load(controller.signal);
    return () => controller.abort();
  }, [load]);

  const changed = useCallback(async () => {
    await Promise.all([load(), onChanged()]);
  }, [load, onChanged]);

  async function addComment(content: string) {
    try {
      await boardApi.addComment(postId, content, null);
      await changed();
      return true;
    } catch (error) {
      alertFailure(BOARD_TEXT.commentCreateFailed, error);
      return false;
    }
  }

  return (
    <section className="card board-comments" aria-labelledby="board-comments-heading">
      <h2 className="board-comments-title" id="board-comments-heading">
        댓글 <span className="board-comments-count">{count.toLocaleString("ko-KR")}</span>
      </h2>
      {user && (
        <CommentForm label="댓글 작성" placeholder="댓글을 입력하세요" submitLabel="댓글 작성" onSubmit={addComment} />
      )}
      {thread.status === "loading" && <p className="muted board-comments-state">댓글을 불러오는 중...</p>}
      {thread.status === "error" && (
        <p className="board-comments-state board-error-text" role="alert">
          {BOARD_TEXT.commentsLoadFailed}
        </p>
      )}
      {thread.status === "ready" &&
        (thread.comments.length === 0 ? (
          <p className="muted board-comments-state">
            {user ? "아직 댓글이 없습니다. 첫 댓글을 남겨보세요!" : "아직 댓글이 없습니다."}
          </p>
        ) : (
          <ol className="board-comment-list">
            {thread.comments.map((comment) => (
              <CommentItem key={comment.id} comment={comment} postId={postId} user={user} onChanged={changed} />
            ))}
          </ol>
        ))}
    </section>
  );
}

function CommentItem({
  comment,
  postId,
  user,
  onChanged,
}: {
  comment: BoardComment;
  postId: number;
  user: User | null;
  onChanged: () => Promise<void>;
}) {
  const [editing, setEditing] = useState(false);
  const [replying, setReplying] = useState(false);
  const [busy, setBusy] = useState(false);
  // A blocked member's comment keeps its place in the thread (its replies stay readable), not its text.
  const hidden = useIsBlocked()(comment.is_deleted ? null : comment.user_id);
  const isReply = comment.parent_id !== null;
  const isAuthor = !comment.is_deleted && user?.id === comment.user_id;
  // Replies go to top-level comments only (spec part 2 §6), and not under a deleted one (the server refuses).
  const canReply = Boolean(user) && !isReply && !comment.is_deleted;

  async function save(content: string) {
    try {
      await boardApi.editComment(comment.id, content);
      setEditing(false);
      await onChanged();
      return true;
    } catch (error) {
      alertFailure(BOARD_TEXT.commentEditFailed, error);
      return false;
    }
  }

  async function reply(content: string) {
    try {
      await boardApi.addComment(postId, content, comment.id);
      setReplying(false);
      await onChanged();
      return true;
    } catch (error) {
      alertFailure(BOARD_TEXT.replyCreateFailed, error);
      return false;
    }
  }

  async function remove() {
    if (!window.confirm(BOARD_TEXT.deleteCommentConfirm)) return;
    setBusy(true);
    try {
      await boardApi.removeComment(comment.id);
      await onChanged();
    } catch (error) {
      alertFailure(BOARD_TEXT.commentDeleteFailed, error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <li className={isReply ? "board-comment board-reply" : "board-comment"} data-comment-id={comment.id}>
      <div className={comment.is_deleted ? "board-comment-body is-deleted" : "board-comment-body"}>
        {comment.is_deleted ? (
          <p className="board-comment-content">{comment.content}</p>
        ) : (
          <>
            <div className="board-comment-meta">
              <span className="board-comment-author">{comment.user.username}</span>
              <PostDate value={comment.created_at} edited={wasEdited(comment)} />
              <ReportButton
                target={{ kind: "board_comment", comment_id: comment.id }}
                subject={`${comment.user.username}님의 댓글: "${excerpt(comment.content)}"`}
                authorId={comment.user_id}
              />
            </div>
            {editing ? (
              <CommentForm
                label="댓글 수정"
                initial={comment.content}
                submitLabel="저장"
                onSubmit={save}
                onCancel={() => setEditing(false)}
                autoFocus
              />
            ) : hidden ? (
              <p className="board-comment-content blocked-note">{BLOCKED_COMMENT}</p>
            ) : (
              <p className="board-comment-content">{comment.content}</p>
            )}
            {!editing && (canReply || isAuthor) && (
              <div className="board-comment-actions">
                {canReply && (
                  <button
                    type="button"
                    className="board-link-button"
                    aria-expanded={replying}
                    onClick={() => setReplying((open) => !open)}
                  >
                    {replying ? "답글 취소" : "답글"}
                  </button>
                )}
                {isAuthor && (
                  <>
                    <button type="button" className="board-link-button" onClick={() => setEditing(true)}>
                      수정
                    </button>
                    <button type="button" className="board-link-button danger" onClick={remove} disabled={busy}>
                      삭제
                    </button>
                  </>
                )}
              </div>
            )}
          </>
        )}
      </div>
      {replying && canReply && (
        <div className="board-reply-form">
          <CommentForm
            label="답글 작성"
            placeholder={`${comment.user.username}님에게 답글 남기기`}
            submitLabel="답글 작성"
            onSubmit={reply}
            onCancel={() => setReplying(false)}
            autoFocus
          />
        </div>
      )}
      {comment.replies.length > 0 && (
        <ol className="board-reply-list">
          {comment.replies.map((child) => (
            <CommentItem key={child.id} comment={child} postId={postId} user={user} onChanged={onChanged} />
          ))}
        </ol>
      )}
    </li>
  );
}

/** A comment, reply or edit box: blank text is never sent, and the button stays disabled until there is text. */
function CommentForm({
  label,
  initial = "",
  placeholder,
  submitLabel,
  onSubmit,
  onCancel,
  autoFocus = false,
}: {
  label: string;
  initial?: string;
  placeholder?: string;
  submitLabel: string;
  /** Resolves true when the text was saved (the box is then emptied). */
  onSubmit: (content: string) => Promise<boolean>;
  onCancel?: () => void;
  autoFocus?: boolean;
}) {
  const id = useId();
  const [text, setText] = useState(initial);
  const [busy, setBusy] = useState(false);
  const check = checkComment(text);
  const length = charLength(text.trim());

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!check.ok || busy) return;
    setBusy(true);
    const saved = await onSubmit(check.value);
    setBusy(false);
    if (saved) setText("");
  }

  return (
    <form className="board-comment-form" onSubmit={submit} aria-label={label}>
      <label className="sr-only" htmlFor={id}>
        {label}
      </label>
      <textarea
        id={id}
        className="input board-textarea board-comment-input"
        value={text}
        placeholder={placeholder}
        rows={3}
        // biome-ignore lint/a11y/noAutofocus: the box the viewer just opened (reply, edit) takes the focus
        autoFocus={autoFocus}
        onChange={(e) => setText(e.target.value)}
      />
      <div className="board-comment-form-foot">
        <span className={length > COMMENT_MAX ? "board-counter over" : "board-counter"}>
          {length.toLocaleString("ko-KR")}/{COMMENT_MAX.toLocaleString("ko-KR")}
        </span>
        <div className="board-comment-form-buttons">
          {onCancel && (
            <button type="button" className="btn btn-ghost btn-small" onClick={onCancel}>
              취소
            </button>
          )}
          <button type="submit" className="btn btn-primary btn-small" disabled={!check.ok || busy}>
            {busy ? "저장 중..." : submitLabel}
          </button>
        </div>
      </div>
    </form>
  );
}
