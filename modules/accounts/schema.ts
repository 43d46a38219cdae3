import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "../../db/core/schema";

/**
 * Refresh tokens: only the SHA-256 of the opaque token is stored. Tokens of one login share a family;
 * each refresh rotates (marks the old row rotated, inserts the next), and presenting a rotated token
 * revokes the whole family (it was stolen or replayed).
 */
export const refreshTokens = sqliteTable(
  "accounts_refresh_tokens",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    familyId: text("family_id").notNull(),
    tokenHash: text("token_hash").notNull(),
    rememberMe: integer("remember_me", { mode: "boolean" }).notNull().default(false),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    rotatedAt: integer("rotated_at", { mode: "timestamp_ms" }),
    revokedAt: integer("revoked_at", { mode: "timestamp_ms" }),
    revokedReason: text("revoked_reason"),
  },
  (table) => [
    uniqueIndex("accounts_refresh_tokens_hash_unique").on(table.tokenHash),
    index("accounts_refresh_tokens_family_idx").on(table.familyId),
    index("accounts_refresh_tokens_user_idx").on(table.userId),
  ],
);

export const loginHistory = sqliteTable(
  "accounts_login_history",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    loginTime: integer("login_time", { mode: "timestamp_ms" }).notNull().default(sql`(unixepoch('subsec') * 1000)`),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
  },
  (table) => [index("accounts_login_history_user_time_idx").on(table.userId, table.loginTime)],
);

/**
 * Every time a user's live sessions must end (deactivated, password reset required), written in the transaction
 * that revokes their refresh tokens, by whichever process made the change (the server or the `madang` CLI). Each
 * server polls it and disconnects that user's sockets, which it alone holds; rows older than a day are pruned.
 */
export const sessionClosures = sqliteTable(
  "accounts_session_closures",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    reason: text("reason").notNull(),
    at: integer("at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [index("accounts_session_closures_at_idx").on(table.at)],
);
