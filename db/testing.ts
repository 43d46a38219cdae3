import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ContextOptions, closeContext, createContext, seedAll } from "../apps/server/context";
import { modules as allModules } from "../apps/server/modules";
import { type Config, loadConfig } from "../modules/kernel/config";
import type { AppModule } from "../modules/kernel/define-module";
import type { SqlDatabase, SqliteDatabase } from "./database";
import { createPgTestDatabase, migratedPgTemplate } from "./testing-pg";

/**
 * The engine the tests of this run use: `npm test` runs the suite once on SQLite and once with
 * TEST_DATABASE=postgres (on the PostgreSQL server it started, TEST_POSTGRES_URL).
 */
export const testEngine = (): "sqlite" | "postgres" =>
  process.env.TEST_DATABASE === "postgres" ? "postgres" : "sqlite";

/** A fresh data folder with its own SQLite file; removed by `cleanup`. Always SQLite (see `testConfig`). */
export function tempConfig(overrides: Record<string, string> = {}): Config & { cleanup(): void } {
  const dataDir = mkdtempSync(join(tmpdir(), "tajamadang-test-"));
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: "0",
    HOST: "127.0.0.1",
    NODE_ENV: "test",
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "error",
    JWT_SECRET: `test-secret-${crypto.randomUUID()}-${crypto.randomUUID()}`,
    WEB_DIST: join(import.meta.dir, "../dist/web"),
    // Test servers share the run's Redis: each deployment (one test, or the processes of one cluster test) has its own.
    REDIS_PREFIX: `test:${crypto.randomUUID().slice(0, 8)}:`,
    ...overrides,
  });
  return { ...config, cleanup: () => rmSync(dataDir, { recursive: true, force: true }) };
}

/**
 * A fresh data folder and a fresh database on the engine of this run (`testEngine`): on PostgreSQL a new, empty
 * database (DATABASE_URL) that `cleanup` drops. Overrides win, so a test may pin its own DATABASE_URL. `migrated`:
 * on PostgreSQL the database is a copy of one migrated for every module (the context that opens it finds nothing
 * to migrate); tests of migrations themselves keep an empty one.
 */
export async function testConfig(
  overrides: Record<string, string> = {},
  { migrated = false } = {},
): Promise<Config & { cleanup(): Promise<void> }> {
  const usesPg = testEngine() === "postgres" && !("DATABASE_URL" in overrides);
  const template = usesPg && migrated ? await migratedPgTemplate(migrateEveryModule) : undefined;
  const pg = usesPg ? await createPgTestDatabase(template) : null;
  const config = tempConfig(pg ? { DATABASE_URL: pg.url, ...overrides } : overrides);
  return {
    ...config,
    async cleanup() {
      config.cleanup();
      await pg?.drop();
    },
  };
}

/** Opens a context on `url` with every module (which migrates it), then closes it. */
async function migrateEveryModule(url: string) {
  const config = tempConfig({ DATABASE_URL: url });
  try {
    await closeContext(await createContext(config, allModules));
  } finally {
    config.cleanup();
  }
}

/** A migrated (and optionally seeded) context on a fresh database of this run's engine, for tests without HTTP. */
export async function createTestContext(
  options: ContextOptions & { modules?: readonly AppModule[]; seed?: boolean } = {},
) {
  const config = await testConfig({}, { migrated: true });
  const modules = options.modules ?? allModules;
  const ctx = await createContext(config, modules, options);
  if (options.seed) await seedAll(ctx, modules);
  return {
    ctx,
    async cleanup() {
      await closeContext(ctx);
      await config.cleanup();
    },
  };
}

/** The raw SQLite handles of a context, for tests and benches that are about SQLite itself (throws on PostgreSQL). */
export function sqliteOf(ctx: { database: SqlDatabase }): SqliteDatabase {
  if (ctx.database.dialect !== "sqlite") throw new Error("this needs the SQLite engine");
  return ctx.database;
}
