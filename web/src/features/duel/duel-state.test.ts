import { describe, expect, test } from "bun:test";
import {
  blockX,
  type DuelResult,
  duelReducer,
  initialDuel,
  outcomeText,
  reasonLines,
  splitTyped,
  UNRATED_EARLY,
  UNRATED_PAIR_LIMIT,
  unratedNote,
  watchedOutcomeText,
} from "./duel-state";

const block = { id: 1, word: "사과", status: "static" as const, speed: 0, x: 400, y: 100 };

describe("the duel's client state", () => {
  test("match, countdown, start, a block fired and moving, lives, time, the end", () => {
    let s = duelReducer(initialDuel, { type: "searching" });
    expect(s.phase).toBe("waiting");
    s = duelReducer(s, { type: "match_found", side: "red", sessionId: "d1", opponent: "상대" });
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

  test("whitespace typed after a word sends it once; the space after a word already sent is dropped", () => {
    expect(splitTyped("사과", null)).toEqual({ word: null, rest: "사과" });
    expect(splitTyped("사과 ", null)).toEqual({ word: "사과", rest: "" });
    expect(splitTyped("사과 배", null)).toEqual({ word: "사과", rest: "배" });
    expect(splitTyped(" ", null)).toEqual({ word: null, rest: "" });
    // The word went on its key's event; its space arrives before or after the box was emptied.
    expect(splitTyped("사과 ", "사과")).toEqual({ word: null, rest: "" });
    expect(splitTyped(" ", "사과")).toEqual({ word: null, rest: "" });
    // A new word that starts like the last one is not cut.
    expect(splitTyped("사과나무", "사과")).toEqual({ word: null, rest: "사과나무" });
  });

  test("the result stays on the menu after the automatic leave, with the rating, until dismissed or a search", () => {
    const result: DuelResult = {
      winner_side: "blue",
      reason: "opponent_disconnected",
      reason_text: "상대의 연결이 끊어졌습니다.",
      red_remaining_lives: 5,
      blue_remaining_lives: 5,
      red_words_typed: 0,
      blue_words_typed: 1,
      game_duration: 12,
    };
    let s = duelReducer(initialDuel, { type: "match_found", side: "blue", sessionId: "d1", opponent: "상대" });
    s = duelReducer(s, { type: "opponent_gone", how: "disconnected" });
    s = duelReducer(s, { type: "over", result });
    s = duelReducer(s, { type: "left_after_end" });
    expect([s.phase, s.result, s.last?.result, s.last?.opponent]).toEqual(["menu", null, result, "상대"]);
    s = duelReducer(s, { type: "rating", rating: 1516, change: 16.2, rated: true });
    expect(s.last?.rating).toEqual({ rating: 1516, change: 16.2, rated: true });
    expect(duelReducer(s, { type: "dismiss_last" }).last).toBeNull();
    expect(duelReducer(s, { type: "searching" }).last).toBeNull();
  });

  test("the reason is worded from the viewer's side, each fact once", () => {
    const base = {
      red_remaining_lives: 0,
      blue_remaining_lives: 3,
      red_words_typed: 2,
      blue_words_typed: 6,
      game_duration: 40,
    };
    const noLives: DuelResult = {
      ...base,
      winner_side: "blue",
      reason: "no_lives",
      reason_text: "생명이 모두 사라졌습니다.",
    };
    expect(reasonLines(noLives, "blue", null)).toEqual(["상대의 생명이 모두 사라졌습니다."]);
    expect(reasonLines(noLives, "red", null)).toEqual(["내 생명이 모두 사라졌습니다."]);
    // The opponent dropped, but their lives ran out first: both facts, once each.
    expect(reasonLines(noLives, "blue", "disconnected")).toEqual([
      "상대의 생명이 모두 사라졌습니다.",
      "상대의 연결이 끊어졌습니다.",
    ]);
    const dropped: DuelResult = { ...base, winner_side: "blue", reason: "opponent_disconnected" };
    expect(reasonLines(dropped, "blue", "disconnected")).toEqual(["상대의 연결이 끊어졌습니다."]);
    const timeUp: DuelResult = { ...base, winner_side: "blue", reason: "time_up_lives", reason_text: "시간 종료" };
    expect(reasonLines(timeUp, "red", null)).toEqual(["시간 종료"]);
  });

  test("a duel that moved no rating says why: forfeited in its first 10 s, or the pair's daily limit", () => {
    const result: DuelResult = {
      winner_side: "red",
      reason: "opponent_left",
      red_remaining_lives: 5,
      blue_remaining_lives: 5,
      red_words_typed: 0,
      blue_words_typed: 0,
      game_duration: 1,
    };
    expect(unratedNote({ ...result, rated: false }, null)).toBe(UNRATED_EARLY);
    expect(unratedNote({ ...result, rated: true }, { rating: 1500, change: 0, rated: false })).toBe(UNRATED_PAIR_LIMIT);
    expect(unratedNote({ ...result, rated: true }, { rating: 1516, change: 16, rated: true })).toBeNull();
    expect(unratedNote({ ...result, rated: true }, null)).toBeNull();
  });
});

describe("watching a duel", () => {
  const view = {
    session_id: "d9",
    status: "in_progress" as const,
    red_sid: "u_1",
    blue_sid: "g_0123456789ab",
    red_nickname: "빨강이",
    blue_nickname: "guest_1234",
    red_rating: 1523,
    blue_rating: null,
    red_ready: true,
    blue_ready: true,
    red_lives: 4,
    blue_lives: 5,
    red_words_typed: 2,
    blue_words_typed: 1,
    word_blocks: [{ ...block, status: "moving_left" as const, speed: 50, x: 300 }],
    bullets: [],
    remaining_time: 41,
    created_at: "2026-05-04T03:00:00.000Z",
    started_at: "2026-05-04T03:00:03.000Z",
    ended_at: null,
    server_time: "2026-05-04T03:00:22.000Z",
  };

  test("the field as it is: both sides by name and rating, lives, time, moving blocks; the last result kept", () => {
    const last = { result: { winner_side: "draw" as const, reason: "time_up_draw" }, side: null, opponent: "" };
    const before = { ...initialDuel, last: last as never };
    const s = duelReducer(before, { type: "watch_state", state: view, countdown: null, result: null, at: 1_000 });
    expect([s.phase, s.sessionId, s.status, s.side, s.remaining]).toEqual(["watching", "d9", "in_progress", null, 41]);
    expect(s.sides).toEqual({
      red: { nickname: "빨강이", rating: 1523 },
      blue: { nickname: "guest_1234", rating: null },
    });
    expect(s.lives).toEqual({ red: 4, blue: 5 });
    expect(blockX(s.blocks[0], 2_000)).toBe(250);
    expect(s.last).toBe(last as never);
  });

  test("a duel counting down shows its number; a finished one its result, worded for a watcher", () => {
    const counting = duelReducer(initialDuel, {
      type: "watch_state",
      state: { ...view, status: "countdown" },
      countdown: 2,
      result: null,
      at: 0,
    });
    expect([counting.status, counting.countdown]).toEqual(["waiting", 2]);
    const result = {
      winner_side: "blue" as const,
      reason: "no_lives",
      red_remaining_lives: 0,
      blue_remaining_lives: 3,
      red_words_typed: 4,
      blue_words_typed: 9,
      game_duration: 41,
    };
    const over = duelReducer(counting, { type: "over", result });
    expect(watchedOutcomeText(over.result!, over.sides)).toBe("파랑 guest_1234 승리");
    expect(watchedOutcomeText({ ...result, winner_side: "draw" }, over.sides)).toBe("무승부");
    expect(watchedOutcomeText(result, null)).toBe("파랑 승리");
  });
});
