import { AppError, badRequest, forbidden, notFound, unprocessable } from "../kernel/errors";
import type { AppEvents, EventBus } from "../kernel/events";
import { VIEW_WINDOW_MS } from "../kernel/viewers";
import { BOARD_MSG, type CheckResult, checkComment, checkContent, checkTitle, type SortColumn } from "./rules";
import type { BoardStore, CommentWithAuthor, PostWithAuthor } from "./store";

declare module "../kernel/events" {
  interface AppEvents {
    /**
     * An administrator deleted someone else's post or comment (the admin module writes it to its log).
     * `title` is the post's title (for a comment, the title of the post it was on); `excerpt` the first
     * characters of the deleted text.
     */
    "board.deleted_by_admin": {
      adminId: number;
      kind: "post" | "comment";
      id: number;
      postId: number;
      title: string;
      excerpt: string;
      authorId: number;
    };
  }
}

export interface Actor {
  id: number;
  isAdmin: boolean;
}

export interface ListInput {
  page: number;
  size: number;
  sortBy: SortColumn;
  order: "asc" | "desc";
  q?: string;
  author?: string;
}

const EXCERPT_LENGTH = 100;
const iso = (date: Date) => date.toISOString();
const accept = (check: CheckResult) => {
  if (!check.ok) throw unprocessable(check.error);
  return check.value;
};

export function presentPost({ post, username }: PostWithAuthor) {
  return {
    id: post.id,
    title: post.title,
    content: post.content,
    user_id: post.userId,
    user: { id: post.userId, username },
    view_count: post.viewCount,
    comment_count: post.commentCount,
    created_at: iso(post.createdAt),
    updated_at: iso(post.updatedAt),
  };
}
export type PresentedPost = ReturnType<typeof presentPost>;

function presentComment({ comment, username }: CommentWithAuthor) {
  const deleted = comment.deletedAt !== null;
  return {
    id: comment.id,
    content: deleted ? BOARD_MSG.deletedComment : comment.content,
    user_id: comment.userId,
    user: { id: comment.userId, username },
    post_id: comment.postId,
    parent_id: comment.parentId,
    created_at: iso(comment.createdAt),
    updated_at: iso(comment.updatedAt),
    is_deleted: deleted,
  };
}
type PresentedReply = ReturnType<typeof presentComment> & { replies: never[] };
export type PresentedComment = ReturnType<typeof presentComment> & { replies: PresentedReply[] };

/**
 * Top-level comments in order, each with its live replies. A deleted comment still holding live replies is
 * shown as "삭제된 댓글입니다." so the thread keeps its context; any other deleted comment is left out.
 */
export function buildThread(rows: CommentWithAuthor[]): PresentedComment[] {
  const replies = new Map<number, PresentedReply[]>();
  for (const row of rows) {
    if (row.comment.parentId === null || row.comment.deletedAt !== null) continue;
    const list = replies.get(row.comment.parentId) ?? [];
    list.push({ ...presentComment(row), replies: [] });
    replies.set(row.comment.parentId, list);
  }
  const thread: PresentedComment[] = [];
  for (const row of rows) {
    if (row.comment.parentId !== null) continue;
    const own = replies.get(row.comment.id) ?? [];
    if (row.comment.deletedAt !== null && own.length === 0) continue;
    thread.push({ ...presentComment(row), replies: own });
  }
  return thread;
}

export type AdminDeletion = AppEvents["board.deleted_by_admin"];
export type AdminDeletionHook = (deletion: AdminDeletion) => Promise<void> | void;

export interface BoardDeps {
  store: BoardStore;
  events: EventBus;
  now: () => number;
  /** Steps of an administrator's deletion, run inside its transaction (see `onAdminDeletion`). */
  adminDeletionHooks: () => AdminDeletionHook[];
}

export function createBoardService({ store, events, now, adminDeletionHooks }: BoardDeps) {
  const requirePost = async (id: number) => {
    const row = await store.findLivePost(id);
    if (!row) throw notFound(BOARD_MSG.postNotFound);
    return row;
  };

  /** A live comment on a live post. */
  const requireComment = async (id: number) => {
    const comment = await store.findLiveComment(id);
    if (!comment) throw notFound(BOARD_MSG.commentNotFound);
    const { post } = await requirePost(comment.postId);
    return { comment, post };
  };

  const requireAuthor = (actor: Actor, authorId: number, message: string, adminMay: boolean) => {
    if (actor.id === authorId) return;
    if (adminMay && actor.isAdmin) return;
    throw forbidden(message);
  };

  const excerpt = (text: string) => [...text].slice(0, EXCERPT_LENGTH).join("");

  async function list(input: ListInput) {
    const { rows, total } = await store.listPosts({
      sortBy: input.sortBy,
      order: input.order,
      limit: input.size,
      offset: (input.page - 1) * input.size,
      // A blank search is no filter.
      q: input.q?.trim() || undefined,
      author: input.author?.trim() || undefined,
    });
    return {
      items: rows.map(presentPost),
      total,
      total_pages: Math.ceil(total / input.size),
      page: input.page,
      size: input.size,
    };
  }

  async function create(actor: Actor, input: { title: string; content: string }) {
    const title = accept(checkTitle(input.title));
    const content = accept(checkContent(input.content));
    const id = await store.insertPost({ userId: actor.id, title, content, at: new Date(now()) });
    return presentPost(await requirePost(id));
  }

  async function update(actor: Actor, id: number, input: { title: string; content: string }) {
    const { post } = await requirePost(id);
    requireAuthor(actor, post.userId, BOARD_MSG.postEditForbidden, false);
    const title = accept(checkTitle(input.title));
    const content = accept(checkContent(input.content));
    if (!(await store.updatePost(id, { title, content, at: new Date(now()) }))) throw notFound(BOARD_MSG.postNotFound);
    return presentPost(await requirePost(id));
  }

  /**
   * The soft deletion and, when an administrator removes someone else's text, the steps registered for that
   * (the admin log) in one transaction; the bus event follows the commit. A deletion lost to a concurrent one
   * (already deleted) is a 404 and runs nothing.
   */
  async function softDelete(remove: () => Promise<boolean>, notFoundMessage: string, deletion: AdminDeletion | null) {
    await store.transaction(async () => {
      if (!(await remove())) throw notFound(notFoundMessage);
      if (deletion) for (const hook of adminDeletionHooks()) await hook(deletion);
    });
    if (deletion) events.emit("board.deleted_by_admin", deletion);
  }

  async function remove(actor: Actor, id: number) {
    const { post } = await requirePost(id);
    requireAuthor(actor, post.userId, BOARD_MSG.postDeleteForbidden, true);
    const deletion: AdminDeletion | null =
      actor.id === post.userId
        ? null
        : {
            adminId: actor.id,
            kind: "post",
            id: post.id,
            postId: post.id,
            title: post.title,
            excerpt: excerpt(post.content),
            authorId: post.userId,
          };
    await softDelete(() => store.deletePost(id, actor.id, new Date(now())), BOARD_MSG.postNotFound, deletion);
    return { detail: BOARD_MSG.postDeleted };
  }

  /**
   * Counts a visit unless the same viewer's last counted visit to this post is younger than the window, so a
   * reload storm adds at most one view per viewer per window while every genuine visit still counts once.
   */
  async function view(id: number, viewerKey: string) {
    await requirePost(id);
    const at = now();
    const { counted, viewCount } = await store.countView(id, viewerKey, new Date(at), new Date(at - VIEW_WINDOW_MS));
    return { id, view_count: viewCount, counted };
  }

  async function comments(postId: number) {
    await requirePost(postId);
    return buildThread(await store.threadRows(postId));
  }

  /** The parent of a new reply: a live top-level comment of the same post. */
  async function checkParent(postId: number, parentId: number) {
    const parent = await store.findComment(parentId);
    if (!parent || parent.postId !== postId) throw badRequest(BOARD_MSG.parentNotFound);
    if (parent.parentId !== null) throw badRequest(BOARD_MSG.replyToReply);
    if (parent.deletedAt !== null) throw badRequest(BOARD_MSG.parentDeleted);
  }

  async function addComment(actor: Actor, postId: number, input: { content: string; parent_id?: number | null }) {
    await requirePost(postId);
    const content = accept(checkComment(input.content));
    const parentId = input.parent_id ?? null;
    if (parentId !== null) await checkParent(postId, parentId);
    const id = await store.insertComment({ postId, userId: actor.id, parentId, content, at: new Date(now()) });
    return presentOne(id);
  }

  async function presentOne(id: number): Promise<PresentedComment> {
    const row = await store.findCommentWithAuthor(id);
    if (!row) throw new AppError(404, BOARD_MSG.commentNotFound);
    return { ...presentComment(row), replies: [] };
  }

  async function editComment(actor: Actor, id: number, input: { content: string }) {
    const { comment } = await requireComment(id);
    requireAuthor(actor, comment.userId, BOARD_MSG.commentEditForbidden, false);
    const content = accept(checkComment(input.content));
    if (!(await store.updateComment(id, content, new Date(now())))) throw notFound(BOARD_MSG.commentNotFound);
    return presentOne(id);
  }

  async function removeComment(actor: Actor, id: number) {
    const { comment, post } = await requireComment(id);
    requireAuthor(actor, comment.userId, BOARD_MSG.commentDeleteForbidden, true);
    const deletion: AdminDeletion | null =
      actor.id === comment.userId
        ? null
        : {
            adminId: actor.id,
            kind: "comment",
            id: comment.id,
            postId: post.id,
            title: post.title,
            excerpt: excerpt(comment.content),
            authorId: comment.userId,
          };
    await softDelete(
      () => store.deleteComment(id, post.id, actor.id, new Date(now())),
      BOARD_MSG.commentNotFound,
      deletion,
    );
    return { detail: BOARD_MSG.commentDeleted };
  }

  return {
    list,
    get: async (id: number) => presentPost(await requirePost(id)),
    create,
    update,
    remove,
    view,
    comments,
    addComment,
    editComment,
    removeComment,
  };
}
export type BoardService = ReturnType<typeof createBoardService>;
