import {
  and,
  asc,
  count,
  desc,
  eq,
  gte,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  max,
  notInArray,
  type SQL,
  sql,
} from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import * as coreSqlite from "../../db/core/schema";
import * as corePg from "../../db/core/schema.pg";
import type { SqlDatabase } from "../../db/database";
import { inTransaction, onePerDatabase, type StoreDb, storeDb, tablesFor } from "../../db/store";
import { StaleOwnerError } from "../kernel/game-host/errors";
import type { GameModeId } from "../kernel/game-mode";
import {
  averages,
  type FinishInput,
  grantableMedals,
  isRankedResult,
  type MedalGrant,
  type ResultInput,
  resultDay,
  type StoredGameRef,
} from "./rules";
import type { Medal } from "./schema";
import * as sqliteSchema from "./schema";
import * as pgSchema from "./schema.pg";

/**
 * Everything the games module reads and writes, one async method per unit of work (each write method is ONE
 * transaction, `inTransaction`), on SQLite or PostgreSQL alike (`createGamesStore`). Services never see a driver.
 */
export interface GamesStore {
  /**
   * Finds or creates the game row by its identity, inserts the result unless (game, player key) already has one,
   * and, when it inserted a counted (not implausible) result, adds it to the player's daily aggregate of `day`.
   */
  recordResult(game: StoredGameRef, result: StoredResult): Promise<RecordOutcome>;
  /**
   * Finds or creates the game row; if it is still running, sets ended_at and participants, stores the grantable
   * medals (rules.ts `grantableMedals`) and bumps the medal counts of the aggregates. A finished game is left as is.
   */
  finishGame(game: StoredGameRef, finish: FinishInput): Promise<FinishOutcome>;
  /** The highest round of (mode, source id), 0 when there is none. */
  lastRound(mode: GameModeId, sourceId: string): Promise<number>;
  /**
   * Raises the source's owner epoch to `epoch` (a new owner, before it reads anything); `StaleOwnerError` when a
   * higher one is stored already.
   */
  claimOwner(source: OwnedSource): Promise<void>;
  /** The highest owner epoch stored for the source, 0 when none. */
  ownerEpoch(mode: GameModeId, sourceId: string): Promise<number>;
  /** The source's last round when it was never finished (its owner died mid-round), with its results count. */
  unfinishedLastRound(mode: GameModeId, sourceId: string): Promise<UnfinishedRound | null>;
  /** A member's counted results, newest first, with the game's mode and source name. */
  resultsOfUser(userId: number, limit: number): Promise<UserResult[]>;
  /** A member's best speed and best accuracy over their counted results (0 when none). */
  bestOfUser(userId: number): Promise<BestFigures>;
  /** Finished games, optionally only those that ended in [from, to) (epoch ms). */
  countGames(range?: TimeRange): Promise<number>;
  /** Per-player sums of the daily aggregates over [fromDay, toDay] (inclusive, `YYYY-MM-DD`). */
  dailyStats(query: DailyStatsQuery): Promise<PlayerPeriodStats[]>;
  /** A replay with its result and game, by key; null when there is none (never stored, or deleted). */
  replay(key: string): Promise<StoredReplayView | null>;
  /** Deletes up to `limit` replays created before `before` (epoch ms) that are not kept; answers how many. */
  deleteExpiredReplays(before: number, limit: number): Promise<number>;
  /** Marks a replay kept for ever (the daily boards' entries); false when there is no such replay. */
  keepReplay(key: string): Promise<boolean>;
}

/** A replay as the store hands it over: its steps still encoded (kernel race-steps `encodeSteps`). */
export interface StoredReplayView {
  key: string;
  mode: GameModeId;
  sourceName: string;
  sentence: string;
  steps: string;
  userId: number | null;
  nickname: string;
  wpm: number;
  accuracy: number;
  position: number | null;
  completionTime: number;
  /** Rejected as implausible: the replay is moderation's evidence, shown to administrators only. */
  implausible: boolean;
  createdAt: number;
}

/** A replay as written with its result: the key chosen by the caller, the typed text, the encoded steps. */
export interface StoredReplay {
  key: string;
  sentence: string;
  steps: string;
}

export interface UnfinishedRound {
  round: number;
  sourceName: string;
  startedAt: number;
  /** Results stored for it (any player). */
  results: number;
}

export interface OwnedSource {
  mode: GameModeId;
  sourceId: string;
  epoch: number;
}

/** A result as stored: the Seoul day it counts for and its time are decided by the service. */
export interface StoredResult
  extends Omit<ResultInput, "createdAt" | "implausible" | "itemId" | "verified" | "ranked" | "replay"> {
  implausible: boolean;
  verified: boolean;
  /** False: never in the aggregates (a private room's game). Not a column: the aggregates are what it decides. */
  ranked: boolean;
  itemId: number | null;
  /** Written with the result, in its transaction; null: the result has no steps. */
  replay: StoredReplay | null;
  createdAt: number;
  /** Asia/Seoul calendar day of `createdAt` (`YYYY-MM-DD`). */
  day: string;
}

export interface RecordOutcome {
  recorded: boolean;
  gameId: number;
  /** The stored result (the earlier one when this write was a retry). */
  resultId: number;
  /** The game was already finished when this result was stored (a late result: counted, no medal, no standing). */
  late: boolean;
  /** The stored result's replay (the earlier write's on a retry), null when it has none. */
  replayKey: string | null;
  /** The replay was kept for ever as the member's new personal best of the mode. */
  personalBest: boolean;
}

/** A counted result of one game as stored: what a mode pays its members from (every counted result, once). */
export interface CountedResult {
  playerKey: string;
  userId: number | null;
  wpm: number;
  accuracy: number;
  position: number | null;
}

export interface BestFigures {
  bestWpm: number;
  bestAccuracy: number;
}

export interface FinishOutcome {
  gameId: number;
  /** False when the game had already been finished (nothing changed). */
  finished: boolean;
  /** The medals this call stored, with the member each went to. */
  medals: (MedalGrant & { userId: number | null })[];
  /**
   * Every counted result of the game as stored when it was closed (also when an earlier call closed it): the
   * members a mode must pay, each once, so the account's figures count exactly the counted results.
   */
  counted: CountedResult[];
}

export interface TimeRange {
  from: number;
  to: number;
}

export interface UserResult {
  id: number;
  gameId: number;
  mode: GameModeId;
  sourceName: string;
  wpm: number;
  accuracy: number;
  completionTime: number;
  position: number | null;
  medal: Medal | null;
  createdAt: number;
  replayKey: string | null;
}

export type DailyStatsSort = "wpm" | "games" | "medals";

export interface DailyStatsQuery {
  /** First day, `YYYY-MM-DD` (Asia/Seoul), inclusive. */
  fromDay: string;
  /** Last day, inclusive. */
  toDay: string;
  mode?: GameModeId;
  /** Modes left out of the sums (the rankings leave 오늘의 문장 out). */
  exceptModes?: readonly GameModeId[];
  /** wpm: average speed, then games; games: games, then average speed; medals: medal score, then gold. */
  sort?: DailyStatsSort;
  limit?: number;
}

export interface PlayerPeriodStats {
  playerKey: string;
  userId: number | null;
  /** The nickname of the player's latest counted result in the period. */
  nickname: string;
  games: number;
  wpmSum: number;
  accuracySum: number;
  avgWpm: number;
  avgAccuracy: number;
  bestWpm: number;
  goldMedals: number;
  silverMedals: number;
  bronzeMedals: number;
  lastPlayedAt: number;
  /** The player's fastest result of the period that has a replay (the first to reach it; 0: none) and its key. */
  bestReplayWpm: number;
  bestReplayKey: string | null;
}

// --- the store ---------------------------------------------------------------------------------------------------

/** The store of this database, made once (`onePerDatabase`). */
export const gamesStoreOf = onePerDatabase(createGamesStore);

/**
 * The games store on either engine (db/README.md "Writing a store once for both engines"). Every write method is
 * one transaction; a race between two writers of the same game or result is decided by the unique indexes
 * (`ON CONFLICT DO NOTHING`, then the row that won is read), on both engines. What differs by engine is in
 * `engineParts` and `statement` below, and nowhere else.
 */
export function createGamesStore(database: SqlDatabase): GamesStore {
  const tables = tablesFor(database, sqliteSchema, pgSchema);
  const { users } = tablesFor(database, coreSqlite, corePg);
  const { games, results, dailyStats, owners, replays } = tables;
  const engine = engineParts(database);
  const writes = writeStatements(database, tables, users);
  const read = () => storeDb(database);

  /** The game's id (and whether it has ended) by its identity, creating the row on the first write that names it. */
  async function findOrCreateGame(tx: StoreDb, game: StoredGameRef): Promise<{ id: number; ended: boolean }> {
    const identity = { mode: game.mode, sourceId: game.sourceId, round: game.round };
    // Looked up first: every write of a game but its first finds the row (one statement instead of two).
    const [found] = await writes.findGame(tx, identity);
    if (found) return { id: found.id, ended: found.endedAt !== null };
    const [created] = await writes.createGame(tx, {
      ...identity,
      sourceName: game.sourceName,
      startedAt: new Date(game.startedAt),
    });
    if (created) return { id: created.id, ended: false };
    // Another writer created it between our look and our insert (the unique index refused ours): theirs stands.
    const [theirs] = await writes.findGame(tx, identity);
    return { id: theirs!.id, ended: theirs!.endedAt !== null };
  }

  /**
   * The fence, in the write's own transaction: one upsert raises the source's epoch to the write's and answers the
   * stored one; a higher stored epoch means a newer owner exists, and the transaction is rolled back by the throw.
   */
  async function fence(tx: StoreDb, source: { mode: GameModeId; sourceId: string; epoch?: number }) {
    if (source.epoch === undefined) return;
    const [row] = await writes.raiseOwnerEpoch(tx, {
      mode: source.mode,
      sourceId: source.sourceId,
      epoch: source.epoch,
    });
    if (row && row.epoch > source.epoch) throw new StaleOwnerError(source.epoch, row.epoch);
  }

  async function insertResult(tx: StoreDb, game: StoredGameRef, result: StoredResult): Promise<RecordOutcome> {
    await fence(tx, game);
    const { id: gameId, ended: late } = await findOrCreateGame(tx, game);
    const [inserted] = await writes.insertResult(tx, {
      gameId,
      userId: result.userId,
      playerKey: result.playerKey,
      nickname: result.nickname,
      wpm: result.wpm,
      accuracy: result.accuracy,
      completionTime: result.completionTime,
      position: result.position,
      errorCount: result.errorCount,
      implausible: result.implausible,
      verified: result.verified,
      itemId: result.itemId,
      createdAt: new Date(result.createdAt),
    });
    if (!inserted) {
      // Stored before (a retry, or a concurrent writer that won the unique index): that one stands, counted once,
      // and so does its replay (same result, same replay).
      const [earlier] = await writes.findResult(tx, { gameId, playerKey: result.playerKey });
      const [replay] = await writes.replayOfResult(tx, { resultId: earlier!.id });
      return {
        recorded: false,
        gameId,
        resultId: earlier!.id,
        late,
        replayKey: replay?.key ?? null,
        personalBest: false,
      };
    }
    const personalBest = await storeReplay(tx, game, result, inserted);
    const replayKey = result.replay?.key ?? null;
    // Ranked results only (counted and verified, of a ranked game): the aggregates are what the rankings count.
    if (isRankedResult(result)) {
      await writes.addToDailyStats(tx, {
        day: result.day,
        mode: game.mode,
        playerKey: result.playerKey,
        userId: inserted.userId,
        nickname: result.nickname,
        wpm: result.wpm,
        accuracy: result.accuracy,
        lastPlayedAt: new Date(result.createdAt),
        bestReplayWpm: replayKey === null ? 0 : result.wpm,
        bestReplayKey: replayKey,
      });
    }
    return { recorded: true, gameId, resultId: inserted.id, late, replayKey, personalBest };
  }

  /**
   * The result's replay, in the result's transaction. A member's verified result faster than every earlier one of
   * the mode that had a replay raises their personal best, and its replay is kept for ever (answers true).
   */
  async function storeReplay(
    tx: StoreDb,
    game: StoredGameRef,
    result: StoredResult,
    inserted: { id: number; userId: number | null },
  ) {
    if (!result.replay) return false;
    let kept = false;
    if (inserted.userId !== null && result.verified && !result.implausible) {
      const raised = await writes.raisePersonalBest(tx, { userId: inserted.userId, mode: game.mode, wpm: result.wpm });
      kept = raised.length > 0;
    }
    await writes.insertReplay(tx, {
      key: result.replay.key,
      resultId: inserted.id,
      sentence: result.replay.sentence,
      steps: result.replay.steps,
      kept,
      createdAt: new Date(result.createdAt),
    });
    return kept;
  }

  async function finishRunningGame(tx: StoreDb, game: StoredGameRef, finish: FinishInput): Promise<FinishOutcome> {
    await fence(tx, game);
    const { id: gameId } = await findOrCreateGame(tx, game);
    const ended = await writes.endGame(tx, {
      gameId,
      endedAt: new Date(finish.endedAt),
      participants: finish.participants,
    });
    const counted = await writes.countedResults(tx, { gameId });
    const stored = counted.map(({ playerKey, userId, wpm, accuracy, position }) => ({
      playerKey,
      userId,
      wpm,
      accuracy,
      position,
    }));
    // Finished before (or by a concurrent finish that updated the row first): nothing changes.
    if (ended.length === 0) return { gameId, finished: false, medals: [], counted: stored };
    const medals = grantableMedals(finish.medals, counted).map((grant) => {
      const row = counted.find((r) => r.playerKey === grant.playerKey)!;
      return { ...grant, userId: row.userId, day: resultDay(row.at.getTime()) };
    });
    // Aggregate rows are updated in key order, so two finishes crediting the same players cannot deadlock.
    for (const medal of [...medals].sort(byAggregateKey)) {
      await writes.setMedal(tx, { gameId, playerKey: medal.playerKey, medal: medal.medal });
      await writes.countMedal[medal.medal](tx, { day: medal.day, mode: game.mode, playerKey: medal.playerKey });
    }
    return { gameId, finished: true, medals: medals.map(({ day: _day, ...grant }) => grant), counted: stored };
  }

  // --- reads ---------------------------------------------------------------------------------------------------

  function finishedIn(range?: TimeRange): SQL | undefined {
    if (!range) return isNotNull(games.endedAt);
    return and(gte(games.endedAt, new Date(range.from)), lt(games.endedAt, new Date(range.to)));
  }

  function periodFilter(query: DailyStatsQuery): SQL | undefined {
    return and(
      gte(dailyStats.day, query.fromDay),
      lte(dailyStats.day, query.toDay),
      query.mode ? eq(dailyStats.mode, query.mode) : undefined,
      query.exceptModes?.length ? notInArray(dailyStats.mode, [...query.exceptModes]) : undefined,
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
  const orderings = {
    wpm: [desc(averageWpm), desc(sums.games)],
    games: [desc(sums.games), desc(averageWpm)],
    medals: [desc(medalScore), desc(sums.goldMedals), desc(sums.silverMedals)],
  } as const;

  async function readPeriodStats(query: DailyStatsQuery): Promise<PlayerPeriodStats[]> {
    let select = read()
      .select({
        playerKey: dailyStats.playerKey,
        userId: max(dailyStats.userId),
        // Mapped by the column (a Date on both engines: epoch ms on SQLite, a timestamptz on PostgreSQL).
        lastPlayedAt: sql<Date>`max(${dailyStats.lastPlayedAt})`.mapWith(dailyStats.lastPlayedAt),
        ...sums,
      })
      .from(dailyStats)
      .where(periodFilter(query))
      .groupBy(dailyStats.playerKey)
      .orderBy(...orderings[query.sort ?? "wpm"], asc(engine.byCodePoint(dailyStats.playerKey)))
      .$dynamic();
    if (query.limit !== undefined) select = select.limit(query.limit);
    const rows = await select;
    const keys = query.limit === undefined ? null : rows.map((r) => r.playerKey);
    const { nicknames, bestReplays } = await latestNamesAndReplays(query, keys);
    return rows.map((row) => ({
      ...row,
      ...averages(row),
      lastPlayedAt: row.lastPlayedAt.getTime(),
      nickname: nicknames.get(row.playerKey) ?? row.playerKey,
      bestReplayWpm: bestReplays.get(row.playerKey)?.wpm ?? 0,
      bestReplayKey: bestReplays.get(row.playerKey)?.key ?? null,
    }));
  }

  /**
   * From each player's aggregate rows of the period (all players of it when `keys` is null): the nickname of the
   * latest row, and the fastest replayed result of the rows (the earlier day on a tie, as the first to reach it).
   */
  async function latestNamesAndReplays(query: DailyStatsQuery, keys: string[] | null) {
    const nicknames = new Map<string, string>();
    const bestReplays = new Map<string, { wpm: number; key: string | null }>();
    if (keys?.length === 0) return { nicknames, bestReplays };
    const rows = await read()
      .select({
        playerKey: dailyStats.playerKey,
        nickname: dailyStats.nickname,
        bestReplayWpm: dailyStats.bestReplayWpm,
        bestReplayKey: dailyStats.bestReplayKey,
      })
      .from(dailyStats)
      .where(and(periodFilter(query), keys ? inArray(dailyStats.playerKey, keys) : undefined))
      // Ties (the same last time on two days or modes) broken by the key, the same on both engines.
      .orderBy(desc(dailyStats.lastPlayedAt), desc(dailyStats.day), asc(engine.byCodePoint(dailyStats.mode)));
    for (const row of rows) {
      if (!nicknames.has(row.playerKey)) nicknames.set(row.playerKey, row.nickname);
      // Rows come latest first: an equal speed on an earlier row replaces the later one.
      const best = bestReplays.get(row.playerKey);
      if (row.bestReplayKey !== null && (!best || row.bestReplayWpm >= best.wpm))
        bestReplays.set(row.playerKey, { wpm: row.bestReplayWpm, key: row.bestReplayKey });
    }
    return { nicknames, bestReplays };
  }

  return {
    recordResult: (game, result) => inTransaction(database, (tx) => insertResult(tx, game, result)),
    finishGame: (game, finish) => inTransaction(database, (tx) => finishRunningGame(tx, game, finish)),
    claimOwner: (source) => inTransaction(database, (tx) => fence(tx, source)),
    async unfinishedLastRound(mode, sourceId) {
      const [last] = await read()
        .select({
          id: games.id,
          round: games.round,
          sourceName: games.sourceName,
          startedAt: games.startedAt,
          endedAt: games.endedAt,
        })
        .from(games)
        .where(and(eq(games.mode, mode), eq(games.sourceId, sourceId)))
        .orderBy(desc(games.round))
        .limit(1);
      if (!last || last.endedAt !== null) return null;
      const [stored] = await read().select({ n: count() }).from(results).where(eq(results.gameId, last.id));
      return {
        round: last.round,
        sourceName: last.sourceName,
        startedAt: last.startedAt.getTime(),
        results: stored?.n ?? 0,
      };
    },
    async ownerEpoch(mode, sourceId) {
      const [row] = await read()
        .select({ epoch: owners.epoch })
        .from(owners)
        .where(and(eq(owners.mode, mode), eq(owners.sourceId, sourceId)));
      return row?.epoch ?? 0;
    },
    async lastRound(mode, sourceId) {
      const [row] = await read()
        .select({ round: max(games.round) })
        .from(games)
        .where(and(eq(games.mode, mode), eq(games.sourceId, sourceId)));
      return row?.round ?? 0;
    },
    async resultsOfUser(userId, limit) {
      const rows = await read()
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
          replayKey: replays.key,
        })
        .from(results)
        .innerJoin(games, eq(games.id, results.gameId))
        .leftJoin(replays, eq(replays.resultId, results.id))
        .where(and(eq(results.userId, userId), eq(results.implausible, false)))
        .orderBy(desc(results.createdAt), desc(results.id))
        .limit(limit);
      return rows.map((row) => ({ ...row, createdAt: row.createdAt.getTime() }));
    },
    async bestOfUser(userId) {
      // One index range (user_id, created_at) of the member's results: a profile read, never a ranking's.
      const [row] = await read()
        .select({
          bestWpm: sql<number>`coalesce(max(${results.wpm}), 0)`.mapWith(Number),
          bestAccuracy: sql<number>`coalesce(max(${results.accuracy}), 0)`.mapWith(Number),
        })
        .from(results)
        .where(and(eq(results.userId, userId), eq(results.implausible, false)));
      return { bestWpm: row?.bestWpm ?? 0, bestAccuracy: row?.bestAccuracy ?? 0 };
    },
    async countGames(range) {
      const [row] = await read().select({ n: count() }).from(games).where(finishedIn(range));
      return row?.n ?? 0;
    },
    dailyStats: readPeriodStats,
    async replay(key) {
      const [row] = await read()
        .select({
          key: replays.key,
          mode: games.mode,
          sourceName: games.sourceName,
          sentence: replays.sentence,
          steps: replays.steps,
          userId: results.userId,
          nickname: results.nickname,
          wpm: results.wpm,
          accuracy: results.accuracy,
          position: results.position,
          completionTime: results.completionTime,
          implausible: results.implausible,
          createdAt: results.createdAt,
        })
        .from(replays)
        .innerJoin(results, eq(results.id, replays.resultId))
        .innerJoin(games, eq(games.id, results.gameId))
        .where(eq(replays.key, key));
      return row ? { ...row, createdAt: row.createdAt.getTime() } : null;
    },
    async deleteExpiredReplays(before, limit) {
      // A batch at a time (by the created_at index), so no transaction holds many rows; two processes running it
      // at once delete each row once (the other finds it gone).
      const batch = read()
        .select({ key: replays.key })
        .from(replays)
        .where(and(lt(replays.createdAt, new Date(before)), eq(replays.kept, false)))
        .limit(limit);
      const deleted = await read().delete(replays).where(inArray(replays.key, batch)).returning({ key: replays.key });
      return deleted.length;
    },
    async keepReplay(key) {
      const kept = await read()
        .update(replays)
        .set({ kept: true })
        .where(eq(replays.key, key))
        .returning({ key: replays.key });
      return kept.length > 0;
    },
  };
}

type GamesTables = typeof sqliteSchema;
type MedalRow = MedalGrant & { day: string };

const byAggregateKey = (a: MedalRow, b: MedalRow) =>
  a.day === b.day ? (a.playerKey < b.playerKey ? -1 : a.playerKey > b.playerKey ? 1 : 0) : a.day < b.day ? -1 : 1;

/**
 * What differs by engine in the reads: PostgreSQL orders text by the database's locale (e.g. ICU, which ignores
 * punctuation and puts lower case first), SQLite by code point; `COLLATE "C"` is code point order on PostgreSQL
 * (bytes of UTF-8), so ties are broken the same on both.
 */
function engineParts(database: SqlDatabase) {
  const pg = database.dialect === "pg";
  return { byCodePoint: (column: SQLiteColumn) => (pg ? sql`${column} COLLATE "C"` : sql`${column}`) };
}

// --- write statements ----------------------------------------------------------------------------------------

/** A query builder thenable that can also be prepared (what drizzle's insert/update/select builders are). */
interface Buildable<R> extends PromiseLike<R> {
  prepare(): { execute(values?: Record<string, unknown>): PromiseLike<R> };
}

/** drizzle's prepared query on postgres.js (0.45): `client` is the postgres.js connection (or pool) it runs on. */
interface PgPreparedQuery<R> {
  client: unknown;
  execute(values?: Record<string, unknown>): Promise<R>;
}

/** The postgres.js handle a drizzle database or transaction runs its queries on (the transaction's connection). */
const connectionOf = (db: StoreDb) => (db as unknown as { session: { client: unknown } }).session.client;

let statementNames = 0;

/**
 * One write statement, written once, prepared once and run inside whichever transaction is in hand. Building a
 * drizzle query on every call costs more than the work itself on both engines: on SQLite a result took 214 µs
 * instead of 55 µs (bench/README.md, "scoring"); on PostgreSQL a built query is also sent unprepared (parsed and
 * planned by the server each time): 256 µs against 92 µs for a prepared one on the bench's server.
 * - SQLite: prepared on the one connection, so it runs inside whichever transaction is open on it.
 * - PostgreSQL: a drizzle prepared statement is bound to the handle it was made on (the pool), and a transaction
 *   has a connection of its own: the prepared query is run on the transaction's connection (a thin object over it
 *   with that `client`, nothing rebuilt). postgres.js prepares a named statement once per connection.
 * Placeholders in a WHERE are bound as given (not through the column's mapping, unlike insert and SET values):
 * WHERE arguments are numbers and strings only.
 */
function statement<A extends Record<string, unknown>, R>(
  database: SqlDatabase,
  build: (db: StoreDb, args: A) => Buildable<R>,
): (tx: StoreDb, args: A) => Promise<R> {
  // Every argument read by `build` becomes the placeholder of that name.
  const placeholders = new Proxy({} as A, { get: (_, name) => sql.placeholder(String(name)) });
  const built = () => build(storeDb(database), placeholders);
  if (database.dialect === "pg") {
    const name = `games_write_${++statementNames}`;
    let prepared: PgPreparedQuery<R> | null = null;
    return (tx, args) => {
      prepared ??= (built() as unknown as { prepare(name: string): PgPreparedQuery<R> }).prepare(name);
      const onConnection: PgPreparedQuery<R> = Object.create(prepared, { client: { value: connectionOf(tx) } });
      return onConnection.execute(args);
    };
  }
  let prepared: ReturnType<Buildable<R>["prepare"]> | null = null;
  return async (_tx, args) => {
    prepared ??= built().prepare();
    return prepared.execute(args);
  };
}

/** In an upsert's SET, the value the insert proposed (`excluded.<column>`, the same on both engines). */
const proposed = (column: SQLiteColumn) => sql.raw(`excluded."${column.name}"`);
/** The greater of the row's and the proposed value (`CASE`: SQLite's two-argument max() is not PostgreSQL's). */
const greater = (column: SQLiteColumn) =>
  sql`CASE WHEN ${proposed(column)} > ${column} THEN ${proposed(column)} ELSE ${column} END`;

function writeStatements(database: SqlDatabase, tables: GamesTables, users: typeof coreSqlite.users) {
  const { games, results, dailyStats, owners, replays, personalBests } = tables;
  /** The proposed value when the proposed result is at least as recent as the row's latest one. */
  const newer = (column: SQLiteColumn) =>
    sql`CASE WHEN ${proposed(dailyStats.lastPlayedAt)} >= ${dailyStats.lastPlayedAt} THEN ${proposed(column)} ELSE ${column} END`;
  const countMedal = (field: "goldMedals" | "silverMedals" | "bronzeMedals") =>
    statement(database, (db, a: { day: string; mode: GameModeId; playerKey: string }) =>
      db
        .update(dailyStats)
        .set({ [field]: sql`${dailyStats[field]} + 1` })
        .where(and(eq(dailyStats.day, a.day), eq(dailyStats.mode, a.mode), eq(dailyStats.playerKey, a.playerKey))),
    );

  return {
    raiseOwnerEpoch: statement(database, (db, a: { mode: GameModeId; sourceId: string; epoch: number }) =>
      db
        .insert(owners)
        .values({ mode: a.mode, sourceId: a.sourceId, epoch: a.epoch })
        .onConflictDoUpdate({ target: [owners.mode, owners.sourceId], set: { epoch: greater(owners.epoch) } })
        .returning({ epoch: owners.epoch }),
    ),
    findGame: statement(database, (db, a: { mode: GameModeId; sourceId: string; round: number }) =>
      db
        .select({ id: games.id, endedAt: games.endedAt })
        .from(games)
        .where(and(eq(games.mode, a.mode), eq(games.sourceId, a.sourceId), eq(games.round, a.round))),
    ),
    createGame: statement(
      database,
      (db, a: { mode: GameModeId; sourceId: string; sourceName: string; round: number; startedAt: Date }) =>
        db
          .insert(games)
          // Field by field: on SQLite `a` is a proxy of placeholders, which has no keys of its own to copy.
          .values({
            mode: a.mode,
            sourceId: a.sourceId,
            sourceName: a.sourceName,
            round: a.round,
            startedAt: a.startedAt,
          })
          .onConflictDoNothing({ target: [games.mode, games.sourceId, games.round] })
          .returning({ id: games.id }),
    ),
    insertResult: statement(database, (db, a: typeof results.$inferInsert) =>
      db
        .insert(results)
        .values({
          gameId: a.gameId,
          // A member deleted meanwhile keeps the result without user id (the foreign key would refuse the row):
          // the id is stored only when the member still exists, read in the same statement.
          userId: sql`(SELECT ${users.id} FROM ${users} WHERE ${users.id} = ${a.userId})`,
          playerKey: a.playerKey,
          nickname: a.nickname,
          wpm: a.wpm,
          accuracy: a.accuracy,
          completionTime: a.completionTime,
          position: a.position,
          errorCount: a.errorCount,
          implausible: a.implausible,
          verified: a.verified,
          itemId: a.itemId,
          createdAt: a.createdAt,
        })
        .onConflictDoNothing({ target: [results.gameId, results.playerKey] })
        .returning({ id: results.id, userId: results.userId }),
    ),
    replayOfResult: statement(database, (db, a: { resultId: number }) =>
      db.select({ key: replays.key }).from(replays).where(eq(replays.resultId, a.resultId)),
    ),
    insertReplay: statement(database, (db, a: typeof replays.$inferInsert) =>
      db
        .insert(replays)
        .values({
          key: a.key,
          resultId: a.resultId,
          sentence: a.sentence,
          steps: a.steps,
          kept: a.kept,
          createdAt: a.createdAt,
        })
        // Its result was inserted by this very transaction: only a key drawn twice (2^-128) could conflict.
        .onConflictDoNothing({ target: replays.resultId }),
    ),
    /** Answers a row only when the member's best of the mode went up (or was first set). */
    raisePersonalBest: statement(database, (db, a: { userId: number; mode: GameModeId; wpm: number }) =>
      db
        .insert(personalBests)
        .values({ userId: a.userId, mode: a.mode, wpm: a.wpm })
        .onConflictDoUpdate({
          target: [personalBests.userId, personalBests.mode],
          set: { wpm: proposed(personalBests.wpm) },
          setWhere: sql`${proposed(personalBests.wpm)} > ${personalBests.wpm}`,
        })
        .returning({ wpm: personalBests.wpm }),
    ),
    findResult: statement(database, (db, a: { gameId: number; playerKey: string }) =>
      db
        .select({ id: results.id })
        .from(results)
        .where(and(eq(results.gameId, a.gameId), eq(results.playerKey, a.playerKey))),
    ),
    addToDailyStats: statement(
      database,
      (
        db,
        a: {
          day: string;
          mode: GameModeId;
          playerKey: string;
          userId: number | null;
          nickname: string;
          wpm: number;
          accuracy: number;
          lastPlayedAt: Date;
          /** The result's speed when it has a replay, else 0 (a placeholder: decided by the caller). */
          bestReplayWpm: number;
          bestReplayKey: string | null;
        },
      ) =>
        db
          .insert(dailyStats)
          .values({
            day: a.day,
            mode: a.mode,
            playerKey: a.playerKey,
            userId: a.userId,
            nickname: a.nickname,
            games: 1,
            wpmSum: a.wpm,
            accuracySum: a.accuracy,
            bestWpm: a.wpm,
            bestReplayWpm: a.bestReplayWpm,
            bestReplayKey: a.bestReplayKey,
            lastPlayedAt: a.lastPlayedAt,
          })
          .onConflictDoUpdate({
            target: [dailyStats.day, dailyStats.mode, dailyStats.playerKey],
            set: {
              games: sql`${dailyStats.games} + 1`,
              wpmSum: sql`${dailyStats.wpmSum} + ${proposed(dailyStats.wpmSum)}`,
              accuracySum: sql`${dailyStats.accuracySum} + ${proposed(dailyStats.accuracySum)}`,
              bestWpm: greater(dailyStats.bestWpm),
              // The first replayed result to reach the day's best speed keeps the link (read before the raise).
              bestReplayKey: sql`CASE WHEN ${proposed(dailyStats.bestReplayWpm)} > ${dailyStats.bestReplayWpm} THEN ${proposed(dailyStats.bestReplayKey)} ELSE ${dailyStats.bestReplayKey} END`,
              bestReplayWpm: greater(dailyStats.bestReplayWpm),
              nickname: newer(dailyStats.nickname),
              userId: sql`COALESCE(${proposed(dailyStats.userId)}, ${dailyStats.userId})`,
              lastPlayedAt: greater(dailyStats.lastPlayedAt),
            },
          }),
    ),
    endGame: statement(database, (db, a: { gameId: number; endedAt: Date; participants: number }) =>
      db
        .update(games)
        .set({ endedAt: a.endedAt, participants: a.participants })
        .where(and(eq(games.id, a.gameId), isNull(games.endedAt)))
        .returning({ id: games.id }),
    ),
    countedResults: statement(database, (db, a: { gameId: number }) =>
      db
        .select({
          playerKey: results.playerKey,
          medal: results.medal,
          userId: results.userId,
          at: results.createdAt,
          wpm: results.wpm,
          accuracy: results.accuracy,
          position: results.position,
        })
        .from(results)
        .where(and(eq(results.gameId, a.gameId), eq(results.implausible, false)))
        // In the order they were stored: the order a mode pays them in (and so of the members' streaks).
        .orderBy(asc(results.id)),
    ),
    setMedal: statement(database, (db, a: { gameId: number; playerKey: string; medal: Medal }) =>
      db
        .update(results)
        .set({ medal: a.medal })
        .where(and(eq(results.gameId, a.gameId), eq(results.playerKey, a.playerKey))),
    ),
    countMedal: {
      gold: countMedal("goldMedals"),
      silver: countMedal("silverMedals"),
      bronze: countMedal("bronzeMedals"),
    },
  };
}
