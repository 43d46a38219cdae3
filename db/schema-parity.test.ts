import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { sql } from "drizzle-orm";
import * as pg from "drizzle-orm/pg-core";
import * as sqlite from "drizzle-orm/sqlite-core";
import { type ColumnShape, engineOf, type TableShape, tableShape } from "./table-shape";

/**
 * Each schema owner's SQLite and PostgreSQL tables (its `schema.ts` and `schema.pg.ts`, both made by one
 * `defineXTables(kit)`) must be the same tables: same exports, table names, columns (names, value kinds,
 * nullability, defaults, keys, enums), composite keys, unique constraints, indexes and foreign keys. A column, index
 * or key written for one engine only fails here, whichever way it got there.
 */

const root = resolve(import.meta.dir, "..");
// The owners `bun run db:generate` generates migrations for (scripts/db-generate.ts).
const owners = [
  "db/core",
  ...readdirSync(join(root, "modules"))
    .map((name) => `modules/${name}`)
    .filter((dir) => existsSync(join(root, dir, "drizzle.config.ts"))),
];

/**
 * The differences the engines have on purpose; the kit (db/schema-kit.ts) writes each one, and only these are
 * forgiven. Column types, per drizzle value kind: the SQLite type and the PostgreSQL types that stand for it.
 */
const ENGINE_TYPES: Record<string, { sqlite: string; pg: string[]; why: string }> = {
  number: {
    sqlite: "integer",
    pg: ["integer", "serial", "bigint"],
    why: "SQLite's integer is 8 bytes; an auto-increment key is PostgreSQL's serial (kit.serialId)",
  },
  "number:real": { sqlite: "real", pg: ["double precision"], why: "SQLite's real is 8 bytes, PostgreSQL's is 4" },
  string: { sqlite: "text", pg: ["text"], why: "the same" },
  boolean: { sqlite: "integer", pg: ["boolean"], why: "SQLite has no boolean: 0/1" },
  date: {
    sqlite: "integer",
    pg: ["timestamp (3) with time zone", "timestamp with time zone"],
    why: "SQLite has no time type: milliseconds; PostgreSQL's timestamptz (kit.timestamp's pgDefaultPrecision)",
  },
};

/** Column defaults that are the same value written per engine. */
const SAME_DEFAULTS: Record<string, string> = {
  // kit.now: the current time, in milliseconds on SQLite like the timestamp columns.
  "(unixepoch('subsec') * 1000)": "<now>",
  "now()": "<now>",
};

/**
 * Index parts: kit.codePointOrder orders text by code point, which SQLite always does (the bare column) and
 * PostgreSQL is told (`"table"."column" COLLATE "C"`).
 */
const indexPart = (part: string) => part.replace(/^"[^"]+"\."([^"]+)" COLLATE "C"$/, "$1");

function columnTypeProblem(s: ColumnShape, p: ColumnShape): string | null {
  const kind = s.dataType === "number" && s.sqlType === "real" ? "number:real" : s.dataType;
  const allowed = ENGINE_TYPES[kind];
  if (!allowed) return `${s.name}: no engine pair is known for ${kind} columns (add it to ENGINE_TYPES with a reason)`;
  if (s.sqlType !== allowed.sqlite || !allowed.pg.includes(p.sqlType)) {
    return `${s.name}: SQLite ${s.sqlType} against PostgreSQL ${p.sqlType} (a ${kind} column is ${allowed.sqlite} / ${allowed.pg.join(" or ")})`;
  }
  return null;
}

/** The shape with the engine's spelling taken out: what must be equal. */
function comparable(shape: TableShape) {
  return {
    ...shape,
    columns: shape.columns.map(({ sqlType: _engineType, ...column }) => ({
      ...column,
      default: column.default === null ? null : (SAME_DEFAULTS[column.default] ?? column.default),
    })),
    indexes: shape.indexes.map((index) => ({ ...index, on: index.on.map(indexPart) })),
  };
}

/** What differs between a SQLite table and a PostgreSQL table beyond the engines' intended differences. */
export function engineDifferences(sqliteTable: sqlite.SQLiteTable, pgTable: pg.PgTable): string[] {
  const s = tableShape(sqliteTable);
  const p = tableShape(pgTable);
  const problems: string[] = [];
  for (const column of s.columns) {
    const twin = p.columns.find((other) => other.name === column.name);
    const problem = twin && columnTypeProblem(column, twin);
    if (problem) problems.push(problem);
  }
  const a = comparable(s);
  const b = comparable(p);
  for (const part of ["name", "columns", "primaryKeys", "uniqueConstraints", "indexes", "foreignKeys"] as const) {
    if (!Bun.deepEquals(a[part], b[part])) {
      problems.push(`${part}: SQLite ${JSON.stringify(a[part])} PostgreSQL ${JSON.stringify(b[part])}`);
    }
  }
  return problems;
}

async function tablesOf(file: string, engine: "sqlite" | "pg") {
  const exports: Record<string, unknown> = await import(file);
  return new Map(Object.entries(exports).filter(([, value]) => engineOf(value) === engine) as [string, never][]);
}

describe("every schema owner's tables are the same on SQLite and PostgreSQL", () => {
  test("the owners are found", () => {
    expect(owners).toContain("db/core");
    expect(owners.length).toBeGreaterThan(5);
  });

  for (const owner of owners) {
    test(owner, async () => {
      expect(existsSync(join(root, owner, "drizzle.pg.config.ts"))).toBe(true);
      const sqliteTables = await tablesOf(join(root, owner, "schema.ts"), "sqlite");
      const pgTables = await tablesOf(join(root, owner, "schema.pg.ts"), "pg");
      expect(sqliteTables.size).toBeGreaterThan(0);
      expect([...pgTables.keys()].sort()).toEqual([...sqliteTables.keys()].sort());
      for (const [name, table] of sqliteTables) {
        expect({ table: name, differences: engineDifferences(table, pgTables.get(name) as never) }).toEqual({
          table: name,
          differences: [],
        });
      }
    });
  }
});

describe("the comparison itself", () => {
  const sqliteThings = sqlite.sqliteTable(
    "things",
    {
      id: sqlite.integer("id").primaryKey({ autoIncrement: true }),
      name: sqlite.text("name").notNull(),
      at: sqlite.integer("at", { mode: "timestamp_ms" }).notNull().default(sql`(unixepoch('subsec') * 1000)`),
    },
    (table) => [sqlite.index("things_name_idx").on(table.name)],
  );
  const pgColumns = {
    id: pg.serial("id").primaryKey(),
    name: pg.text("name").notNull(),
    at: pg.timestamp("at", { withTimezone: true, precision: 3, mode: "date" }).notNull().defaultNow(),
  };

  test("accepts the engines' intended differences", () => {
    const twin = pg.pgTable("things", pgColumns, (table) => [pg.index("things_name_idx").on(table.name)]);
    expect(engineDifferences(sqliteThings, twin)).toEqual([]);
  });

  test("finds a column, a nullability, an index or a type only one engine has", () => {
    const extraColumn = pg.pgTable("things", { ...pgColumns, note: pg.text("note") }, (table) => [
      pg.index("things_name_idx").on(table.name),
    ]);
    const nullable = pg.pgTable("things", { ...pgColumns, name: pg.text("name") }, (table) => [
      pg.index("things_name_idx").on(table.name),
    ]);
    const noIndex = pg.pgTable("things", pgColumns);
    const wrongType = pg.pgTable("things", { ...pgColumns, at: pg.text("at").notNull().default("now") }, (table) => [
      pg.index("things_name_idx").on(table.name),
    ]);
    for (const table of [extraColumn, nullable, noIndex, wrongType]) {
      expect(engineDifferences(sqliteThings, table).length).toBeGreaterThan(0);
    }
  });
});
