import { and, asc, desc, eq, gt, inArray, isNull, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import * as coreSqlite from "../../db/core/schema";
import * as corePg from "../../db/core/schema.pg";
import type { SqlDatabase } from "../../db/database";
import { inTransaction, onePerDatabase, storeDb, tablesFor } from "../../db/store";
import type { UsersSort } from "./rules";
import * as sqliteSchema from "./schema";
import * as pgSchema from "./schema.pg";

/** One counted result as the rankings add it to a period. */
export interface CountedResult {
  playerKey: string;
  userId: number | null;
  nickname: string;
  wpm: number;
  accuracy: number;
  playedAt: number;
  /** The result's replay, null when it has none. */
  replayKey: string | null;
}

/** A player's figures of one period (a board row). */
export interface BoardRow {
  playerKey: string;
  userId: number | null;
  nickname: string;
  games: number;
  wpmSum: number;
  accuracySum: number;
  wpmCenti: number;
  lastPlayedAt: number;
  /**
   * The period's fastest result that has a replay (the first to reach that speed; 0: none) and its key: written by
   * a rebuild; a board read leaves them out (`bestReplays` reads them for the rows shown, Redis or not).
   */
  bestReplayWpm?: number;
  bestReplayKey?: string | null;
}

/** The account figures a ranking entry shows (core `users`). */
export interface MemberFigures {
  id: number;
  username: string;
  level: number;
  experience: number;
  goldMedals: number;
  silverMedals: number;
  bronzeMedals: number;
  gamesPlayed: number;
  wpmSum: number;
  accuracySum: number;
}

/** Everything the rankings read and write in SQL, one async method per unit of work, on either engine. */
export interface RankingsStore {
  /** Adds one counted result to the player's row of each period key, in one transaction. */
  addResult(periodKeys: readonly string[], result: CountedResult): Promise<void>;
  /** The first `limit` rows of a period in ranking order (see README "Order"). */
  top(periodKey: string, sort: UsersSort, limit: number): Promise<BoardRow[]>;
  /** Every row of a period in ranking order (rebuilding a Redis board). */
  allOf(periodKey: string): Promise<BoardRow[]>;
  /** Replaces a period's rows with the given ones, in one transaction (the rebuild). */
  replacePeriod(periodKey: string, rows: readonly BoardRow[]): Promise<void>;
  /** The replay of each player's fastest result of the period (players without a row, or whose best has none, left out). */
  bestReplays(periodKey: string, playerKeys: readonly string[]): Promise<Map<string, string>>;
  /** The account figures of these members (missing ids are left out). */
  members(ids: readonly number[]): Promise<MemberFigures[]>;
  /** Active members with at least one medal: medal score, then gold, then silver, then id. */
  medalsTop(limit: number): Promise<MemberFigures[]>;
  /** Active members: level, then experience, then id. */
  levelsTop(limit: number): Promise<MemberFigures[]>;
  /** The recounts a migration asked for that have not been done yet. */
  pendingRecounts(): Promise<string[]>;
  /** A recount is done. */
  recountDone(reason: string, at: number): Promise<void>;
  /** The members excluded from every ranking (README "Exclusions"). */
  excludedUsers(): Promise<Set<number>>;
  /** Excludes a member from the rankings (idempotent), or takes the exclusion back. */
  setExcluded(userId: number, excluded: boolean, at: number): Promise<void>;
}

/** The store of this database, made once (`onePerDatabase`). */
export const rankingsStoreOf = onePerDatabase(createRankingsStore);

const INSERT_BATCH = 500;

export function createRankingsStore(database: SqlDatabase): RankingsStore {
  const { periodStats, recounts, excludedUsers } = tablesFor(database, sqliteSchema, pgSchema);
  const { users } = tablesFor(database, coreSqlite, corePg);
  const pg = database.dialect === "pg";
  // Code point order on both engines (a PostgreSQL locale would order `g_…`/`u_…` keys differently); the
  // PostgreSQL ranking indexes are built on this very expression.
  const byCodePoint = (column: SQLiteColumn) => (pg ? sql`${column} COLLATE "C"` : sql`${column}`);
  const read = () => storeDb(database);
  const proposed = (column: SQLiteColumn) => sql.raw(`excluded."${column.name}"`);
  const existingUser = (userId: number | null) =>
    userId === null ? null : sql`(SELECT ${users.id} FROM ${users} WHERE ${users.id} = ${userId})`;
  const orderings: Record<UsersSort, SQL[]> = {
    wpm: [desc(periodStats.wpmCenti), desc(periodStats.games), asc(byCodePoint(periodStats.playerKey))],
    games: [desc(periodStats.games), desc(periodStats.wpmCenti), asc(byCodePoint(periodStats.playerKey))],
  };
  const boardColumns = {
    playerKey: periodStats.playerKey,
    userId: periodStats.userId,
    nickname: periodStats.nickname,
    games: periodStats.games,
    wpmSum: periodStats.wpmSum,
    accuracySum: periodStats.accuracySum,
    wpmCenti: periodStats.wpmCenti,
    lastPlayedAt: periodStats.lastPlayedAt,
  };
  const toBoardRow = (row: Omit<BoardRow, "lastPlayedAt"> & { lastPlayedAt: Date }): BoardRow => ({
    ...row,
    lastPlayedAt: row.lastPlayedAt.getTime(),
  });
  const memberColumns = {
    id: users.id,
    username: users.username,
    level: users.level,
    experience: users.experience,
    goldMedals: users.goldMedals,
    silverMedals: users.silverMedals,
    bronzeMedals: users.bronzeMedals,
    gamesPlayed: users.gamesPlayed,
    wpmSum: users.wpmSum,
    accuracySum: users.accuracySum,
  };
  const active = pg ? sql`${users.isActive}` : sql`${users.isActive} = 1`;
  const medalScore = sql`${users.goldMedals} * 3 + ${users.silverMedals} * 2 + ${users.bronzeMedals}`;

  const later = (column: SQLiteColumn) =>
    sql`CASE WHEN ${proposed(periodStats.lastPlayedAt)} >= ${periodStats.lastPlayedAt} THEN ${proposed(column)} ELSE ${column} END`;

  return {
    addResult: (periodKeys, result) =>
      inTransaction(database, async (tx) => {
        for (const key of periodKeys) {
          await tx
            .insert(periodStats)
            .values({
              periodKey: key,
              playerKey: result.playerKey,
              userId: existingUser(result.userId) as unknown as number,
              nickname: result.nickname,
              games: 1,
              wpmSum: result.wpm,
              accuracySum: result.accuracy,
              wpmCenti: result.wpm * 100,
              lastPlayedAt: new Date(result.playedAt),
              bestReplayWpm: result.replayKey === null ? 0 : result.wpm,
              bestReplayKey: result.replayKey,
            })
            .onConflictDoUpdate({
              target: [periodStats.periodKey, periodStats.playerKey],
              set: {
                games: sql`${periodStats.games} + 1`,
                wpmSum: sql`${periodStats.wpmSum} + ${proposed(periodStats.wpmSum)}`,
                accuracySum: sql`${periodStats.accuracySum} + ${proposed(periodStats.accuracySum)}`,
                // rules.ts `wpmCenti` in integer arithmetic (bigint: 200 × a long period's sum passes 2^31).
                wpmCenti: sql`(200 * CAST(${periodStats.wpmSum} + ${proposed(periodStats.wpmSum)} AS bigint) + ${periodStats.games} + 1) / (2 * (${periodStats.games} + 1))`,
                nickname: later(periodStats.nickname),
                userId: sql`COALESCE(${proposed(periodStats.userId)}, ${periodStats.userId})`,
                lastPlayedAt: later(periodStats.lastPlayedAt),
                // The first replayed result to reach the period's best speed keeps the link (read before the raise).
                bestReplayKey: sql`CASE WHEN ${proposed(periodStats.bestReplayWpm)} > ${periodStats.bestReplayWpm} THEN ${proposed(periodStats.bestReplayKey)} ELSE ${periodStats.bestReplayKey} END`,
                bestReplayWpm: sql`CASE WHEN ${proposed(periodStats.bestReplayWpm)} > ${periodStats.bestReplayWpm} THEN ${proposed(periodStats.bestReplayWpm)} ELSE ${periodStats.bestReplayWpm} END`,
              },
            });
        }
      }),

    async top(periodKey, sort, limit) {
      const rows = await read()
        .select(boardColumns)
        .from(periodStats)
        .where(eq(periodStats.periodKey, periodKey))
        .orderBy(...orderings[sort])
        .limit(limit);
      return rows.map(toBoardRow);
    },

    async allOf(periodKey) {
      const rows = await read()
        .select(boardColumns)
        .from(periodStats)
        .where(eq(periodStats.periodKey, periodKey))
        .orderBy(...orderings.wpm);
      return rows.map(toBoardRow);
    },

    replacePeriod: (periodKey, rows) =>
      inTransaction(database, async (tx) => {
        await tx.delete(periodStats).where(eq(periodStats.periodKey, periodKey));
        for (let i = 0; i < rows.length; i += INSERT_BATCH) {
          const batch = rows.slice(i, i + INSERT_BATCH).map((row) => ({
            periodKey,
            playerKey: row.playerKey,
            userId: row.userId,
            nickname: row.nickname,
            games: row.games,
            wpmSum: row.wpmSum,
            accuracySum: row.accuracySum,
            wpmCenti: row.wpmCenti,
            lastPlayedAt: new Date(row.lastPlayedAt),
            bestReplayWpm: row.bestReplayWpm ?? 0,
            bestReplayKey: row.bestReplayKey ?? null,
          }));
          await tx.insert(periodStats).values(batch);
        }
      }),

    async pendingRecounts() {
      const rows = await read().select({ reason: recounts.reason }).from(recounts).where(isNull(recounts.doneAt));
      return rows.map((r) => r.reason);
    },

    async recountDone(reason, at) {
      await read()
        .update(recounts)
        .set({ doneAt: new Date(at) })
        .where(eq(recounts.reason, reason));
    },

    async bestReplays(periodKey, playerKeys) {
      const found = new Map<string, string>();
      if (playerKeys.length === 0) return found;
      const rows = await read()
        .select({ playerKey: periodStats.playerKey, key: periodStats.bestReplayKey })
        .from(periodStats)
        .where(and(eq(periodStats.periodKey, periodKey), inArray(periodStats.playerKey, [...playerKeys])));
      for (const row of rows) if (row.key !== null) found.set(row.playerKey, row.key);
      return found;
    },

    async members(ids) {
      if (ids.length === 0) return [];
      return read()
        .select(memberColumns)
        .from(users)
        .where(inArray(users.id, [...ids]));
    },

    medalsTop: (limit) =>
      read()
        .select(memberColumns)
        .from(users)
        .where(and(active, gt(medalScore, 0)))
        .orderBy(desc(medalScore), desc(users.goldMedals), desc(users.silverMedals), asc(users.id))
        .limit(limit),

    async excludedUsers() {
      const rows = await read().select({ userId: excludedUsers.userId }).from(excludedUsers);
      return new Set(rows.map((r) => r.userId));
    },

    async setExcluded(userId, excluded, at) {
      if (!excluded) {
        await read().delete(excludedUsers).where(eq(excludedUsers.userId, userId));
        return;
      }
      await read()
        .insert(excludedUsers)
        .values({ userId, excludedAt: new Date(at) })
        .onConflictDoNothing();
    },

    levelsTop: (limit) =>
      read()
        .select(memberColumns)
        .from(users)
        .where(active)
        .orderBy(desc(users.level), desc(users.experience), asc(users.id))
        .limit(limit),
  };
}
