import { and, asc, count, eq, notLike, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { SqlDatabase } from "../../db/database";
import { isUniqueViolation } from "../../db/postgres";
import { inTransaction, onePerDatabase, storeDb, tablesFor } from "../../db/store";
import { OWN_TEXTS } from "./private-rules";
import type { RoomRow } from "./schema";
import * as sqliteSchema from "./schema";
import * as pgSchema from "./schema.pg";
import type { Sentence } from "./sentence-race";

export type NewRoom = Pick<RoomRow, "name" | "description" | "maxUsers" | "theme" | "language">;

const SENTENCES_PER_INSERT = 500;

/** The store of this database, made once (`onePerDatabase`). */
export const roomsStoreOf = onePerDatabase(createRoomsStore);

/**
 * The rooms' tables (rooms, sentences) on either engine, written once (db/README.md). Each write method is one
 * transaction; the rules (names, lengths, cleaning) stay in `service.ts`. What differs by engine:
 * - text order: PostgreSQL sorts by the database's locale, SQLite by code point; `COLLATE "C"` is code point order
 *   on PostgreSQL, so the themes of `sentenceCounts` come in the same order on both;
 * - a room name taken by a concurrent writer fails the unique index on both engines (`isUniqueViolation`), which
 *   answers the same as the check before the insert.
 */
export function createRoomsStore(database: SqlDatabase) {
  const { rooms, sentences } = tablesFor(database, sqliteSchema, pgSchema);
  const pg = database.dialect === "pg";
  const byCodePoint = (column: SQLiteColumn) => (pg ? sql`${column} COLLATE "C"` : sql`${column}`);
  const read = () => storeDb(database);
  const isPublic = eq(rooms.kind, "public");

  return {
    /** Every public room, by id (private rooms are found by their code: private-store.ts). */
    listRooms: (): Promise<RoomRow[]> => read().select().from(rooms).where(isPublic).orderBy(rooms.id),

    async findRoom(id: number): Promise<RoomRow | undefined> {
      const [row] = await read()
        .select()
        .from(rooms)
        .where(and(eq(rooms.id, id), isPublic));
      return row;
    },

    /** The new room, or `taken` when a room of that name exists (checked, and decided by the unique index). */
    createRoom: (room: NewRoom): Promise<RoomRow | "taken"> =>
      inTransaction(database, async (tx): Promise<RoomRow | "taken"> => {
        const [existing] = await tx.select({ id: rooms.id }).from(rooms).where(eq(rooms.name, room.name));
        if (existing) return "taken";
        const [row] = await tx.insert(rooms).values(room).returning();
        return row!;
      }).catch((error) => {
        // A concurrent writer inserted the name after our check (PostgreSQL; the transaction is rolled back).
        if (isUniqueViolation(error)) return "taken" as const;
        throw error;
      }),

    /** Adds rooms that do not exist yet (by name), in one transaction. */
    addRoomsByName: (list: readonly NewRoom[]) =>
      inTransaction(database, async (tx) => {
        for (const room of list) await tx.insert(rooms).values(room).onConflictDoNothing();
      }),

    /**
     * Adds the texts to a theme in one transaction; a text already in the theme is skipped (the unique index,
     * also against a concurrent import). Answers how many were inserted.
     */
    insertSentences: (theme: string, texts: readonly string[], source: string): Promise<number> =>
      inTransaction(database, async (tx) => {
        let inserted = 0;
        // A few hundred rows per statement: one round trip each, under SQLite's limit of bound variables.
        for (let i = 0; i < texts.length; i += SENTENCES_PER_INSERT) {
          const chunk = texts.slice(i, i + SENTENCES_PER_INSERT).map((text) => ({ theme, text, source }));
          const done = await tx.insert(sentences).values(chunk).onConflictDoNothing().returning({ id: sentences.id });
          inserted += done.length;
        }
        return inserted;
      }),

    /** A theme's sentences, by id (the race picks from them with its own random source). */
    sentencePool: (theme: string): Promise<Sentence[]> =>
      read()
        .select({ id: sentences.id, text: sentences.text })
        .from(sentences)
        .where(eq(sentences.theme, theme))
        .orderBy(sentences.id),

    /** Sentences per theme, themes in code point order (private rooms' own sentences are nobody's theme). */
    sentenceCounts: (): Promise<{ theme: string; count: number }[]> =>
      read()
        .select({ theme: sentences.theme, count: count() })
        .from(sentences)
        .where(notLike(sentences.theme, `${OWN_TEXTS}:%`))
        .groupBy(sentences.theme)
        .orderBy(asc(byCodePoint(sentences.theme))),
  };
}
export type RoomsStore = ReturnType<typeof createRoomsStore>;
