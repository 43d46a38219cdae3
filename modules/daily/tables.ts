import { sql } from "drizzle-orm";
import { defineCoreTables } from "../../db/core/tables";
import type { Dialect, SchemaKit } from "../../db/schema-kit";

/** The daily module's tables, on either engine (`schema.ts`: SQLite, `schema.pg.ts`: PostgreSQL). */
export function defineDailyTables<D extends Dialect>(kit: SchemaKit<D>) {
  const { users } = kit.once(defineCoreTables);

  /**
   * One row per Seoul day: its sentence, chosen once (the first process to insert the day's row wins; the others
   * read it), when its podium's medals were given and when its board's replays were marked kept for ever (null
   * until then: the day's close, README "The day's close").
   */
  const days = kit.table("daily_days", {
    day: kit.text("day").primaryKey(),
    sentenceId: kit.integer("sentence_id").notNull(),
    sentenceText: kit.text("sentence_text").notNull(),
    chosenAt: kit.timestamp("chosen_at").notNull(),
    medalsAt: kit.timestamp("medals_at"),
    replaysKeptAt: kit.timestamp("replays_kept_at"),
  });

  /**
   * Every counted attempt (not the implausible ones), keyed by the game's round on the player's day: a retried
   * write stores it once, and an attempt's place among the player's attempts of the day (the first 3 pay) is
   * counted from here.
   */
  const attempts = kit.table(
    "daily_attempts",
    {
      day: kit.text("day").notNull(),
      playerKey: kit.text("player_key").notNull(),
      round: kit.integer("round").notNull(),
      userId: kit.integer("user_id").references(() => users.id, { onDelete: "set null" }),
      wpm: kit.integer("wpm").notNull(),
      accuracy: kit.double("accuracy").notNull(),
      verified: kit.boolean("verified").notNull(),
      createdAt: kit.timestamp("created_at").notNull(),
    },
    (table) => [
      kit.primaryKey({ columns: [table.day, table.playerKey, table.round] }),
      kit.index("daily_attempts_user_idx").on(table.userId),
    ],
  );

  /**
   * Each player's best verified attempt of a day (speed, then accuracy, then the earlier): the day's board reads
   * the members' rows in that order (one index range).
   */
  const best = kit.table(
    "daily_best",
    {
      day: kit.text("day").notNull(),
      playerKey: kit.text("player_key").notNull(),
      userId: kit.integer("user_id").references(() => users.id, { onDelete: "set null" }),
      nickname: kit.text("nickname").notNull(),
      wpm: kit.integer("wpm").notNull(),
      accuracy: kit.double("accuracy").notNull(),
      completionTime: kit.double("completion_time").notNull(),
      round: kit.integer("round").notNull(),
      /** The attempt's replay (games' replays), when stored. */
      replayKey: kit.text("replay_key"),
      createdAt: kit.timestamp("created_at").notNull(),
    },
    (table) => [
      kit.primaryKey({ columns: [table.day, table.playerKey] }),
      kit
        .index("daily_best_board_idx")
        .on(
          table.day,
          sql`${table.wpm} desc`,
          sql`${table.accuracy} desc`,
          table.createdAt,
          kit.codePointOrder(table.playerKey),
        ),
      kit.index("daily_best_user_idx").on(table.userId),
    ],
  );

  return { days, attempts, best };
}
