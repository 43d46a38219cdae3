import { defineCoreTables } from "../../db/core/tables";
import type { Dialect, SchemaKit } from "../../db/schema-kit";
import type { GameModeId } from "../kernel/game-mode";

export type Medal = "gold" | "silver" | "bronze";

/** The games module's tables, on either engine (`schema.ts`: SQLite, `schema.pg.ts`: PostgreSQL). */
export function defineGamesTables<D extends Dialect>(kit: SchemaKit<D>) {
  const { users } = kit.once(defineCoreTables);

  /**
   * One game of any mode. Its identity is (mode, source id, round): a host retrying a write finds the same row.
   * `source_id` is the id of what the game was played in (the room for sentence_race, the guild for guild_game) as
   * text (duels are not typing results and are not stored here); `source_name` is that room's or guild's name at the time, so a renamed or
   * deleted source keeps its history readable. `ended_at` is null while the game runs.
   */
  const games = kit.table(
    "games_games",
    {
      id: kit.serialId("id"),
      mode: kit.text("mode").$type<GameModeId>().notNull(),
      sourceId: kit.text("source_id").notNull(),
      sourceName: kit.text("source_name").notNull(),
      round: kit.integer("round").notNull(),
      startedAt: kit.timestamp("started_at").notNull(),
      endedAt: kit.timestamp("ended_at"),
      participants: kit.integer("participants").notNull().default(0),
    },
    (table) => [
      kit.uniqueIndex("games_games_identity_unique").on(table.mode, table.sourceId, table.round),
      kit.index("games_games_ended_at_idx").on(table.endedAt),
    ],
  );

  /**
   * One result per player and game (unique (game, player key): a retried write never doubles a result). Guests have
   * no user id and keep their guest nickname; `player_key` (`u_<id>` or `g_<hash>`) is the stable public id of
   * both. `implausible` results are kept for the record but never counted. `item_id` is the mode's item (the
   * sentence of a race, the problem of a guild game), null when the mode has none. `verified`: the server-stamped
   * steps showed the answer typed (product-rules "Live race and replays"); a result sent without steps is stored,
   * counted and rewarded as before, but unverified, and only verified ones are ranked. Rows stored before the flag
   * existed default to verified: they met the rule of their time (README "Verified results").
   */
  const results = kit.table(
    "games_results",
    {
      id: kit.serialId("id"),
      gameId: kit
        .integer("game_id")
        .notNull()
        .references(() => games.id, { onDelete: "cascade" }),
      userId: kit.integer("user_id").references(() => users.id, { onDelete: "set null" }),
      playerKey: kit.text("player_key").notNull(),
      nickname: kit.text("nickname").notNull(),
      wpm: kit.integer("wpm").notNull(),
      accuracy: kit.double("accuracy").notNull(),
      completionTime: kit.double("completion_time").notNull(),
      position: kit.integer("position"),
      medal: kit.text("medal").$type<Medal>(),
      errorCount: kit.integer("error_count").notNull(),
      implausible: kit.boolean("implausible").notNull().default(false),
      verified: kit.boolean("verified").notNull().default(true),
      itemId: kit.integer("item_id"),
      createdAt: kit.timestamp("created_at").notNull(),
    },
    (table) => [
      kit.uniqueIndex("games_results_game_player_unique").on(table.gameId, table.playerKey),
      kit.index("games_results_user_created_idx").on(table.userId, table.createdAt),
      kit.index("games_results_created_idx").on(table.createdAt),
    ],
  );

  /**
   * Per player, mode and Asia/Seoul calendar day (`YYYY-MM-DD`): the figures the rankings read instead of scanning
   * results. Kept in the same transaction as the result insert (ranked results only: counted AND verified) and the
   * finish (medals). The primary key starts with the day, so a period read is one index range. `best_replay_wpm`
   * and `best_replay_key`: the day's fastest result that has a replay (the first to reach that speed), 0 and null
   * when none has (results of before replays existed have none).
   */
  const dailyStats = kit.table(
    "games_daily_stats",
    {
      day: kit.text("day").notNull(),
      mode: kit.text("mode").$type<GameModeId>().notNull(),
      playerKey: kit.text("player_key").notNull(),
      userId: kit.integer("user_id").references(() => users.id, { onDelete: "set null" }),
      /** The nickname of the player's latest counted result of that day. */
      nickname: kit.text("nickname").notNull(),
      games: kit.integer("games").notNull(),
      wpmSum: kit.integer("wpm_sum").notNull(),
      accuracySum: kit.double("accuracy_sum").notNull(),
      bestWpm: kit.integer("best_wpm").notNull(),
      bestReplayWpm: kit.integer("best_replay_wpm").notNull().default(0),
      bestReplayKey: kit.text("best_replay_key"),
      goldMedals: kit.integer("gold_medals").notNull().default(0),
      silverMedals: kit.integer("silver_medals").notNull().default(0),
      bronzeMedals: kit.integer("bronze_medals").notNull().default(0),
      lastPlayedAt: kit.timestamp("last_played_at").notNull(),
    },
    (table) => [
      kit.primaryKey({ columns: [table.day, table.mode, table.playerKey] }),
      kit.index("games_daily_stats_player_day_idx").on(table.playerKey, table.day),
      kit.index("games_daily_stats_user_idx").on(table.userId),
    ],
  );

  /**
   * The highest lease epoch (fencing token) an owning process has claimed or written with, per source (mode, source
   * id): a write carrying a lower epoch comes from a process that lost the game and is refused. Per source, not per
   * game row: a stale owner's NEW round must be refused too (game-host README "Fencing in storage").
   */
  const owners = kit.table(
    "games_owners",
    {
      mode: kit.text("mode").$type<GameModeId>().notNull(),
      sourceId: kit.text("source_id").notNull(),
      epoch: kit.integer("epoch").notNull(),
    },
    (table) => [kit.primaryKey({ columns: [table.mode, table.sourceId] })],
  );

  /**
   * A result's replay: its server-stamped steps (kernel race-steps `encodeSteps`, the compact form), addressed by a
   * random URL-safe key (`replays.ts`, 128 bits), with the text that was typed (a sentence or guild problem edited
   * or deleted later must not change or break an old replay). One per result at most (a retried write finds it).
   * `kept`: never deleted by the 90-day retention (a member's personal best of the mode when it was stored; the
   * daily boards will keep theirs); `created_at` is the result's.
   */
  const replays = kit.table(
    "games_replays",
    {
      key: kit.text("key").primaryKey(),
      resultId: kit
        .integer("result_id")
        .notNull()
        .references(() => results.id, { onDelete: "cascade" }),
      sentence: kit.text("sentence").notNull(),
      steps: kit.text("steps").notNull(),
      kept: kit.boolean("kept").notNull().default(false),
      createdAt: kit.timestamp("created_at").notNull(),
    },
    (table) => [
      kit.uniqueIndex("games_replays_result_unique").on(table.resultId),
      kit.index("games_replays_created_idx").on(table.createdAt),
    ],
  );

  /**
   * Each member's best speed per mode among their results that have a replay: a new best marks its replay kept
   * for ever (one upsert that answers a row only when the speed went up).
   */
  const personalBests = kit.table(
    "games_personal_bests",
    {
      userId: kit
        .integer("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      mode: kit.text("mode").$type<GameModeId>().notNull(),
      wpm: kit.integer("wpm").notNull(),
    },
    (table) => [kit.primaryKey({ columns: [table.userId, table.mode] })],
  );

  return { games, results, dailyStats, owners, replays, personalBests };
}
