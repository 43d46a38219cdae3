import { and, asc, count, desc, eq, gt, isNull, or, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Db } from "../../db/client";
import { users } from "../../db/core/schema";
import { AppError, badRequest, forbidden, notFound, unprocessable } from "../kernel/errors";
import type { EventBus } from "../kernel/events";
import {
  BOARD_MSG,
  type CheckResult,
  checkComment,
  checkContent,
  checkTitle,
  type SortColumn,
  VIEW_WINDOW_MS,
} from "./rules";
import { boardComments, boardPosts, boardPostViews, type CommentRow, type PostRow } from "./schema";

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
/** A LIKE pattern matching `text` anywhere, with the wildcards of the text itself escaped. */
const contains = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const like = (column: SQLiteColumn, text: string) => sql`${column} LIKE ${contains(text)} ESCAPE '\\'`;

const sortColumns = {
  created_at: boardPosts.createdAt,
  view_count: boardPosts.viewCount,
  comment_count: boardPosts.commentCount,
  title: boardPosts.title,
  id: boardPosts.id,
} satisfies Record<SortColumn, unknown>;

const postColumns = {
  post: boardPosts,
  username: users.username,
};
type PostWithAuthor = { post: PostRow; username: string };

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

type CommentWithAuthor = { comment: CommentRow; username: string };

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

export interface BoardDeps {
  db: Db;
  events: EventBus;
  now: () => number;
}

export function createBoardService({ db, events, now }: BoardDeps) {
  const findPostRow = (id: number) =>
    db
      .select(postColumns)
      .from(boardPosts)
      .innerJoin(users, eq(users.id, boardPosts.userId))
      .where(and(eq(boardPosts.id, id), isNull(boardPosts.deletedAt)))
      .get();

  const requirePost = (id: number) => {
    const row = findPostRow(id);
    if (!row) throw notFound(BOARD_MSG.postNotFound);
    return row;
  };

  /** A live comment on a live post. */
  const requireComment = (id: number) => {
    const comment = db
      .select()
      .from(boardComments)
      .where(and(eq(boardComments.id, id), isNull(boardComments.deletedAt)))
      .get();
    if (!comment) throw notFound(BOARD_MSG.commentNotFound);
    const post = requirePost(comment.postId);
    return { comment, post: post.post };
  };

  const requireAuthor = (actor: Actor, authorId: number, message: string, adminMay: boolean) => {
    if (actor.id === authorId) return;
    if (adminMay && actor.isAdmin) return;
    throw forbidden(message);
  };

  const excerpt = (text: string) => [...text].slice(0, EXCERPT_LENGTH).join("");

  function list(input: ListInput) {
    const filters: SQL[] = [isNull(boardPosts.deletedAt)];
    const q = input.q?.trim();
    if (q) filters.push(or(like(boardPosts.title, q), like(boardPosts.content, q))!);
    const author = input.author?.trim();
    if (author) filters.push(like(users.username, author));
    const where = and(...filters);

    const total =
      db.select({ n: count() }).from(boardPosts).innerJoin(users, eq(users.id, boardPosts.userId)).where(where).get()
        ?.n ?? 0;
    const direction = input.order === "asc" ? asc : desc;
    const rows = db
      .select(postColumns)
      .from(boardPosts)
      .innerJoin(users, eq(users.id, boardPosts.userId))
      .where(where)
      .orderBy(direction(sortColumns[input.sortBy]), direction(boardPosts.id))
      .limit(input.size)
      .offset((input.page - 1) * input.size)
      .all();
    return {
      items: rows.map(presentPost),
      total,
      total_pages: Math.ceil(total / input.size),
      page: input.page,
      size: input.size,
    };
  }

  function create(actor: Actor, input: { title: string; content: string }) {
    const title = accept(checkTitle(input.title));
    const content = accept(checkContent(input.content));
    const at = new Date(now());
    const row = db
      .insert(boardPosts)
      .values({ userId: actor.id, title, content, createdAt: at, updatedAt: at })
      .returning({ id: boardPosts.id })
      .get();
    return presentPost(requirePost(row.id));
  }

  function update(actor: Actor, id: number, input: { title: string; content: string }) {
    const { post } = requirePost(id);
    requireAuthor(actor, post.userId, BOARD_MSG.postEditForbidden, false);
    const title = accept(checkTitle(input.title));
    const content = accept(checkContent(input.content));
    db.update(boardPosts)
      .set({ title, content, updatedAt: new Date(now()) })
      .where(eq(boardPosts.id, id))
      .run();
    return presentPost(requirePost(id));
  }

  function remove(actor: Actor, id: number) {
    const { post } = requirePost(id);
    requireAuthor(actor, post.userId, BOARD_MSG.postDeleteForbidden, true);
    db.update(boardPosts)
      .set({ deletedAt: new Date(now()), deletedBy: actor.id })
      .where(eq(boardPosts.id, id))
      .run();
    if (actor.id !== post.userId) {
      events.emit("board.deleted_by_admin", {
        adminId: actor.id,
        kind: "post",
        id: post.id,
        postId: post.id,
        title: post.title,
        excerpt: excerpt(post.content),
        authorId: post.userId,
      });
    }
    return { detail: BOARD_MSG.postDeleted };
  }

  /**
   * Counts a visit unless the same viewer's last counted visit to this post is younger than the window, so a
   * reload storm adds at most one view per viewer per window while every genuine visit still counts once.
   */
  function view(id: number, viewerKey: string) {
    requirePost(id);
    const at = now();
    const counted = db.transaction((tx) => {
      const since = new Date(at - VIEW_WINDOW_MS);
      const recent = tx
        .select({ id: boardPostViews.id })
        .from(boardPostViews)
        .where(
          and(
            eq(boardPostViews.postId, id),
            eq(boardPostViews.viewerKey, viewerKey),
            gt(boardPostViews.countedAt, since),
          ),
        )
        .get();
      if (recent) return false;
      tx.insert(boardPostViews)
        .values({ postId: id, viewerKey, countedAt: new Date(at) })
        .onConflictDoUpdate({
          target: [boardPostViews.postId, boardPostViews.viewerKey],
          set: { countedAt: new Date(at) },
        })
        .run();
      tx.update(boardPosts)
        .set({ viewCount: sql`${boardPosts.viewCount} + 1` })
        .where(eq(boardPosts.id, id))
        .run();
      return true;
    });
    const post = requirePost(id).post;
    return { id, view_count: post.viewCount, counted };
  }

  function comments(postId: number) {
    requirePost(postId);
    const rows = db
      .select({ comment: boardComments, username: users.username })
      .from(boardComments)
      .innerJoin(users, eq(users.id, boardComments.userId))
      .where(eq(boardComments.postId, postId))
      .orderBy(asc(boardComments.createdAt), asc(boardComments.id))
      .all();
    return buildThread(rows);
  }

  /** The parent of a new reply: a live top-level comment of the same post. */
  function checkParent(postId: number, parentId: number) {
    const parent = db.select().from(boardComments).where(eq(boardComments.id, parentId)).get();
    if (!parent || parent.postId !== postId) throw badRequest(BOARD_MSG.parentNotFound);
    if (parent.parentId !== null) throw badRequest(BOARD_MSG.replyToReply);
    if (parent.deletedAt !== null) throw badRequest(BOARD_MSG.parentDeleted);
  }

  function addComment(actor: Actor, postId: number, input: { content: string; parent_id?: number | null }) {
    requirePost(postId);
    const content = accept(checkComment(input.content));
    const parentId = input.parent_id ?? null;
    if (parentId !== null) checkParent(postId, parentId);
    const at = new Date(now());
    const id = db.transaction((tx) => {
      const row = tx
        .insert(boardComments)
        .values({ postId, userId: actor.id, parentId, content, createdAt: at, updatedAt: at })
        .returning({ id: boardComments.id })
        .get();
      tx.update(boardPosts)
        .set({ commentCount: sql`${boardPosts.commentCount} + 1` })
        .where(eq(boardPosts.id, postId))
        .run();
      return row.id;
    });
    return presentOne(id);
  }

  function presentOne(id: number): PresentedComment {
    const row = db
      .select({ comment: boardComments, username: users.username })
      .from(boardComments)
      .innerJoin(users, eq(users.id, boardComments.userId))
      .where(eq(boardComments.id, id))
      .get();
    if (!row) throw new AppError(404, BOARD_MSG.commentNotFound);
    return { ...presentComment(row), replies: [] };
  }

  function editComment(actor: Actor, id: number, input: { content: string }) {
    const { comment } = requireComment(id);
    requireAuthor(actor, comment.userId, BOARD_MSG.commentEditForbidden, false);
    const content = accept(checkComment(input.content));
    db.update(boardComments)
      .set({ content, updatedAt: new Date(now()) })
      .where(eq(boardComments.id, id))
      .run();
    return presentOne(id);
  }

  function removeComment(actor: Actor, id: number) {
    const { comment, post } = requireComment(id);
    requireAuthor(actor, comment.userId, BOARD_MSG.commentDeleteForbidden, true);
    db.transaction((tx) => {
      tx.update(boardComments)
        .set({ deletedAt: new Date(now()), deletedBy: actor.id })
        .where(eq(boardComments.id, id))
        .run();
      tx.update(boardPosts)
        .set({ commentCount: sql`max(${boardPosts.commentCount} - 1, 0)` })
        .where(eq(boardPosts.id, post.id))
        .run();
    });
    if (actor.id !== comment.userId) {
      events.emit("board.deleted_by_admin", {
        adminId: actor.id,
        kind: "comment",
        id: comment.id,
        postId: post.id,
        title: post.title,
        excerpt: excerpt(comment.content),
        authorId: comment.userId,
      });
    }
    return { detail: BOARD_MSG.commentDeleted };
  }

  return {
    list,
    get: (id: number) => presentPost(requirePost(id)),
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
