import { awardMedals } from "../accounts";
import { keepReplay } from "../games";
import type { ModuleContext } from "../kernel/define-module";
import { seoulDate } from "../kernel/seoul-time";
import { sentencesOfThemes } from "../rooms";
import { DAILY_RULES, dayBefore } from "./rules";
import { type BestRow, type DayRow, dailyStoreOf } from "./store";

/** The store of the context's database, on either engine. */
export const dailyStore = (ctx: ModuleContext) => dailyStoreOf(ctx.database);

export class NoSentenceError extends Error {
  constructor() {
    super("no seeded sentence to choose the day's sentence from");
  }
}

/**
 * The day's row, its sentence chosen on first use: a random seeded sentence (the Korean themes) that was not the
 * sentence of any of the 30 days before. Several processes asking at once each draw one, and the first insert wins
 * (the day is the table's key): everyone gets the same sentence.
 */
export async function dayOf(ctx: ModuleContext, day = seoulDate(ctx.clock.now())): Promise<DayRow> {
  const store = dailyStore(ctx);
  const stored = await store.day(day);
  if (stored) return stored;
  const pool = await sentencesOfThemes(ctx, DAILY_RULES.themes);
  if (pool.length === 0) throw new NoSentenceError();
  const recent = new Set(await store.sentencesBetween(dayBefore(day, DAILY_RULES.recentDays), day));
  const fresh = pool.filter((sentence) => !recent.has(sentence.id));
  const sentence = ctx.random.pick(fresh.length > 0 ? fresh : pool);
  return store.chooseDay({ day, sentenceId: sentence.id, sentenceText: sentence.text, chosenAt: ctx.clock.now() });
}

export interface BoardEntry {
  rank: number;
  user_id: number | null;
  player_key: string;
  nickname: string;
  wpm: number;
  accuracy: number;
  completion_time: number;
  created_at: string;
  replay_key: string | null;
}

const entryOf = (row: BestRow, rank: number | null): BoardEntry & { rank: number | null } => ({
  rank: rank as number,
  user_id: row.userId,
  player_key: row.playerKey,
  nickname: row.nickname,
  wpm: row.wpm,
  accuracy: row.accuracy,
  completion_time: row.completionTime,
  created_at: row.createdAt.toISOString(),
  replay_key: row.replayKey,
});

export type MedalName = (typeof DAILY_RULES.medals)[number];

/** The day's board: the members' best verified attempts, top 10. */
export async function boardOf(ctx: ModuleContext, day: string, limit: number = DAILY_RULES.boardSize) {
  const rows = await dailyStore(ctx).board(day, limit);
  return rows.map((row, i) => entryOf(row, i + 1));
}

/** A player's best verified attempt of the day, with its rank among the members (null for a guest). */
export async function bestOfPlayer(ctx: ModuleContext, day: string, playerKey: string) {
  const row = await dailyStore(ctx).bestOf(day, playerKey);
  return row ? { ...entryOf(row, row.rank), rank: row.rank } : null;
}

/** `GET /api/daily`: the day's (today's) board and (for a member) their best; the day before's podium. */
export async function dailyOverview(ctx: ModuleContext, playerKey: string | null, day?: string) {
  const today = day ?? seoulDate(ctx.clock.now());
  const yesterday = dayBefore(today);
  const [board, mine, podium] = await Promise.all([
    boardOf(ctx, today),
    playerKey ? bestOfPlayer(ctx, today, playerKey) : null,
    boardOf(ctx, yesterday, DAILY_RULES.medals.length),
  ]);
  return {
    day: today,
    board,
    my_best: mine,
    yesterday: {
      day: yesterday,
      winners: podium.map((entry, i) => ({ ...entry, medal: DAILY_RULES.medals[i]! })),
    },
  };
}

/**
 * The close of every past day not closed yet (README "The day's close"): the replays of its board's entries (top
 * 10 members, as the board shows them) are kept for ever (games' `keepReplay`; product-rules "Live race and
 * replays"), and its top 3 members get a gold, silver and bronze medal (accounts' `awardMedals`, once per day and
 * member: the grant key `daily:<day>`); each step is marked on the day once done. Safe with several processes and
 * after a restart: keeping a replay twice changes nothing, two processes giving the same day's medals pay each
 * member once (the grant rows), and a process that died before marking a step has it done again by the next look.
 * Answers the days closed.
 */
export async function closePastDays(ctx: ModuleContext): Promise<string[]> {
  const store = dailyStore(ctx);
  const now = ctx.clock.now();
  const closed: string[] = [];
  for (const day of await store.daysToClose(seoulDate(now))) {
    const board = await store.board(day.day, DAILY_RULES.boardSize);
    if (day.replaysKeptAt === null) await keepBoardReplays(ctx, day.day, board, now);
    if (day.medalsAt === null) await giveMedals(ctx, day.day, board.slice(0, DAILY_RULES.medals.length), now);
    closed.push(day.day);
  }
  return closed;
}

async function keepBoardReplays(ctx: ModuleContext, day: string, board: BestRow[], now: number) {
  const keys = board.flatMap((row) => (row.replayKey ? [row.replayKey] : []));
  const kept = await Promise.all(keys.map((key) => keepReplay(ctx, key)));
  await dailyStore(ctx).markClosed(day, "replaysKeptAt", now);
  ctx.log.info("daily board replays kept", { day, replays: kept.filter(Boolean).length });
}

async function giveMedals(ctx: ModuleContext, day: string, podium: BestRow[], now: number) {
  const medals = podium.map((row, i) => ({ userId: row.userId!, medal: DAILY_RULES.medals[i]! }));
  if (medals.length > 0) await awardMedals(ctx.database, { key: `daily:${day}`, at: now }, medals);
  await dailyStore(ctx).markClosed(day, "medalsAt", now);
  ctx.log.info("daily medals given", { day, members: medals.length });
}
