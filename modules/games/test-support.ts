import { eq, sql } from "drizzle-orm";
import * as coreSqlite from "../../db/core/schema";
import * as corePg from "../../db/core/schema.pg";
import type { PgDb } from "../../db/postgres";
import { storeDb, tablesFor } from "../../db/store";
import type { AppModule, MigrationBundle, ModuleContext } from "../kernel/define-module";
import type { ResultInput, StoredGameRef } from "./rules";
import * as sqliteSchema from "./schema";
import * as pgSchema from "./schema.pg";

/** Test helpers for the games module: fixture games, results and members. */

/** `YYYY-MM-DD HH:mm:ss` in Seoul time → epoch ms (Seoul is UTC+9 all year). */
export const kst = (text: string) => Date.parse(`${text.replace(" ", "T")}+09:00`);

export const race = (
  sourceId: string,
  round: number,
  startedAt: number,
  sourceName = `방 ${sourceId}`,
): StoredGameRef => ({
  mode: "sentence_race",
  sourceId,
  sourceName,
  round,
  startedAt,
});

export const memberResult = (
  userId: number,
  nickname: string,
  figures: Partial<ResultInput> & { wpm: number; accuracy: number },
): ResultInput => ({
  userId,
  playerKey: `u_${userId}`,
  nickname,
  completionTime: 10,
  position: null,
  errorCount: 0,
  // A typed result (its steps showed it), as every result was before results could be unverified.
  verified: true,
  ...figures,
});

export const guestResult = (
  hash: string,
  nickname: string,
  figures: Partial<ResultInput> & { wpm: number; accuracy: number },
): ResultInput => ({
  userId: null,
  playerKey: `g_${hash}`,
  nickname,
  completionTime: 10,
  position: null,
  errorCount: 0,
  // A typed result (its steps showed it), as every result was before results could be unverified.
  verified: true,
  ...figures,
});

/**
 * The modules as a release without one migration per module (`tags`: module name → migration tag) had them, and
 * as the next release applies it. The database "of before" is written by today's code, so it has the migrations
 * that came later (their tables and columns); drizzle applies only migrations newer than the newest one applied,
 * so in the second list the missing migration comes last (its SQL unchanged), as an upgrade would apply it.
 */
export function modulesAround(modules: readonly AppModule[], tags: Record<string, string>) {
  const without = (bundle: MigrationBundle, tag: string): MigrationBundle => ({
    ...bundle,
    journal: { ...bundle.journal, entries: bundle.journal.entries.filter((e) => e.tag !== tag) },
  });
  const last = (bundle: MigrationBundle, tag: string): MigrationBundle => {
    const entries = bundle.journal.entries;
    const moved = entries.find((e) => e.tag === tag)!;
    const newest = Math.max(...entries.map((e) => e.when));
    return {
      ...bundle,
      journal: {
        ...bundle.journal,
        entries: [...without(bundle, tag).journal.entries, { ...moved, when: newest + 1 }],
      },
    };
  };
  const around = (change: (bundle: MigrationBundle, tag: string) => MigrationBundle) =>
    modules.map((m) => {
      const tag = tags[m.name];
      if (!tag || !m.migrations || !m.pgMigrations) return m;
      return { ...m, migrations: change(m.migrations, tag), pgMigrations: change(m.pgMigrations, tag) };
    });
  return { before: around(without), after: around(last) };
}

const usersOf = (ctx: ModuleContext) => tablesFor(ctx.database, coreSqlite, corePg).users;

/** A member row in the core users table (no password login needed for service tests), on either engine. */
export async function insertMember(ctx: ModuleContext, username: string): Promise<number> {
  const users = usersOf(ctx);
  const [row] = await storeDb(ctx.database)
    .insert(users)
    .values({
      username,
      usernameKey: username.toLowerCase(),
      email: `${username.toLowerCase()}@example.com`,
      passwordHash: "x",
    })
    .returning({ id: users.id });
  return row!.id;
}

/** Deletes a member row (as an account deletion would), on either engine. */
export async function deleteMember(ctx: ModuleContext, userId: number) {
  const users = usersOf(ctx);
  await storeDb(ctx.database).delete(users).where(eq(users.id, userId));
}

/**
 * Rows of a games table matching a condition written in SQL both engines read (`true`/`false` for booleans).
 * Tests look at the stored rows this way, through the module's own database handle.
 */
export async function countRows(ctx: ModuleContext, table: string, where = "true"): Promise<number> {
  const [row] = await storeDb(ctx.database)
    .select({ n: sql<number>`cast(count(*) as integer)`.mapWith(Number) })
    .from(sql.raw(table))
    .where(sql.raw(where));
  return row?.n ?? 0;
}

/** A stored game row, read through the engine's own table (times as Date on both engines). */
export async function gameRow(ctx: ModuleContext, gameId: number) {
  const { games } = tablesFor(ctx.database, sqliteSchema, pgSchema);
  const [row] = await storeDb(ctx.database).select().from(games).where(eq(games.id, gameId));
  return row;
}

/** Every event of that name emitted on the context's bus from now on. */
export function collect<K extends "games.result_recorded" | "games.game_finished">(ctx: ModuleContext, event: K) {
  // biome-ignore lint/suspicious/noExplicitAny: the payload type follows the event name
  const seen: any[] = [];
  ctx.events.on(event, (payload) => seen.push(payload));
  return seen;
}

/**
 * Makes the database refuse to write this player's daily aggregate (a trigger, written per engine), so a test sees
 * that a result and its aggregate are one unit of work; the answer removes it.
 */
export async function refuseAggregateOf(ctx: ModuleContext, playerKey: string): Promise<() => Promise<void>> {
  const name = `refuse_aggregate_${playerKey.replace(/[^a-z0-9]/gi, "_")}`;
  const database = ctx.database;
  if (database.dialect === "pg") {
    const db = database.db as PgDb;
    await db.execute(
      sql.raw(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS
        $$ BEGIN RAISE EXCEPTION 'aggregate refused (test)'; END $$`),
    );
    await db.execute(
      sql.raw(`CREATE TRIGGER ${name} BEFORE INSERT ON games_daily_stats FOR EACH ROW
        WHEN (NEW.player_key = '${playerKey}') EXECUTE FUNCTION ${name}()`),
    );
    return async () => {
      await db.execute(sql.raw(`DROP TRIGGER ${name} ON games_daily_stats`));
      await db.execute(sql.raw(`DROP FUNCTION ${name}()`));
    };
  }
  // bun:sqlite runs DDL synchronously; `exec` is its statement runner.
  database.sqlite.exec(`CREATE TRIGGER ${name} BEFORE INSERT ON games_daily_stats
    WHEN NEW.player_key = '${playerKey}' BEGIN SELECT RAISE(ABORT, 'aggregate refused (test)'); END`);
  return async () => {
    database.sqlite.exec(`DROP TRIGGER ${name}`);
  };
}
