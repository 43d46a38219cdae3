import { sql } from "drizzle-orm";
import { defineCoreTables } from "../../db/core/tables";
import type { Dialect, SchemaKit } from "../../db/schema-kit";

/** The rooms module's tables, on either engine (`schema.ts`: SQLite, `schema.pg.ts`: PostgreSQL). */
export function defineRoomsTables<D extends Dialect>(kit: SchemaKit<D>) {
  const { users } = kit.once(defineCoreTables);

  /**
   * Typing rooms. `theme` picks the sentence pool (`private` for a private room's own sentences, README "Private
   * rooms"); `language` is shown to players (ko, en). A public room's name is unique; private rooms are named by
   * their owners, so two classes may both call theirs "3학년 2반".
   */
  const rooms = kit.table(
    "rooms_rooms",
    {
      id: kit.serialId("id"),
      name: kit.text("name").notNull(),
      description: kit.text("description").notNull().default(""),
      maxUsers: kit.integer("max_users").notNull().default(20),
      theme: kit.text("theme").notNull(),
      language: kit.text("language").notNull().default("ko"),
      /** `private`: joined through its invitation code only, never listed (`rooms_private` holds the rest). */
      kind: kit
        .text("kind", { enum: ["public", "private"] })
        .notNull()
        .default("public"),
      createdAt: kit.timestamp("created_at").notNull().default(kit.now),
    },
    (table) => [kit.uniqueIndex("rooms_rooms_name_unique").on(table.name).where(sql`kind = 'public'`)],
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

  /**
   * What makes a room private: its owner, its invitation code (random, URL-safe, unique), whether rounds start by
   * themselves, when someone was last seen in it (`active_at`, renewed by the process running it) and when it
   * closed. A closed room keeps its row: its games stay in the players' records.
   */
  const privateRooms = kit.table(
    "rooms_private",
    {
      roomId: kit
        .integer("room_id")
        .primaryKey()
        .references(() => rooms.id),
      ownerId: kit
        .integer("owner_id")
        .notNull()
        .references(() => users.id),
      code: kit.text("code").notNull(),
      autoStart: kit.boolean("auto_start").notNull().default(false),
      activeAt: kit.timestamp("active_at").notNull().default(kit.now),
      closedAt: kit.timestamp("closed_at"),
    },
    (table) => [
      kit.uniqueIndex("rooms_private_code_unique").on(table.code),
      kit.index("rooms_private_owner_open_idx").on(table.ownerId).where(sql`closed_at IS NULL`),
      kit.index("rooms_private_idle_idx").on(table.activeAt).where(sql`closed_at IS NULL`),
    ],
  );

  /** Players the owner removed: their code is void for them until the owner makes a new one (which empties this). */
  const removedPlayers = kit.table(
    "rooms_private_removed",
    {
      roomId: kit
        .integer("room_id")
        .notNull()
        .references(() => rooms.id),
      /** The player's public key (`u_<id>`, `g_<hash>`), as the room's game names them. */
      playerKey: kit.text("player_key").notNull(),
      removedAt: kit.timestamp("removed_at").notNull().default(kit.now),
    },
    (table) => [kit.primaryKey({ columns: [table.roomId, table.playerKey] })],
  );

  return { rooms, sentences, privateRooms, removedPlayers };
}
