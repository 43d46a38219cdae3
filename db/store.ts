import type { PgTable } from "drizzle-orm/pg-core";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "./client";
import type { SqlDatabase } from "./database";

/**
 * What a store writes with, on either engine: the drizzle handle typed by the SQLite schema. The query builders
 * take the same calls on both dialects, so a store method is written once (`await db.select()…`, `.returning()`,
 * `onConflictDoNothing/DoUpdate`); the run of every test file on both engines (`npm test`) catches a dialect slip.
 * Never bun:sqlite's synchronous `.get()/.all()/.run()` here: they do not exist on PostgreSQL.
 */
export type StoreDb = Db;

/** The handle for reads outside a transaction (see db/README.md: on SQLite such a read may see uncommitted rows). */
export const storeDb = (database: SqlDatabase): StoreDb => database.db as unknown as StoreDb;

/** One unit of work on either engine (nested calls join the outer transaction). */
export const inTransaction = <T>(database: SqlDatabase, fn: (db: StoreDb) => Promise<T>): Promise<T> =>
  database.transaction((db) => fn(db as unknown as StoreDb));

/**
 * The PostgreSQL tables that stand for SQLite ones: the same names, each table a PostgreSQL table whose rows have
 * the SQLite table's row type (both come from one `defineXTables(kit)`; db/schema-parity.test.ts compares them
 * column by column).
 */
export type PgTwin<Sqlite> = {
  [Name in keyof Sqlite]: Sqlite[Name] extends SQLiteTable
    ? PgTable & { $inferSelect: Sqlite[Name]["$inferSelect"] }
    : unknown;
};

/**
 * A module's tables for the engine in use: its `schema.pg.ts` tables on PostgreSQL, typed as its `schema.ts` ones,
 * since a store is written once against the SQLite-typed handle (`StoreDb`); `PgTwin` checks the pair row for row.
 */
export const tablesFor = <Sqlite extends object>(database: SqlDatabase, sqlite: Sqlite, pg: PgTwin<Sqlite>): Sqlite =>
  database.dialect === "pg" ? (pg as unknown as Sqlite) : sqlite;

/**
 * A module's store, made once per database and kept as long as it (its SQLite statements are prepared once per
 * connection): `export const thingsStoreOf = onePerDatabase(createThingsStore)`.
 */
export function onePerDatabase<Store>(create: (database: SqlDatabase) => Store): (database: SqlDatabase) => Store {
  const stores = new WeakMap<SqlDatabase, Store>();
  return (database) => {
    let store = stores.get(database);
    if (!store) {
      store = create(database);
      stores.set(database, store);
    }
    return store;
  };
}
