/**
 * 세벌식 as practice knows it: initial consonants, vowels and final consonants are keys of their own, so a syllable
 * is typed initial, vowel, final, and nothing ever jumps to the next syllable (no 도깨비불). The model keys are the
 * initial consonants and vowels as compatibility jamo (ㄱ, ㅏ) and the finals as final jamo (ᆨ). A syllable's keys
 * take its jamo apart as far as the IME puts them together again (libhangul's combination table for 세벌식: ㄲ =
 * ㄱ ㄱ, ㅘ = ㅗ ㅏ, ㅢ = ㅡ ㅣ, ᆰ = ᆯ ᆨ, ᆻ = ᆺ ᆺ), whatever single keys a layout also has for some of them: the box's
 * successive values then always grow by whole keys, whichever way the player typed. Tables: sebeolsik-390.ts,
 * sebeolsik-final.ts (sources in the README).
 */
import {
  type Drill,
  type KeyboardLayout,
  type KeyCap,
  LAYOUT_NAMES,
  type Layout,
  strokesOf,
  unitsOf,
} from "./key-caps";

const SYLLABLE_FIRST = 0xac00;
const SYLLABLE_LAST = 0xd7a3;
const INITIALS = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ";
const MEDIALS = "ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ";
/** The finals in Unicode's order (index 1 = U+11A8 ᆨ); index 0 is "no final". */
const FINALS = " ㄱㄲㄳㄴㄵㄶㄷㄹㄺㄻㄼㄽㄾㄿㅀㅁㅂㅄㅅㅆㅇㅈㅊㅋㅌㅍㅎ";
const FINAL_JAMO_FIRST = 0x11a7;
/** What the IME builds from two keys (libhangul's `hangul_combination_table_default`). */
const SPLIT: Record<string, string> = {
  ㄲ: "ㄱㄱ",
  ㄸ: "ㄷㄷ",
  ㅃ: "ㅂㅂ",
  ㅆ: "ㅅㅅ",
  ㅉ: "ㅈㅈ",
  ㅘ: "ㅗㅏ",
  ㅙ: "ㅗㅐ",
  ㅚ: "ㅗㅣ",
  ㅝ: "ㅜㅓ",
  ㅞ: "ㅜㅔ",
  ㅟ: "ㅜㅣ",
  ㅢ: "ㅡㅣ",
  ㄳ: "ㄱㅅ",
  ㄵ: "ㄴㅈ",
  ㄶ: "ㄴㅎ",
  ㄺ: "ㄹㄱ",
  ㄻ: "ㄹㅁ",
  ㄼ: "ㄹㅂ",
  ㄽ: "ㄹㅅ",
  ㄾ: "ㄹㅌ",
  ㄿ: "ㄹㅍ",
  ㅀ: "ㄹㅎ",
  ㅄ: "ㅂㅅ",
};
/** Consonant clusters that only ever close a syllable. */
const FINAL_CLUSTERS = "ㄳㄵㄶㄺㄻㄼㄽㄾㄿㅀㅄ";

const split = (jamo: string) => Array.from(SPLIT[jamo] ?? jamo);

/** The final jamo of a single consonant: ㄱ → ᆨ. */
export const finalKey = (consonant: string) => String.fromCodePoint(FINAL_JAMO_FIRST + FINALS.indexOf(consonant));
/** Whether a model key is a final (ᆨ … ᇂ). */
export const isFinalKey = (key: string) => key >= "\u11a8" && key <= "\u11c2";
/** A final's consonant as players read it: ᆨ → ㄱ. */
export const consonantOfFinal = (key: string) => FINALS[key.codePointAt(0)! - FINAL_JAMO_FIRST] ?? key;

const finalKeys = (consonant: string) => split(consonant).map(finalKey);

/** The 세벌식 keys of one character (a syllable, a jamo alone as the IME shows it while composing, or anything else). */
export function sebeolsikKeys(char: string): string[] {
  const code = char.codePointAt(0) ?? 0;
  if (code >= SYLLABLE_FIRST && code <= SYLLABLE_LAST) {
    const offset = code - SYLLABLE_FIRST;
    const final = offset % 28;
    return [
      ...split(INITIALS[Math.floor(offset / 588)]!),
      ...split(MEDIALS[Math.floor(offset / 28) % 21]!),
      ...(final > 0 ? finalKeys(FINALS[final]!) : []),
    ];
  }
  if (code >= 0x1100 && code <= 0x1112) return split(INITIALS[code - 0x1100]!);
  if (code >= 0x1161 && code <= 0x1175) return split(MEDIALS[code - 0x1161]!);
  if (isFinalKey(char)) return finalKeys(consonantOfFinal(char));
  if (FINAL_CLUSTERS.includes(char)) return finalKeys(char);
  if (INITIALS.includes(char) || MEDIALS.includes(char)) return split(char);
  return [char];
}

/** A final as a syllable to drill it on: 아 + ᆨ = 악. */
const onA = (final: string) =>
  String.fromCodePoint(SYLLABLE_FIRST + (11 * 21 + 0) * 28 + FINALS.indexOf(consonantOfFinal(final)));
const drillItem = (key: string) => (isFinalKey(key) ? onA(key) : key);

/**
 * A 세벌식 layout from its rows (number row first as drawn). The guide prefers the main rows over the number row
 * (ㅜ on B rather than 9) and the first key of a row (ㅗ on V rather than /).
 */
export function sebeolsikLayout(id: Layout, rows: readonly (readonly KeyCap[])[]): KeyboardLayout {
  const [numberRow, top, home, bottom] = rows as [KeyCap[], KeyCap[], KeyCap[], KeyCap[]];
  const strokes = strokesOf([top, home, bottom, numberRow]);
  const units = unitsOf(strokes, sebeolsikKeys);
  const isUnit = new Set(units);
  const plainOf = (row: readonly KeyCap[]) => row.map((k) => k.jamo).filter((k) => isUnit.has(k));
  const shiftKeys = new Set([...strokes].filter(([key, s]) => s.shift && isUnit.has(key)).map(([key]) => key));
  const drill = (id: Drill["id"], name: string, keys: string[]): Drill => ({
    id,
    name,
    jamo: [...new Set(keys)].map(drillItem),
  });
  return {
    id,
    name: LAYOUT_NAMES[id],
    rows,
    units,
    strokeOf: (key) => strokes.get(key),
    keysOf: sebeolsikKeys,
    shiftKeys,
    transitions: ["double_final", "shift"],
    drills: [
      drill("home", "기본 자리", plainOf(home)),
      drill("top", "윗 자리", plainOf(top)),
      drill("bottom", "아랫 자리", plainOf(bottom)),
      drill("number", "숫자 자리", plainOf(numberRow)),
      drill("shift", "Shift 자리", [...shiftKeys]),
    ],
  };
}
