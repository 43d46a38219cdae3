import { openDatabase } from "../../db/client";
import { postgresDatabase, type SqlDatabase, sqliteDatabase } from "../../db/database";
import { migrateAll } from "../../db/migrate";
import { migrateAllPg, openPostgres, withMigrationLock } from "../../db/postgres";
import { type Clock, createRandom, type Random, systemClock } from "../../modules/kernel/clock";
import { openCluster } from "../../modules/kernel/cluster";
import type { Config } from "../../modules/kernel/config";
import { type AppModule, type ModuleContext, orderModules } from "../../modules/kernel/define-module";
import { EventBus } from "../../modules/kernel/events";
import { createLogger, type Logger } from "../../modules/kernel/logger";

export interface ContextOptions {
  clock?: Clock;
  random?: Random;
  log?: Logger;
}

/**
 * Opens the database of the configuration and applies every migration: PostgreSQL when `DATABASE_URL` is set,
 * otherwise the embedded SQLite file (pragmas checked).
 */
export async function openAppDatabase(config: Config, modules: readonly AppModule[]): Promise<SqlDatabase> {
  if (config.databaseUrl) {
    const missing = modules.filter((m) => m.migrations && !m.pgMigrations).map((m) => m.name);
    if (missing.length > 0) throw new Error(`modules without PostgreSQL migrations: ${missing.join(", ")}`);
    const { client, db } = openPostgres(config.databaseUrl);
    const database = postgresDatabase(db, () => client.end({ timeout: 5 }));
    try {
      await withMigrationLock(client, () => migrateAllPg(db, modules));
    } catch (error) {
      await database.close();
      throw error;
    }
    return database;
  }
  const { sqlite, db } = openDatabase(config.databaseFile);
  migrateAll(db, modules);
  return sqliteDatabase(sqlite, db);
}

/** Opens and migrates the database and builds the shared module context. */
export async function createContext(config: Config, modules: readonly AppModule[], options: ContextOptions = {}) {
  const log = options.log ?? createLogger(config.logLevel);
  const database = await openAppDatabase(config, modules);
  let cluster = null;
  try {
    cluster = config.redisUrl ? await openCluster(config.redisUrl, log, { prefix: config.redisPrefix }) : null;
  } catch (error) {
    await database.close();
    throw error;
  }
  const ctx: ModuleContext = {
    database,
    config,
    cluster,
    log,
    clock: options.clock ?? systemClock,
    random: options.random ?? createRandom(),
    events: new EventBus((event, error) => log.error("event handler failed", { event, error: String(error) })),
  };
  return ctx;
}

/** Closes what `createContext` opened: Redis (after the modules' onStop released their leases), then the database. */
export async function closeContext(ctx: ModuleContext) {
  await ctx.cluster?.close();
  await ctx.database.close();
}

/** Every module's idempotent seed, in dependency order. */
export async function seedAll(ctx: ModuleContext, modules: readonly AppModule[]) {
  for (const module of orderModules(modules)) await module.seed?.(ctx);
}
