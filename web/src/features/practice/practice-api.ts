/**
 * The practice calls (modules/practice README "HTTP"), and what a guest keeps in the browser instead: their results
 * with keystroke summaries (the latest 200), added up into the same statistics the server gives a member, and
 * moved to the account once they are signed in.
 */

import type { ResultInput } from "../../../../modules/practice/api";
import type { LongText } from "../../../../modules/practice/content";
import {
  addTallies,
  figuresOf,
  focusScore,
  type Tally,
  type UnitFigures,
  weakest,
} from "../../../../modules/practice/keystroke-model";
import { type Layout, layoutOf } from "../../../../modules/practice/layouts";
import { api } from "../../lib/api";
import { pickFromSample } from "./practice-lines";
import { guestDays, type Progress } from "./practice-progress";

export type { ResultInput };

export interface Statistics {
  jamo: UnitFigures[];
  transitions: UnitFigures[];
  weakest: string[];
  totals: {
    results: number;
    practice_days: number;
    streak: number;
    today_minutes: number;
    today_paid_minutes: number;
    today_experience: number;
  };
}

export interface Recorded {
  id: number;
  stored: boolean;
  experience: number;
}

/** A 긴 글 of the catalogue: everything but its paragraphs, which it counts. */
export type LongTextAbout = Omit<LongText, "paragraphs"> & { paragraphs: number; characters: number };

export const practiceApi = {
  /** Sent through the queue of unsent results (unsent-results.ts): a lost session keeps it there, on this page. */
  record: (result: ResultInput) =>
    api.post<Recorded>("/api/practice/results", result, { redirectOnAuthFailure: false }),
  merge: (results: ResultInput[]) =>
    api.post<{ stored: number; duplicates: number; rejected: number }>("/api/practice/merge", { results }),
  stats: (layout: Layout) => api.get<Statistics>("/api/practice/stats", { query: { layout } }),
  /** `count` words, the focus (units of `layout`) first (offline: drawn from the word list the worker kept). */
  async words(count: number, focus: readonly string[] = [], layout: Layout = "dubeolsik"): Promise<string[]> {
    const { words } = await api.get<{ words: string[] }>("/api/practice/words", {
      query: focus.length > 0 ? { count, focus: focus.join(","), layout } : { count },
    });
    const units = new Set(focus);
    return pickFromSample(words, count, (word) => focusScore(word, units, layout));
  },
  /** `count` sentences (offline: drawn from the service worker's sample). */
  async sentences(count: number): Promise<string[]> {
    const { sentences } = await api.get<{ sentences: { id: number; text: string }[] }>("/api/practice/sentences", {
      query: { count },
    });
    return pickFromSample(sentences, count).map((s) => s.text);
  },
  progress: (days: number, layout: Layout, unit?: string) =>
    api.get<Progress>("/api/practice/progress", { query: unit ? { days, unit, layout } : { days, layout } }),
  goal: () => api.get<{ goal: Goal | null }>("/api/practice/goal"),
  setGoal: (goal: Goal) => api.put<{ goal: Goal | null }>("/api/practice/goal", goal),
  clearGoal: () => api.delete<{ goal: null }>("/api/practice/goal"),
  layout: () => api.get<{ layout: Layout }>("/api/practice/layout"),
  setLayout: (layout: Layout) => api.put<{ layout: Layout }>("/api/practice/layout", { layout }),
  texts: () => api.get<{ long: LongTextAbout[] }>("/api/practice/texts"),
  text: (id: string) =>
    api.get<{ id: string; title: string; paragraphs: string[] }>(`/api/practice/texts/${encodeURIComponent(id)}`),
};

/** A target: 타/분 and accuracy % (modules/practice README "Goals"). */
export interface Goal {
  wpm: number;
  accuracy: number;
}

const GUEST_GOAL = "practice_goal";

/** A guest's target, kept in the browser (also while a member's is on the server: moved there at sign-in). */
export function guestGoal(): Goal | null {
  try {
    const goal = JSON.parse(localStorage.getItem(GUEST_GOAL) ?? "null");
    return typeof goal?.wpm === "number" && typeof goal?.accuracy === "number" ? goal : null;
  } catch {
    return null;
  }
}

export const keepGuestGoal = (goal: Goal | null) =>
  goal ? localStorage.setItem(GUEST_GOAL, JSON.stringify(goal)) : localStorage.removeItem(GUEST_GOAL);

const GUEST_RESULTS = "practice_guest_results";
const KEPT = 200;

export function guestResults(): ResultInput[] {
  try {
    const parsed = JSON.parse(localStorage.getItem(GUEST_RESULTS) ?? "[]");
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}

export function keepGuestResult(result: ResultInput) {
  localStorage.setItem(GUEST_RESULTS, JSON.stringify([...guestResults(), result].slice(-KEPT)));
}

export const clearGuestResults = () => localStorage.removeItem(GUEST_RESULTS);

const ZERO: Tally = { hits: 0, errors: 0, time_ms: 0, timed: 0 };

/** A guest's statistics on `layout`, from the summaries kept in the browser (the server's arithmetic). */
export function guestStatistics(layout: Layout): Statistics {
  const results = guestResults();
  const board = layoutOf(layout);
  const units = new Map<string, Tally>();
  const add = (unit: string, tally: Tally) => units.set(unit, addTallies(units.get(unit) ?? ZERO, tally));
  for (const result of results.filter((r) => r.summary.layout === layout)) {
    for (const { jamo, ...tally } of result.summary.jamo) add(jamo, tally);
    for (const { kind, ...tally } of result.summary.transitions) add(kind, tally);
  }
  const jamo = board.units.map((unit) => figuresOf(unit, units.get(unit) ?? ZERO));
  return {
    jamo,
    transitions: board.transitions.map((unit) => figuresOf(unit, units.get(unit) ?? ZERO)),
    weakest: weakest(jamo, 5).map((f) => f.unit),
    totals: {
      results: results.length,
      ...guestDays(results, Date.now()),
      today_minutes: 0,
      today_paid_minutes: 0,
      today_experience: 0,
    },
  };
}
