import type { Database as BunDatabase } from "bun:sqlite";
import { AsyncLocalStorage } from "node:async_hooks";
import { sql } from "drizzle-orm";
import type { Db } from "./client";
import type { PgDb } from "./postgres";

/**
 * One handle on either engine, for stores written once (issue 11's plan, see db/README.md):
 * - a store method awaits drizzle builders (`await db.select()…`, `.returning()`), never bun:sqlite's synchronous
 *   `.get()/.all()/.run()`, so the same code runs on both engines;
 * - `transaction(fn)` is the unit of work on both: PostgreSQL's own transaction, and on SQLite `BEGIN IMMEDIATE` …
 *   `COMMIT` under an async lock. bun:sqlite has one connection, so without the lock another task's statement could
 *   run between two awaits of the transaction and be committed (or rolled back) with it; drizzle's own SQLite
 *   transaction commits at the first await (stack-notes.md).
 * The lock costs nothing measurable: 20,000 transactions of an insert and an update took 17–22 µs each with it,
 * 23 µs with drizzle's synchronous transaction (bun 1.4.5, in memory).
 */
export type SqlDatabase = SqliteDatabase | PostgresDatabase;

interface Common<D> {
  /** Runs `fn` in one transaction; a throw rolls it back and rethrows. Nested calls join the outer one. */
  transaction<T>(fn: (db: D) => Promise<T>): Promise<T>;
  /** True when a trivial query answers (the health route). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface SqliteDatabase extends Common<Db> {
  dialect: "sqlite";
  db: Db;
  sqlite: BunDatabase;
}

export interface PostgresDatabase extends Common<PgDb> {
  dialect: "pg";
  db: PgDb;
}

/** An async lock: callers run one at a time, in call order. */
export function createLock() {
  let tail: Promise<unknown> = Promise.resolve();
  return function withLock<T>(fn: () => Promise<T>): Promise<T> {
    const run = tail.then(fn, fn);
    tail = run.catch(() => {});
    return run;
  };
}

export function sqliteDatabase(sqlite: BunDatabase, db: Db): SqliteDatabase {
  const withLock = createLock();
  // Marks the async context of a running transaction, so a nested call joins it while any other caller waits.
  const inside = new AsyncLocalStorage<true>();
  return {
    dialect: "sqlite",
    db,
    sqlite,
    async transaction(fn) {
      // Called from inside one of our transactions (the lock is held by the outer call): join it, don't deadlock.
      if (inside.getStore()) return fn(db);
      return withLock(() =>
        inside.run(true, async () => {
          sqlite.run("BEGIN IMMEDIATE");
          try {
            const result = await fn(db);
            sqlite.run("COMMIT");
            return result;
          } catch (error) {
            sqlite.run("ROLLBACK");
            throw error;
          }
        }),
      );
    },
    async ping() {
      try {
        return (sqlite.query("SELECT 1 AS ok").get() as { ok: number }).ok === 1;
      } catch {
        return false;
      }
    },
    async close() {
      sqlite.close();
    },
  };
}

export function postgresDatabase(db: PgDb, end: () => Promise<void>): PostgresDatabase {
  const ping = async () => {
    try {
      await db.execute(sql`SELECT 1`);
      return true;
    } catch {
      return false;
    }
  };
  // The transaction of the current async context, so a nested call joins it (as on SQLite).
  const current = new AsyncLocalStorage<PgDb>();
  return {
    dialect: "pg",
    db,
    transaction(fn) {
      const outer = current.getStore();
      if (outer) return fn(outer);
      return db.transaction((tx) => current.run(tx as unknown as PgDb, () => fn(tx as unknown as PgDb)));
    },
    ping,
    close: end,
  };
}
