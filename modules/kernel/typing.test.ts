import { describe, expect, test } from "bun:test";
import {
  editDistance,
  isComposingTowards,
  jamoKeys,
  keystrokes,
  liveFigures,
  normalizeAnswer,
  scoreTyping,
  typingSpeed,
} from "./typing";

describe("keystrokes (spec part 1 §9)", () => {
  test("hand-counted Korean examples", () => {
    // 안(ㅇㅏㄴ 3) 녕(ㄴㅕㅇ 3) 하(2) 세(2) 요(2)
    expect(keystrokes("안녕하세요")).toBe(12);
    // 닭 볶 음 탕 을: 3 each = 15; the space 1; 끓 3, 였 3, 다 2 = 8
    expect(keystrokes("닭볶음탕을 끓였다")).toBe(24);
    // 가(2) 나(2) 다(2)
    expect(keystrokes("가나다")).toBe(6);
    // 값(3: a compound final is still one final) 와(2: a compound vowel is still one vowel)
    expect(keystrokes("값와")).toBe(5);
  });

  test("anything that is not a complete syllable counts 1", () => {
    expect(keystrokes("Hello, world!")).toBe(13);
    expect(keystrokes(" ")).toBe(1);
    expect(keystrokes("ㄱㅏ")).toBe(2); // lone jamo
    expect(keystrokes("😀")).toBe(1); // one code point, not two UTF-16 units
    expect(keystrokes("")).toBe(0);
  });

  test("mixed sentence", () => {
    // 나(2) 는(3) space(1) 1(1) 등(3) !(1) = 11
    expect(keystrokes("나는 1등!")).toBe(11);
  });
});

describe("edit distance on code points", () => {
  test("classic cases", () => {
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("abc", "")).toBe(3);
    expect(editDistance("같다", "같다")).toBe(0);
  });
  test("Korean syllables and astral characters are one character each", () => {
    expect(editDistance("안녕하세요", "안녕하세여")).toBe(1);
    expect(editDistance("안녕하세요", "안녕세요")).toBe(1);
    expect(editDistance("😀a", "a")).toBe(1);
  });
});

describe("scoreTyping (product-rules: accuracy, error_count, speed)", () => {
  test("a perfect answer: speed = keystrokes per minute", () => {
    // 12 keystrokes in 6 s = 120 per minute
    expect(scoreTyping("안녕하세요", "안녕하세요", 6)).toMatchObject({
      wpm: 120,
      accuracy: 100,
      error_count: 0,
      keystrokes: 12,
    });
  });

  test("one wrong syllable of five: 80 %, speed weighted by accuracy", () => {
    // accuracy = (1 - 1/5) × 100 = 80; speed = round(12 × 0.8 / 0.1) = 96
    expect(scoreTyping("안녕하세여", "안녕하세요", 6)).toMatchObject({ wpm: 96, accuracy: 80, error_count: 1 });
  });

  test("accuracy has two decimals and never goes below 0", () => {
    // 1 error in 3 characters: 66.666… → 66.67; 가나다 = 6 keystrokes; round(6 × 0.6667 / (3/60)) = 80
    const score = scoreTyping("가나라", "가나다", 3);
    expect(score.accuracy).toBe(66.67);
    expect(score.wpm).toBe(80);
    expect(scoreTyping("아무말이나 잔뜩 입력했다", "가", 3).accuracy).toBe(0);
  });

  test("answers are compared after NFC and trimming", () => {
    const decomposed = "안녕하세요".normalize("NFD");
    expect(scoreTyping(`  ${decomposed} `, "안녕하세요", 6).accuracy).toBe(100);
    expect(normalizeAnswer(" a ")).toBe("a");
  });

  test("raw speed counts what was typed, unweighted", () => {
    expect(scoreTyping("가나다라마바", "가", 6).raw_speed).toBe(120);
  });

  test("no time means no speed", () => {
    expect(typingSpeed(100, 100, 0)).toBe(0);
    expect(typingSpeed(100, 100, -1)).toBe(0);
  });
});

describe("live figures", () => {
  test("jamo keys split compound vowels and finals", () => {
    expect(jamoKeys("닭")).toBe("ㄷㅏㄹㄱ");
    expect(jamoKeys("와")).toBe("ㅇㅗㅏ");
    expect(jamoKeys("ㅘ")).toBe("ㅗㅏ");
    expect(jamoKeys("끓")).toBe("ㄲㅡㄹㅎ");
    expect(jamoKeys("a")).toBe("a");
  });

  test("a syllable being composed is not an error yet", () => {
    expect(isComposingTowards("다", "닭")).toBe(true);
    expect(isComposingTowards("달", "닭")).toBe(true);
    expect(isComposingTowards("ㄷ", "닭")).toBe(true);
    expect(isComposingTowards("닥", "다가")).toBe(true); // the ㄱ moves on to 가
    expect(isComposingTowards("도", "닭")).toBe(false);
    expect(liveFigures("안녕하", "안녕하세요", 3)).toMatchObject({ accuracy: 100, error_count: 0, progress: 0.6 });
    expect(liveFigures("안녀", "안녕하세요", 3)).toMatchObject({ accuracy: 100, error_count: 0 });
  });

  test("accuracy against the prefix typed so far", () => {
    // 안녕허 vs 안녕하: 허 is not on the way to 하 → one error in three
    expect(liveFigures("안녕허세", "안녕하세요", 3)).toMatchObject({ accuracy: 75, error_count: 1, progress: 0.8 });
  });

  test("speed so far from the keystrokes typed", () => {
    // 안녕 = 6 keystrokes in 3 s = 120 per minute
    expect(liveFigures("안녕", "안녕하세요", 3).wpm).toBe(120);
    expect(liveFigures("", "안녕하세요", 3)).toEqual({ wpm: 0, accuracy: 100, error_count: 0, progress: 0 });
  });
});
