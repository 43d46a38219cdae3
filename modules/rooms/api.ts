import type { ModuleContext } from "../kernel/define-module";
import { presentIdleRoom, type RoomView } from "./room-view";
import type { RoomsRuntime } from "./runtime";
import { DEFAULT_RACE_SETTINGS } from "./sentence-race";
import * as service from "./service";

/** The live rooms of each running server (one per application context). */
export const runtimes = new Map<ModuleContext, RoomsRuntime>();

/** Every room with live occupancy when this process runs the socket server, else as idle rows (the CLI). */
export function listRooms(ctx: ModuleContext): RoomView[] {
  const live = runtimes.get(ctx);
  if (live) return live.list();
  return service.listRoomRows(ctx.db).map((row) => presentIdleRoom(row, DEFAULT_RACE_SETTINGS.countdownSeconds));
}

export function createRoom(ctx: ModuleContext, input: service.CreateRoomInput) {
  const row = service.createRoom(ctx.db, input);
  runtimes.get(ctx)?.invalidate();
  return row;
}

/** Adds sentences to a theme (or to the theme of a room given by id); returns what was inserted and skipped. */
export function importSentences(
  ctx: ModuleContext,
  target: string | number,
  texts: readonly unknown[],
  source?: string,
) {
  const counts = service.importSentences(ctx.db, target, texts, source);
  runtimes.get(ctx)?.invalidate();
  return counts;
}

export const sentenceCounts = (ctx: ModuleContext) => service.sentenceCounts(ctx.db);
