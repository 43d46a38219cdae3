import { describe, expect, test } from "bun:test";
import { DRILLS } from "../../../../modules/practice/dubeolsik";
import {
  addLine,
  drillLines,
  lineOffsets,
  MAX_LINE,
  NO_LINES,
  pickFromSample,
  position,
  sessionFigures,
  textLines,
  totalsOf,
  wordLines,
} from "./practice-lines";

describe("practice lines", () => {
  test("a drill is lines of the row's jamo, apart", () => {
    const lines = drillLines(DRILLS[3]!, () => 0);
    expect(lines).toHaveLength(6);
    expect(lines[0]).toBe("ㅃ ㅃ ㅃ ㅃ ㅃ ㅃ ㅃ ㅃ");
  });

  test("words in fives; verse lines kept; prose cut after sentences and at spaces", () => {
    expect(wordLines(["가", "나", "다", "라", "마", "바"])).toEqual(["가 나 다 라 마", "바"]);
    expect(textLines(["나 보기가 역겨워\n가실 때에는"])).toEqual(["나 보기가 역겨워", "가실 때에는"]);
    const prose = textLines([`첫 문장이다. 둘째 문장은 ${"아주 ".repeat(20)}길다.`]);
    expect(prose[0]).toBe("첫 문장이다.");
    for (const line of prose) expect(Array.from(line).length).toBeLessThanOrEqual(MAX_LINE);
  });

  test("the lines done are added once, in any grouping", () => {
    const lines = [
      { target: "가나", typed: "가너" },
      { target: "다라마", typed: "다라마" },
    ];
    expect(addLine(addLine(NO_LINES, lines[0]!), lines[1]!)).toEqual(totalsOf(lines));
    expect(totalsOf(lines)).toMatchObject({ errors: 1, compared: 5 });
  });

  test("figures: a syllable still composing is no error; speed never above the keys typed", () => {
    const live = sessionFigures(totalsOf([{ target: "가나", typed: "가나" }]), { target: "다리", typed: "달" }, 60_000);
    expect(live.errors).toBe(0);
    expect(live.accuracy).toBe(100);
    const wrong = sessionFigures(totalsOf([{ target: "가나", typed: "가너" }]), null, 60_000);
    expect(wrong.errors).toBe(1);
    expect(wrong.accuracy).toBe(50);
    expect(wrong.wpm).toBeLessThanOrEqual(wrong.keystrokes);
  });

  test("the position counts characters of all lines", () => {
    expect(position(lineOffsets(["가나", "다라마"]), 1, "다")).toEqual({ done: 3, total: 5 });
  });

  test("offline, the page draws what it asked for from the kept sample, the best scoring first", () => {
    const sample = ["가", "빠", "나", "뺨", "다"];
    expect(pickFromSample(sample, 10)).toEqual(sample);
    const shifted = (word: string) => (/[빠뺨]/.test(word) ? 1 : 0);
    expect(pickFromSample(sample, 2, shifted).sort()).toEqual(["빠", "뺨"]);
    const three = pickFromSample(sample, 3);
    expect(three).toHaveLength(3);
    expect(new Set(three).size).toBe(3);
  });
});
