import { sql } from "drizzle-orm";
import { defineCoreTables } from "../../db/core/tables";
import type { Dialect, SchemaKit } from "../../db/schema-kit";

/** The rankings module's tables, on either engine (`schema.ts`: SQLite, `schema.pg.ts`: PostgreSQL). */
export function defineRankingsTables<D extends Dialect>(kit: SchemaKit<D>) {
  const { users } = kit.once(defineCoreTables);

  /**
   * Per ranking period and player: the figures of the users ranking, kept from games' `games.result_recorded`
   * events (counted results only) and rebuilt from games' daily aggregates by `madang rankings rebuild`.
   * `period_key` is `d:YYYY-MM-DD` (a Seoul day), `w:YYYY-MM-DD` (the Seoul week starting that Monday) or `all`.
   * `wpm_centi` is the average speed in hundredths, rounded half up (what the ranking shows and orders by), kept on
   * every write so a top-N read is one index range in ranking order, never a sort of the period (the player key
   * ordered by code point on both engines: `kit.codePointOrder`). `best_replay_wpm` and `best_replay_key`: the
   * period's fastest ranked result that has a replay (the first to reach that speed), the entry's link; 0 and null
   * when none has (results stored before replays existed have none, so the rows of before need no recount).
   */
  const periodStats = kit.table(
    "rankings_period_stats",
    {
      periodKey: kit.text("period_key").notNull(),
      playerKey: kit.text("player_key").notNull(),
      userId: kit.integer("user_id").references(() => users.id, { onDelete: "set null" }),
      /** The nickname of the player's latest counted result of the period. */
      nickname: kit.text("nickname").notNull(),
      games: kit.integer("games").notNull(),
      wpmSum: kit.integer("wpm_sum").notNull(),
      accuracySum: kit.double("accuracy_sum").notNull(),
      wpmCenti: kit.integer("wpm_centi").notNull(),
      bestReplayWpm: kit.integer("best_replay_wpm").notNull().default(0),
      bestReplayKey: kit.text("best_replay_key"),
      // Created before the kit with PostgreSQL's default precision (see TimestampOptions).
      lastPlayedAt: kit.timestamp("last_played_at", { pgDefaultPrecision: true }).notNull(),
    },
    (table) => [
      kit.primaryKey({ columns: [table.periodKey, table.playerKey] }),
      kit
        .index("rankings_period_stats_wpm_idx")
        .on(
          table.periodKey,
          sql`${table.wpmCenti} desc`,
          sql`${table.games} desc`,
          kit.codePointOrder(table.playerKey),
        ),
      kit
        .index("rankings_period_stats_games_idx")
        .on(
          table.periodKey,
          sql`${table.games} desc`,
          sql`${table.wpmCenti} desc`,
          kit.codePointOrder(table.playerKey),
        ),
      kit.index("rankings_period_stats_user_idx").on(table.userId),
    ],
  );

  /**
   * Recounts of every period asked for by a migration (a change in what counts, e.g. duels stopped being typing
   * results): the first server to boot after it recounts from games' daily aggregates and sets `done_at`.
   */
  const recounts = kit.table("rankings_recounts", {
    reason: kit.text("reason").primaryKey(),
    doneAt: kit.timestamp("done_at"),
  });

  /**
   * Members an administrator excluded from the rankings (modules/moderation, "exclude from rankings"): their results
   * stay stored and counted in their own figures, and every ranking read leaves them out while the row exists.
   */
  const excludedUsers = kit.table("rankings_excluded_users", {
    userId: kit
      .integer("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    excludedAt: kit.timestamp("excluded_at").notNull(),
  });

  return { periodStats, recounts, excludedUsers };
}
