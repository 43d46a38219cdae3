import type { GameModeId } from "../kernel/game-mode";
import { DAY_MS, SEOUL_OFFSET_MS, seoulDate } from "../kernel/seoul-time";
import { average2 } from "../kernel/typing";

/**
 * The ranking rules (product-rules "Rankings and profile"), pure: periods of Asia/Seoul days and Monday-first
 * weeks, the ranking orders and the composite scores of the Redis boards.
 */

export type Period = "daily" | "weekly" | "all";
export type UsersSort = "wpm" | "games";
export const PERIODS: readonly Period[] = ["daily", "weekly", "all"];
export const USERS_SORTS: readonly UsersSort[] = ["wpm", "games"];
/**
 * The modes whose results never make the users rankings: 오늘의 문장 (`daily`), one sentence played alone as often as
 * one likes, whose speed would be farmed on the rankings (its own board is the daily module's). Every other typing
 * mode counts (rooms' races, guild games; duels write no results).
 */
export const UNRANKED_MODES = ["daily"] as const satisfies readonly GameModeId[];
export const countsInRankings = (mode: GameModeId) => !(UNRANKED_MODES as readonly GameModeId[]).includes(mode);

export const RANKING_LIMIT = { min: 1, max: 100, default: 10 } as const;
/** Medal score of the medal ranking: gold 3, silver 2, bronze 1. */
export const MEDAL_SCORE = { gold: 3, silver: 2, bronze: 1 } as const;

/** The Monday (`YYYY-MM-DD`) of the Seoul week containing `at`. */
export function seoulWeekStart(at: number): string {
  const local = new Date(at + SEOUL_OFFSET_MS);
  const sinceMonday = (local.getUTCDay() + 6) % 7;
  return seoulDate(at - sinceMonday * DAY_MS);
}

/** The stored key of the period containing `at`: `d:<day>`, `w:<monday>` or `all`. */
export function periodKey(period: Period, at: number): string {
  if (period === "daily") return `d:${seoulDate(at)}`;
  if (period === "weekly") return `w:${seoulWeekStart(at)}`;
  return "all";
}

/** The Seoul days (`YYYY-MM-DD`, inclusive) a stored period key covers; `all` covers every day. */
export function periodDays(key: string): { fromDay: string; toDay: string } {
  if (key === "all") return { fromDay: "0000-01-01", toDay: "9999-12-31" };
  const first = key.slice(2);
  if (key.startsWith("d:")) return { fromDay: first, toDay: first };
  const monday = Date.parse(`${first}T00:00:00Z`);
  return { fromDay: first, toDay: new Date(monday + 6 * DAY_MS).toISOString().slice(0, 10) };
}

/** When a day or week key stops being current (epoch ms): its Redis keys expire a day after that. */
export function periodEnd(key: string): number {
  const { toDay } = periodDays(key);
  return Date.parse(`${toDay}T00:00:00Z`) - SEOUL_OFFSET_MS + DAY_MS;
}

/**
 * The average speed in hundredths, rounded half up: what the ranking shows (2 decimals) and orders by. Integer
 * arithmetic, so SQLite, PostgreSQL (`(200 * wpm_sum + games) / (2 * games)`) and the Redis script agree exactly.
 */
export const wpmCenti = (wpmSum: number, games: number) =>
  games > 0 ? Math.floor((200 * wpmSum + games) / (2 * games)) : 0;

/** Average accuracy of a period, 2 decimals (the kernel's `average2`, as the account's and the profile's). */
export const averageAccuracy = (accuracySum: number, games: number) => average2(accuracySum, games);

/**
 * Composite Redis scores (negated: the board is read in ascending order, so equal scores come in player key
 * order, the SQL tie rule). Speed board: average speed, then games; games board: games, then average speed.
 * Both stay below 2^53 (exact in a double) for speeds under 100,000 타/분 and games under 2^29.
 */
export const GAMES_BITS = 2 ** 20;
export const CENTI_BITS = 2 ** 24;
export const wpmBoardScore = (centi: number, games: number) => -(centi * GAMES_BITS + Math.min(games, GAMES_BITS - 1));
export const gamesBoardScore = (centi: number, games: number) =>
  -(games * CENTI_BITS + Math.min(centi, CENTI_BITS - 1));
