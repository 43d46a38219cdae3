import { defineModule, type ModuleContext } from "../kernel/define-module";
import type { AppServer } from "../kernel/socket";
import { ClusterDuelRuntime } from "./cluster-runtime";
import { migrations } from "./migrations";
import { migrations as pgMigrations } from "./migrations-pg";
import { duelRoutes } from "./routes";
import { DEFAULT_DUEL_SETTINGS, type DuelModuleSettings, DuelRuntime } from "./runtime";
import { duelSocketEvents } from "./socket";

/** Either runtime answers the same socket events: one process (memory) or several (`ctx.cluster`, Redis). */
export type AnyDuelRuntime = DuelRuntime | ClusterDuelRuntime;

/** The duel runtime of each server context (tests run several servers in one process). */
const runtimes = new WeakMap<ModuleContext, AnyDuelRuntime>();

/** With `ctx.cluster` the queue, the list and the duels are shared by every process; without it all is local. */
function createRuntime(io: AppServer, ctx: ModuleContext, settings: DuelModuleSettings): AnyDuelRuntime {
  return ctx.cluster ? new ClusterDuelRuntime(io, ctx, settings, ctx.cluster) : new DuelRuntime(io, ctx, settings);
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
      runtimes.set(ctx, createRuntime(io, ctx, settings));
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
