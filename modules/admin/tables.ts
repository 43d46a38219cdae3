import { defineCoreTables } from "../../db/core/tables";
import type { Dialect, SchemaKit } from "../../db/schema-kit";

/** The admin module's tables, on either engine (`schema.ts`: SQLite, `schema.pg.ts`: PostgreSQL). */
export function defineAdminTables<D extends Dialect>(kit: SchemaKit<D>) {
  const { users } = kit.once(defineCoreTables);

  /**
   * The administrator action log. Names are copied at the time of the action so the log stays readable after a
   * rename or a deleted account (the foreign keys become null, the names stay). `admin_id` is null when the CLI
   * acted without a user; `admin_username` then names the operator (`cli:<os user>` or `--as`).
   */
  const adminLogs = kit.table(
    "admin_logs",
    {
      id: kit.serialId("id"),
      adminId: kit.integer("admin_id").references(() => users.id, { onDelete: "set null" }),
      adminUsername: kit.text("admin_username").notNull(),
      action: kit.text("action").notNull(),
      targetUserId: kit.integer("target_user_id").references(() => users.id, { onDelete: "set null" }),
      targetUsername: kit.text("target_username"),
      /** JSON text (an object), or null. */
      details: kit.text("details"),
      source: kit.text("source", { enum: ["web", "cli"] }).notNull(),
      createdAt: kit.timestamp("created_at").notNull().default(kit.now),
    },
    (table) => [
      kit.index("admin_logs_created_at_idx").on(table.createdAt),
      kit.index("admin_logs_target_user_idx").on(table.targetUserId),
    ],
  );

  return { adminLogs };
}
