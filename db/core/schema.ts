import { sql } from "drizzle-orm";
import { index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * The core user table: the only table every module may reference by foreign key. The accounts module owns
 * its writes (registration, login counters); game modules change the player figures only through the
 * accounts module's exported `applyGameRewards`.
 */
export const users = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    username: text("username").notNull(),
    /** Lower-cased username: usernames are unique case-insensitively. */
    usernameKey: text("username_key").notNull(),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    isAdmin: integer("is_admin", { mode: "boolean" }).notNull().default(false),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
    passwordResetRequired: integer("password_reset_required", { mode: "boolean" }).notNull().default(false),
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
    /** Running sums so the admin view's averages need no scan of the game records. */
    wpmSum: integer("wpm_sum").notNull().default(0),
    accuracySum: real("accuracy_sum").notNull().default(0),
    loginCount: integer("login_count").notNull().default(0),
    lastLoginAt: integer("last_login_at", { mode: "timestamp_ms" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull().default(sql`(unixepoch('subsec') * 1000)`),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull().default(sql`(unixepoch('subsec') * 1000)`),
  },
  (table) => [
    uniqueIndex("users_username_key_unique").on(table.usernameKey),
    uniqueIndex("users_email_unique").on(table.email),
    index("users_created_at_idx").on(table.createdAt),
  ],
);

export type UserRow = typeof users.$inferSelect;
