import { and, asc, count, desc, eq, gte, max, or, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { UserRow } from "../../db/core/schema";
import * as coreSqlite from "../../db/core/schema";
import * as corePg from "../../db/core/schema.pg";
import type { SqlDatabase } from "../../db/database";
import { inTransaction, type StoreDb, storeDb, tablesFor } from "../../db/store";
import { DAY_MS, SEOUL_OFFSET_MS } from "../kernel/seoul-time";
import type { UserSortField } from "./model";
import type { AdminLogRow } from "./schema";
import * as sqliteSchema from "./schema";
import * as pgSchema from "./schema.pg";

export type NewAdminLog = Omit<AdminLogRow, "id">;

export interface UserFilter {
  /** Substring of the username or the e-mail. */
  search?: string;
  /** Substring of the username only. */
  searchUsername?: string;
  isActive?: boolean;
}

export interface UserPage {
  filter: UserFilter;
  sortBy: UserSortField;
  sortOrder: "asc" | "desc";
  limit: number;
  offset: number;
}

export interface LogPage {
  action?: string;
  targetUserId?: number;
  adminId?: number;
  adminUsername?: string;
  limit: number;
  offset: number;
}

const ASCII_UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const ASCII_LOWER = ASCII_UPPER.toLowerCase();
/** `%` and `_` typed by an administrator are literal characters, not wildcards. */
const contains = (text: string) =>
  `%${text.replace(/[A-Z]/g, (c) => c.toLowerCase()).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The admin log and the admin views of the core `users` table, on either engine (one store for SQLite and
 * PostgreSQL, db/README.md). `writeLog` joins the caller's transaction when there is one, so an account change
 * and its audit row commit together on both engines.
 */
export function createAdminStore(database: SqlDatabase) {
  const { adminLogs } = tablesFor(database, sqliteSchema, pgSchema);
  const { users } = tablesFor(database, coreSqlite, corePg);
  const db = () => storeDb(database);

  // What differs by engine, in one place, so the console answers the same on both:
  // - SQLite's LIKE ignores the case of A–Z only; on PostgreSQL the column is folded with translate() over A–Z
  //   and the pattern the same way here (PostgreSQL's lower() would also fold other letters, by locale).
  // - Text order: PostgreSQL sorts by COLLATE "C" (code point order, SQLite's BINARY), not by the locale.
  // - The Seoul calendar day of a time: SQLite stores epoch ms, PostgreSQL a timestamptz (extract(epoch …)).
  const pg = database.dialect === "pg";
  const foldCase = (column: SQLiteColumn) =>
    pg ? sql`translate(${column}, ${ASCII_UPPER}, ${ASCII_LOWER})` : sql`${column}`;
  const like = (column: SQLiteColumn, text: string) => sql`${foldCase(column)} LIKE ${contains(text)} ESCAPE '\\'`;
  const byCodePoint = (column: SQLiteColumn) => (pg ? sql`${column} COLLATE "C"` : sql`${column}`);
  // The constants are inlined, not bound: PostgreSQL matches a GROUP BY expression to the selected one by its text,
  // and two sets of parameters ($1, $2 vs $3, $4) would not match.
  const [offset, day] = [sql.raw(String(SEOUL_OFFSET_MS)), sql.raw(String(DAY_MS))];
  const seoulDay = (column: SQLiteColumn) =>
    (pg
      ? sql`CAST(floor((extract(epoch from ${column}) * 1000 + ${offset}) / ${day}) AS INTEGER)`
      : sql`CAST((${column} + ${offset}) / ${day} AS INTEGER)`
    ).mapWith(Number);

  const sortColumns = {
    username: byCodePoint(users.usernameKey),
    level: sql`${users.level}`,
    games_played: sql`${users.gamesPlayed}`,
    last_login_at: sql`${users.lastLoginAt}`,
    created_at: sql`${users.createdAt}`,
  } satisfies Record<UserSortField, SQL>;

  function userWhere(filter: UserFilter): SQL | undefined {
    const conditions: SQL[] = [];
    if (filter.search) conditions.push(or(like(users.username, filter.search), like(users.email, filter.search))!);
    if (filter.searchUsername) conditions.push(like(users.username, filter.searchUsername));
    if (filter.isActive !== undefined) conditions.push(eq(users.isActive, filter.isActive));
    return conditions.length ? and(...conditions) : undefined;
  }

  function logWhere(page: Omit<LogPage, "limit" | "offset">): SQL | undefined {
    const conditions: SQL[] = [];
    if (page.action) conditions.push(eq(adminLogs.action, page.action));
    if (page.targetUserId) conditions.push(eq(adminLogs.targetUserId, page.targetUserId));
    if (page.adminId) conditions.push(eq(adminLogs.adminId, page.adminId));
    if (page.adminUsername) conditions.push(eq(adminLogs.adminUsername, page.adminUsername));
    return conditions.length ? and(...conditions) : undefined;
  }

  const countUsersWhere = async (where?: SQL) =>
    (await db().select({ n: count() }).from(users).where(where))[0]?.n ?? 0;

  return {
    /** One unit of work on this store's database (nested calls, e.g. `writeLog`, join it). */
    transaction: <T>(fn: (tx: StoreDb) => Promise<T>) => inTransaction(database, fn),

    /** Appends an audit row; inside a caller's transaction it commits or rolls back with it. */
    async writeLog(entry: NewAdminLog): Promise<AdminLogRow> {
      return inTransaction(database, async (tx) => {
        const [row] = await tx.insert(adminLogs).values(entry).returning();
        return row!;
      });
    },

    /**
     * Appends a log row unless the same admin (by id, else by name for the CLI) did the same action on the same user
     * since `since`: that row is brought up to `entry`'s time and its `views` (in details) counted up instead, so
     * paging through a user's page does not bury the log. Returns the row as written.
     */
    async writeOrCollapseLog(entry: NewAdminLog, since: Date): Promise<AdminLogRow> {
      return inTransaction(database, async (tx) => {
        const sameAdmin =
          entry.adminId === null
            ? and(eq(adminLogs.adminUsername, entry.adminUsername), eq(adminLogs.source, entry.source))
            : eq(adminLogs.adminId, entry.adminId);
        const [recent] = await tx
          .select()
          .from(adminLogs)
          .where(
            and(
              eq(adminLogs.action, entry.action),
              eq(adminLogs.targetUserId, entry.targetUserId ?? -1),
              sameAdmin,
              gte(adminLogs.createdAt, since),
            ),
          )
          .orderBy(desc(adminLogs.createdAt), desc(adminLogs.id))
          .limit(1);
        if (!recent) {
          const [row] = await tx.insert(adminLogs).values(entry).returning();
          return row!;
        }
        const details = recent.details ? (JSON.parse(recent.details) as Record<string, unknown>) : {};
        const views = (typeof details.views === "number" ? details.views : 1) + 1;
        const [row] = await tx
          .update(adminLogs)
          .set({ createdAt: entry.createdAt, details: JSON.stringify({ ...details, views }) })
          .where(eq(adminLogs.id, recent.id))
          .returning();
        return row!;
      });
    },

    /** Newest first (ties by id), with the total of the filter. */
    async listLogs(page: LogPage): Promise<{ rows: AdminLogRow[]; total: number }> {
      const where = logWhere(page);
      const rows = await db()
        .select()
        .from(adminLogs)
        .where(where)
        .orderBy(desc(adminLogs.createdAt), desc(adminLogs.id))
        .limit(page.limit)
        .offset(page.offset);
      const [counted] = await db().select({ n: count() }).from(adminLogs).where(where);
      return { rows, total: counted?.n ?? 0 };
    },

    /** Each (admin id, name, source) that wrote log rows, with its row count and latest time. */
    async logActors() {
      return db()
        .select({
          adminId: adminLogs.adminId,
          adminUsername: adminLogs.adminUsername,
          source: adminLogs.source,
          n: count(),
          lastAt: max(adminLogs.createdAt),
        })
        .from(adminLogs)
        .groupBy(adminLogs.adminId, adminLogs.adminUsername, adminLogs.source);
    },

    async countLogs(): Promise<number> {
      const [counted] = await db().select({ n: count() }).from(adminLogs);
      return counted?.n ?? 0;
    },

    /** Users who never logged in sort last in both directions; the id keeps pages stable among equal values. */
    async listUsers(page: UserPage): Promise<{ rows: UserRow[]; total: number }> {
      const where = userWhere(page.filter);
      const direction = page.sortOrder === "asc" ? sql`ASC` : sql`DESC`;
      const rows = await db()
        .select()
        .from(users)
        .where(where)
        .orderBy(
          sql`${sortColumns[page.sortBy]} ${direction} NULLS LAST`,
          page.sortOrder === "asc" ? asc(users.id) : desc(users.id),
        )
        .limit(page.limit)
        .offset(page.offset);
      return { rows, total: await countUsersWhere(where) };
    },

    /** The id of the user whose username has this key (lower-cased: names are unique case-insensitively). */
    async userIdByUsernameKey(key: string): Promise<number | undefined> {
      const [row] = await db().select({ id: users.id }).from(users).where(eq(users.usernameKey, key)).limit(1);
      return row?.id;
    },

    /** All users, or those who logged in / registered at or after the given times. */
    countUsers(since: { lastLoginAt?: Date; createdAt?: Date } = {}): Promise<number> {
      const conditions: SQL[] = [];
      if (since.lastLoginAt) conditions.push(gte(users.lastLoginAt, since.lastLoginAt));
      if (since.createdAt) conditions.push(gte(users.createdAt, since.createdAt));
      return countUsersWhere(conditions.length ? and(...conditions) : undefined);
    },

    /** Registrations since `from` per Seoul calendar day (`day` = days since 1970-01-01 in Seoul). */
    async registrationsPerDay(from: Date): Promise<{ day: number; n: number }[]> {
      const day = seoulDay(users.createdAt);
      return db().select({ day, n: count() }).from(users).where(gte(users.createdAt, from)).groupBy(day);
    },
  };
}
export type AdminStore = ReturnType<typeof createAdminStore>;
