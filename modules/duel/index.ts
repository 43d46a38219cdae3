import { defineModule, type ModuleContext } from "../kernel/define-module";
import { GameOwnership, LocalGames, localFirstEmitter, socketIoEmitter } from "../kernel/game-host";
import type { AppServer } from "../kernel/socket";
import { MemoryDuelLobby } from "./lobby";
import { migrations } from "./migrations";
import { migrations as pgMigrations } from "./migrations-pg";
import { duelRoutes } from "./routes";
import { DEFAULT_DUEL_SETTINGS, DUEL_MODE, type DuelModuleSettings, type DuelPlacement, DuelRuntime } from "./runtime";
import { SharedDuelLobby } from "./shared-lobby";
import { duelSocketEvents } from "./socket";

/** The duel runtime of each server context (tests run several servers in one process). */
const runtimes = new WeakMap<ModuleContext, DuelRuntime>();

/**
 * The one runtime, placed: with `ctx.cluster` the lobby is in Redis and every duel has one owner across processes
 * (`GameOwnership`, with its own process id: the rooms' ownership of the same process answers on its own reply
 * channel; `localFirstEmitter`: a duel whose two players are on its owner's process writes nothing to Redis);
 * without it all is in this process's memory.
 */
function placement(io: AppServer, ctx: ModuleContext, settings: DuelModuleSettings): DuelPlacement {
  const { cluster } = ctx;
  if (!cluster) {
    return {
      lobby: new MemoryDuelLobby(ctx.clock, settings.match),
      emitter: socketIoEmitter(io),
      directory: (opener) => new LocalGames({ games: { [DUEL_MODE]: opener }, log: ctx.log }),
    };
  }
  return {
    lobby: new SharedDuelLobby(cluster, settings.match),
    emitter: localFirstEmitter(io),
    directory: (opener) =>
      new GameOwnership({
        processId: `${cluster.processId}/duel`,
        prefix: cluster.prefix,
        redis: cluster.redis,
        subscriber: cluster.subscriber,
        games: { [DUEL_MODE]: opener },
        log: ctx.log,
      }),
  };
}

/** An async handler of a connection event: nothing may escape it. */
function guarded(ctx: ModuleContext, what: string, result: unknown) {
  if (result instanceof Promise) result.catch((error) => ctx.log.error(what, { error: String(error) }));
}

/** The duel module; tests pass shorter or simpler rules (a small word list, a short game). */
export function createDuelModule(overrides: Partial<DuelModuleSettings> = {}) {
  const settings: DuelModuleSettings = { ...DEFAULT_DUEL_SETTINGS, ...overrides };
  return defineModule({
    name: "duel",
    // accounts: identities on sockets, the users table, the login guard of `GET /api/duel/stats/me`. Not games: a
    // duel is not a typing-speed result and writes no game record (README "Storage").
    dependsOn: ["accounts"],
    migrations,
    pgMigrations,
    routes: duelRoutes,
    attachIo(io, ctx) {
      void runtimes.get(ctx)?.stop();
      runtimes.set(ctx, new DuelRuntime(io, ctx, settings, placement(io, ctx, settings)));
    },
    socketEvents(ctx) {
      const runtime = runtimes.get(ctx);
      return runtime ? duelSocketEvents(runtime) : {};
    },
    onConnect(socket, ctx) {
      guarded(ctx, "duel connect failed", runtimes.get(ctx)?.connect(socket));
    },
    onDisconnect(socket, _reason, ctx) {
      guarded(ctx, "duel disconnect failed", runtimes.get(ctx)?.disconnect(socket));
    },
    async onStop(ctx) {
      const runtime = runtimes.get(ctx);
      runtimes.delete(ctx);
      await runtime?.stop();
    },
  });
}

export const duelModule = createDuelModule();

/** This server's duel runtime (tests and diagnostics). */
export const duelRuntime = (ctx: ModuleContext) => runtimes.get(ctx);

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
export { DUEL_WORDS } from "./words";
