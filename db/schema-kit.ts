import {
  type $Type,
  type BuildColumns,
  type Column,
  type ColumnBuilderBase,
  type HasDefault,
  type NotNull,
  type SQL,
  sql,
} from "drizzle-orm";
import * as pg from "drizzle-orm/pg-core";
import * as sqlite from "drizzle-orm/sqlite-core";

/**
 * One description of a module's tables for both engines (db/README.md "One schema for both engines"). A module
 * writes `defineXTables(kit)` once with the kit's column and index functions; `schema.ts` calls it with `sqliteKit`
 * and `schema.pg.ts` with `pgKit` (drizzle-kit reads one file per dialect). What the engines spell differently is
 * decided here, once: an auto-increment key is SQLite's `integer primary key autoincrement` and PostgreSQL's
 * `serial`; a time is SQLite's integer milliseconds and PostgreSQL's `timestamptz(3)`, both read as Date; a float is
 * SQLite's `real` (8 bytes) and PostgreSQL's `double precision`; a boolean is SQLite's 0/1 integer.
 *
 * Types: a kit column carries the drizzle builder type of both engines (`Col<SqliteBuilder, PgBuilder>`), so a table
 * made by either kit has the exact type drizzle's own `sqliteTable`/`pgTable` would give it (stores are type-checked
 * against the columns on both engines; `tablesFor` checks that the two agree row for row).
 */
export type Dialect = "sqlite" | "pg";

type ReferenceActions = { onDelete?: pg.UpdateDeleteAction; onUpdate?: pg.UpdateDeleteAction };
type ValueOf<B extends ColumnBuilderBase> = B["_"] extends { $type: infer T } ? T : B["_"]["data"];
type PrimaryKeyOf<B> = B extends { primaryKey(...args: never[]): infer Key extends ColumnBuilderBase } ? Key : never;

/**
 * A column of both engines. Only a type: at run time it is the kit's engine's drizzle column builder, whose
 * modifiers change the builder and return it, as these do.
 */
export interface Col<S extends ColumnBuilderBase, P extends ColumnBuilderBase> {
  readonly builders?: { sqlite: S; pg: P };
  notNull(): Col<NotNull<S>, NotNull<P>>;
  default(value: ValueOf<S> | SQL): Col<HasDefault<S>, HasDefault<P>>;
  $type<T>(): Col<$Type<S, T>, $Type<P, T>>;
  primaryKey(): Col<PrimaryKeyOf<S>, PrimaryKeyOf<P>>;
  unique(): Col<S, P>;
  /** The target is typed loosely (any engine's column): inside a definition it is either engine's table. */
  references(target: () => Column, actions?: ReferenceActions): Col<S, P>;
}

// biome-ignore lint/suspicious/noExplicitAny: any column of any pair (the constraint of a table's column map)
type AnyCol = Col<any, any>;
type Columns = Record<string, AnyCol>;
type SqliteBuilders<C extends Columns> = { [K in keyof C]: NonNullable<C[K]["builders"]>["sqlite"] };
type PgBuilders<C extends Columns> = { [K in keyof C]: NonNullable<C[K]["builders"]>["pg"] };

/** The table `kit.table(name, columns)` makes: what `sqliteTable`/`pgTable` would return for the same columns. */
export type TableOf<D extends Dialect, N extends string, C extends Columns> = {
  sqlite: sqlite.SQLiteTableWithColumns<{
    name: N;
    schema: undefined;
    columns: BuildColumns<N, SqliteBuilders<C>, "sqlite">;
    dialect: "sqlite";
  }>;
  pg: pg.PgTableWithColumns<{
    name: N;
    schema: undefined;
    columns: BuildColumns<N, PgBuilders<C>, "pg">;
    dialect: "pg";
  }>;
}[D];

/** What an index, a composite key or a column of the extra-config callback is, on either engine (opaque here). */
declare const extra: unique symbol;
export interface TableExtra {
  readonly [extra]: true;
}
export interface IndexOn {
  on(...parts: [Column | SQL, ...(Column | SQL)[]]): IndexDef;
}
export interface IndexDef extends TableExtra {
  /** A partial index: only rows matching the condition (`sql\`deleted_at IS NULL\``). */
  where(condition: SQL): IndexDef;
}

export type TimestampOptions = {
  /**
   * PostgreSQL's own precision (microseconds) instead of milliseconds: only for a column first created that way
   * (changing it would be a migration for nothing, values are JS Dates either way). SQLite is unaffected.
   */
  pgDefaultPrecision?: true;
};
type TextOptions<E> = { enum?: E };

const sqliteColumns = {
  serialId: <N extends string>(name: N) => sqlite.integer(name).primaryKey({ autoIncrement: true }),
  integer: <N extends string>(name: N) => sqlite.integer(name),
  bigint: <N extends string>(name: N) => sqlite.integer(name),
  double: <N extends string>(name: N) => sqlite.real(name),
  boolean: <N extends string>(name: N) => sqlite.integer(name, { mode: "boolean" }),
  timestamp: <N extends string>(name: N, _options?: TimestampOptions) => sqlite.integer(name, { mode: "timestamp_ms" }),
  text: <N extends string, U extends string, E extends Readonly<[U, ...U[]]>>(name: N, options?: TextOptions<E>) =>
    sqlite.text(name, options ?? {}),
};

const pgColumns = {
  serialId: <N extends string>(name: N) => pg.serial(name).primaryKey(),
  integer: <N extends string>(name: N) => pg.integer(name),
  bigint: <N extends string>(name: N) => pg.bigint(name, { mode: "number" }),
  double: <N extends string>(name: N) => pg.doublePrecision(name),
  boolean: <N extends string>(name: N) => pg.boolean(name),
  timestamp: <N extends string>(name: N, options?: TimestampOptions) =>
    pg.timestamp(name, { withTimezone: true, mode: "date", ...(options?.pgDefaultPrecision ? {} : { precision: 3 }) }),
  text: <N extends string, U extends string, E extends Readonly<[U, ...U[]]>>(name: N, options?: TextOptions<E>) =>
    pg.text(name, options ?? {}),
};

type Builders<K extends keyof typeof sqliteColumns, N extends string> = {
  serialId: [ReturnType<typeof sqliteColumns.serialId<N>>, ReturnType<typeof pgColumns.serialId<N>>];
  integer: [ReturnType<typeof sqliteColumns.integer<N>>, ReturnType<typeof pgColumns.integer<N>>];
  bigint: [ReturnType<typeof sqliteColumns.bigint<N>>, ReturnType<typeof pgColumns.bigint<N>>];
  double: [ReturnType<typeof sqliteColumns.double<N>>, ReturnType<typeof pgColumns.double<N>>];
  boolean: [ReturnType<typeof sqliteColumns.boolean<N>>, ReturnType<typeof pgColumns.boolean<N>>];
  timestamp: [ReturnType<typeof sqliteColumns.timestamp<N>>, ReturnType<typeof pgColumns.timestamp<N>>];
}[Exclude<K, "text">];
type KitCol<K extends keyof typeof sqliteColumns, N extends string> = Col<Builders<K, N>[0], Builders<K, N>[1]>;

/** The column, index and table functions a module's `defineXTables(kit)` writes its tables with. */
export interface SchemaKit<D extends Dialect> {
  readonly dialect: D;
  table<N extends string, C extends Columns>(
    name: N,
    columns: C,
    extras?: (table: { [K in keyof C]: Column }) => TableExtra[],
  ): TableOf<D, N, C>;
  /** An auto-increment integer primary key (never reused on SQLite: `autoincrement`). */
  serialId<N extends string>(name: N): KitCol<"serialId", N>;
  integer<N extends string>(name: N): KitCol<"integer", N>;
  /** A 64-bit integer read as a JS number (SQLite's integers all are). */
  bigint<N extends string>(name: N): KitCol<"bigint", N>;
  /** An 8-byte float. */
  double<N extends string>(name: N): KitCol<"double", N>;
  boolean<N extends string>(name: N): KitCol<"boolean", N>;
  /** A time read as Date, kept to the millisecond. */
  timestamp<N extends string>(name: N, options?: TimestampOptions): KitCol<"timestamp", N>;
  text<N extends string, U extends string, E extends Readonly<[U, ...U[]]>>(
    name: N,
    options?: TextOptions<E>,
  ): Col<ReturnType<typeof sqliteColumns.text<N, U, E>>, ReturnType<typeof pgColumns.text<N, U, E>>>;
  index(name: string): IndexOn;
  uniqueIndex(name: string): IndexOn;
  primaryKey(config: { columns: [Column, ...Column[]] }): TableExtra;
  /** The current time as a column default (milliseconds on SQLite, like the timestamp columns). */
  readonly now: SQL;
  /**
   * An index part ordering text by code point, as SQLite (and Redis) always do: PostgreSQL orders by the database's
   * collation unless told `COLLATE "C"`, and a read ordered by code point could then not use the index.
   */
  codePointOrder(column: Column): Column | SQL;
  /**
   * `define(kit)` run once per kit: how a module reaches another owner's tables (`kit.once(defineCoreTables).users`)
   * and gets the very objects that owner's schema file exports.
   */
  once<T>(define: (kit: SchemaKit<D>) => T): T;
}

/** What an engine gives a kit: drizzle's functions of that dialect, and the kit's spellings for it. */
type Engine = {
  table(name: string, columns: never, extras?: never): unknown;
  columns: typeof sqliteColumns | typeof pgColumns;
  index(name: string): unknown;
  uniqueIndex(name: string): unknown;
  primaryKey(config: never): unknown;
  now: SQL;
  codePointOrder(column: Column): Column | SQL;
};

// A kit hands drizzle's own builders out as `Col`s and takes them back in `table`: the casts here are that one
// seam, between the pair-of-engines types above and each engine's builders.
function kitOf<D extends Dialect>(dialect: D, engine: Engine): SchemaKit<D> {
  const made = new Map<unknown, unknown>();
  const kit: SchemaKit<D> = {
    dialect,
    ...(engine.columns as unknown as Pick<SchemaKit<D>, keyof typeof sqliteColumns>),
    table: (name, columns, extras) => engine.table(name, columns as never, extras as never) as never,
    index: (name) => engine.index(name) as IndexOn,
    uniqueIndex: (name) => engine.uniqueIndex(name) as IndexOn,
    primaryKey: (config) => engine.primaryKey(config as never) as TableExtra,
    now: engine.now,
    codePointOrder: engine.codePointOrder,
    once: (define) => {
      if (!made.has(define)) made.set(define, define(kit));
      return made.get(define) as ReturnType<typeof define>;
    },
  };
  return kit;
}

export const sqliteKit = kitOf("sqlite", {
  table: sqlite.sqliteTable,
  columns: sqliteColumns,
  index: sqlite.index,
  uniqueIndex: sqlite.uniqueIndex,
  primaryKey: sqlite.primaryKey,
  now: sql`(unixepoch('subsec') * 1000)`,
  codePointOrder: (column) => column,
});

export const pgKit = kitOf("pg", {
  table: pg.pgTable,
  columns: pgColumns,
  index: pg.index,
  uniqueIndex: pg.uniqueIndex,
  primaryKey: pg.primaryKey,
  now: sql`now()`,
  codePointOrder: (column) => sql`${column} COLLATE "C"`,
});
