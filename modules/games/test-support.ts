import { users } from "../../db/core/schema";
import type { ModuleContext } from "../kernel/define-module";
import type { ResultInput, StoredGameRef } from "./rules";

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

/** A member row in the core users table (no password login needed for service tests). */
export function insertMember(ctx: ModuleContext, username: string): number {
  return ctx.db
    .insert(users)
    .values({
      username,
      usernameKey: username.toLowerCase(),
      email: `${username.toLowerCase()}@example.com`,
      passwordHash: "x",
    })
    .returning({ id: users.id })
    .get().id;
}

/** Every event of that name emitted on the context's bus from now on. */
export function collect<K extends "games.result_recorded" | "games.game_finished">(ctx: ModuleContext, event: K) {
  // biome-ignore lint/suspicious/noExplicitAny: the payload type follows the event name
  const seen: any[] = [];
  ctx.events.on(event, (payload) => seen.push(payload));
  return seen;
}
