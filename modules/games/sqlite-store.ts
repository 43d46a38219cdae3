import { and, asc, count, desc, eq, gte, inArray, isNotNull, isNull, lt, lte, max, type SQL, sql } from "drizzle-orm";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import type { DbOrTx } from "../../db/client";
import { users } from "../../db/core/schema";
import type { GameModeId } from "../kernel/game-mode";
import { averages, type FinishInput, grantableMedals, type MedalGrant, resultDay, type StoredGameRef } from "./rules";
import { dailyStats, games, results } from "./schema";
import type {
  DailyStatsQuery,
  FinishOutcome,
  GamesStore,
  PlayerPeriodStats,
  RecordOutcome,
  StoredResult,
  TimeRange,
} from "./store";

/**
 * The games store on bun:sqlite. Every write method is one synchronous transaction. The SQL stays portable
 * (upserts through drizzle's onConflict APIs, `excluded.` and CASE instead of SQLite's two-argument max()), so
 * the PostgreSQL store of issue 11 can mirror it query for query.
 */
export function createSqliteGamesStore(db: DbOrTx): GamesStore {
  return {
    async recordResult(game, result) {
      return db.transaction((tx) => insertResult(tx, game, result));
    },
    async finishGame(game, finish) {
      return db.transaction((tx) => finishRunningGame(tx, game, finish));
    },
    async lastRound(mode, sourceId) {
      const row = db
        .select({ round: max(games.round) })
        .from(games)
        .where(and(eq(games.mode, mode), eq(games.sourceId, sourceId)))
        .get();
      return row?.round ?? 0;
    },
    async resultsOfUser(userId, limit) {
      return db
        .select({
          id: results.id,
          gameId: results.gameId,
          mode: games.mode,
          sourceName: games.sourceName,
          wpm: results.wpm,
          accuracy: results.accuracy,
          completionTime: results.completionTime,
          position: results.position,
          medal: results.medal,
          createdAt: results.createdAt,
        })
        .from(results)
        .innerJoin(games, eq(games.id, results.gameId))
        .where(and(eq(results.userId, userId), eq(results.implausible, false)))
        .orderBy(desc(results.createdAt), desc(results.id))
        .limit(limit)
        .all()
        .map((row) => ({ ...row, createdAt: row.createdAt.getTime() }));
    },
    async countGames(range) {
      return db.select({ n: count() }).from(games).where(finishedIn(range)).get()?.n ?? 0;
    },
    async dailyStats(query) {
      return readPeriodStats(db, query);
    },
  };
}

// --- writes ----------------------------------------------------------------------------------------------------

/** In an upsert's SET, the value the insert proposed (`excluded.<column>`, the same on both engines). */
const proposed = (column: AnySQLiteColumn) => sql.raw(`excluded."${column.name}"`);
const greater = (column: AnySQLiteColumn) =>
  sql`CASE WHEN ${proposed(column)} > ${column} THEN ${proposed(column)} ELSE ${column} END`;
/** The proposed value when the proposed result is at least as recent as the row's latest one. */
const newer = (column: AnySQLiteColumn) =>
  sql`CASE WHEN ${proposed(dailyStats.lastPlayedAt)} >= ${dailyStats.lastPlayedAt} THEN ${proposed(column)} ELSE ${column} END`;

const slot = sql.placeholder;
/**
 * An update's SET of placeholders. Like insert values, they are bound through each column's mapping (a Date for a
 * timestamp); drizzle's types accept placeholders only in inserts, hence the record (as accounts' rewards do).
 */
const slots = (...columns: string[]) => Object.fromEntries(columns.map((column) => [column, slot(column)]));

/**
 * The statements of a result's write, prepared once per connection with placeholders: every accepted result of
 * every game runs them, and building and preparing drizzle queries each time cost about four times the work itself
 * (214 µs against 55 µs a result, bench/scoring-bench.ts), as accounts found for rewards. A transaction shares its
 * connection's session, so statements prepared for that session serve every transaction on it.
 */
function prepareWrites(db: DbOrTx) {
  return {
    createGame: db
      .insert(games)
      .values({
        mode: slot("mode"),
        sourceId: slot("sourceId"),
        sourceName: slot("sourceName"),
        round: slot("round"),
        startedAt: slot("startedAt"),
      })
      .onConflictDoNothing({ target: [games.mode, games.sourceId, games.round] })
      .returning({ id: games.id })
      .prepare(),
    findGame: db
      .select({ id: games.id })
      .from(games)
      .where(and(eq(games.mode, slot("mode")), eq(games.sourceId, slot("sourceId")), eq(games.round, slot("round"))))
      .prepare(),
    findUser: db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.id, slot("id")))
      .prepare(),
    insertResult: db
      .insert(results)
      .values({
        gameId: slot("gameId"),
        userId: slot("userId"),
        playerKey: slot("playerKey"),
        nickname: slot("nickname"),
        wpm: slot("wpm"),
        accuracy: slot("accuracy"),
        completionTime: slot("completionTime"),
        position: slot("position"),
        errorCount: slot("errorCount"),
        implausible: slot("implausible"),
        itemId: slot("itemId"),
        createdAt: slot("createdAt"),
      })
      .onConflictDoNothing({ target: [results.gameId, results.playerKey] })
      .returning({ id: results.id })
      .prepare(),
    addToDailyStats: db
      .insert(dailyStats)
      .values({
        day: slot("day"),
        mode: slot("mode"),
        playerKey: slot("playerKey"),
        userId: slot("userId"),
        nickname: slot("nickname"),
        games: 1,
        wpmSum: slot("wpm"),
        accuracySum: slot("accuracy"),
        bestWpm: slot("wpm"),
        lastPlayedAt: slot("lastPlayedAt"),
      })
      .onConflictDoUpdate({
        target: [dailyStats.day, dailyStats.mode, dailyStats.playerKey],
        set: {
          games: sql`${dailyStats.games} + 1`,
          wpmSum: sql`${dailyStats.wpmSum} + ${proposed(dailyStats.wpmSum)}`,
          accuracySum: sql`${dailyStats.accuracySum} + ${proposed(dailyStats.accuracySum)}`,
          bestWpm: greater(dailyStats.bestWpm),
          nickname: newer(dailyStats.nickname),
          userId: sql`COALESCE(${proposed(dailyStats.userId)}, ${dailyStats.userId})`,
          lastPlayedAt: greater(dailyStats.lastPlayedAt),
        },
      })
      .prepare(),
    endGame: db
      .update(games)
      .set(slots("endedAt", "participants"))
      .where(and(eq(games.id, slot("gameId")), isNull(games.endedAt)))
      .returning({ id: games.id })
      .prepare(),
    countedResults: db
      .select({ playerKey: results.playerKey, medal: results.medal, userId: results.userId, at: results.createdAt })
      .from(results)
      .where(and(eq(results.gameId, slot("gameId")), eq(results.implausible, false)))
      .prepare(),
    setMedal: db
      .update(results)
      .set(slots("medal"))
      .where(and(eq(results.gameId, slot("gameId")), eq(results.playerKey, slot("playerKey"))))
      .prepare(),
    countMedal: {
      gold: prepareMedalCount(db, "goldMedals"),
      silver: prepareMedalCount(db, "silverMedals"),
      bronze: prepareMedalCount(db, "bronzeMedals"),
    },
  };
}

function prepareMedalCount(db: DbOrTx, field: "goldMedals" | "silverMedals" | "bronzeMedals") {
  return db
    .update(dailyStats)
    .set({ [field]: sql`${dailyStats[field]} + 1` })
    .where(
      and(
        eq(dailyStats.day, slot("day")),
        eq(dailyStats.mode, slot("mode")),
        eq(dailyStats.playerKey, slot("playerKey")),
      ),
    )
    .prepare();
}

const preparedWrites = new WeakMap<object, ReturnType<typeof prepareWrites>>();
function writesFor(tx: DbOrTx) {
  const key = (tx as unknown as { session?: object }).session ?? tx;
  let writes = preparedWrites.get(key);
  if (!writes) {
    writes = prepareWrites(tx);
    preparedWrites.set(key, writes);
  }
  return writes;
}

function findOrCreateGame(tx: DbOrTx, game: StoredGameRef): number {
  const { createGame, findGame } = writesFor(tx);
  const identity = { mode: game.mode, sourceId: game.sourceId, round: game.round };
  const created = createGame.get({ ...identity, sourceName: game.sourceName, startedAt: new Date(game.startedAt) });
  return created ? created.id : findGame.get(identity)!.id;
}

/** A member deleted meanwhile keeps the result without user id (the foreign key would refuse the row). */
function existingUserId(tx: DbOrTx, userId: number | null): number | null {
  if (userId === null) return null;
  return writesFor(tx).findUser.get({ id: userId })?.id ?? null;
}

function insertResult(tx: DbOrTx, game: StoredGameRef, result: StoredResult): RecordOutcome {
  const gameId = findOrCreateGame(tx, game);
  const userId = existingUserId(tx, result.userId);
  const inserted = writesFor(tx).insertResult.get({
    gameId,
    userId,
    playerKey: result.playerKey,
    nickname: result.nickname,
    wpm: result.wpm,
    accuracy: result.accuracy,
    completionTime: result.completionTime,
    position: result.position,
    errorCount: result.errorCount,
    implausible: result.implausible,
    itemId: result.itemId,
    createdAt: new Date(result.createdAt),
  });
  if (!inserted) {
    const earlier = tx
      .select({ id: results.id })
      .from(results)
      .where(and(eq(results.gameId, gameId), eq(results.playerKey, result.playerKey)))
      .get()!;
    return { recorded: false, gameId, resultId: earlier.id };
  }
  if (!result.implausible) addToDailyStats(tx, game.mode, { ...result, userId });
  return { recorded: true, gameId, resultId: inserted.id };
}

function addToDailyStats(tx: DbOrTx, mode: GameModeId, result: StoredResult) {
  writesFor(tx).addToDailyStats.run({
    day: result.day,
    mode,
    playerKey: result.playerKey,
    userId: result.userId,
    nickname: result.nickname,
    wpm: result.wpm,
    accuracy: result.accuracy,
    lastPlayedAt: new Date(result.createdAt),
  });
}

function finishRunningGame(tx: DbOrTx, game: StoredGameRef, finish: FinishInput): FinishOutcome {
  const gameId = findOrCreateGame(tx, game);
  const writes = writesFor(tx);
  const ended = writes.endGame.get({ gameId, endedAt: new Date(finish.endedAt), participants: finish.participants });
  if (!ended) return { gameId, finished: false, medals: [] };
  const counted = writes.countedResults.all({ gameId });
  const medals = grantableMedals(finish.medals, counted).map((grant) => {
    const row = counted.find((r) => r.playerKey === grant.playerKey)!;
    storeMedal(tx, gameId, game.mode, grant, resultDay(row.at.getTime()));
    return { ...grant, userId: row.userId };
  });
  return { gameId, finished: true, medals };
}

function storeMedal(tx: DbOrTx, gameId: number, mode: GameModeId, grant: MedalGrant, day: string) {
  const writes = writesFor(tx);
  writes.setMedal.run({ gameId, playerKey: grant.playerKey, medal: grant.medal });
  writes.countMedal[grant.medal].run({ day, mode, playerKey: grant.playerKey });
}

// --- reads -----------------------------------------------------------------------------------------------------

function finishedIn(range?: TimeRange): SQL | undefined {
  if (!range) return isNotNull(games.endedAt);
  return and(gte(games.endedAt, new Date(range.from)), lt(games.endedAt, new Date(range.to)));
}

function periodFilter(query: DailyStatsQuery): SQL | undefined {
  return and(
    gte(dailyStats.day, query.fromDay),
    lte(dailyStats.day, query.toDay),
    query.mode ? eq(dailyStats.mode, query.mode) : undefined,
  );
}

const sums = {
  games: sql<number>`sum(${dailyStats.games})`.mapWith(Number),
  wpmSum: sql<number>`sum(${dailyStats.wpmSum})`.mapWith(Number),
  accuracySum: sql<number>`sum(${dailyStats.accuracySum})`.mapWith(Number),
  bestWpm: sql<number>`max(${dailyStats.bestWpm})`.mapWith(Number),
  goldMedals: sql<number>`sum(${dailyStats.goldMedals})`.mapWith(Number),
  silverMedals: sql<number>`sum(${dailyStats.silverMedals})`.mapWith(Number),
  bronzeMedals: sql<number>`sum(${dailyStats.bronzeMedals})`.mapWith(Number),
};
// `* 1.0` makes the division fractional on both engines (PostgreSQL divides integers as integers).
const averageWpm = sql`sum(${dailyStats.wpmSum}) * 1.0 / sum(${dailyStats.games})`;
const medalScore = sql`sum(${dailyStats.goldMedals}) * 3 + sum(${dailyStats.silverMedals}) * 2 + sum(${dailyStats.bronzeMedals})`;

const ORDERINGS = {
  wpm: [desc(averageWpm), desc(sums.games)],
  games: [desc(sums.games), desc(averageWpm)],
  medals: [desc(medalScore), desc(sums.goldMedals), desc(sums.silverMedals)],
} as const;

function readPeriodStats(db: DbOrTx, query: DailyStatsQuery): PlayerPeriodStats[] {
  let select = db
    .select({
      playerKey: dailyStats.playerKey,
      userId: max(dailyStats.userId),
      lastPlayedAt: sql<number>`max(${dailyStats.lastPlayedAt})`.mapWith(Number),
      ...sums,
    })
    .from(dailyStats)
    .where(periodFilter(query))
    .groupBy(dailyStats.playerKey)
    .orderBy(...ORDERINGS[query.sort ?? "wpm"], asc(dailyStats.playerKey))
    .$dynamic();
  if (query.limit !== undefined) select = select.limit(query.limit);
  const rows = select.all();
  const nicknames = latestNicknames(db, query, query.limit === undefined ? null : rows.map((r) => r.playerKey));
  return rows.map((row) => ({
    ...row,
    ...averages(row),
    nickname: nicknames.get(row.playerKey) ?? row.playerKey,
  }));
}

/** The nickname of each player's latest aggregate row in the period (all players of it when `keys` is null). */
function latestNicknames(db: DbOrTx, query: DailyStatsQuery, keys: string[] | null) {
  const latest = new Map<string, string>();
  if (keys?.length === 0) return latest;
  const rows = db
    .select({ playerKey: dailyStats.playerKey, nickname: dailyStats.nickname })
    .from(dailyStats)
    .where(and(periodFilter(query), keys ? inArray(dailyStats.playerKey, keys) : undefined))
    .orderBy(desc(dailyStats.lastPlayedAt))
    .all();
  for (const row of rows) if (!latest.has(row.playerKey)) latest.set(row.playerKey, row.nickname);
  return latest;
}
