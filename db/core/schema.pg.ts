import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

/**
 * The PostgreSQL twin of `schema.ts` (same table, columns and indexes; drizzle has no dialect-neutral schema).
 * Timestamps are `timestamptz` read as Date, like SQLite's `timestamp_ms` columns, so rows look the same to
 * the code above the store.
 */
const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: "date" });

export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    username: text("username").notNull(),
    usernameKey: text("username_key").notNull(),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    isAdmin: boolean("is_admin").notNull().default(false),
    isActive: boolean("is_active").notNull().default(true),
    passwordResetRequired: boolean("password_reset_required").notNull().default(false),
    level: integer("level").notNull().default(1),
    experience: integer("experience").notNull().default(0),
    coins: integer("coins").notNull().default(0),
    points: integer("points").notNull().default(0),
    totalEarnedPoints: integer("total_earned_points").notNull().default(0),
    totalSpentPoints: integer("total_spent_points").notNull().default(0),
    goldMedals: integer("gold_medals").notNull().default(0),
    silverMedals: integer("silver_medals").notNull().default(0),
    bronzeMedals: integer("bronze_medals").notNull().default(0),
    winStreak: integer("win_streak").notNull().default(0),
    maxWinStreak: integer("max_win_streak").notNull().default(0),
    gamesPlayed: integer("games_played").notNull().default(0),
    wpmSum: bigint("wpm_sum", { mode: "number" }).notNull().default(0),
    accuracySum: doublePrecision("accuracy_sum").notNull().default(0),
    loginCount: integer("login_count").notNull().default(0),
    lastLoginAt: at("last_login_at"),
    createdAt: at("created_at").notNull().default(sql`now()`),
    updatedAt: at("updated_at").notNull().default(sql`now()`),
  },
  (table) => [
    uniqueIndex("users_username_key_unique").on(table.usernameKey),
    uniqueIndex("users_email_unique").on(table.email),
    index("users_created_at_idx").on(table.createdAt),
  ],
);
