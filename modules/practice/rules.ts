/**
 * Practice's figures and names (modules/practice/README.md "Rules"), shared with the web app. Pure, no imports.
 */

export const PRACTICE_KINDS = ["keys", "words", "short", "long", "adaptive"] as const;
export type PracticeKind = (typeof PRACTICE_KINDS)[number];

export const KIND_NAMES: Record<PracticeKind, string> = {
  keys: "자리 연습",
  words: "낱말 연습",
  short: "짧은 글",
  long: "긴 글",
  adaptive: "맞춤 연습",
};

export const PRACTICE_RULES = {
  /** Practice that pays experience each Seoul day: the first 30 minutes. */
  paidMsPerDay: 30 * 60_000,
  /** A stretch slower than 30 타/분 is idle time, not practice: each keystroke counts for at most 2 s of it. */
  msPerKeystrokeAtMost: 2_000,
  /** One result: at most an hour of typing (a 긴 글 is well under that). */
  maxDurationMs: 3_600_000,
  /** Faster than this is no human (product-rules "Typing speed and accuracy"). */
  maxSpeed: 1_500,
  /** A result sent later (offline, a retry) pays only while its day is this recent. */
  lateResultMs: 86_400_000,
  /** The statistics count the last 30 Seoul days: what the player types now, not what they typed a year ago. */
  statsDays: 30,
  /** Days of progress one request may ask for. */
  maxProgressDays: 365,
  /** A guest's results merged at once, at most (the browser keeps the latest 200). */
  maxMergedResults: 200,
  /** Words one request may ask for. */
  maxWords: 100,
  /** Seeded sentences one request may ask for. */
  maxSentences: 30,
} as const;

/** A target's range (타/분 and accuracy %): from a first 자리 연습 to the fastest result the server accepts. */
export const GOAL_RANGE = {
  wpm: { min: 10, max: PRACTICE_RULES.maxSpeed },
  accuracy: { min: 50, max: 100 },
} as const;

/** Before the practice started: what a new player aims at until they set their own (한컴타자연습's 200타 at 95 %). */
export const DEFAULT_GOAL = { wpm: 200, accuracy: 95 } as const;

const DAY_MS = 86_400_000;
/** The calendar day before `day` (YYYY-MM-DD; calendar arithmetic, whatever the time zone the days are in). */
const dayBefore = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);

/**
 * 연속 연습: the run of consecutive practice days (YYYY-MM-DD, Seoul days, in any order, repeats allowed) that ends
 * `today`, or yesterday while today has none yet (the run is not broken before the day is over).
 */
export function practiceStreak(days: Iterable<string>, today: string): number {
  const practised = new Set(days);
  let day = practised.has(today) ? today : dayBefore(today);
  let streak = 0;
  while (practised.has(day)) {
    streak++;
    day = dayBefore(day);
  }
  return streak;
}

/** The client's id of a result: the at-most-once key (an offline result sent twice is stored once). */
export const CLIENT_ID_PATTERN = "^[A-Za-z0-9_-]{8,64}$";
