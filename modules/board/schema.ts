import { type AnySQLiteColumn, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "../../db/core/schema";

/**
 * Posts are never removed: deletion sets deleted_at/deleted_by so administrators can audit what was there.
 * comment_count is kept in step with the non-deleted comments (same transaction) so lists can sort on it.
 */
export const boardPosts = sqliteTable(
  "board_posts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    title: text("title").notNull(),
    content: text("content").notNull(),
    viewCount: integer("view_count").notNull().default(0),
    commentCount: integer("comment_count").notNull().default(0),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
    deletedAt: integer("deleted_at", { mode: "timestamp_ms" }),
    deletedBy: integer("deleted_by").references(() => users.id),
  },
  (table) => [
    index("board_posts_live_created_idx").on(table.deletedAt, table.createdAt),
    index("board_posts_user_idx").on(table.userId),
  ],
);

/** Comments and replies (parent_id set, one level only). Soft-deleted like posts. */
export const boardComments = sqliteTable(
  "board_comments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    postId: integer("post_id")
      .notNull()
      .references(() => boardPosts.id),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    parentId: integer("parent_id").references((): AnySQLiteColumn => boardComments.id),
    content: text("content").notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
    deletedAt: integer("deleted_at", { mode: "timestamp_ms" }),
    deletedBy: integer("deleted_by").references(() => users.id),
  },
  (table) => [
    index("board_comments_post_idx").on(table.postId, table.createdAt),
    index("board_comments_parent_idx").on(table.parentId),
  ],
);

/**
 * One row per (post, viewer): the last time that viewer's visit was counted. A viewer is `u:<user id>` or
 * `a:<hash of IP and user agent>`; a new count is taken only when the last one is old enough.
 */
export const boardPostViews = sqliteTable(
  "board_post_views",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    postId: integer("post_id")
      .notNull()
      .references(() => boardPosts.id),
    viewerKey: text("viewer_key").notNull(),
    countedAt: integer("counted_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [uniqueIndex("board_post_views_post_viewer_unique").on(table.postId, table.viewerKey)],
);

export type PostRow = typeof boardPosts.$inferSelect;
export type CommentRow = typeof boardComments.$inferSelect;
