import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "../../db/core/schema";

/**
 * Per ranking period and player: the figures of the users ranking, kept from games' `games.result_recorded`
 * events (counted results only) and rebuilt from games' daily aggregates by `madang rankings rebuild`.
 * `period_key` is `d:YYYY-MM-DD` (a Seoul day), `w:YYYY-MM-DD` (the Seoul week starting that Monday) or `all`.
 * `wpm_centi` is the average speed in hundredths, rounded half up (what the ranking shows and orders by), kept on
 * every write so a top-N read is one index range in ranking order, never a sort of the period.
 */
export const periodStats = sqliteTable(
  "rankings_period_stats",
  {
    periodKey: text("period_key").notNull(),
    playerKey: text("player_key").notNull(),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    /** The nickname of the player's latest counted result of the period. */
    nickname: text("nickname").notNull(),
    games: integer("games").notNull(),
    wpmSum: integer("wpm_sum").notNull(),
    accuracySum: real("accuracy_sum").notNull(),
    wpmCenti: integer("wpm_centi").notNull(),
    lastPlayedAt: integer("last_played_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.periodKey, table.playerKey] }),
    index("rankings_period_stats_wpm_idx").on(
      table.periodKey,
      sql`${table.wpmCenti} desc`,
      sql`${table.games} desc`,
      table.playerKey,
    ),
    index("rankings_period_stats_games_idx").on(
      table.periodKey,
      sql`${table.games} desc`,
      sql`${table.wpmCenti} desc`,
      table.playerKey,
    ),
    index("rankings_period_stats_user_idx").on(table.userId),
  ],
);

/**
 * Recounts of every period asked for by a migration (a change in what counts, e.g. duels stopped being typing
 * results): the first server to boot after it recounts from games' daily aggregates and sets `done_at`.
 */
export const recounts = sqliteTable("rankings_recounts", {
  reason: text("reason").primaryKey(),
  doneAt: integer("done_at", { mode: "timestamp_ms" }),
});

export type PeriodStatsRow = typeof periodStats.$inferSelect;
