import { describe, expect, test } from "bun:test";
import { DRILLS, KEY_UNITS, strokeOf } from "./dubeolsik";
import {
  expectedKeys,
  figuresOf,
  focusScore,
  KeystrokeTally,
  keyDiff,
  nextKey,
  type Tally,
  weakest,
} from "./keystroke-model";

/** Feeds a tally the values an IME shows, one every `stepMs`. */
function typeSteps(tally: KeystrokeTally, steps: string[], stepMs = 100, from = 0) {
  for (const [i, value] of steps.entries()) tally.input(value, from + (i + 1) * stepMs);
}

const unit = (tally: KeystrokeTally, name: string) => tally.summary().jamo.find((j) => j.jamo === name);
const transition = (tally: KeystrokeTally, name: string) => tally.summary().transitions.find((t) => t.kind === name);

describe("the 두벌식 layout", () => {
  test("each jamo has its key, row, finger and Shift", () => {
    expect(strokeOf("ㅁ")).toMatchObject({ cap: { code: "KeyA", row: "home", finger: "left-pinky" }, shift: null });
    expect(strokeOf("ㅏ")).toMatchObject({ cap: { code: "KeyK", finger: "right-middle" }, shift: null });
    // Shift with the other hand's little finger.
    expect(strokeOf("ㅃ")).toMatchObject({ cap: { code: "KeyQ" }, shift: "ShiftRight" });
    expect(strokeOf("ㅖ")).toMatchObject({ cap: { code: "KeyP" }, shift: "ShiftLeft" });
    expect(strokeOf(" ")?.cap.finger).toBe("thumb");
    expect(strokeOf("ㄳ")).toBeUndefined();
    expect(KEY_UNITS).toHaveLength(34);
  });

  test("the drills follow the rows", () => {
    expect(DRILLS.map((d) => d.name)).toEqual(["기본 자리", "윗 자리", "아랫 자리", "Shift 자리"]);
    expect(DRILLS[0]!.jamo.join("")).toBe("ㅁㄴㅇㄹㅎㅗㅓㅏㅣ");
    expect(DRILLS[3]!.jamo.join("")).toBe("ㅃㅉㄸㄲㅆㅒㅖ");
  });
});

describe("keystrokes from the IME's steps", () => {
  test("a 도깨비불 jump adds one key: 간 → 가나", () => {
    expect(keyDiff("간", "가나")).toMatchObject({ erased: 0, typed: [{ key: "ㅏ", char: 1, indexInChar: 1 }] });
    expect(keyDiff("고", "과").typed.map((k) => k.key)).toEqual(["ㅏ"]);
    expect(keyDiff("닭", "달").erased).toBe(1);
    // A step that commits several keys at once (a fast IME) gives them all.
    expect(keyDiff("다", "닭").typed.map((k) => k.key)).toEqual(["ㄹ", "ㄱ"]);
  });

  test("the transitions of a text: 도깨비불, double finals, Shift", () => {
    const keys = expectedKeys("가나 닭 빵");
    // 나's ㅏ pulls the ㄴ out of 간.
    expect(keys[1]![1]).toEqual({ key: "ㅏ", transitions: ["dokkaebi"] });
    expect(keys[1]![0]!.transitions).toEqual([]);
    // 닭: the ㄱ after ㄹ makes the double final; after a space nothing jumps.
    expect(keys[3]!.map((k) => k.transitions)).toEqual([[], [], [], ["double_final"]]);
    expect(keys[5]![0]).toEqual({ key: "ㅃ", transitions: ["shift"] });
    // A double-consonant initial never lands as a final: no jump in 아빠.
    expect(expectedKeys("아빠")[1]![1]!.transitions).toEqual([]);
    // A final that can take the next consonant as a double final: 각 + ㅅ = 갃, + ㅏ = 각사.
    expect(expectedKeys("각사")[1]![1]!.transitions).toEqual(["dokkaebi"]);
  });

  test("the next key, or Backspace after a mistake", () => {
    expect(nextKey("", "가나")).toBe("ㄱ");
    expect(nextKey("간", "가나")).toBe("ㅏ");
    expect(nextKey("가나", "가나")).toBeNull();
    expect(nextKey("거", "가나")).toBe("Backspace");
  });
});

describe("the tally", () => {
  test("right keys are timed per jamo; the first keystroke has nothing to be timed against", () => {
    const tally = new KeystrokeTally();
    tally.setTarget("가나");
    typeSteps(tally, ["ㄱ", "가", "간", "가나"], 150);
    expect(unit(tally, "ㄱ")).toEqual({ jamo: "ㄱ", hits: 1, errors: 0, time_ms: 0, timed: 0 });
    expect(unit(tally, "ㅏ")).toEqual({ jamo: "ㅏ", hits: 2, errors: 0, time_ms: 300, timed: 2 });
    expect(unit(tally, "ㄴ")).toEqual({ jamo: "ㄴ", hits: 1, errors: 0, time_ms: 150, timed: 1 });
    expect(transition(tally, "dokkaebi")).toEqual({ kind: "dokkaebi", hits: 1, errors: 0, time_ms: 150, timed: 1 });
  });

  test("a wrong key is an error of the key expected there, and the corrected one counts again", () => {
    const tally = new KeystrokeTally();
    tally.setTarget("빵");
    // ㅂ instead of ㅃ (Shift forgotten), erased, then ㅃ.
    typeSteps(tally, ["ㅂ", "", "ㅃ", "빠", "빵"]);
    expect(unit(tally, "ㅃ")).toMatchObject({ hits: 2, errors: 1 });
    expect(transition(tally, "shift")).toMatchObject({ hits: 2, errors: 1 });
    expect(tally.summary().corrections).toBe(1);
    expect(unit(tally, "ㅂ")).toBeUndefined();
  });

  test("a slip in the 도깨비불: the vowel after the jump is judged in the next syllable", () => {
    const tally = new KeystrokeTally();
    tally.setTarget("가나");
    typeSteps(tally, ["ㄱ", "가", "간", "가너"]);
    expect(transition(tally, "dokkaebi")).toMatchObject({ hits: 1, errors: 1 });
    expect(unit(tally, "ㅏ")).toMatchObject({ hits: 2, errors: 1 });
  });

  test("double finals and compound vowels split into their keys", () => {
    const tally = new KeystrokeTally();
    tally.setTarget("닭과");
    typeSteps(tally, ["ㄷ", "다", "달", "닭", "닭ㄱ", "닭고", "닭과"]);
    expect(transition(tally, "double_final")).toMatchObject({ hits: 1, errors: 0, timed: 1 });
    expect(unit(tally, "ㄱ")).toMatchObject({ hits: 2, errors: 0 });
    expect(unit(tally, "ㅏ")).toMatchObject({ hits: 2, errors: 0 });
  });

  test("pauses and gaps over 2 s are not a key's speed; characters outside the keyboard are left out", () => {
    const tally = new KeystrokeTally();
    tally.setTarget("아 1이");
    tally.input("ㅇ", 0);
    tally.input("아", 5_000);
    tally.pause();
    tally.input("아 ", 9_000);
    tally.input("아 1", 9_100);
    tally.input("아 1ㅇ", 9_200);
    expect(unit(tally, "ㅏ")).toMatchObject({ hits: 1, timed: 0 });
    expect(unit(tally, "space")).toMatchObject({ hits: 1, timed: 0 });
    expect(unit(tally, "ㅇ")).toMatchObject({ hits: 2, timed: 1, time_ms: 100 });
    expect(tally.summary().jamo.map((j) => j.jamo)).not.toContain("1");
  });

  test("a new line starts from an empty box", () => {
    const tally = new KeystrokeTally();
    tally.setTarget("가");
    typeSteps(tally, ["ㄱ", "가"]);
    tally.setTarget("나");
    typeSteps(tally, ["ㄴ", "나"], 100, 1_000);
    expect(unit(tally, "ㄴ")).toMatchObject({ hits: 1, errors: 0 });
  });
});

describe("figures and weakness", () => {
  const tally = (hits: number, errors: number, time_ms: number, timed: number): Tally => ({
    hits,
    errors,
    time_ms,
    timed,
  });

  test("error rate and speed of a unit", () => {
    expect(figuresOf("ㄱ", tally(10, 2, 1_600, 8))).toEqual({
      unit: "ㄱ",
      hits: 10,
      errors: 2,
      error_rate: 0.2,
      speed: 300,
    });
    expect(figuresOf("ㄲ", tally(0, 0, 0, 0)).speed).toBeNull();
  });

  test("the weakest units: errors first, slowness counts half; too few keystrokes are not ranked", () => {
    const figures = [
      figuresOf("ㄱ", tally(20, 0, 4_000, 20)), // 300 타/분
      figuresOf("ㄴ", tally(20, 0, 4_000, 20)),
      figuresOf("ㅃ", tally(20, 6, 2_800, 14)), // 30 % errors at the usual speed
      figuresOf("ㅖ", tally(20, 0, 8_000, 20)), // half the speed: 0.5
      figuresOf("ㅉ", tally(2, 2, 0, 0)), // too few
    ];
    expect(weakest(figures, 2).map((f) => f.unit)).toEqual(["ㅖ", "ㅃ"]);
    expect(weakest(figures, 5).map((f) => f.unit)).toEqual(["ㅖ", "ㅃ"]);
  });

  test("how much a word drills the focus", () => {
    expect(focusScore("빵빵", new Set(["ㅃ"]))).toBe(2);
    expect(focusScore("가나다", new Set(["dokkaebi"]))).toBe(2);
    expect(focusScore("가나다", new Set(["ㅃ"]))).toBe(0);
  });
});
