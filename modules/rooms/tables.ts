import type { Dialect, SchemaKit } from "../../db/schema-kit";

/** The rooms module's tables, on either engine (`schema.ts`: SQLite, `schema.pg.ts`: PostgreSQL). */
export function defineRoomsTables<D extends Dialect>(kit: SchemaKit<D>) {
  /** Public typing rooms. `theme` picks the sentence pool; `language` is shown to players (ko, en). */
  const rooms = kit.table(
    "rooms_rooms",
    {
      id: kit.serialId("id"),
      name: kit.text("name").notNull(),
      description: kit.text("description").notNull().default(""),
      maxUsers: kit.integer("max_users").notNull().default(20),
      theme: kit.text("theme").notNull(),
      language: kit.text("language").notNull().default("ko"),
      createdAt: kit.timestamp("created_at").notNull().default(kit.now),
    },
    (table) => [kit.uniqueIndex("rooms_rooms_name_unique").on(table.name)],
  );

  /** Sentences per theme; a text appears once per theme so imports and the seed are idempotent. */
  const sentences = kit.table(
    "rooms_sentences",
    {
      id: kit.serialId("id"),
      theme: kit.text("theme").notNull(),
      text: kit.text("text").notNull(),
      source: kit.text("source").notNull().default(""),
      createdAt: kit.timestamp("created_at").notNull().default(kit.now),
    },
    (table) => [kit.uniqueIndex("rooms_sentences_theme_text_unique").on(table.theme, table.text)],
  );

  return { rooms, sentences };
}
