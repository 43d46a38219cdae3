import type { ModuleContext } from "../kernel/define-module";
import { runtimeOf } from "../kernel/module-runtime";
import { presentIdleRoom, type RoomView } from "./room-view";
import type { RoomsRuntime } from "./runtime";
import { DEFAULT_RACE_SETTINGS } from "./sentence-race";
import * as service from "./service";

/** The live rooms of this server (undefined without a socket server: the CLI). */
export const roomsRuntime = (ctx: ModuleContext) => runtimeOf<RoomsRuntime>(ctx, "rooms");

/** Every room with live occupancy when this process runs the socket server, else as idle rows (the CLI). */
export async function listRooms(ctx: ModuleContext): Promise<RoomView[]> {
  const live = roomsRuntime(ctx);
  if (live) return live.list();
  const rows = await service.listRoomRows(ctx.database);
  return rows.map((row) => presentIdleRoom(row, DEFAULT_RACE_SETTINGS.countdownSeconds));
}

/** Creates a room; this process's live rooms know it when the answer comes. */
export async function createRoom(ctx: ModuleContext, input: service.CreateRoomInput) {
  const row = await service.createRoom(ctx.database, input);
  await roomsRuntime(ctx)?.invalidate();
  return row;
}

/**
 * Adds sentences to a theme (or to the theme of a room given by id); returns what was inserted and skipped. This
 * process's rooms play them from their next round on (their pools are reloaded before the answer).
 */
export async function importSentences(
  ctx: ModuleContext,
  target: string | number,
  texts: readonly unknown[],
  source?: string,
) {
  const counts = await service.importSentences(ctx.database, target, texts, source);
  await roomsRuntime(ctx)?.invalidate();
  return counts;
}

/** Sentences per theme (themes in code point order). */
export const sentenceCounts = (ctx: ModuleContext) => service.sentenceCounts(ctx.database);

/**
 * The stored sentences of the given themes, each theme's by id, themes in the order given (오늘의 문장 picks the
 * day's sentence from them: modules/daily).
 */
export async function sentencesOfThemes(ctx: ModuleContext, themes: readonly string[]) {
  const pools = await Promise.all(themes.map((theme) => service.loadSentencePool(ctx.database, theme)));
  return pools.flat();
}
