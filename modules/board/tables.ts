import type { Column } from "drizzle-orm";
import { defineCoreTables } from "../../db/core/tables";
import type { Dialect, SchemaKit } from "../../db/schema-kit";

/** The board module's tables, on either engine (`schema.ts`: SQLite, `schema.pg.ts`: PostgreSQL). */
export function defineBoardTables<D extends Dialect>(kit: SchemaKit<D>) {
  const { users } = kit.once(defineCoreTables);

  /**
   * Posts are never removed: deletion sets deleted_at/deleted_by so administrators can audit what was there.
   * comment_count is kept in step with the non-deleted comments (same transaction) so lists can sort on it.
   */
  const boardPosts = kit.table(
    "board_posts",
    {
      id: kit.serialId("id"),
      userId: kit
        .integer("user_id")
        .notNull()
        .references(() => users.id),
      title: kit.text("title").notNull(),
      content: kit.text("content").notNull(),
      viewCount: kit.integer("view_count").notNull().default(0),
      commentCount: kit.integer("comment_count").notNull().default(0),
      createdAt: kit.timestamp("created_at").notNull(),
      updatedAt: kit.timestamp("updated_at").notNull(),
      deletedAt: kit.timestamp("deleted_at"),
      deletedBy: kit.integer("deleted_by").references(() => users.id),
    },
    (table) => [
      kit.index("board_posts_live_created_idx").on(table.deletedAt, table.createdAt),
      kit.index("board_posts_user_idx").on(table.userId),
    ],
  );

  /** Comments and replies (parent_id set, one level only). Soft-deleted like posts. */
  const boardComments = kit.table(
    "board_comments",
    {
      id: kit.serialId("id"),
      postId: kit
        .integer("post_id")
        .notNull()
        .references(() => boardPosts.id),
      userId: kit
        .integer("user_id")
        .notNull()
        .references(() => users.id),
      parentId: kit.integer("parent_id").references((): Column => boardComments.id),
      content: kit.text("content").notNull(),
      createdAt: kit.timestamp("created_at").notNull(),
      updatedAt: kit.timestamp("updated_at").notNull(),
      deletedAt: kit.timestamp("deleted_at"),
      deletedBy: kit.integer("deleted_by").references(() => users.id),
    },
    (table) => [
      kit.index("board_comments_post_idx").on(table.postId, table.createdAt),
      kit.index("board_comments_parent_idx").on(table.parentId),
    ],
  );

  /**
   * One row per (post, viewer): the last time that viewer's visit was counted. A viewer is `u:<user id>` or
   * `a:<hash of IP and user agent>`; a new count is taken only when the last one is old enough.
   */
  const boardPostViews = kit.table(
    "board_post_views",
    {
      id: kit.serialId("id"),
      postId: kit
        .integer("post_id")
        .notNull()
        .references(() => boardPosts.id),
      viewerKey: kit.text("viewer_key").notNull(),
      countedAt: kit.timestamp("counted_at").notNull(),
    },
    (table) => [kit.uniqueIndex("board_post_views_post_viewer_unique").on(table.postId, table.viewerKey)],
  );

  return { boardPosts, boardComments, boardPostViews };
}
