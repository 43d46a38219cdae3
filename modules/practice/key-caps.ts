/**
 * What every keyboard layout of practice is made of: keys with their row, finger and Shift, the strokes that type
 * a model key, the 자리 연습 drills. Pure data and helpers with no imports (shared with the web): `dubeolsik.ts`,
 * `sebeolsik.ts` build their layouts from it, `layouts.ts` lists them.
 */

/** The layouts a player may practise on (stored with every result and tally; the wire's values). */
export const LAYOUTS = ["dubeolsik", "sebeolsik-390", "sebeolsik-final"] as const;
export type Layout = (typeof LAYOUTS)[number];

export const LAYOUT_NAMES: Record<Layout, string> = {
  dubeolsik: "두벌식",
  "sebeolsik-390": "세벌식 390",
  "sebeolsik-final": "세벌식 최종",
};

export const isLayout = (value: unknown): value is Layout => LAYOUTS.includes(value as Layout);

export type Row = "number" | "top" | "home" | "bottom" | "space";
export type Finger =
  | "left-pinky"
  | "left-ring"
  | "left-middle"
  | "left-index"
  | "right-index"
  | "right-middle"
  | "right-ring"
  | "right-pinky"
  | "thumb";

export const FINGER_NAMES: Record<Finger, string> = {
  "left-pinky": "왼손 새끼",
  "left-ring": "왼손 약지",
  "left-middle": "왼손 중지",
  "left-index": "왼손 검지",
  "right-index": "오른손 검지",
  "right-middle": "오른손 중지",
  "right-ring": "오른손 약지",
  "right-pinky": "오른손 새끼",
  thumb: "엄지",
};

export interface KeyCap {
  /** The physical key (`KeyboardEvent.code`). */
  code: string;
  /** The Latin letter printed on it. */
  letter: string;
  /** The model key it types, and with Shift ("" when that is no Hangul key of the layout). */
  jamo: string;
  shifted: string;
  row: Row;
  finger: Finger;
}

/** Touch typing's columns, left to right; the keys right of the tenth column belong to the right little finger. */
const FINGERS_BY_COLUMN: Finger[] = [
  "left-pinky",
  "left-ring",
  "left-middle",
  "left-index",
  "left-index",
  "right-index",
  "right-index",
  "right-middle",
  "right-ring",
  "right-pinky",
];

const PUNCTUATION_CODES: Record<string, string> = {
  ";": "Semicolon",
  "'": "Quote",
  ",": "Comma",
  ".": "Period",
  "/": "Slash",
};

const codeOf = (letter: string) =>
  PUNCTUATION_CODES[letter] ?? (letter >= "0" && letter <= "9" ? `Digit${letter}` : `Key${letter}`);

/**
 * One row of keys: the letters printed on them, the model key each types and the one with Shift ("_" for a key
 * that types no Hangul there). The strings are read code point by code point: a final jamo (ᆨ) is one.
 */
export function keyRow(row: Row, letters: string, plain: string, shifted: string): KeyCap[] {
  const plainKeys = Array.from(plain);
  const shiftedKeys = Array.from(shifted);
  return Array.from(letters, (letter, i) => ({
    code: codeOf(letter),
    letter,
    jamo: plainKeys[i] === "_" ? "" : plainKeys[i]!,
    shifted: shiftedKeys[i] === "_" ? "" : shiftedKeys[i]!,
    row,
    finger: FINGERS_BY_COLUMN[Math.min(i, FINGERS_BY_COLUMN.length - 1)]!,
  }));
}

/** The space bar: a keystroke of its own in the model ("space"). */
export const SPACE_KEY: KeyCap = {
  code: "Space",
  letter: " ",
  jamo: " ",
  shifted: " ",
  row: "space",
  finger: "thumb",
};

export interface KeyStroke {
  cap: KeyCap;
  /** Shift held with the other hand (the left Shift for keys of the right hand and the other way round). */
  shift: "ShiftLeft" | "ShiftRight" | null;
}

/**
 * How each model key is typed, from the rows. A key found on two keys (세벌식's second ㅗ and ㅜ) is typed with
 * the one met first: list the rows in the order the guide should prefer.
 */
export function strokesOf(rows: readonly (readonly KeyCap[])[]): Map<string, KeyStroke> {
  const strokes = new Map<string, KeyStroke>();
  const add = (key: string, stroke: KeyStroke) => {
    if (key && !strokes.has(key)) strokes.set(key, stroke);
  };
  for (const cap of rows.flat()) {
    add(cap.jamo, { cap, shift: null });
    if (cap.shifted !== cap.jamo)
      add(cap.shifted, { cap, shift: cap.finger.startsWith("left") ? "ShiftRight" : "ShiftLeft" });
  }
  add(" ", { cap: SPACE_KEY, shift: null });
  return strokes;
}

/** The model's name for the space bar (a JSON key reads better than " "). */
export const SPACE_UNIT = "space";

/** The unit a typed key counts under: the key itself, or "space". */
export const unitOf = (key: string) => (key === " " ? SPACE_UNIT : key);

/** The character a unit stands for (the inverse of `unitOf`). */
export const keyOfUnit = (unit: string) => (unit === SPACE_UNIT ? " " : unit);

export interface Drill {
  id: "home" | "top" | "bottom" | "number" | "shift";
  name: string;
  /** What the drill is made of: single jamo (or, in 세벌식, a final on 아: 악). */
  jamo: string[];
}

/** The transitions a layout makes hard (keystroke-model.ts): 도깨비불 exists only where finals share initials' keys. */
export type LayoutTransition = "dokkaebi" | "double_final" | "shift";

/** One layout as practice uses it: drawn, guided, tallied and drilled. */
export interface KeyboardLayout {
  id: Layout;
  name: string;
  /** The rows as drawn on screen, top to bottom. */
  rows: readonly (readonly KeyCap[])[];
  /** The model's keys (and "space"): what a keystroke counts under. */
  units: readonly string[];
  /** How a model key is typed; undefined for a character the layout has no key for. */
  strokeOf: (key: string) => KeyStroke | undefined;
  /** The model keys of one character, in the order they are typed. */
  keysOf: (char: string) => string[];
  /** The keys typed with Shift (the "shift" transition). */
  shiftKeys: ReadonlySet<string>;
  transitions: readonly LayoutTransition[];
  drills: readonly Drill[];
}

/** Model keys the layout's strokes reach, each the whole of its own keys (not a compound a key also types). */
export function unitsOf(strokes: Map<string, KeyStroke>, keysOf: (char: string) => string[]): string[] {
  const units = [...strokes.keys()].filter((key) => key !== " " && keysOf(key).join("") === key);
  return [...units, SPACE_UNIT];
}
