import { and, asc, count, desc, eq, isNull, or, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import * as coreSqlite from "../../db/core/schema";
import * as corePg from "../../db/core/schema.pg";
import type { SqlDatabase } from "../../db/database";
import { inTransaction, storeDb, tablesFor } from "../../db/store";
import { countViewOnce } from "../kernel/viewers";
import type { SortColumn } from "./rules";
import type { CommentRow, PostRow } from "./schema";
import * as sqliteSchema from "./schema";
import * as pgSchema from "./schema.pg";

export type PostWithAuthor = { post: PostRow; username: string };
export type CommentWithAuthor = { comment: CommentRow; username: string };

export interface PostQuery {
  sortBy: SortColumn;
  order: "asc" | "desc";
  limit: number;
  offset: number;
  /** Matches title or content (substring, ASCII letters case-insensitive, `%` and `_` literal). */
  q?: string;
  /** Matches the author's username the same way. */
  author?: string;
}

const ASCII_UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const ASCII_LOWER = ASCII_UPPER.toLowerCase();
const asciiLower = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());
/** A LIKE pattern matching `text` anywhere, with the wildcards of the text itself escaped. */
const contains = (text: string) => `%${asciiLower(text).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The board's tables on either engine (one store for SQLite and PostgreSQL, db/README.md). Every write method is
 * one transaction; the rules (who may do what, texts, limits) stay in the service.
 */
export function createBoardStore(database: SqlDatabase) {
  const { boardPosts, boardComments, boardPostViews } = tablesFor(database, sqliteSchema, pgSchema);
  const { users } = tablesFor(database, coreSqlite, corePg);
  const db = () => storeDb(database);

  // What differs by engine, in one place, so lists, search and counts answer the same on both:
  // - SQLite's LIKE ignores the case of ASCII letters and nothing else; PostgreSQL's is case-sensitive and its
  //   lower() also folds non-ASCII letters (by locale). So on PostgreSQL the column is folded with translate()
  //   over A–Z only and the pattern is folded the same way here: exactly SQLite's matching.
  // - SQLite compares text by code point (BINARY); PostgreSQL by the database's collation (locale order, which
  //   e.g. ignores punctuation). COLLATE "C" is byte order, which for UTF-8 is code point order.
  const pg = database.dialect === "pg";
  const foldCase = (column: SQLiteColumn) =>
    pg ? sql`translate(${column}, ${ASCII_UPPER}, ${ASCII_LOWER})` : sql`${column}`;
  const like = (column: SQLiteColumn, text: string) => sql`${foldCase(column)} LIKE ${contains(text)} ESCAPE '\\'`;
  const byCodePoint = (column: SQLiteColumn) => (pg ? sql`${column} COLLATE "C"` : sql`${column}`);

  const sortColumns = {
    created_at: sql`${boardPosts.createdAt}`,
    view_count: sql`${boardPosts.viewCount}`,
    comment_count: sql`${boardPosts.commentCount}`,
    title: byCodePoint(boardPosts.title),
    id: sql`${boardPosts.id}`,
  } satisfies Record<SortColumn, SQL>;

  const postColumns = { post: boardPosts, username: users.username };
  const commentColumns = { comment: boardComments, username: users.username };
  const livePost = (id: number) => and(eq(boardPosts.id, id), isNull(boardPosts.deletedAt));
  const liveComment = (id: number) => and(eq(boardComments.id, id), isNull(boardComments.deletedAt));

  function postFilter(query: PostQuery) {
    const filters: SQL[] = [isNull(boardPosts.deletedAt)];
    if (query.q) filters.push(or(like(boardPosts.title, query.q), like(boardPosts.content, query.q))!);
    if (query.author) filters.push(like(users.username, query.author));
    return and(...filters);
  }

  return {
    /** One unit of work on the board's database: the write methods called inside it join it. */
    transaction: <T>(fn: () => Promise<T>) => inTransaction(database, () => fn()),

    /** A live (not deleted) post with its author's name. */
    async findLivePost(id: number): Promise<PostWithAuthor | undefined> {
      const [row] = await db()
        .select(postColumns)
        .from(boardPosts)
        .innerJoin(users, eq(users.id, boardPosts.userId))
        .where(livePost(id));
      return row;
    },

    /** One page of live posts and the total, ties broken by id in the same direction. */
    async listPosts(query: PostQuery): Promise<{ rows: PostWithAuthor[]; total: number }> {
      const where = postFilter(query);
      const direction = query.order === "asc" ? asc : desc;
      const rows = await db()
        .select(postColumns)
        .from(boardPosts)
        .innerJoin(users, eq(users.id, boardPosts.userId))
        .where(where)
        .orderBy(direction(sortColumns[query.sortBy]), direction(boardPosts.id))
        .limit(query.limit)
        .offset(query.offset);
      const [counted] = await db()
        .select({ n: count() })
        .from(boardPosts)
        .innerJoin(users, eq(users.id, boardPosts.userId))
        .where(where);
      return { rows, total: counted?.n ?? 0 };
    },

    async insertPost(values: { userId: number; title: string; content: string; at: Date }): Promise<number> {
      return inTransaction(database, async (tx) => {
        const [row] = await tx
          .insert(boardPosts)
          .values({ ...values, createdAt: values.at, updatedAt: values.at })
          .returning({ id: boardPosts.id });
        return row!.id;
      });
    },

    /** False when the post is gone (deleted meanwhile). */
    async updatePost(id: number, values: { title: string; content: string; at: Date }): Promise<boolean> {
      return inTransaction(database, async (tx) => {
        const rows = await tx
          .update(boardPosts)
          .set({ title: values.title, content: values.content, updatedAt: values.at })
          .where(livePost(id))
          .returning({ id: boardPosts.id });
        return rows.length > 0;
      });
    },

    /** Soft deletion; false when it was already deleted (so two concurrent deletions act once). */
    async deletePost(id: number, by: number | null, at: Date): Promise<boolean> {
      return inTransaction(database, async (tx) => {
        const rows = await tx
          .update(boardPosts)
          .set({ deletedAt: at, deletedBy: by })
          .where(livePost(id))
          .returning({ id: boardPosts.id });
        return rows.length > 0;
      });
    },

    /**
     * Counts a visit once per viewer and window (kernel/viewers.ts), and answers whether it did and the post's view
     * count.
     */
    async countView(postId: number, viewerKey: string, at: Date, since: Date) {
      return inTransaction(database, async (tx) => {
        const counted = await countViewOnce(
          tx,
          { views: boardPostViews, posts: boardPosts },
          { postId, viewerKey, at, since },
        );
        const [post] = await tx
          .select({ viewCount: boardPosts.viewCount })
          .from(boardPosts)
          .where(eq(boardPosts.id, postId));
        return { counted, viewCount: post?.viewCount ?? 0 };
      });
    },

    /** Every comment of the post (deleted ones too: the thread decides what shows), oldest first. */
    async threadRows(postId: number): Promise<CommentWithAuthor[]> {
      return db()
        .select(commentColumns)
        .from(boardComments)
        .innerJoin(users, eq(users.id, boardComments.userId))
        .where(eq(boardComments.postId, postId))
        .orderBy(asc(boardComments.createdAt), asc(boardComments.id));
    },

    /** Any comment, deleted or not (a reply's parent is checked for being deleted). */
    async findComment(id: number): Promise<CommentRow | undefined> {
      const [row] = await db().select().from(boardComments).where(eq(boardComments.id, id));
      return row;
    },

    async findLiveComment(id: number): Promise<CommentRow | undefined> {
      const [row] = await db().select().from(boardComments).where(liveComment(id));
      return row;
    },

    async findCommentWithAuthor(id: number): Promise<CommentWithAuthor | undefined> {
      const [row] = await db()
        .select(commentColumns)
        .from(boardComments)
        .innerJoin(users, eq(users.id, boardComments.userId))
        .where(eq(boardComments.id, id));
      return row;
    },

    /** The comment and its post's comment_count, together. */
    async insertComment(values: {
      postId: number;
      userId: number;
      parentId: number | null;
      content: string;
      at: Date;
    }): Promise<number> {
      const { at, ...fields } = values;
      return inTransaction(database, async (tx) => {
        const [row] = await tx
          .insert(boardComments)
          .values({ ...fields, createdAt: at, updatedAt: at })
          .returning({ id: boardComments.id });
        await tx
          .update(boardPosts)
          .set({ commentCount: sql`${boardPosts.commentCount} + 1` })
          .where(eq(boardPosts.id, values.postId));
        return row!.id;
      });
    },

    /** False when the comment is gone (deleted meanwhile). */
    async updateComment(id: number, content: string, at: Date): Promise<boolean> {
      return inTransaction(database, async (tx) => {
        const rows = await tx
          .update(boardComments)
          .set({ content, updatedAt: at })
          .where(liveComment(id))
          .returning({ id: boardComments.id });
        return rows.length > 0;
      });
    },

    /**
     * Soft deletion and the post's comment_count, together; false when it was already deleted, so a comment
     * deleted twice at once lowers the count once.
     */
    async deleteComment(id: number, postId: number, by: number | null, at: Date): Promise<boolean> {
      return inTransaction(database, async (tx) => {
        const rows = await tx
          .update(boardComments)
          .set({ deletedAt: at, deletedBy: by })
          .where(liveComment(id))
          .returning({ id: boardComments.id });
        if (rows.length === 0) return false;
        // CASE rather than SQLite's two-argument max(), which PostgreSQL does not have.
        await tx
          .update(boardPosts)
          .set({
            commentCount: sql`CASE WHEN ${boardPosts.commentCount} > 0 THEN ${boardPosts.commentCount} - 1 ELSE 0 END`,
          })
          .where(eq(boardPosts.id, postId));
        return true;
      });
    },

    /** A post row as stored, deleted or not (tests check soft deletion). */
    async postRow(id: number): Promise<PostRow | undefined> {
      const [row] = await db().select().from(boardPosts).where(eq(boardPosts.id, id));
      return row;
    },

    /** The stored view rows of a post (tests check there is one per viewer). */
    async viewRows(postId: number) {
      return db().select().from(boardPostViews).where(eq(boardPostViews.postId, postId));
    },
  };
}
export type BoardStore = ReturnType<typeof createBoardStore>;
