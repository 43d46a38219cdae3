import { type AnyPgColumn, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "../../db/core/schema.pg";

/**
 * The PostgreSQL twin of `schema.ts`: same tables, columns and indexes (see there for what they mean). Times are
 * `timestamptz` read as Date, like SQLite's `timestamp_ms` columns, so rows look the same to the store.
 */
const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: "date" });

export const boardPosts = pgTable(
  "board_posts",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    title: text("title").notNull(),
    content: text("content").notNull(),
    viewCount: integer("view_count").notNull().default(0),
    commentCount: integer("comment_count").notNull().default(0),
    createdAt: at("created_at").notNull(),
    updatedAt: at("updated_at").notNull(),
    deletedAt: at("deleted_at"),
    deletedBy: integer("deleted_by").references(() => users.id),
  },
  (table) => [
    index("board_posts_live_created_idx").on(table.deletedAt, table.createdAt),
    index("board_posts_user_idx").on(table.userId),
  ],
);

export const boardComments = pgTable(
  "board_comments",
  {
    id: serial("id").primaryKey(),
    postId: integer("post_id")
      .notNull()
      .references(() => boardPosts.id),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    parentId: integer("parent_id").references((): AnyPgColumn => boardComments.id),
    content: text("content").notNull(),
    createdAt: at("created_at").notNull(),
    updatedAt: at("updated_at").notNull(),
    deletedAt: at("deleted_at"),
    deletedBy: integer("deleted_by").references(() => users.id),
  },
  (table) => [
    index("board_comments_post_idx").on(table.postId, table.createdAt),
    index("board_comments_parent_idx").on(table.parentId),
  ],
);

export const boardPostViews = pgTable(
  "board_post_views",
  {
    id: serial("id").primaryKey(),
    postId: integer("post_id")
      .notNull()
      .references(() => boardPosts.id),
    viewerKey: text("viewer_key").notNull(),
    countedAt: at("counted_at").notNull(),
  },
  (table) => [uniqueIndex("board_post_views_post_viewer_unique").on(table.postId, table.viewerKey)],
);
