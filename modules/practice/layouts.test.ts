import { describe, expect, test } from "bun:test";
import { DUBEOLSIK } from "./dubeolsik";
import { expectedKeys, KeystrokeTally, keyDiff, nextKey, unitName } from "./keystroke-model";
import { ALL_KEY_UNITS, LAYOUTS, layoutOf } from "./layouts";
import { sebeolsikKeys } from "./sebeolsik";
import { SEBEOLSIK_390 } from "./sebeolsik-390";
import { SEBEOLSIK_FINAL } from "./sebeolsik-final";

const SYLLABLES = Array.from({ length: 0xd7a3 - 0xac00 + 1 }, (_, i) => String.fromCodePoint(0xac00 + i));

describe("every layout", () => {
  test.each(LAYOUTS)("%s reaches every modern syllable (so every jamo) through its own keys", (id) => {
    const layout = layoutOf(id);
    const units = new Set(layout.units);
    const unreachable = SYLLABLES.filter((s) =>
      layout.keysOf(s).some((key) => !layout.strokeOf(key) || !units.has(key)),
    );
    expect(unreachable).toEqual([]);
    expect(layout.strokeOf(" ")?.cap.code).toBe("Space");
  });

  test("the units: 33 jamo keys in 두벌식; 14 initials, 14 vowels and 14 finals in 세벌식; and the space", () => {
    expect(DUBEOLSIK.units).toHaveLength(34);
    for (const layout of [SEBEOLSIK_390, SEBEOLSIK_FINAL]) {
      expect(layout.units).toHaveLength(43);
      expect(layout.units.filter((u) => u >= "\u11a8" && u <= "\u11c2")).toHaveLength(14);
    }
    expect(ALL_KEY_UNITS).toContain("ᆨ");
    expect(unitName("ᆨ")).toBe("받침 ㄱ");
  });
});

describe("the 세벌식 tables (libhangul's hangul-keyboard-39.xml and -3f.xml)", () => {
  test("390: initials on the right hand, finals on the left, vowels in the middle", () => {
    expect(SEBEOLSIK_390.strokeOf("ㅎ")).toMatchObject({ cap: { code: "KeyM", finger: "right-index" }, shift: null });
    expect(SEBEOLSIK_390.strokeOf("ㄱ")?.cap.code).toBe("KeyK");
    expect(SEBEOLSIK_390.strokeOf("ᆨ")?.cap.code).toBe("KeyX");
    expect(SEBEOLSIK_390.strokeOf("ᆼ")?.cap.code).toBe("KeyA");
    expect(SEBEOLSIK_390.strokeOf("ㅇ")?.cap.code).toBe("KeyJ");
    expect(SEBEOLSIK_390.strokeOf("ㅂ")?.cap.code).toBe("Semicolon");
    expect(SEBEOLSIK_390.strokeOf("ㅌ")?.cap.code).toBe("Quote");
    expect(SEBEOLSIK_390.strokeOf("ㅋ")?.cap.code).toBe("Digit0");
    expect(SEBEOLSIK_390.strokeOf("ᇂ")?.cap.code).toBe("Digit1");
    // Shift with the other hand; ᆽ is Shift+1 in 390.
    expect(SEBEOLSIK_390.strokeOf("ᆽ")).toMatchObject({ cap: { code: "Digit1" }, shift: "ShiftRight" });
    expect(SEBEOLSIK_390.strokeOf("ㅒ")).toMatchObject({ cap: { code: "KeyR" }, shift: "ShiftRight" });
    expect(SEBEOLSIK_390.strokeOf("ᆿ")).toMatchObject({ cap: { code: "KeyE" }, shift: "ShiftRight" });
    // ㅗ and ㅜ have a second key (/ and 9); the guide lights the main one.
    expect(SEBEOLSIK_390.strokeOf("ㅗ")?.cap.code).toBe("KeyV");
    expect(SEBEOLSIK_390.strokeOf("ㅜ")?.cap.code).toBe("KeyB");
  });

  test("최종: the same plain keys, other Shift keys", () => {
    for (const key of ["ㅎ", "ㄱ", "ᆨ", "ㅂ", "ㅋ", "ᇂ", "ㅗ"])
      expect(SEBEOLSIK_FINAL.strokeOf(key)?.cap.code).toBe(SEBEOLSIK_390.strokeOf(key)!.cap.code);
    expect(SEBEOLSIK_FINAL.strokeOf("ᆽ")).toMatchObject({ cap: { code: "Digit3" }, shift: "ShiftRight" });
    expect(SEBEOLSIK_FINAL.strokeOf("ᆿ")).toMatchObject({ cap: { code: "KeyC" }, shift: "ShiftRight" });
    expect(SEBEOLSIK_FINAL.strokeOf("ㅒ")).toMatchObject({ cap: { code: "KeyG" }, shift: "ShiftRight" });
  });

  test("a syllable's keys: initial, vowel, final, taken apart as the IME puts them together", () => {
    expect(sebeolsikKeys("한")).toEqual(["ㅎ", "ㅏ", "ᆫ"]);
    expect(sebeolsikKeys("꽈")).toEqual(["ㄱ", "ㄱ", "ㅗ", "ㅏ"]);
    expect(sebeolsikKeys("밟")).toEqual(["ㅂ", "ㅏ", "ᆯ", "ᆸ"]);
    expect(sebeolsikKeys("있")).toEqual(["ㅇ", "ㅣ", "ᆺ", "ᆺ"]);
    expect(sebeolsikKeys("의")).toEqual(["ㅇ", "ㅡ", "ㅣ"]);
    // A jamo alone while composing: a consonant is an initial, a cluster a final.
    expect(sebeolsikKeys("ㄲ")).toEqual(["ㄱ", "ㄱ"]);
    expect(sebeolsikKeys("ㄺ")).toEqual(["ᆯ", "ᆨ"]);
  });

  test("the drills: rows of units, finals drilled on 아", () => {
    const names = SEBEOLSIK_390.drills.map((d) => d.name);
    expect(names).toEqual(["기본 자리", "윗 자리", "아랫 자리", "숫자 자리", "Shift 자리"]);
    expect(SEBEOLSIK_390.drills[0]!.jamo).toEqual(["앙", "안", "ㅣ", "ㅏ", "ㅡ", "ㄴ", "ㅇ", "ㄱ", "ㅈ", "ㅂ", "ㅌ"]);
    expect(SEBEOLSIK_390.drills[4]!.jamo).toContain("앛");
  });
});

describe("the model on 세벌식", () => {
  test("no 도깨비불: 가나 grows by one key at a time with an initial ㄴ", () => {
    expect(keyDiff("가", "가ㄴ", "sebeolsik-390").typed.map((k) => k.key)).toEqual(["ㄴ"]);
    expect(keyDiff("가ㄴ", "가나", "sebeolsik-390").typed.map((k) => k.key)).toEqual(["ㅏ"]);
    expect(
      expectedKeys("가나", "sebeolsik-390")
        .flat()
        .flatMap((k) => k.transitions),
    ).toEqual([]);
    expect(nextKey("가", "간", "sebeolsik-final")).toBe("ᆫ");
    expect(nextKey("가", "가나", "sebeolsik-final")).toBe("ㄴ");
  });

  test("an initial typed where a final was expected is an error of the final", () => {
    const tally = new KeystrokeTally("sebeolsik-390");
    tally.setTarget("간");
    for (const [i, value] of ["ㄱ", "가", "가ㄴ", "가", "간"].entries()) tally.input(value, (i + 1) * 100);
    const summary = tally.summary();
    expect(summary.layout).toBe("sebeolsik-390");
    expect(summary.jamo.find((j) => j.jamo === "ᆫ")).toMatchObject({ hits: 2, errors: 1 });
    expect(summary.jamo.find((j) => j.jamo === "ㄴ")).toBeUndefined();
    expect(summary.corrections).toBe(1);
  });

  test("double finals and Shift keys are transitions; 닭 typed with its own key counts both keys", () => {
    expect(expectedKeys("닭", "sebeolsik-390")[0]!.map((k) => k.transitions)).toEqual([[], [], [], ["double_final"]]);
    expect(expectedKeys("얘", "sebeolsik-390")[0]![1]!.transitions).toEqual(["shift"]);
    const tally = new KeystrokeTally("sebeolsik-final");
    tally.setTarget("닭");
    for (const [i, value] of ["ㄷ", "다", "닭"].entries()) tally.input(value, (i + 1) * 100);
    expect(tally.summary().transitions).toEqual([{ kind: "double_final", hits: 1, errors: 0, time_ms: 50, timed: 1 }]);
  });
});
