import { sql } from "drizzle-orm";
import { index, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "../../db/core/schema.pg";

/**
 * The PostgreSQL twin of `schema.ts` (see there): same table, columns and indexes; `created_at` is `timestamptz`
 * read as Date, like SQLite's `timestamp_ms`.
 */
export const adminLogs = pgTable(
  "admin_logs",
  {
    id: serial("id").primaryKey(),
    adminId: integer("admin_id").references(() => users.id, { onDelete: "set null" }),
    adminUsername: text("admin_username").notNull(),
    action: text("action").notNull(),
    targetUserId: integer("target_user_id").references(() => users.id, { onDelete: "set null" }),
    targetUsername: text("target_username"),
    details: text("details"),
    source: text("source", { enum: ["web", "cli"] }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3, mode: "date" })
      .notNull()
      .default(sql`now()`),
  },
  (table) => [
    index("admin_logs_created_at_idx").on(table.createdAt),
    index("admin_logs_target_user_idx").on(table.targetUserId),
  ],
);
