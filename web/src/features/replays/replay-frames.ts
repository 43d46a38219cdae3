/**
 * What a replay shows at a moment of its playback: the answer box as the player had it then (the last step that
 * arrived by that time, on the server's clock) and the live figures of that moment, with the same arithmetic as
 * the game's own live figures (`liveFigures` of modules/kernel/typing.ts).
 */
import { correctPrefixShare } from "../../../../modules/kernel/race-steps";
import { liveFigures } from "../../../../modules/kernel/typing";
import type { ReplayStep } from "./types";

export interface ReplayFrame {
  text: string;
  wpm: number;
  accuracy: number;
  errors: number;
  /** 0–1: the correct prefix's share of the sentence. */
  progress: number;
}

/** The index of the last step at or before `atMs` (-1: none yet); steps are in time order. */
export function stepIndexAt(steps: readonly ReplayStep[], atMs: number): number {
  let low = 0;
  let high = steps.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (steps[middle].t <= atMs) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}

export function frameAt(steps: readonly ReplayStep[], sentence: string, atMs: number): ReplayFrame {
  const index = stepIndexAt(steps, atMs);
  return figuresOf(index < 0 ? "" : steps[index].text, sentence, atMs);
}

/** The figures of an answer box holding `text` `atMs` after the round started (a replay's frame, a live lane). */
export function figuresOf(text: string, sentence: string, atMs: number): ReplayFrame {
  if (!text) return { text, wpm: 0, accuracy: 100, errors: 0, progress: 0 };
  const live = liveFigures(text, sentence, Math.max(0.001, atMs / 1000));
  return {
    text,
    wpm: live.wpm,
    accuracy: live.accuracy,
    errors: live.error_count,
    progress: correctPrefixShare(text, sentence),
  };
}

/** How long the replay plays: to the answer (its completion time) or the last step, whichever is later. */
export function replayLength(steps: readonly ReplayStep[], completionSeconds: number): number {
  return Math.max(steps.at(-1)?.t ?? 0, Math.round(completionSeconds * 1000));
}

/** 3.2 s → "0:03.2" (minutes, seconds and tenths: a race lasts seconds). */
export function clockText(ms: number): string {
  const tenths = Math.max(0, Math.floor(ms / 100));
  const minutes = Math.floor(tenths / 600);
  const seconds = Math.floor((tenths % 600) / 10);
  return `${minutes}:${String(seconds).padStart(2, "0")}.${tenths % 10}`;
}
