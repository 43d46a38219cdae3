import { sql } from "drizzle-orm";
import { index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "../../db/core/schema";

const now = sql`(unixepoch('subsec') * 1000)`;

/** Public typing rooms. `theme` picks the sentence pool; `language` is shown to players (ko, en). */
export const rooms = sqliteTable(
  "rooms_rooms",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    maxUsers: integer("max_users").notNull().default(20),
    theme: text("theme").notNull(),
    language: text("language").notNull().default("ko"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull().default(now),
  },
  (table) => [uniqueIndex("rooms_rooms_name_unique").on(table.name)],
);

/** Sentences per theme; a text appears once per theme so imports and the seed are idempotent. */
export const sentences = sqliteTable(
  "rooms_sentences",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    theme: text("theme").notNull(),
    text: text("text").notNull(),
    source: text("source").notNull().default(""),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull().default(now),
  },
  (table) => [uniqueIndex("rooms_sentences_theme_text_unique").on(table.theme, table.text)],
);

/** One row per finished game: the admin dashboard counts these. */
export const games = sqliteTable(
  "rooms_games",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    roomId: integer("room_id").notNull(),
    roomName: text("room_name").notNull(),
    sentenceId: integer("sentence_id"),
    participants: integer("participants").notNull(),
    startedAt: integer("started_at", { mode: "timestamp_ms" }).notNull(),
    finishedAt: integer("finished_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [index("rooms_games_finished_at_idx").on(table.finishedAt)],
);

/**
 * Every accepted result, guests too (user_id null, their guest nickname kept): the profile's records and the
 * rankings read these. `room_name` is copied so a renamed or deleted room keeps its history readable.
 */
export const gameResults = sqliteTable(
  "rooms_game_results",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    gameId: integer("game_id")
      .notNull()
      .references(() => games.id, { onDelete: "cascade" }),
    roomId: integer("room_id").notNull(),
    roomName: text("room_name").notNull(),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    /** The username at the time, or the guest's guest_NNNN. */
    nickname: text("nickname").notNull(),
    /** Stable public id of the player (`u_<id>` or `g_<hash>`), so guests can be grouped without their cookie. */
    playerKey: text("player_key").notNull(),
    sentenceId: integer("sentence_id"),
    wpm: integer("wpm").notNull(),
    accuracy: real("accuracy").notNull(),
    errorCount: integer("error_count").notNull(),
    completionTime: real("completion_time").notNull(),
    position: integer("position"),
    participants: integer("participants").notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [
    index("rooms_game_results_user_created_idx").on(table.userId, table.createdAt),
    index("rooms_game_results_created_idx").on(table.createdAt),
    index("rooms_game_results_game_idx").on(table.gameId),
  ],
);

export type RoomRow = typeof rooms.$inferSelect;
export type SentenceRow = typeof sentences.$inferSelect;
export type GameResultRow = typeof gameResults.$inferSelect;
