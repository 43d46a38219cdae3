import { defineModule, type ModuleContext } from "../kernel/define-module";
import { localFirstEmitter, socketIoEmitter } from "../kernel/game-host";
import { runtimeOf } from "../kernel/module-runtime";
import { migrations } from "./migrations";
import { migrations as pgMigrations } from "./migrations-pg";
import { dailyRoutes } from "./routes";
import { DailyRuntime, type DailyRuntimeSettings, DEFAULT_DAILY_RUNTIME } from "./runtime";
import "./wire";

/** 오늘의 문장 with its tunables (tests shorten the grace or the close's delay). */
export function createDailyModule(overrides: Partial<DailyRuntimeSettings> = {}) {
  const settings = { ...DEFAULT_DAILY_RUNTIME, ...overrides };
  return defineModule({
    name: "daily",
    dependsOn: ["accounts", "games", "rooms"],
    migrations,
    pgMigrations,
    routes: dailyRoutes,
    // With several processes a player's tabs may be on several: the game's output goes through the adapter then
    // (and through this process alone while every tab is on the game's owner).
    runtime: (io, ctx, games) =>
      new DailyRuntime(ctx, games, ctx.cluster ? localFirstEmitter(io) : socketIoEmitter(io), settings),
  });
}

export const dailyModule = createDailyModule();

/** The live runtime of a server (tests). */
export const dailyRuntime = (ctx: ModuleContext) => runtimeOf<DailyRuntime>(ctx, "daily");

// The public API other modules may use.
export { bestOfPlayer, boardOf, closePastDays, dailyOverview, dayOf } from "./api";
export { dailyMode } from "./daily-mode";
export { DAILY_RULES } from "./rules";
export type * from "./wire";
