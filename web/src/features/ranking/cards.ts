/**
 * The /ranking page's cards (spec part 2 §2 "Rankings", §9 limits): what each card asks the server and how it shows
 * an entry's figure. Pure, so the rules are unit-tested without a browser.
 */

/** User ranking entry (spec part 2 §3); the server adds `rank`. */
export interface UserRankingEntry {
  user_id: number | null;
  username: string | null;
  anonymous_nickname?: string | null;
  games_played?: number;
  total_games?: number;
  avg_wpm?: number;
  avg_accuracy?: number;
  gold_medals?: number;
  silver_medals?: number;
  bronze_medals?: number;
  level?: number;
  experience?: number;
  /** The replay of the entry's fastest ranked result (`/replay/{key}`), null when it has none. */
  replay_key?: string | null;
}

/** Duel ranking entry (spec part 2 §3). */
export interface DuelRankingEntry {
  user_id: number;
  username: string;
  win_rate: number;
  wins: number;
  losses: number;
  total_games: number;
  current_streak: number;
  max_win_streak: number;
  recent_games: number;
  recent_wins: number;
  recent_win_rate: number;
}

export type RankingEntry = UserRankingEntry | DuelRankingEntry;

/** The medals card's figure: counts of each medal. */
export interface MedalFigure {
  gold: number;
  silver: number;
  bronze: number;
}

export interface RankingCard {
  id: string;
  title: string;
  /** The call (path and query) the card makes. */
  path: string;
  /** The figure shown on the right of an entry: text, or medal counts (drawn as medals, never as emoji). */
  figure(entry: RankingEntry): string | MedalFigure;
  /** A line under the title (the duel cards' rules). */
  note?: string;
}

/** Cards show at most this many rows (spec §9), whatever the call's limit. */
export const CARD_ROWS = 10;

const n = (value: number | undefined) => (value ?? 0).toLocaleString("ko-KR");
const games = (entry: RankingEntry) => `${n((entry as UserRankingEntry).games_played ?? entry.total_games)}판`;
const speed = (entry: RankingEntry) => `${((entry as UserRankingEntry).avg_wpm ?? 0).toFixed(1)}타/분`;
const percent = (fraction: number) => `${(fraction * 100).toFixed(1)}%`;

/** Medal score: gold 3, silver 2, bronze 1 (spec §9). */
export const medalScore = (entry: UserRankingEntry) =>
  (entry.gold_medals ?? 0) * 3 + (entry.silver_medals ?? 0) * 2 + (entry.bronze_medals ?? 0);

export const GAME_CARDS: RankingCard[] = [
  { id: "daily-wpm", title: "오늘의 속도 TOP 5", path: "/rankings/users?period=daily&sort=wpm&limit=5", figure: speed },
  {
    id: "daily-games",
    title: "오늘의 판수 TOP 5",
    path: "/rankings/users?period=daily&sort=games&limit=5",
    figure: games,
  },
  {
    id: "weekly-wpm",
    title: "이번 주 속도 TOP 10",
    path: "/rankings/users?period=weekly&sort=wpm&limit=10",
    figure: speed,
  },
  {
    id: "weekly-games",
    title: "이번 주 판수 TOP 10",
    path: "/rankings/users?period=weekly&sort=games&limit=10",
    figure: games,
  },
  {
    id: "medals",
    title: "메달 TOP 10",
    path: "/rankings/medals?limit=10",
    figure: (entry) => {
      const e = entry as UserRankingEntry;
      return { gold: e.gold_medals ?? 0, silver: e.silver_medals ?? 0, bronze: e.bronze_medals ?? 0 };
    },
  },
  {
    id: "levels",
    title: "레벨 TOP 10",
    path: "/rankings/levels?limit=10",
    figure: (entry) => `Lv.${(entry as UserRankingEntry).level ?? 1} · ${n((entry as UserRankingEntry).experience)} XP`,
  },
];

export const DUEL_CARDS: RankingCard[] = [
  {
    id: "duel-win-rate",
    title: "승률",
    path: "/rankings/duel/win-rate?limit=50&min_games=10",
    note: "10판 이상 대결한 사용자만 집계합니다.",
    figure: (entry) => {
      const e = entry as DuelRankingEntry;
      return `${percent(e.win_rate)} (${e.wins}승 ${e.losses}패)`;
    },
  },
  { id: "duel-total", title: "총 대결 수", path: "/rankings/duel/total-games?limit=50", figure: games },
  {
    id: "duel-streak",
    title: "최다 연승",
    path: "/rankings/duel/win-streak?limit=50",
    figure: (entry) => `${(entry as DuelRankingEntry).max_win_streak}연승`,
  },
  {
    id: "duel-recent",
    title: "최근 활동",
    path: "/rankings/duel/recent-activity?limit=50&days=7",
    note: "최근 7일 동안의 대결입니다.",
    figure: (entry) => {
      const e = entry as DuelRankingEntry;
      return `${e.recent_games}판 · 승률 ${percent(e.recent_win_rate)}`;
    },
  },
];

/** The name shown for an entry: a member's name, a guest's nickname, else "익명" (spec §3: "anonymous"). */
export function displayName(entry: RankingEntry): string {
  return entry.username || (entry as UserRankingEntry).anonymous_nickname || "익명";
}

/** Ranks 1–3 get a medal (spec §2): the rooms' rule and drawing (`ui/medals.tsx`). */
export { medalOf as rankMedal } from "../../ui/medals";

/**
 * Rows a card shows when full: its call's limit, at most CARD_ROWS. The page reserves that many rows from the first
 * paint, so nothing below moves when the answer (or an empty list) replaces the placeholders.
 */
export function cardRows(card: RankingCard): number {
  const limit = Number(new URLSearchParams(card.path.split("?")[1] ?? "").get("limit"));
  return Number.isInteger(limit) && limit > 0 ? Math.min(limit, CARD_ROWS) : CARD_ROWS;
}
