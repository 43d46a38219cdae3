/**
 * Progress as the chart draws it (modules/practice README "Statistics and progress"): a member's comes from
 * `GET /api/practice/progress`, a guest's is made here from the results kept in the browser, in the same shape and
 * by the same arithmetic (Seoul days, means per day and kind, a unit's tallies per day). Pure.
 */

import { DAY_MS, seoulDate } from "../../../../modules/kernel/seoul-time";
import { addTallies, figuresOf, type Tally, type UnitFigures } from "../../../../modules/practice/keystroke-model";
import type { Layout } from "../../../../modules/practice/layouts";
import { type PracticeKind, practiceStreak } from "../../../../modules/practice/rules";
import type { ResultInput } from "./practice-api";

export interface KindDay {
  day: string;
  kind: PracticeKind;
  results: number;
  wpm: number;
  accuracy: number;
  minutes: number;
}

export type UnitDay = UnitFigures & { day: string };

/** `GET /api/practice/progress`'s answer. */
export interface Progress {
  from: string;
  to: string;
  days: KindDay[];
  unit: { unit: string; days: UnitDay[] } | null;
}

/** One day of the chart: the mean speed and accuracy of the day's results. */
export interface SeriesPoint {
  day: string;
  wpm: number;
  accuracy: number;
  results: number;
}

export type KindChoice = PracticeKind | "all";

const round2 = (n: number) => Math.round(n * 100) / 100;

/** The days of one kind (or of all, each day's kinds weighted by their results), oldest first. */
export function dailySeries(days: readonly KindDay[], kind: KindChoice): SeriesPoint[] {
  const byDay = new Map<string, { results: number; wpm: number; accuracy: number }>();
  for (const d of days) {
    if (kind !== "all" && d.kind !== kind) continue;
    const sum = byDay.get(d.day) ?? { results: 0, wpm: 0, accuracy: 0 };
    byDay.set(d.day, {
      results: sum.results + d.results,
      wpm: sum.wpm + d.wpm * d.results,
      accuracy: sum.accuracy + d.accuracy * d.results,
    });
  }
  return [...byDay.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([day, sum]) => ({
      day,
      results: sum.results,
      wpm: Math.round(sum.wpm / sum.results),
      accuracy: round2(sum.accuracy / sum.results),
    }));
}

/** The kinds practised in these days, in the product's order. */
export const kindsIn = (days: readonly KindDay[], order: readonly PracticeKind[]) =>
  order.filter((kind) => days.some((d) => d.kind === kind));

const dayOf = (result: ResultInput) => (result.finished_at ? seoulDate(Date.parse(result.finished_at)) : null);

/** A guest's progress over the `span` Seoul days ending at `now`, from the results in the browser. */
export function guestProgress(
  results: readonly ResultInput[],
  now: number,
  span: number,
  unit?: string,
  layout: Layout = "dubeolsik",
): Progress {
  const from = seoulDate(now - (span - 1) * DAY_MS);
  const to = seoulDate(now);
  const inWindow = results.flatMap((result) => {
    const day = dayOf(result);
    return day !== null && day >= from && day <= to ? [{ day, result }] : [];
  });
  const kinds = new Map<string, { day: string; kind: PracticeKind; list: ResultInput[] }>();
  for (const { day, result } of inWindow) {
    const key = `${day} ${result.kind}`;
    const group = kinds.get(key) ?? { day, kind: result.kind, list: [] };
    group.list.push(result);
    kinds.set(key, group);
  }
  const mean = (list: ResultInput[], of: (r: ResultInput) => number) =>
    list.reduce((sum, r) => sum + of(r), 0) / list.length;
  const days = [...kinds.values()]
    .sort((a, b) => a.day.localeCompare(b.day) || a.kind.localeCompare(b.kind))
    .map(({ day, kind, list }) => ({
      day,
      kind,
      results: list.length,
      wpm: Math.round(mean(list, (r) => r.wpm)),
      accuracy: round2(mean(list, (r) => r.accuracy)),
      minutes: Math.round(list.reduce((ms, r) => ms + r.duration_ms, 0) / 600) / 100,
    }));
  // The kinds' days hold every layout; a unit is one layout's key (a 세벌식 ᆫ is no 두벌식 ㄴ).
  const ofLayout = inWindow.filter(({ result }) => result.layout === layout);
  return { from, to, days, unit: unit ? { unit, days: unitDays(ofLayout, unit) } : null };
}

/** One unit's tallies (a jamo or a transition) per day, as figures. */
function unitDays(results: readonly { day: string; result: ResultInput }[], unit: string): UnitDay[] {
  const byDay = new Map<string, Tally>();
  for (const { day, result } of results) {
    const tallies = [
      ...result.summary.jamo.filter((j) => j.jamo === unit),
      ...result.summary.transitions.filter((t) => t.kind === unit),
    ];
    for (const { hits, errors, time_ms, timed } of tallies) {
      byDay.set(
        day,
        addTallies(byDay.get(day) ?? { hits: 0, errors: 0, time_ms: 0, timed: 0 }, { hits, errors, time_ms, timed }),
      );
    }
  }
  return [...byDay.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([day, tally]) => ({ day, ...figuresOf(unit, tally) }));
}

/** A guest's 연속 연습 and practice days, from the results in the browser. */
export function guestDays(results: readonly ResultInput[], now: number) {
  const days = new Set(results.flatMap((result) => dayOf(result) ?? []));
  return { practice_days: days.size, streak: practiceStreak(days, seoulDate(now)) };
}
