import { dailyStats, isRankedResult, type ResultRecordedEvent } from "../games";
import type { ModuleContext } from "../kernel/define-module";
import { memberPlayerKey } from "../kernel/game-host";
import { DAY_MS } from "../kernel/seoul-time";
import { inRedis, type RedisBoards, redisBoards } from "./redis-boards";
import {
  countsInRankings,
  type Period,
  periodDays,
  periodKey,
  RANKING_LIMIT,
  UNRANKED_MODES,
  type UsersSort,
  wpmCenti,
} from "./rules";
import { type BoardRow, type CountedResult, type MemberFigures, type RankingsStore, rankingsStoreOf } from "./store";
import { presentBoardRow, presentMember, type UserRankingEntry } from "./view";

/**
 * The rankings' service: keeps the per-period figures from games' result events (SQL, and the day and week
 * boards in Redis when the process has one) and answers the three user rankings. Every function takes the
 * `ModuleContext` (tests run several servers in one process).
 */

export interface UsersRankingQuery {
  period?: Period;
  sort?: UsersSort;
  limit?: number;
}

export interface RankingsOptions {
  /** Name of the Redis keys after the deployment's REDIS_PREFIX (default `rankings`). */
  redisNamespace?: string;
}

interface Runtime {
  store: RankingsStore;
  boards: RedisBoards | null;
  /** Redis boards being rebuilt from SQL after a read found them not ready (one per period at a time). */
  rebuilding: Map<string, Promise<void>>;
}

const runtimes = new WeakMap<ModuleContext, Runtime>();

/** The rankings of this context (made once; the options of the first call stand). */
export function rankingsRuntime(ctx: ModuleContext, options: RankingsOptions = {}): Runtime {
  let runtime = runtimes.get(ctx);
  if (!runtime) {
    runtime = {
      store: rankingsStoreOf(ctx.database),
      boards: ctx.cluster
        ? redisBoards(ctx.cluster.redis, `${ctx.cluster.prefix}${options.redisNamespace ?? "rankings"}`)
        : null,
      rebuilding: new Map(),
    };
    runtimes.set(ctx, runtime);
  }
  return runtime;
}

/** The periods a result counts for: its Seoul day, its Seoul week and all time. */
export const periodKeysOf = (at: number) => [periodKey("daily", at), periodKey("weekly", at), periodKey("all", at)];

export const countedResult = (event: ResultRecordedEvent): CountedResult => ({
  playerKey: event.playerKey,
  userId: event.userId,
  nickname: event.nickname,
  wpm: event.wpm,
  accuracy: event.accuracy,
  playedAt: event.createdAt,
  replayKey: event.replayKey,
});

/**
 * Adds a recorded result to its periods (SQL, then the Redis boards): ranked results only — implausible and
 * unverified ones (sent without steps; README "What counts"), the results of modes left out of the rankings
 * (`UNRANKED_MODES`: 오늘의 문장) and of unranked games (a private room's, `ranked: false`) never count.
 */
export async function addRecordedResult(ctx: ModuleContext, event: ResultRecordedEvent) {
  if (!isRankedResult(event) || !countsInRankings(event.mode)) return;
  const { store, boards } = rankingsRuntime(ctx);
  const keys = periodKeysOf(event.createdAt);
  await store.addResult(keys, countedResult(event));
  if (!boards) return;
  try {
    await boards.add(keys, countedResult(event), ctx.clock.now());
  } catch (error) {
    // A board that missed a result must not be read until rebuilt from SQL.
    await boards.invalidate(keys.filter(inRedis)).catch(() => {});
    throw error;
  }
}

async function presentBoard(
  ctx: ModuleContext,
  periodKey: string,
  rows: readonly BoardRow[],
): Promise<UserRankingEntry[]> {
  const { store } = rankingsRuntime(ctx);
  const ids = rows.flatMap((row) => (row.userId === null ? [] : [row.userId]));
  const members = new Map((await store.members(ids)).map((m) => [m.id, m]));
  // The links are read apart (one lookup of the primary key per row), so a Redis board need not keep them.
  const replays = await store.bestReplays(
    periodKey,
    rows.map((row) => row.playerKey),
  );
  return rows.map((row, i) =>
    presentBoardRow(
      row,
      i + 1,
      row.userId === null ? undefined : members.get(row.userId),
      replays.get(row.playerKey) ?? null,
    ),
  );
}

/** Members of the medal or level ranking, each with the replay of their fastest ranked result of all time. */
async function presentMembers(ctx: ModuleContext, members: readonly MemberFigures[]) {
  const replays = await rankingsRuntime(ctx).store.bestReplays(
    "all",
    members.map((m) => memberPlayerKey(m.id)),
  );
  return members.map((m, i) => presentMember(m, i + 1, replays.get(memberPlayerKey(m.id)) ?? null));
}

const limitOf = (limit: number | undefined) => limit ?? RANKING_LIMIT.default;

/** Copies a period's SQL rows into its Redis board (once at a time per period and process). */
function rebuildBoardSoon(ctx: ModuleContext, key: string) {
  const { store, boards, rebuilding } = rankingsRuntime(ctx);
  if (!boards || rebuilding.has(key)) return;
  const job = (async () => boards.replace(key, await store.allOf(key), ctx.clock.now()))()
    .catch((error) => ctx.log.warn("rankings board rebuild failed", { period: key, error: String(error) }))
    .finally(() => rebuilding.delete(key));
  rebuilding.set(key, job);
}

/** Resolves when the Redis board rebuilds started by reads have finished (tests). */
export async function boardRebuildsSettled(ctx: ModuleContext) {
  await Promise.all(rankingsRuntime(ctx).rebuilding.values());
}

/** A period's first rows: from its Redis board when ready, else from SQL (and the board is rebuilt meanwhile). */
async function topRows(ctx: ModuleContext, key: string, sort: UsersSort, limit: number) {
  const { store, boards } = rankingsRuntime(ctx);
  if (boards && inRedis(key)) {
    const rows = await fromRedis(ctx, boards.top(key, sort, limit));
    if (rows) return rows;
    if (rows === null) rebuildBoardSoon(ctx, key);
  }
  return store.top(key, sort, limit);
}

/** How long a read waits for Redis before answering from SQL (node-redis queues commands while reconnecting). */
export const REDIS_READ_TIMEOUT_MS = 250;

/** A board read, or undefined when Redis failed or did not answer in time: SQL answers then (never a 500). */
async function fromRedis(ctx: ModuleContext, read: Promise<BoardRow[] | null>) {
  let stopTimer = () => {};
  const late = new Promise<undefined>((done) => {
    const timer = setTimeout(() => done(undefined), REDIS_READ_TIMEOUT_MS);
    stopTimer = () => clearTimeout(timer);
  });
  try {
    return await Promise.race([read, late]);
  } catch (error) {
    ctx.log.warn("rankings board read failed", { error: String(error) });
    return undefined;
  } finally {
    stopTimer();
    read.catch(() => {});
  }
}

/**
 * The first `limit` rows of a ranking without the excluded members (README "Exclusions"): read `limit` more rows
 * than shown per excluded member, so the page is full whoever is left out; ranks are counted after. The one rule of
 * every ranking, the duel's included (its module reads its rows and hands them over here).
 */
export async function withoutExcluded<Row>(
  ctx: ModuleContext,
  limit: number,
  userOf: (row: Row) => number | null,
  read: (limit: number) => Promise<Row[]>,
) {
  const excluded = await rankingsRuntime(ctx).store.excludedUsers();
  if (excluded.size === 0) return read(limit);
  const rows = await read(limit + excluded.size);
  return rows.filter((row) => !excluded.has(userOf(row) ?? -1)).slice(0, limit);
}

/** `GET /api/rankings/users`: the period containing now (Seoul), by average speed or by games. */
export async function usersRanking(ctx: ModuleContext, query: UsersRankingQuery = {}) {
  const key = periodKey(query.period ?? "daily", ctx.clock.now());
  const rows = await withoutExcluded(
    ctx,
    limitOf(query.limit),
    (row: BoardRow) => row.userId,
    (n) => topRows(ctx, key, query.sort ?? "wpm", n),
  );
  return presentBoard(ctx, key, rows);
}

/** `GET /api/rankings/medals`: members by medal score (gold 3, silver 2, bronze 1), then gold, then silver. */
export async function medalsRanking(ctx: ModuleContext, limit?: number) {
  const { store } = rankingsRuntime(ctx);
  return presentMembers(ctx, await withoutExcluded(ctx, limitOf(limit), memberId, (n) => store.medalsTop(n)));
}

/** `GET /api/rankings/levels`: members by level, then experience. */
export async function levelsRanking(ctx: ModuleContext, limit?: number) {
  const { store } = rankingsRuntime(ctx);
  return presentMembers(ctx, await withoutExcluded(ctx, limitOf(limit), memberId, (n) => store.levelsTop(n)));
}

const memberId = (member: MemberFigures) => member.id;

/**
 * Excludes a member from every users, medal and level ranking, or takes that back (moderation): their results stay
 * stored and counted in their figures; the rankings simply leave them out from the next read on.
 */
export async function setRankingExclusion(ctx: ModuleContext, userId: number, excluded: boolean) {
  await rankingsRuntime(ctx).store.setExcluded(userId, excluded, ctx.clock.now());
}

export interface RebuiltPeriod {
  period: string;
  players: number;
}

/**
 * Recounts one period from games' daily aggregates (the source of truth) into SQL and, for a day or a week with
 * Redis, into its board.
 */
export async function rebuildPeriod(ctx: ModuleContext, key: string): Promise<RebuiltPeriod> {
  const { store, boards } = rankingsRuntime(ctx);
  const stats = await dailyStats(ctx, { ...periodDays(key), exceptModes: UNRANKED_MODES });
  const rows: BoardRow[] = stats.map((s) => ({
    playerKey: s.playerKey,
    userId: s.userId,
    nickname: s.nickname,
    games: s.games,
    wpmSum: s.wpmSum,
    accuracySum: s.accuracySum,
    wpmCenti: wpmCenti(s.wpmSum, s.games),
    lastPlayedAt: s.lastPlayedAt,
    bestReplayWpm: s.bestReplayWpm,
    bestReplayKey: s.bestReplayKey,
  }));
  await store.replacePeriod(key, rows);
  if (boards && inRedis(key)) await boards.replace(key, await store.allOf(key), ctx.clock.now());
  return { period: key, players: rows.length };
}

/** The days a rebuild and a migration's recount cover: the periods the users ranking reads (today, this week) and more. */
export const RECOUNT_DAYS = 14;

/** `madang rankings rebuild`: the last `days` Seoul days (today included), their weeks, and all time. */
export async function rebuildRankings(ctx: ModuleContext, days = RECOUNT_DAYS): Promise<RebuiltPeriod[]> {
  const now = ctx.clock.now();
  const keys = new Set<string>();
  for (let i = 0; i < days; i++) {
    keys.add(periodKey("daily", now - i * DAY_MS));
    keys.add(periodKey("weekly", now - i * DAY_MS));
  }
  keys.add("all");
  const rebuilt: RebuiltPeriod[] = [];
  for (const key of keys) rebuilt.push(await rebuildPeriod(ctx, key));
  return rebuilt;
}

/**
 * The recounts a migration asked for (`rankings_recounts`): every period the rankings read is recounted from games'
 * daily aggregates — all time and the last `RECOUNT_DAYS` Seoul days with their weeks (older days and weeks are
 * never read) — then marked done. Run at boot, before the server listens, so no result of this process lands in
 * the middle. Idempotent: two processes booting at once both recount, and the second result is the same.
 */
export async function recountPending(ctx: ModuleContext): Promise<void> {
  const { store } = rankingsRuntime(ctx);
  const pending = await store.pendingRecounts();
  if (pending.length === 0) return;
  const rebuilt = await rebuildRankings(ctx, RECOUNT_DAYS);
  for (const reason of pending) await store.recountDone(reason, ctx.clock.now());
  ctx.log.info("rankings recounted", { reasons: pending, periods: rebuilt.length });
}
