import {
  boolean,
  doublePrecision,
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
import type { GameModeId } from "../kernel/game-mode";
import type { Medal } from "./schema";

/**
 * The PostgreSQL twin of `schema.ts`: the same tables, columns and indexes (see there for what each holds).
 * Timestamps are `timestamptz` read as Date, like SQLite's `timestamp_ms` columns; SQLite's `real` is an 8-byte
 * float, so it is `double precision` here (PostgreSQL's `real` has 4 bytes); booleans are `boolean`.
 */
const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: "date" });

export const games = pgTable(
  "games_games",
  {
    id: serial("id").primaryKey(),
    mode: text("mode").$type<GameModeId>().notNull(),
    sourceId: text("source_id").notNull(),
    sourceName: text("source_name").notNull(),
    round: integer("round").notNull(),
    startedAt: at("started_at").notNull(),
    endedAt: at("ended_at"),
    participants: integer("participants").notNull().default(0),
  },
  (table) => [
    uniqueIndex("games_games_identity_unique").on(table.mode, table.sourceId, table.round),
    index("games_games_ended_at_idx").on(table.endedAt),
  ],
);

export const results = pgTable(
  "games_results",
  {
    id: serial("id").primaryKey(),
    gameId: integer("game_id")
      .notNull()
      .references(() => games.id, { onDelete: "cascade" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    playerKey: text("player_key").notNull(),
    nickname: text("nickname").notNull(),
    wpm: integer("wpm").notNull(),
    accuracy: doublePrecision("accuracy").notNull(),
    completionTime: doublePrecision("completion_time").notNull(),
    position: integer("position"),
    medal: text("medal").$type<Medal>(),
    errorCount: integer("error_count").notNull(),
    implausible: boolean("implausible").notNull().default(false),
    itemId: integer("item_id"),
    createdAt: at("created_at").notNull(),
  },
  (table) => [
    uniqueIndex("games_results_game_player_unique").on(table.gameId, table.playerKey),
    index("games_results_user_created_idx").on(table.userId, table.createdAt),
    index("games_results_created_idx").on(table.createdAt),
  ],
);

export const dailyStats = pgTable(
  "games_daily_stats",
  {
    day: text("day").notNull(),
    mode: text("mode").$type<GameModeId>().notNull(),
    playerKey: text("player_key").notNull(),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    nickname: text("nickname").notNull(),
    games: integer("games").notNull(),
    wpmSum: integer("wpm_sum").notNull(),
    accuracySum: doublePrecision("accuracy_sum").notNull(),
    bestWpm: integer("best_wpm").notNull(),
    goldMedals: integer("gold_medals").notNull().default(0),
    silverMedals: integer("silver_medals").notNull().default(0),
    bronzeMedals: integer("bronze_medals").notNull().default(0),
    lastPlayedAt: at("last_played_at").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.day, table.mode, table.playerKey] }),
    index("games_daily_stats_player_day_idx").on(table.playerKey, table.day),
    index("games_daily_stats_user_idx").on(table.userId),
  ],
);

/** The highest owner epoch per source (see schema.ts). */
export const owners = pgTable(
  "games_owners",
  {
    mode: text("mode").$type<GameModeId>().notNull(),
    sourceId: text("source_id").notNull(),
    epoch: integer("epoch").notNull(),
  },
  (table) => [primaryKey({ columns: [table.mode, table.sourceId] })],
);
