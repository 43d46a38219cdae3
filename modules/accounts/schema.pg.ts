import {
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { users } from "../../db/core/schema.pg";

/**
 * The PostgreSQL twin of `schema.ts`: the same tables, columns and indexes (see there for what each holds).
 * Timestamps are `timestamptz` read as Date, like SQLite's `timestamp_ms` columns, so rows look the same to the
 * code above the store.
 */
const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: "date" });

export const refreshTokens = pgTable(
  "accounts_refresh_tokens",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    familyId: text("family_id").notNull(),
    tokenHash: text("token_hash").notNull(),
    rememberMe: boolean("remember_me").notNull().default(false),
    expiresAt: at("expires_at").notNull(),
    createdAt: at("created_at").notNull(),
    rotatedAt: at("rotated_at"),
    revokedAt: at("revoked_at"),
    revokedReason: text("revoked_reason"),
  },
  (table) => [
    uniqueIndex("accounts_refresh_tokens_hash_unique").on(table.tokenHash),
    index("accounts_refresh_tokens_family_idx").on(table.familyId),
    index("accounts_refresh_tokens_user_idx").on(table.userId),
  ],
);

export const loginHistory = pgTable(
  "accounts_login_history",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    loginTime: at("login_time").notNull().defaultNow(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
  },
  (table) => [index("accounts_login_history_user_time_idx").on(table.userId, table.loginTime)],
);

export const accountChanges = pgTable(
  "accounts_session_closures",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["sessions_closed", "user_updated"] })
      .notNull()
      .default("sessions_closed"),
    reason: text("reason").notNull(),
    origin: text("origin"),
    at: at("at").notNull(),
  },
  (table) => [
    index("accounts_session_closures_at_idx").on(table.at),
    index("accounts_session_closures_user_at_idx").on(table.userId, table.at),
  ],
);

export const rewardGrants = pgTable(
  "accounts_reward_grants",
  {
    gameKey: text("game_key").notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    grantedAt: at("granted_at").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.gameKey, table.userId] }),
    index("accounts_reward_grants_granted_at_idx").on(table.grantedAt),
    index("accounts_reward_grants_user_idx").on(table.userId),
  ],
);

export const passwordResetTokens = pgTable(
  "accounts_password_reset_tokens",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    createdAt: at("created_at").notNull(),
    expiresAt: at("expires_at").notNull(),
    usedAt: at("used_at"),
  },
  (table) => [
    uniqueIndex("accounts_password_reset_tokens_hash_unique").on(table.tokenHash),
    index("accounts_password_reset_tokens_user_idx").on(table.userId),
  ],
);
