import { describe, expect, test } from "bun:test";
import {
  appendStep,
  correctPrefixShare,
  decodeSteps,
  encodeSteps,
  hasBurst,
  judgeSteps,
  LaneBoard,
  largestStep,
  progressAt,
  RACE_STEP_RULES,
  type RaceStep,
  sendingTimes,
  serverCompletionSeconds,
} from "./race-steps";

const SENTENCE = "가나다라 마바사";

/** Steps of a person typing `text` one character every `everyMs`, starting at `fromMs`. */
function typedSteps(text: string, everyMs: number, fromMs = 500): RaceStep[] {
  return Array.from(text).map((_, i) => ({
    t: fromMs + i * everyMs,
    text: Array.from(text)
      .slice(0, i + 1)
      .join(""),
  }));
}

describe("appendStep", () => {
  test("keeps changes only, in time order, bounded, the last step always the latest text", () => {
    let steps: readonly RaceStep[] = [];
    steps = appendStep(steps, 100, "가");
    const before = steps;
    expect(appendStep(steps, 150, "가")).toBe(before);
    steps = appendStep(steps, 90, "가나");
    expect(steps).toEqual([
      { t: 100, text: "가" },
      { t: 100, text: "가나" },
    ]);
    expect(before.length).toBe(1);
    for (let i = 0; i < RACE_STEP_RULES.maxSteps + 10; i++) steps = appendStep(steps, 200 + i, `가${i}`);
    expect(steps.length).toBe(RACE_STEP_RULES.maxSteps);
    expect(steps.at(-1)?.text).toBe(`가${RACE_STEP_RULES.maxSteps + 9}`);
  });
});

describe("progress", () => {
  test("is the correct prefix's share, a typo stopping it", () => {
    expect(correctPrefixShare("", SENTENCE)).toBe(0);
    expect(correctPrefixShare("가나다라", SENTENCE)).toBe(0.5);
    expect(correctPrefixShare("가나더라 마", SENTENCE)).toBe(0.25);
    expect(correctPrefixShare(SENTENCE, SENTENCE)).toBe(1);
    expect(correctPrefixShare(`${SENTENCE} 더`, SENTENCE)).toBe(1);
  });

  test("speed so far comes from the server's time of the step", () => {
    // 가나다라 = 8 keystrokes in 2 s = 240 타/분.
    expect(progressAt({ t: 2_000, text: "가나다라" }, SENTENCE)).toEqual({ progress: 0.5, wpm: 240 });
  });
});

describe("judgeSteps", () => {
  const answerAt = 500 + 7 * 250 + 300;

  test("a person typing the answer is verified", () => {
    const steps = typedSteps(SENTENCE, 250);
    expect(judgeSteps(steps, SENTENCE, answerAt / 1000, 1_500)).toEqual({ verified: true });
  });

  test("no steps: accepted but unverified", () => {
    expect(judgeSteps([], SENTENCE, 3, 1_500)).toEqual({ verified: false, implausible: false });
  });

  test("a paste is a burst", () => {
    const steps = [{ t: 800, text: SENTENCE }];
    expect(judgeSteps(steps, SENTENCE, 3, 1_500)).toMatchObject({ implausible: true, reason: "burst" });
  });

  test("a script sending a little at a time: more steps than the page's pace fits is a burst", () => {
    // Ten steps in 180 ms, 2 s into the round: spaced at the page's pace they would have started before the round.
    expect(hasBurst(typedSteps("가나다라마바사아자차", 20, 2_000))).toBe(false);
    expect(hasBurst(typedSteps("가나다라마바사아자차아자차가나다라마바사아자차", 20, 1_000))).toBe(true);
    // One syllable a step, or two (6 keystrokes every 100 ms, quicker than anyone types for long): no step is a
    // paste, and arrival times cannot tell quick steps from steps held up on the way; the whole answer's rate
    // judges them (judgeSteps).
    expect(hasBurst(typedSteps("갈날달랄말발살알잘찰", 100, 500))).toBe(false);
    const twoAtATime = typedSteps("갈날달랄말발살알잘찰", 50, 500).filter((_, i) => i % 2 === 1);
    expect(twoAtATime.map((step) => step.t)).toEqual([550, 650, 750, 850, 950]);
    expect(hasBurst(twoAtATime)).toBe(false);
    expect(judgeSteps(twoAtATime, "갈날달랄말발살알잘찰", 0.95, 1_500)).toMatchObject({ reason: "too_fast" });
  });

  test("one step adding more than 12 keystrokes is a burst, after any pause", () => {
    const typed = typedSteps("가나다", 300);
    // 가나다 is 6 keystrokes: 7 more syllables add 14, 6 more add 12.
    expect(hasBurst([...typed, { t: 5_000, text: "가나다라마바사아자차" }])).toBe(true);
    expect(hasBurst([...typed, { t: 5_000, text: "가나다라마바사아자" }])).toBe(false);
  });

  test("steps held up by a busy server arrive together and are read as typed at the page's pace", () => {
    // A fast typist (a syllable every 150 ms) whose steps wait out a 1.5-s stall and arrive 2 ms apart.
    const before = typedSteps("가나다라마", 150, 500);
    const held = typedSteps("가나다라마바사아자차카타파하", 2, 2_700).slice(5);
    expect(hasBurst([...before, ...held])).toBe(false);
    expect(judgeSteps([...before, ...held], "가나다라마바사아자차카타파하", 2.8, 1_500)).toEqual({ verified: true });
    // The answer's own flush may follow the step before it at once.
    expect(hasBurst([...typedSteps("가나다라", 150), { t: 951, text: "가나다라마" }])).toBe(false);
  });

  test("the sending times: the page's pace backwards from each arrival, none before the round", () => {
    const arrivals = [
      { t: 300, text: "가" },
      { t: 1_000, text: "가나" },
      { t: 1_002, text: "가나다" },
      { t: 1_004, text: "가나다라" },
      { t: 1_005, text: "가나다라마" },
    ];
    expect(sendingTimes(arrivals)).toEqual([300, 804, 904, 1_004, 1_005]);
    expect(sendingTimes(arrivals.map((step) => ({ ...step, t: step.t - 800 })))).toBeNull();
  });

  test("the largest step: the most keystrokes one step added", () => {
    expect(largestStep([])).toBe(0);
    expect(largestStep([...typedSteps("가나", 300), { t: 900, text: "" }, { t: 9_000, text: "가나다라" }])).toBe(8);
  });

  test("a paste after a pause is a burst too", () => {
    expect(hasBurst([...typedSteps("가나", 300), { t: 9_000, text: "가나다라마바사아자차" }])).toBe(true);
  });

  test("deleting a long text and retyping is no burst", () => {
    const steps = [...typedSteps("가나다라마바사", 150), { t: 1_700, text: "" }, { t: 1_800, text: "가" }];
    expect(hasBurst(steps)).toBe(false);
  });

  test("an answer other than the last step is implausible", () => {
    const steps = typedSteps("가나다", 250);
    expect(judgeSteps(steps, SENTENCE, 3, 1_500)).toMatchObject({ reason: "answer_differs" });
  });

  test("a whole answer above the speed limit is implausible", () => {
    const steps = typedSteps(SENTENCE, 100, 0);
    // 15 keystrokes in 0.5 s = 1,800 타/분.
    expect(judgeSteps(steps, SENTENCE, 0.5, 1_500)).toMatchObject({ reason: "too_fast" });
  });
});

describe("serverCompletionSeconds", () => {
  test("the gap since the last step is network time, at most 1.5 s", () => {
    const last = { t: 4_000, text: SENTENCE };
    expect(serverCompletionSeconds(4_300, last, SENTENCE)).toBe(4);
    expect(serverCompletionSeconds(9_000, last, SENTENCE)).toBe(7.5);
  });

  test("an answer unlike its last step, or without steps, gets no allowance", () => {
    expect(serverCompletionSeconds(4_300, { t: 4_000, text: "가나" }, SENTENCE)).toBe(4.3);
    expect(serverCompletionSeconds(4_300, undefined, SENTENCE)).toBe(4.3);
  });
});

describe("LaneBoard", () => {
  test("flushes only the lanes that changed since the last flush", () => {
    const board = new LaneBoard();
    board.set("a", { progress: 0.1, wpm: 100, completed: false });
    board.set("b", { progress: 0.2, wpm: 120, completed: false });
    expect(board.flush().map(([key]) => key)).toEqual(["a", "b"]);
    expect(board.pending).toBe(false);
    board.set("a", { progress: 0.1, wpm: 100, completed: false });
    expect(board.pending).toBe(false);
    board.set("b", { progress: 1, wpm: 300, completed: true, position: 1 });
    expect(board.flush()).toEqual([["b", { progress: 1, wpm: 300, completed: true, position: 1 }]]);
    expect(board.all().length).toBe(2);
  });
});

describe("encodeSteps / decodeSteps", () => {
  test("a replay survives the round trip, stored as changes", () => {
    const steps: RaceStep[] = [
      { t: 420, text: "ㄱ" },
      { t: 510, text: "가" },
      { t: 640, text: "각" },
      { t: 700, text: "가나" },
      { t: 980, text: "가나 😀" },
      { t: 1_300, text: "가" },
    ];
    const encoded = encodeSteps(steps);
    expect(encoded).toBe('[[420,0,"ㄱ"],[90,0,"가"],[130,0,"각"],[60,0,"가나"],[280,2," 😀"],[320,1,""]]');
    expect(decodeSteps(encoded)).toEqual(steps);
    expect(decodeSteps(encodeSteps([]))).toEqual([]);
  });

  test("a malformed replay decodes to no steps", () => {
    for (const bad of ["", "{", "{}", "[[1,0]]", '[["a",0,"b"]]', '[[-5,0,"가"]]', '[[5,3,"가"]]', '[[5,-1,""]]'])
      expect(decodeSteps(bad)).toEqual([]);
  });
});
