import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
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
 * The account changes feed: whatever a server must apply to its live sockets, written in the transaction that made
 * the change, by whichever process made it (a server or the `madang` CLI). `kind`:
 * - `sessions_closed`: the user's sessions ended (deactivated, password reset required, password changed): sockets
 *   are disconnected, and access tokens issued before `at` are refused;
 * - `user_updated`: the name or the administrator flag changed: sockets get the new identity.
 * Each server polls the rows of other origins (its own were applied at once) and announces them as the accounts
 * events; rows older than a day are pruned. The table keeps its first name (it held only session closures).
 */
export const accountChanges = sqliteTable(
  "accounts_session_closures",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["sessions_closed", "user_updated"] })
      .notNull()
      .default("sessions_closed"),
    reason: text("reason").notNull(),
    /** The server (or CLI run) that wrote the row; null for rows written before origins were recorded. */
    origin: text("origin"),
    at: integer("at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [
    index("accounts_session_closures_at_idx").on(table.at),
    index("accounts_session_closures_user_at_idx").on(table.userId, table.at),
  ],
);

/**
 * Which game's rewards each member has been paid: written in the transaction that pays them, so a retried or
 * repeated finish of one game never pays twice. `game_key` names the game (`games:<games module's game id>`).
 * Only a retry needs a row, and retries come within seconds: rows older than a day are pruned as games finish.
 */
export const rewardGrants = sqliteTable(
  "accounts_reward_grants",
  {
    gameKey: text("game_key").notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    grantedAt: integer("granted_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.gameKey, table.userId] }),
    index("accounts_reward_grants_granted_at_idx").on(table.grantedAt),
    index("accounts_reward_grants_user_idx").on(table.userId),
  ],
);

/**
 * One-time links of "비밀번호 찾기": only the SHA-256 of the token is stored (a copy of the database opens no
 * account). A token is valid 30 minutes and once: using it marks it used, and every other open token of the user.
 */
export const passwordResetTokens = sqliteTable(
  "accounts_password_reset_tokens",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    usedAt: integer("used_at", { mode: "timestamp_ms" }),
  },
  (table) => [
    uniqueIndex("accounts_password_reset_tokens_hash_unique").on(table.tokenHash),
    index("accounts_password_reset_tokens_user_idx").on(table.userId),
  ],
);
