import { createHash } from "node:crypto";
import type { AppModule, MigrationBundle } from "../modules/kernel/define-module";
import { orderModules } from "../modules/kernel/define-module";
import type { Db } from "./client";
import { migrations as coreMigrations } from "./core/migrations";

export type MigrationMeta = { sql: string[]; bps: boolean; folderMillis: number; hash: string };

/** Drizzle's migration records from SQL embedded at build time (the same for both dialects). */
export function toMigrationMetas(bundle: MigrationBundle): MigrationMeta[] {
  return bundle.journal.entries.map((entry) => {
    const sql = bundle.sql[entry.tag];
    if (sql === undefined) throw new Error(`migration ${entry.tag} is in the journal but its SQL is not embedded`);
    return {
      sql: sql.split("--> statement-breakpoint"),
      bps: entry.breakpoints,
      folderMillis: entry.when,
      hash: createHash("sha256").update(sql).digest("hex"),
    };
  });
}

// Drizzle's dialect.migrate is the same routine its file-based migrator calls; we feed it embedded SQL.
type Migratable = {
  dialect: { migrate(m: MigrationMeta[], session: unknown, config: { migrationsTable: string }): void };
  session: unknown;
};

/**
 * Applies the core tables, then each module's migrations in dependency order. Every owner has its own
 * tracking table (`__migrations_<name>`): Drizzle applies only migrations newer than the newest row of its
 * table, so a shared table would silently skip an older module's new migration.
 */
export function migrateAll(db: Db, modules: readonly AppModule[]): string[] {
  const applied: string[] = [];
  const run = (name: string, bundle: MigrationBundle) => {
    (db as unknown as Migratable).dialect.migrate(toMigrationMetas(bundle), (db as unknown as Migratable).session, {
      migrationsTable: `__migrations_${name}`,
    });
    applied.push(name);
  };
  run("core", coreMigrations);
  for (const module of orderModules(modules)) if (module.migrations) run(module.name, module.migrations);
  return applied;
}
