import { sql } from "drizzle-orm";
import { integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/**
 * The PostgreSQL twin of `schema.ts` as it is NOW (after SQLite's migrations 0001/0002 moved the game records
 * into the games module and dropped rooms' result tables: a PostgreSQL database has no old data to copy, so its
 * one migration starts here). Same tables, columns and indexes; timestamps are `timestamptz` read as Date.
 */
const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: "date" });

export const rooms = pgTable(
  "rooms_rooms",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    maxUsers: integer("max_users").notNull().default(20),
    theme: text("theme").notNull(),
    language: text("language").notNull().default("ko"),
    createdAt: at("created_at").notNull().default(sql`now()`),
  },
  (table) => [uniqueIndex("rooms_rooms_name_unique").on(table.name)],
);

export const sentences = pgTable(
  "rooms_sentences",
  {
    id: serial("id").primaryKey(),
    theme: text("theme").notNull(),
    text: text("text").notNull(),
    source: text("source").notNull().default(""),
    createdAt: at("created_at").notNull().default(sql`now()`),
  },
  (table) => [uniqueIndex("rooms_sentences_theme_text_unique").on(table.theme, table.text)],
);
