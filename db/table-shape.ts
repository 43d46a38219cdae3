import { type Column, is, SQL } from "drizzle-orm";
import { PgDialect, PgTable, getTableConfig as pgTableConfig } from "drizzle-orm/pg-core";
import { SQLiteSyncDialect, SQLiteTable, getTableConfig as sqliteTableConfig } from "drizzle-orm/sqlite-core";

/**
 * What a drizzle table says about itself (`getTableConfig`), as plain data that two engines' tables can be compared
 * by: db/schema-parity.test.ts compares each module's SQLite and PostgreSQL tables with it. SQL fragments (defaults,
 * index expressions, partial-index conditions) are rendered by the table's own dialect.
 */
export type TableShape = {
  name: string;
  columns: ColumnShape[];
  /** Composite primary keys (a one-column key is the column's `primaryKey`). */
  primaryKeys: string[][];
  uniqueConstraints: { name: string | undefined; columns: string[] }[];
  indexes: { name: string; unique: boolean; on: string[]; where: string | null }[];
  foreignKeys: {
    name: string;
    columns: string[];
    foreignTable: string;
    foreignColumns: string[];
    /** `no action` when none is given (SQL's default; drizzle leaves it unset on SQLite and sets it on pg). */
    onDelete: string;
    onUpdate: string;
  }[];
};

export type ColumnShape = {
  /** The property the code reads the column by. */
  key: string;
  name: string;
  /** Drizzle's value kind: what a row holds (`string`, `number`, `boolean`, `date`…), the same on both engines. */
  dataType: string;
  /** The engine's column type (`integer`, `timestamp (3) with time zone`…): differs by engine on purpose. */
  sqlType: string;
  notNull: boolean;
  primaryKey: boolean;
  unique: boolean;
  enumValues: string[] | null;
  /** A literal default as JSON, an SQL default as its text; null when the column has none. */
  default: string | null;
};

export type Engine = "sqlite" | "pg";

export const engineOf = (table: unknown): Engine | null =>
  is(table, SQLiteTable) ? "sqlite" : is(table, PgTable) ? "pg" : null;

export function tableShape(table: SQLiteTable | PgTable): TableShape {
  const engine = engineOf(table);
  const config = is(table, SQLiteTable) ? sqliteTableConfig(table) : pgTableConfig(table as PgTable);
  const dialect = engine === "sqlite" ? new SQLiteSyncDialect() : new PgDialect();
  const render = (fragment: SQL) => dialect.sqlToQuery(fragment).sql;
  const keyOf = new Map(Object.entries(table).map(([key, column]) => [column, key]));
  const names = (columns: Column[]) => columns.map((column) => column.name);
  return {
    name: config.name,
    columns: config.columns.map((column) => ({
      key: keyOf.get(column) ?? column.name,
      name: column.name,
      dataType: column.dataType,
      sqlType: column.getSQLType(),
      notNull: column.notNull,
      primaryKey: column.primary,
      unique: column.isUnique,
      enumValues: column.enumValues ? [...column.enumValues] : null,
      default: is(column.default, SQL)
        ? render(column.default)
        : column.default === undefined
          ? null
          : JSON.stringify(column.default),
    })),
    primaryKeys: config.primaryKeys.map((key) => names(key.columns)),
    uniqueConstraints: config.uniqueConstraints.map((constraint) => ({
      name: constraint.name,
      columns: names(constraint.columns),
    })),
    indexes: config.indexes.map(({ config: index }) => ({
      name: index.name ?? "",
      unique: index.unique,
      on: index.columns.map((part) => (is(part, SQL) ? render(part) : ((part as Column).name ?? "?"))),
      where: index.where ? render(index.where) : null,
    })),
    foreignKeys: config.foreignKeys.map((key) => {
      const reference = key.reference();
      return {
        name: key.getName(),
        columns: names(reference.columns),
        foreignTable: (is(reference.foreignTable, SQLiteTable)
          ? sqliteTableConfig(reference.foreignTable)
          : pgTableConfig(reference.foreignTable as PgTable)
        ).name,
        foreignColumns: names(reference.foreignColumns),
        onDelete: key.onDelete ?? "no action",
        onUpdate: key.onUpdate ?? "no action",
      };
    }),
  };
}
