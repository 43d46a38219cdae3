/**
 * A practice as lines to type (한컴타자연습's way: one line at a time, Enter goes on) and its score by the server's
 * own typing rules (modules/kernel/typing.ts). Pure: the page and its tests use it.
 */
import {
  accuracyFromDistance,
  editDistance,
  keystrokes,
  liveFigures,
  normalizeAnswer,
  typingSpeed,
} from "../../../../modules/kernel/typing";
import type { Drill } from "../../../../modules/practice/key-caps";

/** A line longer than this is cut at a space: it has to fit the box on a phone. */
export const MAX_LINE = 48;
export const WORDS_PER_LINE = 5;
export const DRILL_LINES = 6;
export const DRILL_GROUPS = 8;

/** A 자리 연습 drill: lines of jamo, each group a jamo typed on its own (spaces keep the IME from joining them). */
export function drillLines(drill: Drill, random: () => number = Math.random): string[] {
  return Array.from({ length: DRILL_LINES }, () =>
    Array.from({ length: DRILL_GROUPS }, () => drill.jamo[Math.floor(random() * drill.jamo.length)]).join(" "),
  );
}

/** Words in lines of five. */
export function wordLines(words: readonly string[]): string[] {
  const lines: string[] = [];
  for (let i = 0; i < words.length; i += WORDS_PER_LINE) lines.push(words.slice(i, i + WORDS_PER_LINE).join(" "));
  return lines;
}

/** A text's paragraphs as lines: verse lines as they are, prose cut after sentences and then at spaces. */
export function textLines(paragraphs: readonly string[]): string[] {
  return paragraphs.flatMap((paragraph) =>
    paragraph
      .split("\n")
      .flatMap((line) => line.split(/(?<=[.?!])\s+/))
      .flatMap(cutAtSpaces)
      .filter((line) => line.trim().length > 0),
  );
}

function cutAtSpaces(line: string): string[] {
  const out: string[] = [];
  let current = "";
  for (const word of line.trim().split(/\s+/)) {
    if (current && Array.from(`${current} ${word}`).length > MAX_LINE) {
      out.push(current);
      current = word;
    } else current = current ? `${current} ${word}` : word;
  }
  if (current) out.push(current);
  return out;
}

export interface LineScore {
  target: string;
  typed: string;
}

export interface SessionFigures {
  wpm: number;
  accuracy: number;
  errors: number;
  /** Keystrokes typed (타수 rule). */
  keystrokes: number;
}

/** What the lines done add up to: kept as a sum, so a keystroke deep in a 긴 글 never goes through them again. */
export interface LineTotals {
  errors: number;
  /** Characters of the targets compared. */
  compared: number;
  targetStrokes: number;
  typedStrokes: number;
}

export const NO_LINES: LineTotals = { errors: 0, compared: 0, targetStrokes: 0, typedStrokes: 0 };

/** `totals` with one more line done. */
export function addLine(totals: LineTotals, line: LineScore): LineTotals {
  const typed = normalizeAnswer(line.typed);
  const target = normalizeAnswer(line.target);
  return {
    errors: totals.errors + editDistance(typed, target),
    compared: totals.compared + Array.from(target).length,
    targetStrokes: totals.targetStrokes + keystrokes(target),
    typedStrokes: totals.typedStrokes + keystrokes(typed),
  };
}

export const totalsOf = (lines: readonly LineScore[]) => lines.reduce(addLine, NO_LINES);

/**
 * The figures of the lines done (their totals) and the line in progress, over `activeMs` of typing: accuracy on all
 * characters compared so far (the one still being composed is not an error yet), speed = the text's keystrokes
 * typed × accuracy ÷ minutes, never above the keystrokes actually typed (the server refuses that).
 */
export function sessionFigures(done: LineTotals, current: LineScore | null, activeMs: number): SessionFigures {
  let { errors, compared, targetStrokes, typedStrokes } = done;
  if (current?.typed) {
    const live = liveFigures(current.typed, current.target, 1);
    errors += live.error_count;
    compared += Array.from(current.typed.normalize("NFC")).length;
    const typedPart = current.typed.normalize("NFC");
    targetStrokes += keystrokes(Array.from(current.target).slice(0, Array.from(typedPart).length).join(""));
    typedStrokes += keystrokes(typedPart);
  }
  const accuracy = compared > 0 ? accuracyFromDistance(errors, compared) : 100;
  const seconds = activeMs / 1000;
  const raw = typingSpeed(typedStrokes, 100, seconds);
  return {
    wpm: Math.min(typingSpeed(targetStrokes, accuracy, seconds), raw),
    accuracy,
    errors,
    keystrokes: typedStrokes,
  };
}

/** Characters of each line and of the lines before each (made once per practice: `position` reads them). */
export function lineOffsets(lines: readonly string[]) {
  const before = [0];
  for (const line of lines) before.push(before[before.length - 1]! + Array.from(line).length);
  return before;
}

/** Characters of the whole practice and how many are behind the player: the position shown while typing. */
export function position(offsets: readonly number[], index: number, typed: string) {
  const total = offsets[offsets.length - 1]!;
  return { done: Math.min(total, offsets[index]! + Array.from(typed.normalize("NFC")).length), total };
}

/**
 * `count` of `items`, those scoring highest first, ties at random. Online the server gives exactly what was asked;
 * offline the service worker answers with the sample it kept (100 words, 30 sentences) whatever the query, and the
 * page draws from it — the words holding the weak jamo first for 맞춤 연습.
 */
export function pickFromSample<T>(
  items: readonly T[],
  count: number,
  score: (item: T) => number = () => 0,
  random: () => number = Math.random,
): T[] {
  if (items.length <= count) return [...items];
  return items
    .map((item) => ({ item, rank: Math.floor(score(item)) + random() }))
    .sort((a, b) => b.rank - a.rank)
    .slice(0, count)
    .map(({ item }) => item);
}
