import type { ModuleContext } from "../kernel/define-module";
import { boardApi } from "./api";

/** A post or comment as moderation keeps it when it is reported (the evidence), and as its deletion finds it. */
export interface BoardContent {
  kind: "post" | "comment";
  id: number;
  postId: number;
  /** The post's title (for a comment, the title of its post). */
  title: string;
  content: string;
  authorId: number;
  authorName: string;
  createdAt: string;
}

/** A live post or comment (on a live post), or null when it is gone. */
export async function boardContent(
  ctx: ModuleContext,
  kind: "post" | "comment",
  id: number,
): Promise<BoardContent | null> {
  const { store } = boardApi(ctx);
  const postId = kind === "post" ? id : (await store.findLiveComment(id))?.postId;
  const post = postId === undefined ? undefined : await store.findLivePost(postId);
  if (!post) return null;
  if (kind === "post") {
    const { content, userId, createdAt } = post.post;
    const authorName = post.username;
    return {
      kind,
      id,
      postId: id,
      title: post.post.title,
      content,
      authorId: userId,
      authorName,
      createdAt: iso(createdAt),
    };
  }
  const comment = await store.findCommentWithAuthor(id);
  if (!comment) return null;
  const { content, userId, createdAt } = comment.comment;
  const authorName = comment.username;
  return {
    kind,
    id,
    postId: post.post.id,
    title: post.post.title,
    content,
    authorId: userId,
    authorName,
    createdAt: iso(createdAt),
  };
}

/**
 * Deletes a reported post or comment (moderation's "delete the content"), as an administrator's deletion does but
 * without its admin log step: moderation writes its own row, naming the report. `by`: the administrator's account,
 * null for the CLI. False when it was gone already.
 */
export async function deleteBoardContent(ctx: ModuleContext, kind: "post" | "comment", id: number, by: number | null) {
  const { store } = boardApi(ctx);
  const at = new Date(ctx.clock.now());
  if (kind === "post") return store.deletePost(id, by, at);
  const comment = await store.findLiveComment(id);
  return comment ? store.deleteComment(id, comment.postId, by, at) : false;
}

const iso = (date: Date) => date.toISOString();
