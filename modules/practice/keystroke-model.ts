/**
 * The weakness model (issue 28): every keystroke of a practice, read from the answer box as the IME changes it, is
 * judged against the text's own keystrokes and tallied per jamo key and per transition hard in 두벌식. Pure, shared
 * by the web (which stamps the keystrokes) and the server (which checks and stores the tallies). Rules:
 * modules/practice/README.md "The weakness model".
 *
 * Why the IME's steps are enough: the jamo keys of a text (`jamoKeys`: 닭 → ㄷㅏㄹㄱ, 와 → ㅇㅗㅏ) do not depend on
 * how the syllables are split, so every keystroke adds exactly one key to the keys of the box's text, whatever the
 * IME shows meanwhile: 가 + ㄴ shows 간 (ㄱㅏㄴ), + ㅏ shows 가나 (ㄱㅏㄴㅏ, the 도깨비불 jump). Comparing the keys
 * of two successive values gives the keys typed (or erased) between them.
 */
import { jamoKeys } from "../kernel/typing";
import { type KeyboardLayout, type Layout, unitOf } from "./key-caps";
import { layoutOf } from "./layouts";
import { consonantOfFinal, isFinalKey } from "./sebeolsik";

export const TRANSITIONS = ["dokkaebi", "double_final", "shift"] as const;
export type Transition = (typeof TRANSITIONS)[number];

export const TRANSITION_NAMES: Record<Transition, string> = {
  dokkaebi: "도깨비불 (받침 뒤 모음)",
  double_final: "겹받침",
  shift: "Shift 자모",
};

/** A unit as players read it: the jamo itself, 받침 ㄱ for a 세벌식 final, 스페이스, or the transition's name. */
export const unitName = (unit: string) => {
  if (unit === "space") return "스페이스";
  if (isFinalKey(unit)) return `받침 ${consonantOfFinal(unit)}`;
  return TRANSITION_NAMES[unit as Transition] ?? unit;
};

export const MODEL_RULES = {
  /** A gap longer than this between two keystrokes is a pause, not the key's speed. */
  maxIntervalMs: 2_000,
  /** A unit needs this many keystrokes before its figures say anything (the weakness ranking skips it). */
  minHits: 5,
} as const;

/** One unit's count: keystrokes expected at it, how many were wrong, and the time of the right ones that were timed. */
export interface Tally {
  hits: number;
  errors: number;
  time_ms: number;
  timed: number;
}

export interface KeystrokeSummary {
  layout: Layout;
  jamo: ({ jamo: string } & Tally)[];
  transitions: ({ kind: Transition } & Tally)[];
  /** Keys erased (Backspace), all told. */
  corrections: number;
}

const emptyTally = (): Tally => ({ hits: 0, errors: 0, time_ms: 0, timed: 0 });

const SYLLABLE_FIRST = 0xac00;
const SYLLABLE_LAST = 0xd7a3;
const INITIALS = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ";
/** Consonants that may close a syllable alone (ㄸ ㅃ ㅉ never do). */
const FINAL_ALONE = "ㄱㄲㄴㄷㄹㅁㅂㅅㅆㅇㅈㅊㅋㅌㅍㅎ";
/** The pairs that make a double final (겹받침): first key, then the keys that may follow it. */
const DOUBLE_FINALS: Record<string, string> = { ㄱ: "ㅅ", ㄴ: "ㅈㅎ", ㄹ: "ㄱㅁㅂㅅㅌㅍㅎ", ㅂ: "ㅅ" };

interface Syllable {
  initial: string;
  /** The final's keys: "" (none), one key, or two (a double final). */
  finalKeys: string;
}

function syllableOf(char: string | undefined): Syllable | null {
  const code = char?.codePointAt(0) ?? 0;
  if (code < SYLLABLE_FIRST || code > SYLLABLE_LAST) return null;
  const offset = code - SYLLABLE_FIRST;
  const keys = Array.from(jamoKeys(char!));
  const finalCount = offset % 28 === 0 ? 0 : keys.length - 1 - medialCount(keys);
  return { initial: INITIALS[Math.floor(offset / 588)]!, finalKeys: keys.slice(keys.length - finalCount).join("") };
}

/** A syllable's vowel keys: 1, or 2 for a compound vowel (ㅘ = ㅗㅏ); jamo keys after the initial that are vowels. */
function medialCount(keys: string[]): number {
  let n = 0;
  for (const key of keys.slice(1)) if (key >= "ㅏ" && key <= "ㅣ") n++;
  return n;
}

/** Whether `consonant` typed right after `previous` first lands in it as its final (and jumps on at the next vowel). */
function attachesAsFinal(previous: Syllable | null, consonant: string): boolean {
  if (!previous) return false;
  if (previous.finalKeys === "") return FINAL_ALONE.includes(consonant);
  return previous.finalKeys.length === 1 && (DOUBLE_FINALS[previous.finalKeys] ?? "").includes(consonant);
}

/** One key of a text as the model expects it: the key, and the transitions it is the hard part of. */
export interface ExpectedKey {
  key: string;
  transitions: Transition[];
}

/** The keys of one 두벌식 character of a text, each with its transitions (`previous`: the character before it). */
function dubeolsikExpected(char: string, previous: string | undefined): ExpectedKey[] {
  const keys = Array.from(jamoKeys(char));
  const syllable = syllableOf(char);
  const firstFinal = syllable ? keys.length - syllable.finalKeys.length : keys.length;
  const jumps = syllable !== null && attachesAsFinal(syllableOf(previous), syllable.initial);
  const shiftKeys = layoutOf("dubeolsik").shiftKeys;
  return keys.map((key, j) => {
    const transitions: Transition[] = [];
    // The vowel that pulls the consonant just typed out of the syllable before (가 + ㄴ = 간, + ㅏ = 가나).
    if (j === 1 && jumps) transitions.push("dokkaebi");
    if (syllable && syllable.finalKeys.length === 2 && j === firstFinal + 1) transitions.push("double_final");
    if (shiftKeys.has(key)) transitions.push("shift");
    return { key, transitions };
  });
}

/** The keys of one 세벌식 character: no jump; a double final's second key; the keys typed with Shift. */
function sebeolsikExpected(char: string, layout: KeyboardLayout): ExpectedKey[] {
  const keys = layout.keysOf(char);
  return keys.map((key, j) => {
    const transitions: Transition[] = [];
    if (isFinalKey(key) && j > 0 && isFinalKey(keys[j - 1]!)) transitions.push("double_final");
    if (layout.shiftKeys.has(key)) transitions.push("shift");
    return { key, transitions };
  });
}

/** Every character of a text with its expected keys on `layout`. */
export function expectedKeys(text: string, layout: Layout = "dubeolsik"): ExpectedKey[][] {
  const chars = Array.from(text.normalize("NFC"));
  const board = layoutOf(layout);
  return chars.map((char, i) =>
    layout === "dubeolsik" ? dubeolsikExpected(char, chars[i - 1]) : sebeolsikExpected(char, board),
  );
}

/** The keys of a text, one entry per key, each with the index of the character it belongs to. */
function keysWithChars(text: string, layout: KeyboardLayout): TypedKey[] {
  const out: TypedKey[] = [];
  Array.from(text.normalize("NFC")).forEach((char, c) => {
    layout.keysOf(char).forEach((key, j) => {
      out.push({ key, char: c, indexInChar: j, index: out.length });
    });
  });
  return out;
}

/** A key of the box's text: which character holds it, where in it, and where in the line's keys. */
interface TypedKey {
  key: string;
  char: number;
  indexInChar: number;
  index: number;
}

const keysOfText = (text: string, layout: KeyboardLayout) =>
  Array.from(text.normalize("NFC")).flatMap((char) => layout.keysOf(char));

/** The keys typed and erased between two values of the box: the common prefix of their keys is kept. */
export function keyDiff(before: string, after: string, layout: Layout = "dubeolsik") {
  const board = layoutOf(layout);
  const a = keysOfText(before, board);
  const b = keysWithChars(after, board);
  let same = 0;
  while (same < a.length && same < b.length && a[same] === b[same]!.key) same++;
  return { erased: a.length - same, typed: b.slice(same) };
}

/**
 * The key the player should press next for `typed` to go on towards `target` ("Backspace" when what is typed has
 * gone wrong; null when the target is complete).
 */
export function nextKey(typed: string, target: string, layout: Layout = "dubeolsik"): string | null {
  const board = layoutOf(layout);
  const want = keysOfText(target, board);
  const have = keysOfText(typed, board);
  for (let i = 0; i < have.length; i++) if (have[i] !== want[i]) return "Backspace";
  return want[have.length] ?? null;
}

/**
 * Tallies the keystrokes of one practice: feed it every value of the answer box with its time (`input`), the line
 * to type (`setTarget`) whenever it changes, and `pause()` while the player is away. The jamo a key counts under is
 * the one the text expected at that place: a wrong key is an error of the key that should have been pressed.
 */
export class KeystrokeTally {
  private readonly units = new Map<string, Tally>();
  private readonly transitions = new Map<Transition, Tally>();
  private corrections = 0;
  private target: ExpectedKey[][] = [];
  private targetKeys: ExpectedKey[] = [];
  private previous = "";
  private lastAt: number | null = null;
  private readonly known: ReadonlySet<string>;

  constructor(readonly layout: Layout = "dubeolsik") {
    this.known = new Set(layoutOf(layout).units);
  }

  /** A new line to type; the box starts empty. */
  setTarget(text: string) {
    this.target = expectedKeys(text, this.layout);
    this.targetKeys = this.target.flat();
    this.previous = "";
  }

  /** The player paused: the next keystroke is not timed against the last one. */
  pause() {
    this.lastAt = null;
  }

  /** The box now holds `value` (at `at` ms, any monotonic clock). */
  input(value: string, at: number) {
    const { erased, typed } = keyDiff(this.previous, value, this.layout);
    this.previous = value;
    this.corrections += erased;
    if (typed.length === 0) {
      if (erased > 0) this.lastAt = at;
      return;
    }
    const share = this.lastAt === null ? null : (at - this.lastAt) / typed.length;
    this.lastAt = at;
    for (const key of typed) this.judge(key, share);
  }

  private judge({ key, char, indexInChar, index }: TypedKey, intervalMs: number | null) {
    // 세벌식 never moves a key to another syllable: the n-th key typed is the line's n-th key, even where a wrong key
    // (an initial for a final) began a character of its own.
    const expected = this.layout === "dubeolsik" ? this.expectedAt(char, indexInChar) : this.targetKeys[index];
    if (!expected) return;
    const unit = unitOf(expected.key);
    if (!this.known.has(unit)) return;
    const right = key === expected.key;
    const timed = right && intervalMs !== null && intervalMs > 0 && intervalMs <= MODEL_RULES.maxIntervalMs;
    const count = (tally: Tally) => {
      tally.hits++;
      if (!right) tally.errors++;
      if (timed) {
        tally.time_ms += intervalMs;
        tally.timed++;
      }
    };
    count(mapGet(this.units, unit));
    for (const transition of expected.transitions) count(mapGet(this.transitions, transition));
  }

  /**
   * The expected key at key `j` of typed character `c`. A typed syllable may hold more keys than the target's
   * character at that place: the consonant that will jump to the next syllable (간 while typing 가나), so the count
   * goes on into the next character.
   */
  private expectedAt(c: number, j: number): ExpectedKey | undefined {
    let char = c;
    let index = j;
    while (char < this.target.length && index >= this.target[char]!.length) {
      index -= this.target[char]!.length;
      char++;
    }
    return this.target[char]?.[index];
  }

  summary(): KeystrokeSummary {
    return {
      layout: this.layout,
      jamo: [...this.units].map(([jamo, tally]) => ({ jamo, ...roundTally(tally) })),
      transitions: [...this.transitions].map(([kind, tally]) => ({ kind, ...roundTally(tally) })),
      corrections: this.corrections,
    };
  }
}

const roundTally = (tally: Tally): Tally => ({ ...tally, time_ms: Math.round(tally.time_ms) });

function mapGet<K>(map: Map<K, Tally>, key: K): Tally {
  let tally = map.get(key);
  if (!tally) {
    tally = emptyTally();
    map.set(key, tally);
  }
  return tally;
}

/** Two summaries as one (a guest's summaries added up in the browser, the day's rows on the server). */
export function addTallies(a: Tally, b: Tally): Tally {
  return {
    hits: a.hits + b.hits,
    errors: a.errors + b.errors,
    time_ms: a.time_ms + b.time_ms,
    timed: a.timed + b.timed,
  };
}

export interface UnitFigures {
  /** A jamo, "space", or a transition's name. */
  unit: string;
  hits: number;
  errors: number;
  /** errors ÷ hits, 0–1, 4 decimals. */
  error_rate: number;
  /** The unit's speed as 타/분 (60,000 ÷ its mean interval), null before any timed keystroke. */
  speed: number | null;
}

export function figuresOf(unit: string, tally: Tally): UnitFigures {
  return {
    unit,
    hits: tally.hits,
    errors: tally.errors,
    error_rate: tally.hits > 0 ? Math.round((tally.errors / tally.hits) * 10_000) / 10_000 : 0,
    speed: tally.timed > 0 && tally.time_ms > 0 ? Math.round(60_000 / (tally.time_ms / tally.timed)) : null,
  };
}

/**
 * How weak a unit is: its error rate, plus how much slower than the player's median unit it is (0 when not slower),
 * halved so that one error in ten weighs as much as being 20 % slower. Units with fewer than `minHits` keystrokes
 * are not ranked.
 */
export function weakest(figures: readonly UnitFigures[], count: number): UnitFigures[] {
  const ranked = figures.filter((f) => f.hits >= MODEL_RULES.minHits);
  const speeds = ranked.flatMap((f) => (f.speed === null ? [] : [f.speed])).sort((a, b) => a - b);
  const median = speeds.length > 0 ? speeds[Math.floor(speeds.length / 2)]! : null;
  const score = (f: UnitFigures) => f.error_rate + (median && f.speed ? Math.max(0, median / f.speed - 1) / 2 : 0);
  return ranked
    .map((f) => ({ f, s: score(f) }))
    .filter(({ s }) => s > 0)
    .sort((a, b) => b.s - a.s || a.f.unit.localeCompare(b.f.unit))
    .slice(0, count)
    .map(({ f }) => f);
}

/**
 * How much a text drills the given units: each expected key whose jamo (or one of whose transitions) is among
 * them counts once. 맞춤 연습 picks words by it.
 */
export function focusScore(text: string, units: ReadonlySet<string>, layout: Layout = "dubeolsik"): number {
  let score = 0;
  for (const char of expectedKeys(text, layout))
    for (const key of char) {
      if (units.has(unitOf(key.key))) score++;
      for (const transition of key.transitions) if (units.has(transition)) score++;
    }
  return score;
}
