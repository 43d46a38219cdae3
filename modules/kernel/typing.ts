/**
 * Typing scores shared by the server (authoritative results) and the web app (live figures while typing).
 * Pure functions with no imports, so the browser bundle can use this file as is. Rules: product-rules.md
 * "Typing speed and accuracy" and spec part 1 §9.
 *
 * - keystrokes (타수): a complete Hangul syllable counts 2, plus 1 with a final consonant; any other character
 *   (a space, punctuation, a Latin letter, a lone jamo) counts 1.
 * - accuracy = max(0, 1 − editDistance(typed, target) / length(target)) × 100, on code points, 2 decimals.
 * - error_count = that edit distance.
 * - speed (the `wpm` field, 타/분) = round(keystrokes(target) × accuracy/100 ÷ elapsed minutes).
 */

const SYLLABLE_FIRST = 0xac00;
const SYLLABLE_LAST = 0xd7a3;
const FINALS = 28;
const MEDIALS = 21;

const isSyllable = (code: number) => code >= SYLLABLE_FIRST && code <= SYLLABLE_LAST;

/** Keystrokes of a text: 2 per complete syllable, +1 with a final consonant (받침), 1 for anything else. */
export function keystrokes(text: string): number {
  let count = 0;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (isSyllable(code)) count += (code - SYLLABLE_FIRST) % FINALS === 0 ? 2 : 3;
    else count += 1;
  }
  return count;
}

/** What the server compares: NFC (so decomposed jamo from some IMEs equal precomposed syllables), ends trimmed. */
export const normalizeAnswer = (text: string) => text.normalize("NFC").trim();

const codePoints = (text: string) => Array.from(text, (c) => c.codePointAt(0)!);

/** Levenshtein distance on code points (an astral character is one character, not two UTF-16 units). */
export function editDistance(a: string, b: string): number {
  return distance(codePoints(a), codePoints(b));
}

function distance(a: number[], b: number[]): number {
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let previous = new Uint32Array(b.length + 1);
  let current = new Uint32Array(b.length + 1);
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    const ai = a[i - 1];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1] + (ai === b[j - 1] ? 0 : 1);
      current[j] = Math.min(substitution, previous[j] + 1, current[j - 1] + 1);
    }
    [previous, current] = [current, previous];
  }
  return previous[b.length];
}

export const round2 = (value: number) => Math.round(value * 100) / 100;

/**
 * The average of `count` figures adding up to `sum`, rounded half up to hundredths — the one definition of every
 * average a player sees (the account's average speed and accuracy, the rankings', the games aggregates'). Each
 * figure has at most 2 decimals (speeds are whole, accuracies 2 decimals), so the sum in hundredths is a whole
 * number once the float error of the additions is rounded off, and the division is integer arithmetic: the same
 * answer whatever order the figures were added in, and exactly the rankings' `(200 × sum + n) / (2n)` for speeds
 * (`Math.round(sum / n × 100)` is not: 201 / 200 gives 1.00 in floating point, 1.01 exactly).
 */
export function average2(sum: number, count: number): number {
  if (!(count > 0)) return 0;
  const hundredths = Math.round(sum * 100);
  return Math.floor((2 * hundredths + count) / (2 * count)) / 100;
}

/** Accuracy in percent with 2 decimals; an empty target gives 0 (nothing to be accurate about). */
export function accuracyFromDistance(distanceValue: number, targetLength: number): number {
  if (targetLength <= 0) return 0;
  return round2(Math.max(0, 1 - distanceValue / targetLength) * 100);
}

/** Keystrokes per minute weighted by accuracy, rounded; a non-positive time gives 0 (the caller rejects it). */
export function typingSpeed(targetKeystrokes: number, accuracy: number, elapsedSeconds: number): number {
  if (!(elapsedSeconds > 0)) return 0;
  return Math.round((targetKeystrokes * (accuracy / 100)) / (elapsedSeconds / 60));
}

export interface TypingScore {
  /** Speed in 타/분 (named `wpm` on the wire). */
  wpm: number;
  accuracy: number;
  error_count: number;
  /** Keystrokes of the target text. */
  keystrokes: number;
  /** Keystrokes actually typed per minute, unweighted: what the plausibility check looks at. */
  raw_speed: number;
}

/** The final score of one answer against the target (both normalised with `normalizeAnswer`). */
export function scoreTyping(typedText: string, targetText: string, elapsedSeconds: number): TypingScore {
  const typed = codePoints(normalizeAnswer(typedText));
  const target = codePoints(normalizeAnswer(targetText));
  const errors = distance(typed, target);
  const accuracy = accuracyFromDistance(errors, target.length);
  const targetStrokes = keystrokes(normalizeAnswer(targetText));
  return {
    wpm: typingSpeed(targetStrokes, accuracy, elapsedSeconds),
    accuracy,
    error_count: errors,
    keystrokes: targetStrokes,
    raw_speed: typingSpeed(keystrokes(normalizeAnswer(typedText)), 100, elapsedSeconds),
  };
}

/**
 * A line sent during a game whose accuracy against the sentence is below this is chat, not an answer
 * (product-rules "Typing rooms"): the server posts it to the room and the player keeps the attempt; the web app
 * sends such a line as chat in the first place.
 */
export const CHAT_LINE_ACCURACY = 50;

/** Whether a line sent while `sentence` is up is chat (below `CHAT_LINE_ACCURACY`), not an answer to it. */
export const isChatLine = (text: string, sentence: string, threshold = CHAT_LINE_ACCURACY) =>
  scoreTyping(text, sentence, 1).accuracy < threshold;

// --- live figures while typing -------------------------------------------------------------------------------

const MEDIAL_JAMO = "ㅏ ㅐ ㅑ ㅒ ㅓ ㅔ ㅕ ㅖ ㅗ ㅗㅏ ㅗㅐ ㅗㅣ ㅛ ㅜ ㅜㅓ ㅜㅔ ㅜㅣ ㅠ ㅡ ㅡㅣ ㅣ".split(" ");
const FINAL_JAMO =
  " ㄱ ㄲ ㄱㅅ ㄴ ㄴㅈ ㄴㅎ ㄷ ㄹ ㄹㄱ ㄹㅁ ㄹㅂ ㄹㅅ ㄹㅌ ㄹㅍ ㄹㅎ ㅁ ㅂ ㅂㅅ ㅅ ㅆ ㅇ ㅈ ㅊ ㅋ ㅌ ㅍ ㅎ".split(" ");
const INITIAL_JAMO = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ";
const COMPOUND_JAMO: Record<string, string> = {};
for (const [names, splits] of [
  ["ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ", MEDIAL_JAMO],
  ["_ㄱㄲㄳㄴㄵㄶㄷㄹㄺㄻㄼㄽㄾㄿㅀㅁㅂㅄㅅㅆㅇㅈㅊㅋㅌㅍㅎ", FINAL_JAMO],
] as const) {
  Array.from(names).forEach((name, i) => {
    if (splits[i].length > 1) COMPOUND_JAMO[name] = splits[i];
  });
}

/** The jamo keys an IME receives for a text: 닭 → ㄷㅏㄹㄱ, 와 → ㅇㅗㅏ (compound vowels and finals split). */
export function jamoKeys(text: string): string {
  let out = "";
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (!isSyllable(code)) {
      out += COMPOUND_JAMO[char] ?? char;
      continue;
    }
    const offset = code - SYLLABLE_FIRST;
    out += INITIAL_JAMO[Math.floor(offset / (MEDIALS * FINALS))];
    out += MEDIAL_JAMO[Math.floor(offset / FINALS) % MEDIALS];
    out += FINAL_JAMO[offset % FINALS];
  }
  return out;
}

/**
 * True when `typedChar` is a syllable still being composed towards the target: its keys are a prefix of the
 * target's keys from that position (다 → 닭; 닥 while typing 다가, where the ㄱ will move to the next syllable).
 */
export function isComposingTowards(typedChar: string, targetRest: string): boolean {
  if (!typedChar) return false;
  const keys = jamoKeys(typedChar);
  return keys.length > 0 && jamoKeys(Array.from(targetRest).slice(0, 2).join("")).startsWith(keys);
}

export interface LiveFigures {
  wpm: number;
  accuracy: number;
  error_count: number;
  /** Share of the target typed so far, 0–1. */
  progress: number;
}

/**
 * Figures for a partial answer: accuracy against the target's prefix of the same length, and the speed so far.
 * The last character does not count as an error while it is still being composed towards the target.
 */
export function liveFigures(typedText: string, targetText: string, elapsedSeconds: number): LiveFigures {
  const typed = Array.from(typedText.normalize("NFC"));
  const target = Array.from(targetText.normalize("NFC"));
  if (typed.length === 0 || target.length === 0) return { wpm: 0, accuracy: 100, error_count: 0, progress: 0 };
  const last = typed.length - 1;
  const composing = typed[last] !== target[last] && isComposingTowards(typed[last], target.slice(last).join(""));
  const compared = composing ? typed.slice(0, last) : typed;
  const errors = distance(
    compared.map((c) => c.codePointAt(0)!),
    target.slice(0, compared.length).map((c) => c.codePointAt(0)!),
  );
  const accuracy = accuracyFromDistance(errors, typed.length);
  return {
    wpm: typingSpeed(keystrokes(typed.join("")), accuracy, elapsedSeconds),
    accuracy,
    error_count: errors,
    progress: Math.min(1, typed.length / target.length),
  };
}
