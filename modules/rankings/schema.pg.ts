import { sql } from "drizzle-orm";
import { doublePrecision, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "../../db/core/schema.pg";

/**
 * The PostgreSQL twin of `schema.ts` (see there). The ranking indexes order the player key `COLLATE "C"` (code
 * point order, SQLite's and Redis'), so a top-N read in ranking order is one index range here too.
 */
export const periodStats = pgTable(
  "rankings_period_stats",
  {
    periodKey: text("period_key").notNull(),
    playerKey: text("player_key").notNull(),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    nickname: text("nickname").notNull(),
    games: integer("games").notNull(),
    wpmSum: integer("wpm_sum").notNull(),
    accuracySum: doublePrecision("accuracy_sum").notNull(),
    wpmCenti: integer("wpm_centi").notNull(),
    lastPlayedAt: timestamp("last_played_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.periodKey, table.playerKey] }),
    index("rankings_period_stats_wpm_idx").on(
      table.periodKey,
      sql`${table.wpmCenti} desc`,
      sql`${table.games} desc`,
      sql`${table.playerKey} COLLATE "C"`,
    ),
    index("rankings_period_stats_games_idx").on(
      table.periodKey,
      sql`${table.games} desc`,
      sql`${table.wpmCenti} desc`,
      sql`${table.playerKey} COLLATE "C"`,
    ),
    index("rankings_period_stats_user_idx").on(table.userId),
  ],
);

/** The PostgreSQL twin of `schema.ts` `recounts`. */
export const recounts = pgTable("rankings_recounts", {
  reason: text("reason").primaryKey(),
  doneAt: timestamp("done_at", { withTimezone: true, precision: 3, mode: "date" }),
});
