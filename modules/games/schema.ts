import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "../../db/core/schema";
import type { GameModeId } from "../kernel/game-mode";

export type Medal = "gold" | "silver" | "bronze";

/**
 * One game of any mode. Its identity is (mode, source id, round): a host retrying a write finds the same row.
 * `source_id` is the id of what the game was played in (the room for sentence_race, the guild for guild_game) as
 * text (duels are not typing results and are not stored here); `source_name` is that room's or guild's name at the time, so a renamed or
 * deleted source keeps its history readable. `ended_at` is null while the game runs.
 */
export const games = sqliteTable(
  "games_games",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    mode: text("mode").$type<GameModeId>().notNull(),
    sourceId: text("source_id").notNull(),
    sourceName: text("source_name").notNull(),
    round: integer("round").notNull(),
    startedAt: integer("started_at", { mode: "timestamp_ms" }).notNull(),
    endedAt: integer("ended_at", { mode: "timestamp_ms" }),
    participants: integer("participants").notNull().default(0),
  },
  (table) => [
    uniqueIndex("games_games_identity_unique").on(table.mode, table.sourceId, table.round),
    index("games_games_ended_at_idx").on(table.endedAt),
  ],
);

/**
 * One result per player and game (unique (game, player key): a retried write never doubles a result). Guests have
 * no user id and keep their guest nickname; `player_key` (`u_<id>` or `g_<hash>`) is the stable public id of
 * both. `implausible` results are kept for the record but never counted. `item_id` is the mode's item (the
 * sentence of a race, the problem of a guild game), null when the mode has none.
 */
export const results = sqliteTable(
  "games_results",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    gameId: integer("game_id")
      .notNull()
      .references(() => games.id, { onDelete: "cascade" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    playerKey: text("player_key").notNull(),
    nickname: text("nickname").notNull(),
    wpm: integer("wpm").notNull(),
    accuracy: real("accuracy").notNull(),
    completionTime: real("completion_time").notNull(),
    position: integer("position"),
    medal: text("medal").$type<Medal>(),
    errorCount: integer("error_count").notNull(),
    implausible: integer("implausible", { mode: "boolean" }).notNull().default(false),
    itemId: integer("item_id"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [
    uniqueIndex("games_results_game_player_unique").on(table.gameId, table.playerKey),
    index("games_results_user_created_idx").on(table.userId, table.createdAt),
    index("games_results_created_idx").on(table.createdAt),
  ],
);

/**
 * Per player, mode and Asia/Seoul calendar day (`YYYY-MM-DD`): the figures rankings and the profile read instead
 * of scanning results. Kept in the same transaction as the result insert (counted results only) and the finish
 * (medals). The primary key starts with the day, so a period read is one index range.
 */
export const dailyStats = sqliteTable(
  "games_daily_stats",
  {
    day: text("day").notNull(),
    mode: text("mode").$type<GameModeId>().notNull(),
    playerKey: text("player_key").notNull(),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    /** The nickname of the player's latest counted result of that day. */
    nickname: text("nickname").notNull(),
    games: integer("games").notNull(),
    wpmSum: integer("wpm_sum").notNull(),
    accuracySum: real("accuracy_sum").notNull(),
    bestWpm: integer("best_wpm").notNull(),
    goldMedals: integer("gold_medals").notNull().default(0),
    silverMedals: integer("silver_medals").notNull().default(0),
    bronzeMedals: integer("bronze_medals").notNull().default(0),
    lastPlayedAt: integer("last_played_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.day, table.mode, table.playerKey] }),
    index("games_daily_stats_player_day_idx").on(table.playerKey, table.day),
    index("games_daily_stats_user_idx").on(table.userId),
  ],
);

/**
 * The highest lease epoch (fencing token) an owning process has claimed or written with, per source (mode, source
 * id): a write carrying a lower epoch comes from a process that lost the game and is refused. Per source, not per
 * game row: a stale owner's NEW round must be refused too (game-host README "Fencing in storage").
 */
export const owners = sqliteTable(
  "games_owners",
  {
    mode: text("mode").$type<GameModeId>().notNull(),
    sourceId: text("source_id").notNull(),
    epoch: integer("epoch").notNull(),
  },
  (table) => [primaryKey({ columns: [table.mode, table.sourceId] })],
);

export type GameRow = typeof games.$inferSelect;
export type ResultRow = typeof results.$inferSelect;
export type DailyStatsRow = typeof dailyStats.$inferSelect;
