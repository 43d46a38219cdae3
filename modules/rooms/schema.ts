import { sql } from "drizzle-orm";
import { integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

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

export type RoomRow = typeof rooms.$inferSelect;
export type SentenceRow = typeof sentences.$inferSelect;
