import { awardExperience, type RewardedFigures } from "../accounts";
import type { ModuleContext } from "../kernel/define-module";
import { badRequest, isAppError, unprocessable } from "../kernel/errors";
import { DAY_MS, seoulDate } from "../kernel/seoul-time";
import type { AppServer } from "../kernel/socket";
import { computeRewards } from "../rooms";
import { figuresOf, type KeystrokeSummary, type UnitFigures, weakest } from "./keystroke-model";
import { isLayout, LAYOUT_NAMES, LAYOUTS, type Layout, layoutOf } from "./layouts";
import { PRACTICE_KINDS, PRACTICE_RULES, type PracticeKind, practiceStreak } from "./rules";
import { type GoalRow, type PracticeStore, practiceStoreOf, type ResultRow, type UnitRecord } from "./store";

export const practiceStore = (ctx: ModuleContext): PracticeStore => practiceStoreOf(ctx.database);

/** A result as the client sends it (snake_case on the wire; `model.ts` validates the shape). */
export interface ResultInput {
  client_id: string;
  kind: PracticeKind;
  text_id: string;
  layout: Layout;
  wpm: number;
  accuracy: number;
  keystrokes: number;
  error_count: number;
  duration_ms: number;
  finished_at?: string;
  summary: KeystrokeSummary;
}

export const PRACTICE_TEXT = {
  implausible: "비정상적으로 빠른 입력이 감지되어 결과가 인정되지 않았습니다.",
  speedAboveRaw: "속도가 입력한 타수보다 빠를 수 없습니다.",
  tooOld: `${PRACTICE_RULES.statsDays}일보다 오래된 연습 기록은 저장하지 않습니다.`,
  badTally: "자모 통계가 올바르지 않습니다: 오타와 시간을 잰 타수는 친 타수보다 많을 수 없습니다.",
  repeatedUnit: "자모 통계에 같은 자모가 두 번 있습니다.",
  layoutMismatch: "자모 통계의 자판이 연습 기록의 자판과 다릅니다.",
  unknownLayout: `알 수 없는 자판입니다. ${LAYOUTS.map((id) => `${id}(${LAYOUT_NAMES[id]})`).join(", ")} 중 하나를 보내주세요.`,
  foreignUnit: (unit: string, layout: Layout) => `${LAYOUT_NAMES[layout]} 자판에 없는 자모나 전환입니다: ${unit}`,
} as const;

/** A layout named on the wire (a query or a body): one of `LAYOUTS`, or 400 with the list. */
export function layoutParam(value: string | undefined, fallback: Layout): Layout {
  if (value === undefined || value === "") return fallback;
  if (!isLayout(value)) throw badRequest(PRACTICE_TEXT.unknownLayout, "unknown_layout");
  return value;
}

/** The io of each server (a member's sockets hear the experience a practice paid, as after a game). */
const servers = new WeakMap<ModuleContext, AppServer>();
export const rememberIo = (ctx: ModuleContext, io: AppServer) => servers.set(ctx, io);

/** Refuses a summary no keystroke tally can produce; answers its rows. */
function unitsOf(summary: KeystrokeSummary): UnitRecord[] {
  const units = [
    ...summary.jamo.map(({ jamo, ...tally }) => ({ unit: jamo, ...tally })),
    ...summary.transitions.map(({ kind, ...tally }) => ({ unit: kind, ...tally })),
  ];
  if (new Set(units.map((u) => u.unit)).size !== units.length) throw unprocessable(PRACTICE_TEXT.repeatedUnit);
  const layout = layoutOf(summary.layout);
  const known = new Set<string>([...layout.units, ...layout.transitions]);
  const foreign = units.find((u) => !known.has(u.unit));
  if (foreign) throw unprocessable(PRACTICE_TEXT.foreignUnit(foreign.unit, summary.layout));
  for (const u of units) {
    const right = u.hits - u.errors;
    if (right < 0 || u.timed > right || u.time_ms > u.timed * 2_000) throw unprocessable(PRACTICE_TEXT.badTally);
  }
  return units.map((u) => ({ unit: u.unit, hits: u.hits, errors: u.errors, timeMs: u.time_ms, timed: u.timed }));
}

/** When the result was finished: the client's time when it is not ahead of ours; never before the statistics' window. */
function finishedAtOf(ctx: ModuleContext, input: ResultInput): number {
  const now = ctx.clock.now();
  const claimed = input.finished_at ? Date.parse(input.finished_at) : Number.NaN;
  const at = Number.isFinite(claimed) ? Math.min(claimed, now) : now;
  if (at < now - PRACTICE_RULES.statsDays * DAY_MS) throw unprocessable(PRACTICE_TEXT.tooOld);
  return at;
}

function checkPlausible(input: ResultInput) {
  const rawSpeed = (input.keystrokes * 60_000) / input.duration_ms;
  if (rawSpeed > PRACTICE_RULES.maxSpeed) throw unprocessable(PRACTICE_TEXT.implausible, "implausible");
  if (input.wpm > Math.ceil(rawSpeed)) throw unprocessable(PRACTICE_TEXT.speedAboveRaw);
  if (input.summary.layout !== input.layout) throw unprocessable(PRACTICE_TEXT.layoutMismatch);
}

/** Experience for `ms` of practice at this speed and accuracy: the room formula's participation part per minute. */
export function practiceExperience(figures: { wpm: number; accuracy: number }, ms: number): number {
  const perMinute = computeRewards({ ...figures, position: null, participants: 1 }).experience;
  return Math.round((perMinute * ms) / 60_000);
}

export interface RecordedResult {
  id: number;
  client_id: string;
  /** False: this client id was stored before, and nothing was added again. */
  stored: boolean;
  day: string;
  experience: number;
  /** The member's figures after the experience this result paid (null: it paid nothing now). */
  user: RewardedFigures | null;
}

/**
 * Stores a member's result once (its client id) with its keystrokes, and pays the experience the day's first 30
 * minutes leave open (not for a guest's result moved at login, nor for one finished more than a day ago). A copy of
 * a stored result answers what the first one did; one whose payment failed is paid now (once: the grant key).
 */
export async function recordResult(
  ctx: ModuleContext,
  userId: number,
  input: ResultInput,
  { merged = false } = {},
): Promise<RecordedResult> {
  checkPlausible(input);
  const units = unitsOf(input.summary);
  const now = ctx.clock.now();
  const finishedAt = finishedAtOf(ctx, input);
  const payable = !merged && now - finishedAt <= PRACTICE_RULES.lateResultMs;
  const figures = { wpm: input.wpm, accuracy: input.accuracy };
  const { row, fresh } = await practiceStore(ctx).recordResult(
    {
      userId,
      clientId: input.client_id,
      kind: input.kind,
      textId: input.text_id,
      layout: input.layout,
      wpm: input.wpm,
      accuracy: input.accuracy,
      keystrokes: input.keystrokes,
      errorCount: input.error_count,
      durationMs: input.duration_ms,
      day: seoulDate(finishedAt),
      merged,
      finishedAt,
      createdAt: now,
      units,
      creditableMs: payable ? Math.min(input.duration_ms, input.keystrokes * PRACTICE_RULES.msPerKeystrokeAtMost) : 0,
      experienceFor: (ms) => practiceExperience(figures, ms),
    },
    PRACTICE_RULES.paidMsPerDay,
  );
  return {
    id: row.id,
    client_id: row.clientId,
    stored: fresh,
    day: row.day,
    experience: row.experience,
    user: await pay(ctx, row),
  };
}

/** Pays a stored result's experience once and tells the member's sockets; null when there is nothing to pay. */
async function pay(ctx: ModuleContext, row: ResultRow): Promise<RewardedFigures | null> {
  if (row.experience <= 0 || row.paidAt !== null) return null;
  const at = ctx.clock.now();
  const paid = await awardExperience(ctx.database, { key: `practice:${row.id}`, at }, [
    { userId: row.userId, experience: row.experience },
  ]);
  await practiceStore(ctx).markPaid(row.id, at);
  const figures = paid.get(row.userId) ?? null;
  if (figures && !figures.already_granted)
    servers
      .get(ctx)
      ?.to(`user:${row.userId}`)
      .emit("user:stats_update", {
        ...figures,
        user_id: row.userId,
        rewards: { experience: row.experience, coins: 0, points: 0, medal: null },
      });
  return figures;
}

/**
 * A guest's results moved to the account at login: each stored once (its client id, as always), none paid. A
 * result the rules refuse is skipped and counted, not the whole batch refused: what the browser kept is not the
 * member's to fix.
 */
export async function mergeGuestResults(ctx: ModuleContext, userId: number, inputs: readonly ResultInput[]) {
  let stored = 0;
  let duplicates = 0;
  let rejected = 0;
  for (const input of inputs) {
    try {
      const result = await recordResult(ctx, userId, input, { merged: true });
      if (result.stored) stored++;
      else duplicates++;
    } catch (error) {
      if (!isAppError(error) || error.status >= 500) throw error;
      rejected++;
    }
  }
  return { stored, duplicates, rejected };
}

/** The first day of a window of `days` Seoul days ending today. */
const windowStart = (ctx: ModuleContext, days: number) => seoulDate(ctx.clock.now() - (days - 1) * DAY_MS);

/** The member's statistics of the last 30 days: per jamo key and transition, the weakest, and the day's totals. */
export async function statisticsOf(ctx: ModuleContext, userId: number, layout: Layout) {
  const store = practiceStore(ctx);
  const since = windowStart(ctx, PRACTICE_RULES.statsDays);
  const today = seoulDate(ctx.clock.now());
  const [totals, recent, results] = await Promise.all([
    store.unitTotals(userId, layout, since),
    store.recentDays(userId, PRACTICE_RULES.maxProgressDays + 1),
    store.resultCount(userId),
  ]);
  const byUnit = new Map(totals.map((t) => [t.unit, t]));
  const unitFigures = (unit: string): UnitFigures => {
    const t = byUnit.get(unit);
    return figuresOf(unit, t ? { hits: t.hits, errors: t.errors, time_ms: t.timeMs, timed: t.timed } : ZERO);
  };
  const jamo = layoutOf(layout).units.map(unitFigures);
  const todayRow = recent[0]?.day === today ? recent[0] : null;
  return {
    layout,
    since,
    jamo,
    transitions: layoutOf(layout).transitions.map(unitFigures),
    weakest: weakest(jamo, 5).map((f) => f.unit),
    totals: {
      results,
      practice_days: recent.length,
      streak: practiceStreak(
        recent.map((d) => d.day),
        today,
      ),
      today_minutes: minutes(todayRow?.practiceMs ?? 0),
      today_paid_minutes: minutes(todayRow?.paidMs ?? 0),
      today_experience: todayRow?.experience ?? 0,
    },
  };
}

const ZERO = { hits: 0, errors: 0, time_ms: 0, timed: 0 };
const minutes = (ms: number) => Math.round(ms / 600) / 100;

/** Progress over `days` days: per day and kind (results, mean speed and accuracy, minutes), and one unit's days. */
export async function progressOf(
  ctx: ModuleContext,
  userId: number,
  { days, unit, layout = "dubeolsik" }: { days: number; unit?: string; layout?: Layout },
) {
  const store = practiceStore(ctx);
  const from = windowStart(ctx, days);
  const [kinds, unitDays] = await Promise.all([
    store.kindDays(userId, from),
    unit ? store.unitDays(userId, layout, unit, from) : Promise.resolve([]),
  ]);
  return {
    from,
    to: seoulDate(ctx.clock.now()),
    days: kinds.map((k) => ({
      day: k.day,
      kind: k.kind as PracticeKind,
      results: Number(k.results),
      wpm: Math.round(k.wpm),
      accuracy: Math.round(k.accuracy * 100) / 100,
      minutes: minutes(k.durationMs),
    })),
    unit: unit
      ? {
          unit,
          days: unitDays.map((d) => ({
            day: d.day,
            ...figuresOf(unit, { hits: d.hits, errors: d.errors, time_ms: d.timeMs, timed: d.timed }),
          })),
        }
      : null,
  };
}

export interface Goal {
  wpm: number;
  accuracy: number;
  updated_at: string;
}

const goalOfRow = (row: GoalRow): Goal => ({
  wpm: row.wpm,
  accuracy: row.accuracy,
  updated_at: row.updatedAt.toISOString(),
});

/** The member's target (타/분 and accuracy), or null before they set one. */
export async function goalOf(ctx: ModuleContext, userId: number): Promise<Goal | null> {
  const row = await practiceStore(ctx).goal(userId);
  return row ? goalOfRow(row) : null;
}

/** Sets the member's target (the routes check its range: `GOAL_RANGE`); accuracy to a tenth of a percent. */
export async function setGoal(ctx: ModuleContext, userId: number, goal: { wpm: number; accuracy: number }) {
  const accuracy = Math.round(goal.accuracy * 10) / 10;
  return goalOfRow(await practiceStore(ctx).setGoal({ userId, wpm: goal.wpm, accuracy, at: ctx.clock.now() }));
}

export const clearGoal = (ctx: ModuleContext, userId: number) => practiceStore(ctx).clearGoal(userId);

/** The layout the member practises on: the one they chose, 두벌식 until they choose. */
export async function layoutPreference(ctx: ModuleContext, userId: number): Promise<Layout> {
  const stored = await practiceStore(ctx).layout(userId);
  return isLayout(stored) ? stored : "dubeolsik";
}

export async function setLayoutPreference(ctx: ModuleContext, userId: number, layout: Layout) {
  await practiceStore(ctx).setLayout(userId, layout, ctx.clock.now());
  return layout;
}

/**
 * What the profile shows of a member's practice (modules/profile README): all of its time, its days and 연속 연습,
 * the best speed of each kind, and the weakest jamo of the statistics' 30 days. Practice is never a game: none of
 * this is in the games' figures, nor they in it.
 */
export type PracticeSummary = Awaited<ReturnType<typeof summaryOf>>;

export async function summaryOf(ctx: ModuleContext, userId: number) {
  const store = practiceStore(ctx);
  const [stats, lifetime, best] = await Promise.all([
    statisticsOf(ctx, userId, await layoutPreference(ctx, userId)),
    store.lifetime(userId),
    store.bestPerKind(userId),
  ]);
  const bestOf = new Map(best.map((b) => [b.kind, b.wpm ?? 0]));
  const figures = new Map([...stats.jamo, ...stats.transitions].map((f) => [f.unit, f]));
  return {
    results: stats.totals.results,
    total_minutes: minutes(lifetime.practiceMs),
    practice_days: lifetime.days,
    streak: stats.totals.streak,
    best: PRACTICE_KINDS.flatMap((kind) => (bestOf.has(kind) ? [{ kind, wpm: bestOf.get(kind)! }] : [])),
    weakest: stats.weakest.slice(0, 3).map((unit) => figures.get(unit)!),
  };
}
