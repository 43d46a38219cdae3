/** Labels, icons and colours of the room screens (spec part 1 §2, §9). Pure, so the thresholds are unit-tested. */
import type { GameStatus, Room } from "./types";

/** The room screen's badge: waiting, preparing, playing, ended. */
export const STATUS_LABEL: Record<GameStatus, string> = {
  waiting: "대기 중",
  countdown: "준비 중",
  in_progress: "진행 중",
  finished: "종료",
};

/** The home list's badge: in progress; "N초 후 시작" during the countdown; waiting. */
export function listBadge(room: Pick<Room, "game_status" | "countdown_seconds">): {
  text: string;
  tone: "live" | "soon" | "idle";
} {
  switch (room.game_status) {
    case "countdown":
      return { text: `${room.countdown_seconds}초 후 시작`, tone: "soon" };
    case "in_progress":
    case "finished":
      // The results of a game still belong to it: the room is busy until the next wait starts.
      return { text: "진행 중", tone: "live" };
    default:
      return { text: "대기 중", tone: "idle" };
  }
}

/**
 * The home badge's countdown between two list updates (they come at most once a second): the number received,
 * less the whole seconds since, never below 1 (the game starts, and an update says so, before 0 would show).
 */
export const countdownLeft = (received: number, elapsedMs: number) =>
  Math.max(1, received - Math.floor(Math.max(0, elapsedMs) / 1000));

/** Share of the room that is taken, 0–100 (a room over its limit, possible with reconnects, stays at 100). */
export const occupancy = (room: Pick<Room, "total_participants" | "max_users">) =>
  room.max_users > 0 ? Math.min(100, Math.round((room.total_participants / room.max_users) * 100)) : 100;

export const isFull = (room: Pick<Room, "total_participants" | "max_users">) =>
  room.total_participants >= room.max_users;

export type TimerTone = "green" | "yellow" | "red";

/** Green above 50 % of the time left, yellow above 25 %, red below. */
export function timerTone(remainingMs: number, totalMs: number): TimerTone {
  const share = totalMs > 0 ? remainingMs / totalMs : 0;
  if (share > 0.5) return "green";
  if (share > 0.25) return "yellow";
  return "red";
}

/** An icon tier: 1 is the best. Rendered as a coloured target (accuracy) or bolt (speed) icon. */
export interface IconTier {
  tier: 1 | 2 | 3 | 4;
  label: string;
}

const ACCURACY_TIERS: [number, string][] = [
  [95, "정확도 95% 이상"],
  [90, "정확도 90% 이상"],
  [80, "정확도 80% 이상"],
  [70, "정확도 70% 이상"],
];

const SPEED_TIERS: [number, string][] = [
  [400, "400타 이상"],
  [300, "300타 이상"],
  [200, "200타 이상"],
  [100, "100타 이상"],
];

function tierOf(value: number, table: [number, string][]): IconTier | null {
  const index = table.findIndex(([threshold]) => value >= threshold);
  return index < 0 ? null : { tier: (index + 1) as IconTier["tier"], label: table[index][1] };
}

/** Icons at 95/90/80/70 % accuracy; below 70 % none. */
export const accuracyIcon = (accuracy: number) => tierOf(accuracy, ACCURACY_TIERS);
/** Icons at 400/300/200/100 타/분; below 100 none. */
export const speedIcon = (wpm: number) => tierOf(wpm, SPEED_TIERS);

/** Accuracy colours (90 % and 70 %) and the percent format are shared with the guild game (`lib/figures.ts`). */
export { accuracyTone, percent } from "../../lib/figures";

/** Places 1–3 get a gold, silver or bronze medal (one rule with the rankings: `ui/medals.tsx`). */
import { medalOf } from "../../ui/medals";

export { medalOf };

/** The server awards medals only in a game with at least this many results (modules/rooms/rewards.ts). */
export const MEDAL_MIN_PARTICIPANTS = 2;

const MEDAL_PLACE = { gold: 1, silver: 2, bronze: 3 } as const;

/**
 * The medal the server decided for one result of a finished game: a member's `rewards.medal` says it; a guest
 * (no rewards) follows the server's rule, places 1–3 of a game with at least two results. A place alone is no
 * medal: a game of one awards none.
 */
export function awardedMedal(
  result: { position: number | null; rewards: { medal: keyof typeof MEDAL_PLACE | null } | null },
  participants: number,
): 1 | 2 | 3 | null {
  if (result.rewards) return result.rewards.medal ? MEDAL_PLACE[result.rewards.medal] : null;
  return participants >= MEDAL_MIN_PARTICIPANTS ? medalOf(result.position) : null;
}

/** A win streak is worth showing from 2 wins in a row. */
export const streakLabel = (streak: number) => (streak >= 2 ? `${streak}연승` : null);

export const seconds = (value: number) => `${Math.round(value * 100) / 100}초`;
