import { eq, sql } from "drizzle-orm";
import * as coreSqlite from "../../db/core/schema";
import * as corePg from "../../db/core/schema.pg";
import { storeDb, tablesFor } from "../../db/store";
import type { ModuleContext } from "../kernel/define-module";
import type { ResultInput, StoredGameRef } from "./rules";
import * as sqliteSchema from "./schema";
import * as pgSchema from "./schema.pg";

/** Test helpers for the games module: fixture games, results and members. */

/** `YYYY-MM-DD HH:mm:ss` in Seoul time → epoch ms (Seoul is UTC+9 all year). */
export const kst = (text: string) => Date.parse(`${text.replace(" ", "T")}+09:00`);

export const race = (
  sourceId: string,
  round: number,
  startedAt: number,
  sourceName = `방 ${sourceId}`,
): StoredGameRef => ({
  mode: "sentence_race",
  sourceId,
  sourceName,
  round,
  startedAt,
});

export const memberResult = (
  userId: number,
  nickname: string,
  figures: Partial<ResultInput> & { wpm: number; accuracy: number },
): ResultInput => ({
  userId,
  playerKey: `u_${userId}`,
  nickname,
  completionTime: 10,
  position: null,
  errorCount: 0,
  ...figures,
});

export const guestResult = (
  hash: string,
  nickname: string,
  figures: Partial<ResultInput> & { wpm: number; accuracy: number },
): ResultInput => ({
  userId: null,
  playerKey: `g_${hash}`,
  nickname,
  completionTime: 10,
  position: null,
  errorCount: 0,
  ...figures,
});

const usersOf = (ctx: ModuleContext) => tablesFor(ctx.database, coreSqlite, corePg).users;

/** A member row in the core users table (no password login needed for service tests), on either engine. */
export async function insertMember(ctx: ModuleContext, username: string): Promise<number> {
  const users = usersOf(ctx);
  const [row] = await storeDb(ctx.database)
    .insert(users)
    .values({
      username,
      usernameKey: username.toLowerCase(),
      email: `${username.toLowerCase()}@example.com`,
      passwordHash: "x",
    })
    .returning({ id: users.id });
  return row!.id;
}

/** Deletes a member row (as an account deletion would), on either engine. */
export async function deleteMember(ctx: ModuleContext, userId: number) {
  const users = usersOf(ctx);
  await storeDb(ctx.database).delete(users).where(eq(users.id, userId));
}

/**
 * Rows of a games table matching a condition written in SQL both engines read (`true`/`false` for booleans).
 * Tests look at the stored rows this way, through the module's own database handle.
 */
export async function countRows(ctx: ModuleContext, table: string, where = "true"): Promise<number> {
  const [row] = await storeDb(ctx.database)
    .select({ n: sql<number>`cast(count(*) as integer)`.mapWith(Number) })
    .from(sql.raw(table))
    .where(sql.raw(where));
  return row?.n ?? 0;
}

/** A stored game row, read through the engine's own table (times as Date on both engines). */
export async function gameRow(ctx: ModuleContext, gameId: number) {
  const { games } = tablesFor(ctx.database, sqliteSchema, pgSchema);
  const [row] = await storeDb(ctx.database).select().from(games).where(eq(games.id, gameId));
  return row;
}

/** Every event of that name emitted on the context's bus from now on. */
export function collect<K extends "games.result_recorded" | "games.game_finished">(ctx: ModuleContext, event: K) {
  // biome-ignore lint/suspicious/noExplicitAny: the payload type follows the event name
  const seen: any[] = [];
  ctx.events.on(event, (payload) => seen.push(payload));
  return seen;
}
