import { describe, expect, test } from "bun:test";
import { clockText, frameAt, replayLength, stepIndexAt } from "./replay-frames";

const SENTENCE = "가나다라";
const STEPS = [
  { t: 500, text: "ㄱ" },
  { t: 600, text: "가" },
  { t: 1_000, text: "가나" },
  { t: 1_500, text: "가너" },
  { t: 2_000, text: "가나다라" },
];

describe("replay frames", () => {
  test("the box as it was: nothing before the first step, then the last step arrived by then", () => {
    expect(stepIndexAt(STEPS, 0)).toBe(-1);
    expect(stepIndexAt(STEPS, 600)).toBe(1);
    expect(stepIndexAt(STEPS, 1_499)).toBe(2);
    expect(stepIndexAt(STEPS, 9_000)).toBe(4);
    expect(frameAt(STEPS, SENTENCE, 100)).toEqual({ text: "", wpm: 0, accuracy: 100, errors: 0, progress: 0 });
  });

  test("live figures and errors as they happened", () => {
    // 가나 = 4 keystrokes in 1 s = 240 타/분.
    expect(frameAt(STEPS, SENTENCE, 1_000)).toEqual({
      text: "가나",
      wpm: 240,
      accuracy: 100,
      errors: 0,
      progress: 0.5,
    });
    expect(frameAt(STEPS, SENTENCE, 1_600)).toMatchObject({ text: "가너", errors: 1, accuracy: 50, progress: 0.25 });
    expect(frameAt(STEPS, SENTENCE, 2_000)).toMatchObject({ errors: 0, progress: 1 });
  });

  test("the length reaches the answer; the clock shows tenths", () => {
    expect(replayLength(STEPS, 2.3)).toBe(2_300);
    expect(replayLength(STEPS, 1)).toBe(2_000);
    expect(clockText(3_250)).toBe("0:03.2");
    expect(clockText(75_000)).toBe("1:15.0");
  });
});
