import { and, asc, count, eq, inArray, isNull, lt } from "drizzle-orm";
import type { SqlDatabase } from "../../db/database";
import { inTransaction, onePerDatabase, type StoreDb, storeDb, tablesFor } from "../../db/store";
import { OWN_TEXTS } from "./private-rules";
import type { PrivateRoomRow, RoomRow } from "./schema";
import * as sqliteSchema from "./schema";
import * as pgSchema from "./schema.pg";

/** A private room as stored: its room row (name, size, theme) and what makes it private. */
export interface PrivateRecord {
  room: RoomRow;
  private: PrivateRoomRow;
}

/** What a room plays: the product's sentences of a theme, or the owner's own list. */
export type PrivateTexts = { theme: string } | { texts: readonly string[] };

export interface NewPrivateRoom {
  name: string;
  maxUsers: number;
  ownerId: number;
  code: string;
  autoStart: boolean;
  texts: PrivateTexts;
  /** At most this many open rooms per owner: a further one is refused (`too_many`). */
  openLimit: number;
  at: Date;
}

/** Where a private room's own sentences are kept: `rooms_sentences` under a theme of its own. */
export const ownTextsTheme = (roomId: number) => `${OWN_TEXTS}:${roomId}`;

/** The theme a room's sentence pool is read from (a private room's own sentences are under its own theme). */
export const poolThemeOf = (room: Pick<RoomRow, "id" | "theme">) =>
  room.theme === OWN_TEXTS ? ownTextsTheme(room.id) : room.theme;

const SENTENCES_PER_INSERT = 500;

/** The store of this database, made once (`onePerDatabase`). */
export const privateRoomsStoreOf = onePerDatabase(createPrivateRoomsStore);

/**
 * Private rooms on either engine (db/README.md), one transaction per write. An owner's write names the owner and
 * an open room (`WHERE owner_id = … AND closed_at IS NULL`), so a write racing a handover or a close changes
 * nothing and answers `refused`: the service reads the room again to say why.
 */
export function createPrivateRoomsStore(database: SqlDatabase) {
  const { rooms, sentences, privateRooms, removedPlayers } = tablesFor(database, sqliteSchema, pgSchema);
  const read = () => storeDb(database);
  const joined = (db: StoreDb) =>
    db
      .select({ room: rooms, private: privateRooms })
      .from(privateRooms)
      .innerJoin(rooms, eq(rooms.id, privateRooms.roomId));
  const ownedOpen = (roomId: number, ownerId: number) =>
    and(eq(privateRooms.roomId, roomId), eq(privateRooms.ownerId, ownerId), isNull(privateRooms.closedAt));

  /** The room's own sentences replaced by `texts` (none: a theme of the product's). */
  async function replaceOwnTexts(tx: StoreDb, roomId: number, texts: readonly string[]) {
    const theme = ownTextsTheme(roomId);
    await tx.delete(sentences).where(eq(sentences.theme, theme));
    for (let i = 0; i < texts.length; i += SENTENCES_PER_INSERT) {
      const chunk = texts.slice(i, i + SENTENCES_PER_INSERT).map((text) => ({ theme, text, source: "private" }));
      await tx.insert(sentences).values(chunk).onConflictDoNothing();
    }
  }

  const themeOf = (texts: PrivateTexts) => ("theme" in texts ? texts.theme : OWN_TEXTS);
  const textsOf = (texts: PrivateTexts) => ("texts" in texts ? texts.texts : []);

  return {
    byId: async (roomId: number): Promise<PrivateRecord | undefined> =>
      (await joined(read()).where(eq(privateRooms.roomId, roomId)))[0],

    byCode: async (code: string): Promise<PrivateRecord | undefined> =>
      (await joined(read()).where(eq(privateRooms.code, code)))[0],

    /** A member's open rooms, oldest first. */
    openOf: (ownerId: number): Promise<PrivateRecord[]> =>
      joined(read())
        .where(and(eq(privateRooms.ownerId, ownerId), isNull(privateRooms.closedAt)))
        .orderBy(asc(privateRooms.roomId)),

    /** The new room, or `too_many` when the owner already keeps `openLimit` rooms open. */
    create: (room: NewPrivateRoom): Promise<PrivateRecord | "too_many"> =>
      inTransaction(database, async (tx) => {
        const [open] = await tx
          .select({ n: count() })
          .from(privateRooms)
          .where(and(eq(privateRooms.ownerId, room.ownerId), isNull(privateRooms.closedAt)));
        if ((open?.n ?? 0) >= room.openLimit) return "too_many" as const;
        const [row] = await tx
          .insert(rooms)
          .values({ name: room.name, maxUsers: room.maxUsers, theme: themeOf(room.texts), kind: "private" })
          .returning();
        const [secret] = await tx
          .insert(privateRooms)
          .values({
            roomId: row!.id,
            ownerId: room.ownerId,
            code: room.code,
            autoStart: room.autoStart,
            activeAt: room.at,
          })
          .returning();
        await replaceOwnTexts(tx, row!.id, textsOf(room.texts));
        return { room: row!, private: secret! };
      }),

    /** The room plays `texts` from its next round on. */
    setTexts: (roomId: number, ownerId: number, texts: PrivateTexts): Promise<boolean> =>
      inTransaction(database, async (tx) => {
        const owned = await tx.select().from(privateRooms).where(ownedOpen(roomId, ownerId));
        if (owned.length === 0) return false;
        await tx
          .update(rooms)
          .set({ theme: themeOf(texts) })
          .where(eq(rooms.id, roomId));
        await replaceOwnTexts(tx, roomId, textsOf(texts));
        return true;
      }),

    setAutoStart: async (roomId: number, ownerId: number, autoStart: boolean): Promise<boolean> =>
      (await read().update(privateRooms).set({ autoStart }).where(ownedOpen(roomId, ownerId)).returning()).length > 0,

    /** A new code; the players removed so far may come back through it. */
    newCode: (roomId: number, ownerId: number, code: string): Promise<boolean> =>
      inTransaction(database, async (tx) => {
        const done = await tx.update(privateRooms).set({ code }).where(ownedOpen(roomId, ownerId)).returning();
        if (done.length === 0) return false;
        await tx.delete(removedPlayers).where(eq(removedPlayers.roomId, roomId));
        return true;
      }),

    setOwner: async (roomId: number, ownerId: number, newOwnerId: number): Promise<boolean> =>
      (await read().update(privateRooms).set({ ownerId: newOwnerId }).where(ownedOpen(roomId, ownerId)).returning())
        .length > 0,

    /** The player's code is void for them until the next new code. */
    remove: (roomId: number, ownerId: number, playerKey: string, at: Date): Promise<boolean> =>
      inTransaction(database, async (tx) => {
        const owned = await tx.select().from(privateRooms).where(ownedOpen(roomId, ownerId));
        if (owned.length === 0) return false;
        await tx.insert(removedPlayers).values({ roomId, playerKey, removedAt: at }).onConflictDoNothing();
        return true;
      }),

    /** The public keys of the players removed since the last new code. */
    removedKeys: async (roomId: number): Promise<string[]> =>
      (
        await read()
          .select({ key: removedPlayers.playerKey })
          .from(removedPlayers)
          .where(eq(removedPlayers.roomId, roomId))
          .orderBy(asc(removedPlayers.removedAt))
      ).map((row) => row.key),

    isRemoved: async (roomId: number, playerKey: string): Promise<boolean> =>
      (
        await read()
          .select({ key: removedPlayers.playerKey })
          .from(removedPlayers)
          .where(and(eq(removedPlayers.roomId, roomId), eq(removedPlayers.playerKey, playerKey)))
      ).length > 0,

    close: async (roomId: number, ownerId: number, at: Date): Promise<boolean> =>
      (await read().update(privateRooms).set({ closedAt: at }).where(ownedOpen(roomId, ownerId)).returning()).length >
      0,

    /** Someone is in these rooms now (the process running them says so every minute). */
    touch: async (roomIds: readonly number[], at: Date) => {
      if (roomIds.length === 0) return;
      await read()
        .update(privateRooms)
        .set({ activeAt: at })
        .where(and(inArray(privateRooms.roomId, [...roomIds]), isNull(privateRooms.closedAt)));
    },

    /**
     * Closes every open room nobody was seen in since `before`; answers their ids. One statement: processes
     * sweeping at once each close a room at most once between them (the second finds it closed).
     */
    closeIdle: async (before: Date, at: Date): Promise<number[]> =>
      (
        await read()
          .update(privateRooms)
          .set({ closedAt: at })
          .where(and(isNull(privateRooms.closedAt), lt(privateRooms.activeAt, before)))
          .returning({ roomId: privateRooms.roomId })
      ).map((row) => row.roomId),

    /** How many own sentences the room has (0 when it plays a theme). */
    ownTextsCount: async (roomId: number): Promise<number> => {
      const [row] = await read()
        .select({ n: count() })
        .from(sentences)
        .where(eq(sentences.theme, ownTextsTheme(roomId)));
      return Number(row?.n ?? 0);
    },

    /** The room's own sentences, in the order they were given (the owner's editor shows them again). */
    ownTexts: async (roomId: number): Promise<string[]> =>
      (
        await read()
          .select({ text: sentences.text })
          .from(sentences)
          .where(eq(sentences.theme, ownTextsTheme(roomId)))
          .orderBy(asc(sentences.id))
      ).map((row) => row.text),
  };
}
export type PrivateRoomsStore = ReturnType<typeof createPrivateRoomsStore>;
