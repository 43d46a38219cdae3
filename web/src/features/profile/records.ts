/**
 * The /profile page's record-based views (spec part 2 §2 "Profile", §9), computed from the member's latest records
 * (`GET /api/games/results/user/{id}?limit=200`) in pure functions, in Seoul time: the rank analysis, days played
 * in a row, charts, per-room figures and the records table. The player's figures — games played, average speed
 * and accuracy, best speed and accuracy, win streaks, medals — are NOT computed here: they are the server's, the
 * same everywhere (`/api/users/me`, `GET /api/games/best/user/{id}`; modules/profile/README.md), since at most
 * 200 records cannot give them for a member who played more.
 */

export interface GameRecord {
  id: number;
  room_name: string;
  wpm: number;
  accuracy: number;
  completion_time: number;
  position: number | null;
  created_at: string;
  mode?: string;
  medal?: "gold" | "silver" | "bronze" | null;
  /** The result's replay (`/replay/{key}`), null when it has none. */
  replay_key?: string | null;
}

const SEOUL_MS = 9 * 3_600_000;
const DAY_MS = 86_400_000;
export const RECORDS_PER_PAGE = 20;
export const UNKNOWN_ROOM = "알 수 없음";

const round2 = (n: number) => Math.round(n * 100) / 100;
const average = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);
/** The record's Seoul calendar day as a day number (days since the epoch, Seoul time). */
const seoulDay = (iso: string) => Math.floor((Date.parse(iso) + SEOUL_MS) / DAY_MS);
const dayText = (day: number) => new Date(day * DAY_MS).toISOString().slice(5, 10);
export const roomOf = (record: GameRecord) => record.room_name?.trim() || UNKNOWN_ROOM;

/** Longest and current runs of consecutive Seoul days (current: ending today or yesterday). */
function dayRuns(days: number[], today: number) {
  const unique = [...new Set(days)].sort((a, b) => a - b);
  let longest = 0;
  let run = 0;
  for (let i = 0; i < unique.length; i++) {
    run = i > 0 && unique[i] === unique[i - 1] + 1 ? run + 1 : 1;
    longest = Math.max(longest, run);
  }
  const last = unique.at(-1);
  const current = last !== undefined && today - last <= 1 ? run : 0;
  return { current, longest };
}

/** The analysis tab's record-based part (§2): over the records given; `now` in epoch ms. */
export function analysis(records: GameRecord[], now: number) {
  const placed = records.filter((r) => r.position !== null);
  const firsts = placed.filter((r) => r.position === 1);
  const top3 = placed.filter((r) => (r.position ?? 99) <= 3);
  const today = Math.floor((now + SEOUL_MS) / DAY_MS);
  const streaks = dayRuns(
    records.map((r) => seoulDay(r.created_at)),
    today,
  );
  return {
    firstPlaces: firsts.length,
    winRate: placed.length ? round2((firsts.length / placed.length) * 100) : 0,
    top3Rate: placed.length ? round2((top3.length / placed.length) * 100) : 0,
    averagePosition: placed.length ? round2(average(placed.map((r) => r.position ?? 0))) : 0,
    top3Count: top3.length,
    currentDays: streaks.current,
    longestDays: streaks.longest,
    trend: trend(records, today),
    hours: hourCounts(records),
    rooms: roomFigures(records),
  };
}

/** Daily average speed and accuracy: the last 14 days that have data, within the last 30 days. */
function trend(records: GameRecord[], today: number) {
  const byDay = new Map<number, GameRecord[]>();
  for (const record of records) {
    const day = seoulDay(record.created_at);
    if (today - day >= 30 || day > today) continue;
    byDay.set(day, [...(byDay.get(day) ?? []), record]);
  }
  return [...byDay.entries()]
    .sort(([a], [b]) => a - b)
    .slice(-14)
    .map(([day, list]) => ({
      day: dayText(day),
      wpm: round2(average(list.map((r) => r.wpm))),
      accuracy: round2(average(list.map((r) => r.accuracy))),
    }));
}

/** Games per Seoul hour of day, 0–23. */
function hourCounts(records: GameRecord[]) {
  const counts = Array.from({ length: 24 }, (_, hour) => ({ hour: `${hour}시`, games: 0 }));
  for (const record of records) counts[new Date(Date.parse(record.created_at) + SEOUL_MS).getUTCHours()].games++;
  return counts;
}

/** Per room: games, average speed and accuracy, win rate; most played first. */
function roomFigures(records: GameRecord[]) {
  const byRoom = new Map<string, GameRecord[]>();
  for (const record of records) byRoom.set(roomOf(record), [...(byRoom.get(roomOf(record)) ?? []), record]);
  return [...byRoom.entries()]
    .map(([room, list]) => ({
      room,
      games: list.length,
      avgWpm: round2(average(list.map((r) => r.wpm))),
      avgAccuracy: round2(average(list.map((r) => r.accuracy))),
      winRate: round2((list.filter((r) => r.position === 1).length / list.length) * 100),
    }))
    .sort((a, b) => b.games - a.games || a.room.localeCompare(b.room));
}

// --- the records tab ------------------------------------------------------------------------------------------------

export type SortField = "created_at" | "wpm" | "accuracy" | "position";
export interface Sort {
  field: SortField;
  direction: "asc" | "desc";
}

/** The sort select's eight choices (§2), in order. */
export const SORT_CHOICES: { label: string; sort: Sort }[] = [
  { label: "최신순", sort: { field: "created_at", direction: "desc" } },
  { label: "오래된순", sort: { field: "created_at", direction: "asc" } },
  { label: "속도 높은순", sort: { field: "wpm", direction: "desc" } },
  { label: "속도 낮은순", sort: { field: "wpm", direction: "asc" } },
  { label: "정확도 높은순", sort: { field: "accuracy", direction: "desc" } },
  { label: "정확도 낮은순", sort: { field: "accuracy", direction: "asc" } },
  { label: "순위 높은순", sort: { field: "position", direction: "asc" } },
  { label: "순위 낮은순", sort: { field: "position", direction: "desc" } },
];

/** A header click: the active column toggles its direction; a newly chosen column starts descending. */
export const clickHeader = (current: Sort, field: SortField): Sort =>
  current.field === field
    ? { field, direction: current.direction === "desc" ? "asc" : "desc" }
    : { field, direction: "desc" };

const sortValue = (record: GameRecord, field: SortField) =>
  field === "created_at"
    ? Date.parse(record.created_at)
    : field === "position"
      ? (record.position ?? 999)
      : record[field];

export function sortRecords(records: GameRecord[], sort: Sort, room: string | null) {
  const sign = sort.direction === "asc" ? 1 : -1;
  return records
    .filter((record) => room === null || roomOf(record) === room)
    .sort((a, b) => sign * (sortValue(a, sort.field) - sortValue(b, sort.field)) || b.id - a.id);
}

/** The room filter's choices: every room played, without the unknown one. */
export const roomChoices = (records: GameRecord[]) =>
  [...new Set(records.map(roomOf))].filter((room) => room !== UNKNOWN_ROOM).sort((a, b) => a.localeCompare(b));

/** Page numbers: first, last and those within 2 of the current page, with "…" for the gaps. */
export function pageWindow(page: number, pages: number): (number | "…")[] {
  const shown: (number | "…")[] = [];
  for (let p = 1; p <= pages; p++) {
    if (p === 1 || p === pages || Math.abs(p - page) <= 2) shown.push(p);
    else if (shown.at(-1) !== "…") shown.push("…");
  }
  return shown;
}

/** Seoul date and time (YYYY-MM-DD HH:mm). */
export function seoulTime(iso: string): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return "날짜 정보 없음";
  return new Date(at + SEOUL_MS).toISOString().slice(0, 16).replace("T", " ");
}

/** §9 colours: speed ≥ 200 green, ≥ 100 blue; accuracy ≥ 95 green, ≥ 90 blue; streaks ≥ 10 red, ≥ 5 orange, > 0 green. */
export const wpmTone = (wpm: number) => (wpm >= 200 ? "good" : wpm >= 100 ? "fair" : "plain");
export const accuracyTone = (accuracy: number) => (accuracy >= 95 ? "good" : accuracy >= 90 ? "fair" : "plain");
export const streakTone = (n: number) => (n >= 10 ? "hot" : n >= 5 ? "warm" : n > 0 ? "good" : "plain");
