import { DAY_MS, seoulDate, seoulDayStart } from "../kernel/seoul-time";

/** product-rules "Live race and replays" (오늘의 문장). */
export const DAILY_RULES = {
  /** A day's sentence is never one of the sentences of this many days before it. */
  recentDays: 30,
  /** The first attempts of a Seoul day that pay a room game's participation reward; later ones pay nothing. */
  paidAttempts: 3,
  /** Rows of the day's board. */
  boardSize: 10,
  /** Medals of the day's top 3 members at midnight. */
  medals: ["gold", "silver", "bronze"] as const,
  /** The seeded themes the sentence is drawn from: the Korean ones (a Korean typing game; English has its room). */
  themes: ["proverbs", "literature", "news", "free", "beginner"] as const,
  /** The name a daily attempt shows in the player's records (`room_name`). */
  sourceName: "오늘의 문장",
} as const;

/** The Seoul day `n` days before `day` (YYYY-MM-DD). */
export function dayBefore(day: string, n = 1): string {
  const start = Date.parse(`${day}T00:00:00+09:00`);
  return seoulDate(start - n * DAY_MS);
}

/** When the Seoul day after the one containing `at` starts (the next midnight, epoch ms). */
export const nextMidnight = (at: number) => seoulDayStart(at) + DAY_MS;

/** The game source of a player's attempts on a day: one game per player and day, each round one attempt. */
export const sourceIdOf = (day: string, playerKey: string) => `${day}:${playerKey}`;

export function parseSourceId(sourceId: string): { day: string; playerKey: string } | null {
  const match = /^(\d{4}-\d{2}-\d{2}):([ug]_[0-9a-z]+)$/.exec(sourceId);
  return match ? { day: match[1]!, playerKey: match[2]! } : null;
}
