import { defineModule, type ModuleContext } from "../kernel/define-module";
import { migrations } from "./migrations";
import { migrations as pgMigrations } from "./migrations-pg";
import { duelRoutes } from "./routes";
import { DEFAULT_DUEL_SETTINGS, type DuelModuleSettings, DuelRuntime } from "./runtime";
import { duelSocketEvents } from "./socket";

/** The duel runtime of each server context (tests run several servers in one process). */
const runtimes = new WeakMap<ModuleContext, DuelRuntime>();

/** The duel module; tests pass shorter or simpler rules (a small word list, a short game). */
export function createDuelModule(overrides: Partial<DuelModuleSettings> = {}) {
  const settings: DuelModuleSettings = { ...DEFAULT_DUEL_SETTINGS, ...overrides };
  return defineModule({
    name: "duel",
    // accounts: identities on sockets and the users table; games: the profile's records of stored duels.
    dependsOn: ["accounts", "games"],
    migrations,
    pgMigrations,
    routes: duelRoutes,
    attachIo(io, ctx) {
      runtimes.get(ctx)?.stop();
      runtimes.set(ctx, new DuelRuntime(io, ctx, settings));
    },
    socketEvents(ctx) {
      const runtime = runtimes.get(ctx);
      return runtime ? duelSocketEvents(runtime) : {};
    },
    onConnect(socket, ctx) {
      runtimes.get(ctx)?.connect(socket);
    },
    onDisconnect(socket, _reason, ctx) {
      runtimes.get(ctx)?.disconnect(socket);
    },
    onStop(ctx) {
      runtimes.get(ctx)?.stop();
      runtimes.delete(ctx);
    },
  });
}

export const duelModule = createDuelModule();

/** This server's duel runtime (tests and diagnostics). */
export const duelRuntime = (ctx: ModuleContext) => runtimes.get(ctx);

// The public API other modules may use.
export { duelRanking, duelStatsOf, RANKING_DEFAULTS, type RankingOptions } from "./api";
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
