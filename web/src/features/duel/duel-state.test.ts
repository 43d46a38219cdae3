import { describe, expect, test } from "bun:test";
import { blockX, duelReducer, initialDuel, outcomeText, wordToSend } from "./duel-state";

const block = { id: 1, word: "사과", status: "static" as const, speed: 0, x: 400, y: 100 };

describe("the duel's client state", () => {
  test("match, countdown, start, a block fired and moving, lives, time, the end", () => {
    let s = duelReducer(initialDuel, { type: "searching" });
    expect(s.phase).toBe("waiting");
    s = duelReducer(s, { type: "match_found", side: "red", opponent: "상대" });
    s = duelReducer(s, { type: "countdown", number: 3 });
    expect([s.phase, s.countdown, s.opponent]).toEqual(["playing", 3, "상대"]);
    s = duelReducer(s, { type: "game_start", blocks: [block], lives: { red: 5, blue: 5 }, remaining: 60, at: 1_000 });
    expect([s.status, s.countdown, s.blocks.length]).toEqual(["in_progress", null, 1]);
    s = duelReducer(s, { type: "position", blockId: 1, status: "moving_right", speed: 100, x: 400, at: 2_000 });
    expect(blockX(s.blocks[0], 3_500)).toBe(550);
    s = duelReducer(s, { type: "replaced", blockId: 1, blocks: [{ ...block, id: 2, word: "배" }], at: 4_000 });
    expect(s.blocks.map((b) => b.word)).toEqual(["배"]);
    s = duelReducer(s, { type: "bullet", side: "red", blockId: 2, at: 4_000 });
    s = duelReducer(s, { type: "bullet", side: "blue", blockId: 2, at: 4_500 });
    // A bullet is drawn for BULLET_MS: the first is gone when the second comes 500 ms later.
    expect(s.bullets.map((b) => b.side)).toEqual(["blue"]);
    s = duelReducer(s, { type: "lives", side: "blue", lives: 4 });
    s = duelReducer(s, { type: "time", remaining: 42 });
    expect([s.lives.blue, s.remaining]).toEqual([4, 42]);
    const result = {
      winner_side: "red" as const,
      reason: "time_up",
      red_remaining_lives: 5,
      blue_remaining_lives: 4,
      red_words_typed: 3,
      blue_words_typed: 1,
      game_duration: 60,
    };
    s = duelReducer(s, { type: "over", result });
    expect([s.status, outcomeText(result, s.side), outcomeText(result, "blue")]).toEqual(["finished", "승리!", "패배"]);
  });

  test("a moving block stays on the field and a static one does not move", () => {
    const moving = { ...block, status: "moving_left" as const, speed: 200, at: 0 };
    expect(blockX(moving, 1_000)).toBe(200);
    expect(blockX(moving, 10_000)).toBe(0);
    expect(blockX({ ...block, at: 0 }, 10_000)).toBe(400);
  });

  test("Space or Enter sends the trimmed word only in play and never while composing", () => {
    expect(wordToSend("Enter", false, " 사과 ", "in_progress")).toBe("사과");
    expect(wordToSend(" ", false, "사과", "in_progress")).toBe("사과");
    expect(wordToSend("Enter", true, "사과", "in_progress")).toBeNull();
    expect(wordToSend("Enter", false, "사과", "waiting")).toBeNull();
    expect(wordToSend("a", false, "사과", "in_progress")).toBeNull();
    expect(wordToSend("Enter", false, "   ", "in_progress")).toBeNull();
  });
});
