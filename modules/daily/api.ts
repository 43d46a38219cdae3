import { awardMedals } from "../accounts";
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
 * The podium of every past day whose medals were not given yet: its top 3 members get a gold, silver and bronze
 * medal (accounts' `awardMedals`, once per day and member: the grant key `daily:<day>`), then the day is marked.
 * Safe with several processes and after a restart: two processes giving the same day's medals pay each member once
 * (the grant rows), and a process that died before marking the day has it done again by the next look, paying
 * nobody twice. Answers the days done.
 */
export async function giveDueMedals(ctx: ModuleContext): Promise<string[]> {
  const store = dailyStore(ctx);
  const now = ctx.clock.now();
  const done: string[] = [];
  for (const day of await store.daysAwaitingMedals(seoulDate(now))) {
    const podium = await store.board(day, DAILY_RULES.medals.length);
    const medals = podium.map((row, i) => ({ userId: row.userId!, medal: DAILY_RULES.medals[i]! }));
    if (medals.length > 0) await awardMedals(ctx.database, { key: `daily:${day}`, at: now }, medals);
    await store.markMedalsGiven(day, now);
    ctx.log.info("daily medals given", { day, members: medals.length });
    done.push(day);
  }
  return done;
}
