/**
 * The standard 두벌식 (KS X 5002) keyboard as practice knows it: which key types each jamo, on which row, with which
 * finger, and whether it needs Shift. Pure data (shared with the web): the web draws the on-screen keyboard and
 * builds the 자리 연습 drills from it, the server checks the jamo a keystroke summary names against it.
 */
import { jamoKeys } from "../kernel/typing";
import { type Drill, type KeyboardLayout, type KeyCap, keyRow, SPACE_UNIT, strokesOf } from "./key-caps";

export * from "./key-caps";

/** The keyboard's letter rows, left to right, as drawn on screen. */
export const KEY_ROWS: readonly (readonly KeyCap[])[] = [
  keyRow("top", "QWERTYUIOP", "ㅂㅈㄷㄱㅅㅛㅕㅑㅐㅔ", "ㅃㅉㄸㄲㅆㅛㅕㅑㅒㅖ"),
  keyRow("home", "ASDFGHJKL", "ㅁㄴㅇㄹㅎㅗㅓㅏㅣ", "ㅁㄴㅇㄹㅎㅗㅓㅏㅣ"),
  keyRow("bottom", "ZXCVBNM", "ㅋㅌㅊㅍㅠㅜㅡ", "ㅋㅌㅊㅍㅠㅜㅡ"),
];

const STROKES = strokesOf(KEY_ROWS);

/** How a jamo (or the space) is typed; undefined for a character the keyboard has no key for in 두벌식 mode. */
export const strokeOf = (jamo: string) => STROKES.get(jamo);

/** The jamo typed with Shift: ㅃ ㅉ ㄸ ㄲ ㅆ ㅒ ㅖ. */
export const SHIFT_JAMO = "ㅃㅉㄸㄲㅆㅒㅖ";

/** Every key unit of the model: the 33 jamo keys and the space. */
export const KEY_UNITS: readonly string[] = [...[...STROKES.keys()].filter((k) => k !== " "), SPACE_UNIT];

/** 자리 연습: one drill per keyboard row (기본 자리 first, as every 타자 교실 starts), then the Shift jamo. */
export const DRILLS: readonly Drill[] = [
  { id: "home", name: "기본 자리", jamo: KEY_ROWS[1]!.map((k) => k.jamo) },
  { id: "top", name: "윗 자리", jamo: KEY_ROWS[0]!.map((k) => k.jamo) },
  { id: "bottom", name: "아랫 자리", jamo: KEY_ROWS[2]!.map((k) => k.jamo) },
  { id: "shift", name: "Shift 자리", jamo: Array.from(SHIFT_JAMO) },
];

export const DUBEOLSIK: KeyboardLayout = {
  id: "dubeolsik",
  name: "두벌식",
  rows: KEY_ROWS,
  units: KEY_UNITS,
  strokeOf,
  keysOf: (char) => Array.from(jamoKeys(char)),
  shiftKeys: new Set(SHIFT_JAMO),
  transitions: ["dokkaebi", "double_final", "shift"],
  drills: DRILLS,
};
