/**
 * The standard 두벌식 (KS X 5002) keyboard as practice knows it: which key types each jamo, on which row, with which
 * finger, and whether it needs Shift. Pure data with no imports: the web draws the on-screen keyboard and builds the
 * 자리 연습 drills from it, the server checks the jamo a keystroke summary names against it.
 */

export const LAYOUTS = ["dubeolsik"] as const;
export type Layout = (typeof LAYOUTS)[number];

export type Row = "top" | "home" | "bottom" | "space";
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
  /** The jamo it types, and with Shift (the same jamo when Shift changes nothing). */
  jamo: string;
  shifted: string;
  row: Row;
  finger: Finger;
}

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

function row(row: Row, letters: string, jamo: string, shifted: string): KeyCap[] {
  return Array.from(letters, (letter, i) => ({
    code: `Key${letter}`,
    letter,
    jamo: jamo[i]!,
    shifted: shifted[i]!,
    row,
    finger: FINGERS_BY_COLUMN[i]!,
  }));
}

/** The keyboard's letter rows, left to right, as drawn on screen. */
export const KEY_ROWS: readonly (readonly KeyCap[])[] = [
  row("top", "QWERTYUIOP", "ㅂㅈㄷㄱㅅㅛㅕㅑㅐㅔ", "ㅃㅉㄸㄲㅆㅛㅕㅑㅒㅖ"),
  row("home", "ASDFGHJKL", "ㅁㄴㅇㄹㅎㅗㅓㅏㅣ", "ㅁㄴㅇㄹㅎㅗㅓㅏㅣ"),
  row("bottom", "ZXCVBNM", "ㅋㅌㅊㅍㅠㅜㅡ", "ㅋㅌㅊㅍㅠㅜㅡ"),
];

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

const STROKES = new Map<string, KeyStroke>();
for (const cap of KEY_ROWS.flat()) {
  STROKES.set(cap.jamo, { cap, shift: null });
  if (cap.shifted !== cap.jamo)
    STROKES.set(cap.shifted, { cap, shift: cap.finger.startsWith("left") ? "ShiftRight" : "ShiftLeft" });
}
STROKES.set(" ", { cap: SPACE_KEY, shift: null });

/** How a jamo (or the space) is typed; undefined for a character the keyboard has no key for in 두벌식 mode. */
export const strokeOf = (jamo: string): KeyStroke | undefined => STROKES.get(jamo);

/** The jamo typed with Shift: ㅃ ㅉ ㄸ ㄲ ㅆ ㅒ ㅖ. */
export const SHIFT_JAMO = "ㅃㅉㄸㄲㅆㅒㅖ";

/** The model's name for the space bar (a JSON key reads better than " "). */
export const SPACE_UNIT = "space";

/** Every key unit of the model: the 33 jamo keys and the space. */
export const KEY_UNITS: readonly string[] = [...[...STROKES.keys()].filter((k) => k !== " "), SPACE_UNIT];

/** The unit a typed key counts under: the jamo itself, or "space". */
export const unitOf = (key: string) => (key === " " ? SPACE_UNIT : key);

/** The character a unit stands for (the inverse of `unitOf`). */
export const keyOfUnit = (unit: string) => (unit === SPACE_UNIT ? " " : unit);

export interface Drill {
  id: "home" | "top" | "bottom" | "shift";
  name: string;
  /** The jamo the drill is made of. */
  jamo: string[];
}

/** 자리 연습: one drill per keyboard row (기본 자리 first, as every 타자 교실 starts), then the Shift jamo. */
export const DRILLS: readonly Drill[] = [
  { id: "home", name: "기본 자리", jamo: KEY_ROWS[1]!.map((k) => k.jamo) },
  { id: "top", name: "윗 자리", jamo: KEY_ROWS[0]!.map((k) => k.jamo) },
  { id: "bottom", name: "아랫 자리", jamo: KEY_ROWS[2]!.map((k) => k.jamo) },
  { id: "shift", name: "Shift 자리", jamo: Array.from(SHIFT_JAMO) },
];
