import { openDatabase } from "../../db/client";
import { migrateAll } from "../../db/migrate";
import { type Clock, createRandom, type Random, systemClock } from "../../modules/kernel/clock";
import type { Config } from "../../modules/kernel/config";
import { type AppModule, type ModuleContext, orderModules } from "../../modules/kernel/define-module";
import { EventBus } from "../../modules/kernel/events";
import { createLogger, type Logger } from "../../modules/kernel/logger";

export interface ContextOptions {
  clock?: Clock;
  random?: Random;
  log?: Logger;
}

/** Opens the database (pragmas checked), applies every migration and builds the shared module context. */
export function createContext(config: Config, modules: readonly AppModule[], options: ContextOptions = {}) {
  const log = options.log ?? createLogger(config.logLevel);
  const { sqlite, db } = openDatabase(config.databaseFile);
  migrateAll(db, modules);
  const ctx: ModuleContext = {
    db,
    sqlite,
    config,
    log,
    clock: options.clock ?? systemClock,
    random: options.random ?? createRandom(),
    events: new EventBus((event, error) => log.error("event handler failed", { event, error: String(error) })),
  };
  return ctx;
}

/** Every module's idempotent seed, in dependency order. */
export async function seedAll(ctx: ModuleContext, modules: readonly AppModule[]) {
  for (const module of orderModules(modules)) await module.seed?.(ctx);
}
