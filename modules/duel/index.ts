import { defineModule, type ModuleContext } from "../kernel/define-module";
import { localFirstEmitter, socketIoEmitter } from "../kernel/game-host";
import { runtimeOf } from "../kernel/module-runtime";
import type { AppServer } from "../kernel/socket";
import { MemoryDuelLobby } from "./lobby";
import { migrations } from "./migrations";
import { migrations as pgMigrations } from "./migrations-pg";
import { duelRoutes } from "./routes";
import { DEFAULT_DUEL_SETTINGS, type DuelModuleSettings, type DuelPlacement, DuelRuntime } from "./runtime";
import { SharedDuelLobby } from "./shared-lobby";

/**
 * The one runtime, placed: with `ctx.cluster` the lobby is in Redis (every duel has one owner across processes
 * through the kernel's game directory; `localFirstEmitter`: a duel whose two players are on its owner's process
 * writes nothing to Redis); without it all is in this process's memory.
 */
function placement(io: AppServer, ctx: ModuleContext, settings: DuelModuleSettings): DuelPlacement {
  const { cluster } = ctx;
  if (!cluster) return { lobby: new MemoryDuelLobby(ctx.clock, settings.match), emitter: socketIoEmitter(io) };
  return { lobby: new SharedDuelLobby(cluster, settings.match), emitter: localFirstEmitter(io) };
}

/** The duel module; tests pass shorter or simpler rules (a small word list, a short game). */
export function createDuelModule(overrides: Partial<DuelModuleSettings> = {}) {
  const settings: DuelModuleSettings = { ...DEFAULT_DUEL_SETTINGS, ...overrides };
  return defineModule({
    name: "duel",
    // accounts: identities on sockets, the users table, the login guard of `GET /api/duel/stats/me`. rankings: who
    // is excluded from every ranking (moderation). Not games: a duel is not a typing-speed result and writes no game
    // record (README "Storage").
    dependsOn: ["accounts", "rankings"],
    migrations,
    pgMigrations,
    routes: duelRoutes,
    runtime: (io, ctx, games) => new DuelRuntime(io, ctx, settings, games, placement(io, ctx, settings)),
  });
}

export const duelModule = createDuelModule();

/** This server's duel runtime (tests and diagnostics). */
export const duelRuntime = (ctx: ModuleContext) => runtimeOf<DuelRuntime>(ctx, "duel");

// The public API other modules may use.
export { duelRanking, duelStatsOf, ownDuelStats, RANKING_DEFAULTS, type RankingOptions } from "./api";
export {
  DEFAULT_DUEL_RULES,
  type DuelResult,
  type DuelRules,
  type DuelStateView,
  duelMode,
  type EndReason,
} from "./duel-mode";
export { DEFAULT_MATCH_RULES, type MatchRules } from "./matchmaker";
export { DEFAULT_DUEL_SETTINGS, type DuelModuleSettings } from "./runtime";
export type { PlayerFigures, RankingEntry, RankingKind } from "./store";
export type * from "./wire";
export { DUEL_WORDS } from "./words";
