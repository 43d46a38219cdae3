import { defineCoreTables } from "../../db/core/tables";
import type { Dialect, SchemaKit } from "../../db/schema-kit";

/** The accounts module's tables, on either engine (`schema.ts`: SQLite, `schema.pg.ts`: PostgreSQL). */
export function defineAccountsTables<D extends Dialect>(kit: SchemaKit<D>) {
  const { users } = kit.once(defineCoreTables);

  /**
   * Refresh tokens: only the SHA-256 of the opaque token is stored. Tokens of one login share a family;
   * each refresh rotates (marks the old row rotated, inserts the next), and presenting a rotated token
   * revokes the whole family (it was stolen or replayed).
   */
  const refreshTokens = kit.table(
    "accounts_refresh_tokens",
    {
      id: kit.serialId("id"),
      userId: kit
        .integer("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      familyId: kit.text("family_id").notNull(),
      tokenHash: kit.text("token_hash").notNull(),
      rememberMe: kit.boolean("remember_me").notNull().default(false),
      expiresAt: kit.timestamp("expires_at").notNull(),
      createdAt: kit.timestamp("created_at").notNull(),
      rotatedAt: kit.timestamp("rotated_at"),
      revokedAt: kit.timestamp("revoked_at"),
      revokedReason: kit.text("revoked_reason"),
    },
    (table) => [
      kit.uniqueIndex("accounts_refresh_tokens_hash_unique").on(table.tokenHash),
      kit.index("accounts_refresh_tokens_family_idx").on(table.familyId),
      kit.index("accounts_refresh_tokens_user_idx").on(table.userId),
    ],
  );

  const loginHistory = kit.table(
    "accounts_login_history",
    {
      id: kit.serialId("id"),
      userId: kit
        .integer("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      loginTime: kit.timestamp("login_time").notNull().default(kit.now),
      ipAddress: kit.text("ip_address"),
      userAgent: kit.text("user_agent"),
    },
    (table) => [kit.index("accounts_login_history_user_time_idx").on(table.userId, table.loginTime)],
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
  const accountChanges = kit.table(
    "accounts_session_closures",
    {
      id: kit.serialId("id"),
      userId: kit
        .integer("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      kind: kit
        .text("kind", { enum: ["sessions_closed", "user_updated"] })
        .notNull()
        .default("sessions_closed"),
      reason: kit.text("reason").notNull(),
      /** The server (or CLI run) that wrote the row; null for rows written before origins were recorded. */
      origin: kit.text("origin"),
      at: kit.timestamp("at").notNull(),
    },
    (table) => [
      kit.index("accounts_session_closures_at_idx").on(table.at),
      kit.index("accounts_session_closures_user_at_idx").on(table.userId, table.at),
    ],
  );

  /**
   * Which game's rewards each member has been paid: written in the transaction that pays them, so a retried or
   * repeated finish of one game never pays twice. `game_key` names the game (`games:<games module's game id>`).
   * Only a retry needs a row, and retries come within seconds: rows older than a day are pruned as games finish.
   */
  const rewardGrants = kit.table(
    "accounts_reward_grants",
    {
      gameKey: kit.text("game_key").notNull(),
      userId: kit
        .integer("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      grantedAt: kit.timestamp("granted_at").notNull(),
    },
    (table) => [
      kit.primaryKey({ columns: [table.gameKey, table.userId] }),
      kit.index("accounts_reward_grants_granted_at_idx").on(table.grantedAt),
      kit.index("accounts_reward_grants_user_idx").on(table.userId),
    ],
  );

  /**
   * One-time links of "비밀번호 찾기": only the SHA-256 of the token is stored (a copy of the database opens no
   * account). A token is valid 30 minutes and once: using it marks it used, and every other open token of the user.
   */
  const passwordResetTokens = kit.table(
    "accounts_password_reset_tokens",
    {
      id: kit.serialId("id"),
      userId: kit
        .integer("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      tokenHash: kit.text("token_hash").notNull(),
      createdAt: kit.timestamp("created_at").notNull(),
      expiresAt: kit.timestamp("expires_at").notNull(),
      usedAt: kit.timestamp("used_at"),
    },
    (table) => [
      kit.uniqueIndex("accounts_password_reset_tokens_hash_unique").on(table.tokenHash),
      kit.index("accounts_password_reset_tokens_user_idx").on(table.userId),
    ],
  );

  return { refreshTokens, loginHistory, accountChanges, rewardGrants, passwordResetTokens };
}
