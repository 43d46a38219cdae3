import { defineModule, type ModuleContext } from "../kernel/define-module";
import { localFirstEmitter, socketIoEmitter } from "../kernel/game-host";
import type { AppServer } from "../kernel/socket";
import { roomsRuntime } from "./api";
import "./events";
import { migrations } from "./migrations";
import { migrations as pgMigrations } from "./migrations-pg";
import { LocalRoomList, SharedRoomList } from "./room-list";
import { roomsRoutes } from "./routes";
import { type RoomsPlacement, RoomsRuntime } from "./runtime";
import { seedRoomsAndSentences } from "./service";
import { DEFAULT_ROOMS_SETTINGS, type RoomsSettings } from "./settings";

/**
 * The one runtime, placed: with `ctx.cluster` the room list shows what the other processes' rooms are
 * (`SharedRoomList`) and a room whose players are all on its owner's process writes nothing to Redis
 * (`localFirstEmitter`); without it everything is this process's.
 */
function placement(io: AppServer, ctx: ModuleContext, settings: RoomsSettings): RoomsPlacement {
  const { cluster } = ctx;
  if (!cluster) return { emitter: socketIoEmitter(io), list: () => new LocalRoomList() };
  return {
    emitter: localFirstEmitter(io),
    list: (feed) => new SharedRoomList(cluster, ctx.log, { ...feed, lingerMs: settings.lobbyLingerMs }),
  };
}

/** The rooms module with its tunables (tests and the benchmark may shorten the phases). */
export function createRoomsModule(overrides: Partial<RoomsSettings> = {}) {
  const settings: RoomsSettings = { ...DEFAULT_ROOMS_SETTINGS, ...overrides };
  return defineModule({
    name: "rooms",
    dependsOn: ["accounts", "games"],
    migrations,
    pgMigrations,
    routes: (ctx) => roomsRoutes(ctx, () => roomsRuntime(ctx)),
    async seed(ctx) {
      const counts = await seedRoomsAndSentences(ctx.database);
      const inserted = counts.reduce((sum, c) => sum + c.inserted, 0);
      if (inserted > 0) ctx.log.info("rooms seeded", { sentences_inserted: inserted });
    },
    runtime: (io, ctx, games) => new RoomsRuntime(io, ctx, settings, games, placement(io, ctx, settings)),
  });
}

export const roomsModule = createRoomsModule();

// The public API other modules and the CLI may use.
export { createRoom, importSentences, listRooms, roomsRuntime, sentenceCounts, sentencesOfThemes } from "./api";
export type { GameFinishedEvent } from "./events";
export { gameModes } from "./game-modes";
export { abandonGame, claimGame, payLateResult } from "./records";
export { computeRewards, countedGrants, medalFor } from "./rewards";
export type { RoomSummary, RoomView } from "./room-view";
export { readSentenceFile } from "./sentence-file";
export {
  DEFAULT_RACE_SETTINGS,
  type GameStateView,
  gameDurationFor,
  type RaceResult,
  type Sentence,
} from "./sentence-race";
export type { ImportCounts } from "./service";
export { DEFAULT_ROOMS_SETTINGS, type RoomsSettings } from "./settings";
export type * from "./wire";
