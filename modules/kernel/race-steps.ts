/**
 * A racer's input as the server saw it arrive (product-rules "Live race and replays"): each change of the answer
 * box is a step stamped with the server's clock, in ms since the round started. The steps make the live progress,
 * decide whether a result is a human's typing, give the completion time, and are the result's replay. Pure
 * functions with no imports but the typing rules, so the web app can draw a replay with the same arithmetic.
 */
import { keystrokes, liveFigures, normalizeAnswer } from "./typing";

export interface RaceStep {
  /** Server time of arrival, ms since the round started. */
  t: number;
  /** The whole answer box at that moment (as typed: composing syllable included). */
  text: string;
}

export const RACE_STEP_RULES = {
  /** Steps kept per player and round; past it, each new step replaces the last. */
  maxSteps: 2_000,
  /**
   * More than this many keystrokes (타수 rule) added by one step is a burst no human types: the page sends at most
   * one step per `clientStepIntervalMs`, so one step holds what was typed in about that long.
   */
  burstKeystrokes: 12,
  /**
   * The page sends at most one step per this many ms (web `ProgressSender`), except the flush right before the
   * answer. Steps that arrive closer together were held up on the way (a busy server, a stalled connection).
   */
  clientStepIntervalMs: 100,
  /** An answer may arrive this long after its last step and still have the gap taken as network time. */
  maxNetworkAllowanceMs: 1_500,
} as const;

/**
 * The racer's steps with one more: unchanged when the text is the last step's; when the log is full the new step
 * replaces the last one, so the log stays bounded whatever a client sends and its last step is always the latest
 * text (the answer is compared with it). States are never mutated: a new array.
 */
export function appendStep(steps: readonly RaceStep[], t: number, text: string): readonly RaceStep[] {
  const last = steps.at(-1);
  if (last && last.text === text) return steps;
  const step = { t: Math.max(t, last?.t ?? 0), text };
  return steps.length >= RACE_STEP_RULES.maxSteps ? [...steps.slice(0, -1), step] : [...steps, step];
}

/** The share (0–1) of the sentence typed correctly from its start: the progress drawn in a racer's lane. */
export function correctPrefixShare(typed: string, sentence: string): number {
  const target = Array.from(sentence.normalize("NFC"));
  if (target.length === 0) return 0;
  const chars = Array.from(typed.normalize("NFC"));
  let same = 0;
  while (same < chars.length && same < target.length && chars[same] === target[same]) same++;
  return same / target.length;
}

/** Progress on the wire: 4 decimals are plenty for a bar (and changes below that are not worth a frame). */
export const roundProgress = (value: number) => Math.round(value * 10_000) / 10_000;

export interface LiveProgress {
  /** 0–1, 4 decimals. */
  progress: number;
  /** 타/분 so far. */
  wpm: number;
}

/** A racer's figures at a step: the correct prefix's share and the speed since the round started. */
export function progressAt(step: RaceStep, sentence: string): LiveProgress {
  const seconds = step.t / 1000;
  return {
    progress: roundProgress(correctPrefixShare(step.text, sentence)),
    wpm: liveFigures(step.text, sentence, seconds).wpm,
  };
}

export type StepVerdict =
  | { verified: true }
  | { verified: false; implausible: false }
  | { verified: false; implausible: true; reason: "burst" | "too_fast" | "answer_differs" };

/**
 * Whether the steps show a person typing the answer: no burst (`hasBurst`: one step adding more than 12
 * keystrokes, the text before the first step taken as empty), and the answer equal to the last step. No steps:
 * accepted, unverified (an old client or a script; product-rules). `answerSeconds` is the server's completion time, for the whole-answer rate.
 */
export function judgeSteps(
  steps: readonly RaceStep[],
  answer: string,
  answerSeconds: number,
  maxSpeed: number,
): StepVerdict {
  const last = steps.at(-1);
  if (!last) return { verified: false, implausible: false };
  if (normalizeAnswer(last.text) !== normalizeAnswer(answer)) {
    return { verified: false, implausible: true, reason: "answer_differs" };
  }
  if (hasBurst(steps)) return { verified: false, implausible: true, reason: "burst" };
  const rate = answerSeconds > 0 ? keystrokes(normalizeAnswer(answer)) / (answerSeconds / 60) : Infinity;
  if (rate > maxSpeed) return { verified: false, implausible: true, reason: "too_fast" };
  return { verified: true };
}

/**
 * Whether the steps show a burst no human types: one step adding more than the burst limit (a paste), or more steps
 * than the page could have sent since the round started (`sendingTimes`). Deletions and corrections make the count
 * go down, never count as typing. Several quick steps are judged by the whole answer's rate only: their arrival
 * times cannot tell typing from steps held up on the way (rooms README "Verified or not").
 */
export function hasBurst(steps: readonly RaceStep[]): boolean {
  return sendingTimes(steps) === null || largestStep(steps) > RACE_STEP_RULES.burstKeystrokes;
}

/** The most keystrokes one step added to the box (the first step over the empty box). */
export function largestStep(steps: readonly RaceStep[]): number {
  let largest = 0;
  let before = 0;
  for (const step of steps) {
    const count = keystrokes(step.text);
    largest = Math.max(largest, count - before);
    before = count;
  }
  return largest;
}

/**
 * The latest times at which the page can have sent the steps, given when they arrived and that it sends at most one
 * step per `clientStepIntervalMs` (the last step, the answer's flush, may follow its predecessor at once). `null`
 * when that pace cannot fit the steps after the round's start: more steps than any page sends.
 */
export function sendingTimes(steps: readonly RaceStep[]): number[] | null {
  const times = steps.map((step) => step.t);
  for (let i = times.length - 2; i >= 0; i--) {
    const gap = i === times.length - 2 ? 0 : RACE_STEP_RULES.clientStepIntervalMs;
    times[i] = Math.min(times[i], times[i + 1] - gap);
  }
  return times.length > 0 && times[0] < 0 ? null : times;
}

/**
 * The completion time in seconds, the server's (product-rules): from the round's start to the answer's arrival,
 * minus the answer's own network allowance (the gap since its last step, when the answer equals it), at most 1.5 s.
 */
export function serverCompletionSeconds(answerAtMs: number, last: RaceStep | undefined, answer: string): number {
  const sameAsLast = last !== undefined && normalizeAnswer(last.text) === normalizeAnswer(answer);
  const allowance = sameAsLast ? Math.min(RACE_STEP_RULES.maxNetworkAllowanceMs, answerAtMs - last.t) : 0;
  return Math.max(0, answerAtMs - Math.max(0, allowance)) / 1000;
}

export interface LaneFigures extends LiveProgress {
  completed: boolean;
  position?: number;
}

/**
 * The race's lanes between two broadcasts: each racer's latest figures, and which changed since the last flush
 * (the room broadcasts only those, at most 5 times a second).
 */
export class LaneBoard<Key extends string = string> {
  private readonly lanes = new Map<Key, LaneFigures>();
  private readonly changed = new Set<Key>();

  set(key: Key, figures: LaneFigures) {
    const before = this.lanes.get(key);
    if (before && sameFigures(before, figures)) return;
    this.lanes.set(key, figures);
    this.changed.add(key);
  }

  get(key: Key): LaneFigures | undefined {
    return this.lanes.get(key);
  }

  get pending(): boolean {
    return this.changed.size > 0;
  }

  /** The changed lanes since the last flush, and forgets that they changed. */
  flush(): [Key, LaneFigures][] {
    const out = [...this.changed].map((key) => [key, this.lanes.get(key)!] as [Key, LaneFigures]);
    this.changed.clear();
    return out;
  }

  /** Every lane (a spectator or a late joiner draws the whole race). */
  all(): [Key, LaneFigures][] {
    return [...this.lanes];
  }

  clear() {
    this.lanes.clear();
    this.changed.clear();
  }
}

const sameFigures = (a: LaneFigures, b: LaneFigures) =>
  a.progress === b.progress && a.wpm === b.wpm && a.completed === b.completed && a.position === b.position;

/**
 * A replay as stored: each step as `[dt, kept, added]` — ms since the previous step, how many characters (code
 * points) of the previous text it keeps, and what follows them — in JSON. A step usually adds or changes one
 * syllable, so it costs about a dozen bytes instead of the whole text (bench/README.md "Replays").
 */
export function encodeSteps(steps: readonly RaceStep[]): string {
  let previous: string[] = [];
  let t = 0;
  const rows = steps.map((step) => {
    const chars = Array.from(step.text);
    let kept = 0;
    while (kept < chars.length && kept < previous.length && chars[kept] === previous[kept]) kept++;
    const row = [step.t - t, kept, chars.slice(kept).join("")];
    previous = chars;
    t = step.t;
    return row;
  });
  return JSON.stringify(rows);
}

/** The steps of a stored replay (`encodeSteps`); anything malformed gives no steps rather than a throw. */
export function decodeSteps(encoded: string): RaceStep[] {
  let rows: unknown;
  try {
    rows = JSON.parse(encoded);
  } catch {
    return [];
  }
  if (!Array.isArray(rows)) return [];
  const steps: RaceStep[] = [];
  let previous: string[] = [];
  let t = 0;
  for (const row of rows) {
    if (!Array.isArray(row) || typeof row[0] !== "number" || typeof row[1] !== "number" || typeof row[2] !== "string")
      return [];
    // Time only moves on, and a step keeps at most the characters the previous one had.
    if (row[0] < 0 || row[1] < 0 || row[1] > previous.length) return [];
    t += row[0];
    previous = [...previous.slice(0, row[1]), ...Array.from(row[2])];
    steps.push({ t, text: previous.join("") });
  }
  return steps;
}
