import type { ModuleContext } from "../kernel/define-module";
import { defineModule } from "../kernel/define-module";
import { runtimes } from "./api";
import "./events";
import { migrations } from "./migrations";
import { migrations as pgMigrations } from "./migrations-pg";
import { roomsRoutes } from "./routes";
import { RoomsRuntime } from "./runtime";
import { seedRoomsAndSentences } from "./service";
import { DEFAULT_ROOMS_SETTINGS, type RoomsSettings } from "./settings";
import { roomSocketEvents } from "./socket";

/** The rooms module with its tunables (tests and the benchmark may shorten the phases). */
export function createRoomsModule(overrides: Partial<RoomsSettings> = {}) {
  const settings: RoomsSettings = { ...DEFAULT_ROOMS_SETTINGS, ...overrides };
  return defineModule({
    name: "rooms",
    dependsOn: ["accounts", "games"],
    migrations,
    pgMigrations,
    routes: (ctx) => roomsRoutes(ctx, () => runtimes.get(ctx)),
    async seed(ctx) {
      const counts = await seedRoomsAndSentences(ctx.database);
      const inserted = counts.reduce((sum, c) => sum + c.inserted, 0);
      if (inserted > 0) ctx.log.info("rooms seeded", { sentences_inserted: inserted });
    },
    attachIo(io, ctx) {
      void runtimes.get(ctx)?.stop();
      runtimes.set(ctx, new RoomsRuntime(io, ctx, settings));
    },
    socketEvents(ctx) {
      const runtime = runtimes.get(ctx);
      return runtime ? roomSocketEvents(runtime) : {};
    },
    onConnect(socket, ctx) {
      runtimes.get(ctx)?.connect(socket);
    },
    onDisconnect(socket, _reason, ctx) {
      runtimes.get(ctx)?.disconnect(socket);
    },
    // Several servers may share a process (tests): stop only this context's rooms.
    async onStop(ctx: ModuleContext) {
      const runtime = runtimes.get(ctx);
      runtimes.delete(ctx);
      await runtime?.stop();
    },
  });
}

export const roomsModule = createRoomsModule();

// The public API other modules and the CLI may use.
export { createRoom, importSentences, listRooms, sentenceCounts } from "./api";
export type { GameFinishedEvent } from "./events";
export { gameModes } from "./game-modes";
export { abandonGame, payLateResult } from "./records";
export { computeRewards, countedGrants, medalFor } from "./rewards";
export type { RoomView } from "./room-view";
export { readSentenceFile } from "./sentence-file";
export type { GameStateView, Sentence } from "./sentence-race";
export type { ImportCounts } from "./service";
export { DEFAULT_ROOMS_SETTINGS, type RoomsSettings } from "./settings";
