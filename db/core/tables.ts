import type { Dialect, SchemaKit } from "../schema-kit";

/**
 * The core user table: the only table every module may reference by foreign key. The accounts module owns
 * its writes (registration, login counters); game modules change the player figures only through the
 * accounts module's exported `applyGameRewards`. A module reaches it with `kit.once(defineCoreTables).users`.
 */
export function defineCoreTables<D extends Dialect>(kit: SchemaKit<D>) {
  const users = kit.table(
    "users",
    {
      id: kit.serialId("id"),
      username: kit.text("username").notNull(),
      /** Lower-cased username: usernames are unique case-insensitively. */
      usernameKey: kit.text("username_key").notNull(),
      email: kit.text("email").notNull(),
      passwordHash: kit.text("password_hash").notNull(),
      isAdmin: kit.boolean("is_admin").notNull().default(false),
      isActive: kit.boolean("is_active").notNull().default(true),
      passwordResetRequired: kit.boolean("password_reset_required").notNull().default(false),
      level: kit.integer("level").notNull().default(1),
      experience: kit.integer("experience").notNull().default(0),
      coins: kit.integer("coins").notNull().default(0),
      points: kit.integer("points").notNull().default(0),
      totalEarnedPoints: kit.integer("total_earned_points").notNull().default(0),
      totalSpentPoints: kit.integer("total_spent_points").notNull().default(0),
      goldMedals: kit.integer("gold_medals").notNull().default(0),
      silverMedals: kit.integer("silver_medals").notNull().default(0),
      bronzeMedals: kit.integer("bronze_medals").notNull().default(0),
      winStreak: kit.integer("win_streak").notNull().default(0),
      maxWinStreak: kit.integer("max_win_streak").notNull().default(0),
      gamesPlayed: kit.integer("games_played").notNull().default(0),
      /** Running sums so the admin view's averages need no scan of the game records. */
      wpmSum: kit.bigint("wpm_sum").notNull().default(0),
      accuracySum: kit.double("accuracy_sum").notNull().default(0),
      loginCount: kit.integer("login_count").notNull().default(0),
      lastLoginAt: kit.timestamp("last_login_at"),
      createdAt: kit.timestamp("created_at").notNull().default(kit.now),
      updatedAt: kit.timestamp("updated_at").notNull().default(kit.now),
    },
    (table) => [
      kit.uniqueIndex("users_username_key_unique").on(table.usernameKey),
      kit.uniqueIndex("users_email_unique").on(table.email),
      kit.index("users_created_at_idx").on(table.createdAt),
    ],
  );
  return { users };
}
