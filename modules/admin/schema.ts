import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "../../db/core/schema";

/**
 * The administrator action log. Names are copied at the time of the action so the log stays readable after a
 * rename or a deleted account (the foreign keys become null, the names stay). `admin_id` is null when the CLI
 * acted without a user; `admin_username` then names the operator (`cli:<os user>` or `--as`).
 */
export const adminLogs = sqliteTable(
  "admin_logs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    adminId: integer("admin_id").references(() => users.id, { onDelete: "set null" }),
    adminUsername: text("admin_username").notNull(),
    action: text("action").notNull(),
    targetUserId: integer("target_user_id").references(() => users.id, { onDelete: "set null" }),
    targetUsername: text("target_username"),
    /** JSON text (an object), or null. */
    details: text("details"),
    source: text("source", { enum: ["web", "cli"] }).notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull().default(sql`(unixepoch('subsec') * 1000)`),
  },
  (table) => [
    index("admin_logs_created_at_idx").on(table.createdAt),
    index("admin_logs_target_user_idx").on(table.targetUserId),
  ],
);

export type AdminLogRow = typeof adminLogs.$inferSelect;
