import type { ResultRecordedEvent } from "../games";
import type { ModuleContext } from "../kernel/define-module";
import { presentBoardRow, presentMember, type UserRankingEntry } from "./presenter";
import { type Period, periodKey, RANKING_LIMIT, type UsersSort } from "./rules";
import { type BoardRow, type CountedResult, rankingsStoreOf } from "./store";

/**
 * The rankings' service: keeps the per-period figures from games' result events and answers the three user
 * rankings. Every function takes the `ModuleContext` (tests run several servers in one process).
 */

export interface UsersRankingQuery {
  period?: Period;
  sort?: UsersSort;
  limit?: number;
}

const store = (ctx: ModuleContext) => rankingsStoreOf(ctx.database);

/** The periods a result counts for: its Seoul day, its Seoul week and all time. */
export const periodKeysOf = (at: number) => [periodKey("daily", at), periodKey("weekly", at), periodKey("all", at)];

export const countedResult = (event: ResultRecordedEvent): CountedResult => ({
  playerKey: event.playerKey,
  userId: event.userId,
  nickname: event.nickname,
  wpm: event.wpm,
  accuracy: event.accuracy,
  playedAt: event.createdAt,
});

/** Adds a recorded result to its periods; implausible results never count. */
export async function addRecordedResult(ctx: ModuleContext, event: ResultRecordedEvent) {
  if (event.implausible) return;
  await store(ctx).addResult(periodKeysOf(event.createdAt), countedResult(event));
}

async function presentBoard(ctx: ModuleContext, rows: readonly BoardRow[]): Promise<UserRankingEntry[]> {
  const ids = rows.flatMap((row) => (row.userId === null ? [] : [row.userId]));
  const members = new Map((await store(ctx).members(ids)).map((m) => [m.id, m]));
  return rows.map((row, i) => presentBoardRow(row, i + 1, row.userId === null ? undefined : members.get(row.userId)));
}

const limitOf = (limit: number | undefined) => limit ?? RANKING_LIMIT.default;

/** `GET /api/rankings/users`: the period containing now (Seoul), by average speed or by games. */
export async function usersRanking(ctx: ModuleContext, query: UsersRankingQuery = {}) {
  const key = periodKey(query.period ?? "daily", ctx.clock.now());
  const rows = await store(ctx).top(key, query.sort ?? "wpm", limitOf(query.limit));
  return presentBoard(ctx, rows);
}

/** `GET /api/rankings/medals`: members by medal score (gold 3, silver 2, bronze 1), then gold, then silver. */
export async function medalsRanking(ctx: ModuleContext, limit?: number) {
  return (await store(ctx).medalsTop(limitOf(limit))).map((m, i) => presentMember(m, i + 1));
}

/** `GET /api/rankings/levels`: members by level, then experience. */
export async function levelsRanking(ctx: ModuleContext, limit?: number) {
  return (await store(ctx).levelsTop(limitOf(limit))).map((m, i) => presentMember(m, i + 1));
}
