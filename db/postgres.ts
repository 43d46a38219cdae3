import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import type { AppModule, MigrationBundle } from "../modules/kernel/define-module";
import { orderModules } from "../modules/kernel/define-module";
import { migrations as coreMigrations } from "./core/migrations-pg";
import { type MigrationMeta, toMigrationMetas } from "./migrate";

/**
 * PostgreSQL through the `postgres` driver (porsager/postgres: maintained, pure JS, works under Bun) and
 * drizzle's pg dialect. Used when `DATABASE_URL=postgres://…` is set; SQLite stays the embedded default.
 */
export type PgDb = ReturnType<typeof drizzle>;

export function openPostgres(url: string, options: { max?: number } = {}) {
  // Notices (e.g. "relation already exists, skipping") are not errors; keep them out of the logs.
  const client = postgres(url, { max: options.max ?? 10, onnotice: () => {} });
  return { client, db: drizzle({ client }) };
}

/** Any constant: the key of the advisory lock every process of a deployment takes to migrate. */
const MIGRATION_LOCK = 7_170_613;

/**
 * Runs `migrate` while holding a PostgreSQL advisory lock on a connection of its own: processes started together
 * migrate one after the other (the later ones find nothing left to apply) instead of racing on the same tables.
 */
export async function withMigrationLock<T>(client: postgres.Sql, migrate: () => Promise<T>): Promise<T> {
  const lockHolder = await client.reserve();
  try {
    await lockHolder`SELECT pg_advisory_lock(${MIGRATION_LOCK})`;
    return await migrate();
  } finally {
    await lockHolder`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`.catch(() => {});
    lockHolder.release();
  }
}

type PgMigratable = {
  dialect: {
    migrate(
      m: MigrationMeta[],
      session: unknown,
      config: { migrationsTable: string; migrationsSchema: string },
    ): Promise<void>;
  };
  session: unknown;
};

/**
 * The PostgreSQL counterpart of `migrateAll`: core first, then each module's `pgMigrations` in dependency order,
 * each owner with its own tracking table (`public.__migrations_<name>`), for the same reason as on SQLite.
 */
export async function migrateAllPg(db: PgDb, modules: readonly AppModule[]): Promise<string[]> {
  const applied: string[] = [];
  const run = async (name: string, bundle: MigrationBundle) => {
    const { dialect, session } = db as unknown as PgMigratable;
    await dialect.migrate(toMigrationMetas(bundle), session, {
      migrationsTable: `__migrations_${name}`,
      migrationsSchema: "public",
    });
    applied.push(name);
  };
  await run("core", coreMigrations);
  for (const module of orderModules(modules)) if (module.pgMigrations) await run(module.name, module.pgMigrations);
  return applied;
}

/**
 * True when a write failed on a unique index, on either engine (drizzle wraps the driver's error: PostgreSQL's
 * SQLSTATE 23505 sits on `cause`; bun:sqlite says "UNIQUE constraint failed"). Stores use it to turn a race
 * between two writers into the same answer as the check that lost it.
 */
export function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === "23505") return true;
    if (/UNIQUE constraint failed/.test(String((e as { message?: unknown }).message ?? ""))) return true;
  }
  return false;
}
