import { assemble, convertQwertyToHangul, disassemble } from "es-hangul";

/**
 * The profanity matcher (README "Profanity filter"), pure: built once from the word list, then asked about every
 * chat line, post, comment and name. A line is read three ways:
 *
 * 1. **Korean letters**: syllables, and spelled-out jamo assembled back into syllables (ㅅㅣㅂㅏㄹ → 시발; a run
 *    without vowels stays jamo, ㅅㅂ). A word matches units in a row, with at most `MAX_GAP` separators between two
 *    letters. Punctuation, digits, symbols and invisible characters between them ("시.발", "시1발") count as if they
 *    were not there; a gap with a space ("시 발") counts only when the word stands alone: it starts a token and ends
 *    one, so "세 시 발표" and "수박씨 발라" stay as they are. Exceptions (시발점) cover the words they contain.
 * 2. **English keyboard layout**: a run of Latin letters typed on a 두벌식 keyboard ("tlqkf" → 시발) matches a
 *    word made of whole syllables and at least `MIN_LAYOUT_KEYS` keys; the whole run is masked. Shorter words (ㅅㅂ
 *    is "tq", ㅁㅊ is "mc") would hit ordinary English.
 * 3. **Whole tokens**: a word with Latin letters or digits ("fuck", "시18") matches a token (a run of letters and
 *    digits) that is exactly it, so "18살" and "2018년" stay; a number ("18") only when it is the whole line.
 *
 * Every character goes through NFKC first (fullwidth ｔｌｑｋｆ, halfwidth jamo), except Hangul, which NFKC would
 * split into conjoining jamo.
 */

/** Separators allowed between two letters of a word. */
export const MAX_GAP = 3;
/** Keys a word needs to be matched in a run typed on the English layout. */
export const MIN_LAYOUT_KEYS = 3;
export const MASK = "***";

export interface WordList {
  words: readonly string[];
  exceptions: readonly string[];
}

interface Glyph {
  char: string;
  start: number;
  end: number;
}

type Gap = "none" | "tight" | "loose";

interface Unit {
  value: string;
  start: number;
  end: number;
  /** What lies between this unit and the previous one (or the line's start). */
  gap: Gap;
  gapLength: number;
}

interface TrieNode {
  next: Map<string, TrieNode>;
  word: boolean;
  /** A word of whole syllables typed with at least `MIN_LAYOUT_KEYS` keys (reading 2). */
  layout: boolean;
}

type Range = [start: number, end: number];

const SYLLABLE = /^[가-힣]$/;
const COMPAT_JAMO = /^[ㄱ-ㆎ]$/;
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;
const SPACE = /^\s$/u;
const LATIN = /^[A-Za-z]$/;
const LITERAL = /[A-Za-z0-9]/;
const NUMBER = /^[0-9]+$/;

// Conjoining jamo that NFC left alone (an unfinished syllable), as the compatibility jamo people type.
const CHOSEONG = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ";
const JUNGSEONG = "ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ";
const JONGSEONG = "ㄱㄲㄳㄴㄵㄶㄷㄹㄺㄻㄼㄽㄾㄿㅀㅁㅂㅄㅅㅆㅇㅈㅊㅋㅌㅍㅎ";

function normalizeChar(char: string): string {
  const code = char.codePointAt(0)!;
  if (code < 0x80) return char;
  if (code >= 0x1100 && code <= 0x1112) return CHOSEONG[code - 0x1100];
  if (code >= 0x1161 && code <= 0x1175) return JUNGSEONG[code - 0x1161];
  if (code >= 0x11a8 && code <= 0x11c2) return JONGSEONG[code - 0x11a8];
  if (SYLLABLE.test(char) || COMPAT_JAMO.test(char)) return char;
  return char.normalize("NFKC");
}

/** The line's characters after NFKC, each with its place in the (NFC) line. */
function glyphsOf(text: string): Glyph[] {
  const glyphs: Glyph[] = [];
  let at = 0;
  for (const char of text) {
    const end = at + char.length;
    for (const normalized of normalizeChar(char)) glyphs.push({ char: normalized, start: at, end });
    at = end;
  }
  return glyphs;
}

/** A run of jamo as assembled syllables (or jamo left alone), each spanning the jamo it was made of. */
/** Latin keys read as 두벌식 Hangul; null for key runs es-hangul cannot assemble (it throws on "nnpq"). */
function qwertyAsHangul(keys: string): string | null {
  try {
    return convertQwertyToHangul(keys);
  } catch {
    return null;
  }
}

function assembleRun(run: Glyph[]): Omit<Unit, "gap" | "gapLength">[] {
  const pieces = run.flatMap((glyph) => [...disassemble(glyph.char)].map((char) => ({ ...glyph, char })));
  let assembled: string;
  try {
    assembled = assemble(pieces.map((piece) => piece.char));
  } catch {
    return pieces.map(({ char, start, end }) => ({ value: char, start, end }));
  }
  const units: Omit<Unit, "gap" | "gapLength">[] = [];
  let taken = 0;
  for (const char of assembled) {
    const used = pieces.slice(taken, taken + disassemble(char).length);
    taken += used.length;
    if (used.length === 0) break;
    units.push({ value: char, start: used[0].start, end: used[used.length - 1].end });
  }
  return units;
}

/** The letters of a line as units (reading 1), with what separates each from the one before. */
function unitsOf(glyphs: readonly Glyph[]): Unit[] {
  const units: Unit[] = [];
  let gap: Gap = "none";
  let gapLength = 0;
  let jamo: Glyph[] = [];
  const push = (unit: Omit<Unit, "gap" | "gapLength">) => {
    units.push({ ...unit, gap, gapLength });
    gap = "none";
    gapLength = 0;
  };
  const flushJamo = () => {
    for (const unit of assembleRun(jamo)) push(unit);
    jamo = [];
  };
  for (const glyph of glyphs) {
    const { char } = glyph;
    if (COMPAT_JAMO.test(char)) {
      jamo.push(glyph);
      continue;
    }
    if (jamo.length > 0) flushJamo();
    if (SYLLABLE.test(char) || /^\p{L}$/u.test(char)) {
      push({ value: char.toLowerCase(), start: glyph.start, end: glyph.end });
    } else {
      gap = gap === "loose" || SPACE.test(char) ? "loose" : "tight";
      gapLength += 1;
    }
  }
  if (jamo.length > 0) flushJamo();
  return units;
}

/** Maximal runs of the glyphs that pass `test`, as their text and place. */
function runsOf(glyphs: readonly Glyph[], test: (char: string) => boolean) {
  const runs: { text: string; start: number; end: number }[] = [];
  let current: { text: string; start: number; end: number } | null = null;
  for (const glyph of glyphs) {
    if (!test(glyph.char)) {
      current = null;
      continue;
    }
    if (current && current.end >= glyph.start) {
      current.text += glyph.char;
      current.end = glyph.end;
    } else {
      current = { text: glyph.char, start: glyph.start, end: glyph.end };
      runs.push(current);
    }
  }
  return runs;
}

const newNode = (): TrieNode => ({ next: new Map(), word: false, layout: false });

function insert(root: TrieNode, values: readonly string[]) {
  let node = root;
  for (const value of values) {
    let child = node.next.get(value);
    if (!child) {
      child = newNode();
      node.next.set(value, child);
    }
    node = child;
  }
  return node;
}

const valuesOf = (word: string) => unitsOf(glyphsOf(word.normalize("NFC"))).map((unit) => unit.value);

/** Whether a word is written with Latin letters or digits (matched as a whole token, reading 3). */
const isLiteral = (word: string) => LITERAL.test(word.normalize("NFKC"));

/** A word as the list stores it: NFC, trimmed (the list's own check is `checkListWord`). */
export const normalizeListWord = (word: string) => word.normalize("NFC").trim();

export class ProfanityFilter {
  private readonly words = newNode();
  private readonly exceptions = newNode();
  private readonly literals = new Set<string>();
  private longestException = 0;

  constructor(list: WordList) {
    for (const raw of list.words) {
      const word = normalizeListWord(raw);
      if (!word) continue;
      if (isLiteral(word)) {
        this.literals.add(word.normalize("NFKC").toLowerCase());
        continue;
      }
      const values = valuesOf(word);
      if (values.length === 0) continue;
      const node = insert(this.words, values);
      node.word = true;
      node.layout ||= values.every((value) => SYLLABLE.test(value)) && disassemble(word).length >= MIN_LAYOUT_KEYS;
    }
    for (const raw of list.exceptions) {
      const values = valuesOf(normalizeListWord(raw));
      if (values.length === 0) continue;
      insert(this.exceptions, values).word = true;
      this.longestException = Math.max(this.longestException, values.length);
    }
  }

  /** Whether the text holds a listed word (posts, comments and names are refused for it). */
  contains(text: string): boolean {
    return this.ranges(text.normalize("NFC")).length > 0;
  }

  /** The text with each listed word replaced by `***`; the text itself when it holds none. */
  mask(text: string): string {
    const line = text.normalize("NFC");
    const ranges = this.ranges(line);
    if (ranges.length === 0) return text;
    let out = "";
    let at = 0;
    for (const [start, end] of ranges) {
      out += line.slice(at, start) + MASK;
      at = end;
    }
    return out + line.slice(at);
  }

  /** The places of the listed words, sorted and merged. */
  private ranges(line: string): Range[] {
    const glyphs = glyphsOf(line);
    const found: Range[] = [
      ...this.koreanRanges(unitsOf(glyphs), false),
      ...this.layoutRanges(glyphs),
      ...this.tokenRanges(glyphs),
    ];
    return merge(found);
  }

  /** Reading 1 (and reading 2 on a converted run, `layout`): the longest word at each unit, left to right. */
  private koreanRanges(units: readonly Unit[], layout: boolean): Range[] {
    const ranges: Range[] = [];
    for (let i = 0; i < units.length; i++) {
      const last = this.longestAt(units, i, layout);
      if (last === null) continue;
      ranges.push([units[i].start, units[last].end]);
      i = last;
    }
    return ranges;
  }

  /** The last unit of the longest word starting at unit `first` that counts there, or null. */
  private longestAt(units: readonly Unit[], first: number, layout: boolean): number | null {
    let node = this.words.next.get(units[first].value);
    let loose = false;
    let found: number | null = null;
    for (let i = first; node; ) {
      if (node.word && (!layout || node.layout) && this.counts(units, first, i, loose)) found = i;
      i += 1;
      const unit = units[i];
      if (!unit || unit.gapLength > MAX_GAP || (layout && unit.gap !== "none")) break;
      loose ||= unit.gap === "loose";
      node = node.next.get(unit.value);
    }
    return found;
  }

  /** A word spread over spaces stands alone; no word counts inside an exception that covers it. */
  private counts(units: readonly Unit[], first: number, last: number, loose: boolean) {
    if (loose && units[first].gap === "none" && first > 0) return false;
    if (loose && units[last + 1]?.gap === "none") return false;
    return !this.inException(units, first, last);
  }

  private inException(units: readonly Unit[], first: number, last: number) {
    for (let start = Math.max(0, first - this.longestException + 1); start <= first; start++) {
      let node = this.exceptions.next.get(units[start].value);
      for (let i = start; node; ) {
        if (node.word && i >= last) return true;
        i += 1;
        if (units[i]?.gap !== "none") break;
        node = node.next.get(units[i].value);
      }
    }
    return false;
  }

  /** Reading 2: a run of Latin letters read as 두벌식 keys; the whole run is masked. */
  private layoutRanges(glyphs: readonly Glyph[]): Range[] {
    const ranges: Range[] = [];
    for (const run of runsOf(glyphs, (char) => LATIN.test(char))) {
      if (run.text.length < MIN_LAYOUT_KEYS) continue;
      const hangul = qwertyAsHangul(run.text);
      if (hangul !== null && this.koreanRanges(unitsOf(glyphsOf(hangul)), true).length > 0)
        ranges.push([run.start, run.end]);
    }
    return ranges;
  }

  /**
   * Reading 3: tokens that are exactly a listed word with Latin letters or digits. A number alone ("18") counts only
   * when the line holds nothing else ("18", "18!!"): "줄 18", "18 대 3" and "18년 동안" are numbers.
   */
  private tokenRanges(glyphs: readonly Glyph[]): Range[] {
    if (this.literals.size === 0) return [];
    const tokens = runsOf(glyphs, (char) => LETTER_OR_DIGIT.test(char));
    const listed = tokens.filter((run) => this.literals.has(run.text.toLowerCase()));
    const numbers = listed.filter((run) => NUMBER.test(run.text));
    const numbersCount = numbers.length === tokens.length;
    return listed.filter((run) => numbersCount || !NUMBER.test(run.text)).map((run): Range => [run.start, run.end]);
  }
}

function merge(ranges: Range[]): Range[] {
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: Range[] = [];
  for (const range of ranges) {
    const last = merged[merged.length - 1];
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([...range]);
  }
  return merged;
}

/** The data file's lines (README "Profanity filter"): words, `!exceptions`, `#` comments. */
export function parseWordList(text: string): WordList {
  const words: string[] = [];
  const exceptions: string[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    if (line.startsWith("!")) exceptions.push(normalizeListWord(line.slice(1)));
    else words.push(normalizeListWord(line));
  }
  return { words, exceptions };
}
