import { describe, expect, test } from "bun:test";
import { FakeClock, seededRandom } from "../kernel/clock";
import type { Transition } from "../kernel/game-mode";
import { computeRewards } from "./rewards";
import {
  DEFAULT_RACE_SETTINGS,
  gameDurationFor,
  isChatAnswer,
  isChatSubmission,
  RACE_MESSAGES,
  type RaceEffect,
  type RaceMove,
  type RacePlayer,
  type RaceSettings,
  type RaceState,
  renamePlayer,
  sentenceRace,
  viewOf,
} from "./sentence-race";

const HELLO = { id: 1, text: "안녕하세요" }; // 12 keystrokes

const player = (id: string, userId: number | null = null): RacePlayer => ({
  id,
  name: userId ? `user${userId}` : `guest_${id}`,
  userId,
  sessionId: userId ? `u_${userId}` : `g_${id}`,
});

/** Drives the mode the way the host does: ticks whenever `nextTickAt` is due while the fake clock moves. */
function harness(pool = [HELLO], settings: Partial<RaceSettings> = {}, owner?: { playerId: string; auto: boolean }) {
  const clock = new FakeClock();
  const random = seededRandom(7);
  let state: RaceState = sentenceRace.setup({ roomId: 1, pool, settings, owner });
  let effects: RaceEffect[] = [];
  const ctx = () => ({ now: clock.now(), random });
  const apply = (t: Transition<RaceState, RaceEffect>) => {
    state = t.state;
    effects.push(...t.effects);
  };
  const h = {
    clock,
    get state() {
      return state;
    },
    /** Effects since the last call. */
    take() {
      const out = effects;
      effects = [];
      return out;
    },
    join(p: RacePlayer) {
      apply(sentenceRace.onPlayerJoin(state, p, ctx()));
    },
    leave(id: string) {
      apply(sentenceRace.onPlayerLeave(state, id, ctx()));
    },
    submit(id: string, move: RaceMove) {
      const result = sentenceRace.move(state, id, move, ctx());
      if (result.ok) apply(result);
      else if (result.transition) apply(result.transition);
      return result;
    },
    advance(ms: number) {
      const target = clock.now() + ms;
      for (let guard = 0; guard < 1000; guard++) {
        const at = sentenceRace.nextTickAt(state);
        if (at === null || at > target) break;
        if (at > clock.now()) clock.advance(at - clock.now());
        apply(sentenceRace.tick(state, ctx()));
      }
      if (target > clock.now()) clock.advance(target - clock.now());
    },
    /** A step of `id`'s answer box, as `game:progress` brings it. */
    type(id: string, typedText: string) {
      return h.submit(id, { type: "progress", typedText });
    },
    /** From a fresh join to the sentence being out. */
    startGame(...players: RacePlayer[]) {
      for (const p of players) h.join(p);
      h.advance(DEFAULT_RACE_SETTINGS.waitMs + DEFAULT_RACE_SETTINGS.countdownSeconds * 1000);
      expect(state.status).toBe("in_progress");
      h.take();
    },
  };
  return h;
}

const types = (effects: RaceEffect[]) => effects.map((e) => e.type);

describe("the loop runs only while someone is in the room", () => {
  test("an empty room schedules nothing", () => {
    const h = harness();
    expect(sentenceRace.nextTickAt(h.state)).toBeNull();
    h.advance(60_000);
    expect(h.state.status).toBe("waiting");
    expect(h.take()).toEqual([]);
  });

  test("the first join sets next_game_at = now + 5 s; a second join does not move it", () => {
    const h = harness();
    const start = h.clock.now();
    h.join(player("a", 1));
    expect(h.state.nextGameAt).toBe(start + 5000);
    expect(types(h.take())).toEqual(["state"]);
    h.advance(2000);
    h.join(player("b", 2));
    expect(h.state.nextGameAt).toBe(start + 5000);
    expect(h.take()).toEqual([]);
  });

  test("the last player leaving during the countdown stops the loop", () => {
    const h = harness();
    h.join(player("a", 1));
    h.advance(5500);
    expect(h.state.status).toBe("countdown");
    h.leave("a");
    expect(h.state).toMatchObject({ status: "waiting", nextGameAt: null, countdownEndsAt: null });
    expect(sentenceRace.nextTickAt(h.state)).toBeNull();
    h.advance(60_000);
    expect(h.state.status).toBe("waiting");
  });
});

describe("every transition", () => {
  test("waiting → countdown 3, 2, 1 → in_progress → finished → waiting", () => {
    const h = harness();
    h.join(player("a", 1));
    h.take();
    h.advance(4999);
    expect(h.state.status).toBe("waiting");
    h.advance(1);
    expect(h.state.status).toBe("countdown");
    expect(h.take()).toEqual([
      { type: "state" },
      { type: "countdown_message", seconds: 3 },
      { type: "countdown_number", number: 3 },
    ]);
    expect(viewOf(h.state)).toMatchObject({ status: "countdown", countdown_seconds: 3, sentence: null });
    h.advance(1000);
    expect(h.take()).toEqual([{ type: "countdown_number", number: 2 }]);
    expect(viewOf(h.state).countdown_seconds).toBe(2);
    h.advance(1000);
    expect(h.take()).toEqual([{ type: "countdown_number", number: 1 }]);
    const startAt = h.clock.now() + 1000;
    h.advance(1000);
    expect(h.state).toMatchObject({ status: "in_progress", sentence: HELLO, startedAt: startAt, gameDuration: 10 });
    expect(h.take()).toEqual([{ type: "state" }, { type: "problem", sentence: HELLO, gameDuration: 10 }]);
    expect(viewOf(h.state)).toMatchObject({
      status: "in_progress",
      sentence: HELLO,
      started_at: new Date(startAt).toISOString(),
      game_duration: 10,
      ends_at: new Date(startAt + 10_000).toISOString(),
    });

    h.advance(5000);
    expect(h.take()).toEqual([
      { type: "end_countdown_message", seconds: 5 },
      { type: "end_countdown_number", number: 5 },
    ]);
    h.advance(4000);
    expect(h.take().map((e) => (e.type === "end_countdown_number" ? e.number : e.type))).toEqual([4, 3, 2, 1]);
    h.advance(1000);
    expect(h.state.status).toBe("finished");
    const finished = h.take();
    expect(types(finished)).toEqual(["state", "finished"]);
    expect(finished[1]).toMatchObject({ type: "finished", game: { participants: 0, standings: [] } });

    h.advance(4999);
    expect(h.state.status).toBe("finished");
    h.advance(1);
    expect(h.state).toMatchObject({ status: "waiting", sentence: null, nextGameAt: h.clock.now() + 5000 });
    expect(types(h.take())).toEqual(["state"]);
  });

  test("a game after the room emptied during results waits for someone to join", () => {
    const h = harness();
    h.startGame(player("a", 1));
    h.advance(3000);
    h.submit("a", { typedText: "안녕하세요" });
    expect(h.state.status).toBe("finished");
    h.leave("a");
    h.advance(5000);
    expect(h.state).toMatchObject({ status: "waiting", nextGameAt: null });
  });

  test("game_duration = clamp(10, 60, time at 200 타/분 + 5 s)", () => {
    expect(gameDurationFor("안녕하세요")).toBe(10); // 12 strokes = 3.6 s + 5 → 9 → 10
    expect(gameDurationFor("가".repeat(50))).toBe(35); // 100 strokes = 30 s + 5
    expect(gameDurationFor("각".repeat(200))).toBe(60); // 600 strokes = 180 s → 60
  });

  test("sentences are not repeated while fresh ones remain", () => {
    const pool = [1, 2, 3, 4, 5, 6].map((id) => ({ id, text: `문장 ${id}번` }));
    const h = harness(pool);
    h.join(player("a", 1));
    const seen: number[] = [];
    for (let game = 0; game < 6; game++) {
      h.advance(8000);
      seen.push(h.state.sentence!.id);
      h.advance(10_000 + 5000);
    }
    expect(new Set(seen).size).toBe(6);
  });

  test("an empty sentence pool never starts a game", () => {
    const h = harness([]);
    h.join(player("a", 1));
    h.advance(8000);
    expect(h.state).toMatchObject({ status: "waiting", sentence: null });
    expect(h.state.nextGameAt).toBeGreaterThan(h.clock.now());
  });
});

describe("submissions", () => {
  test("server-measured time, score and positions in arrival order", () => {
    const h = harness();
    h.startGame(player("a", 1), player("b", 2), player("c"));
    h.advance(6000);
    h.take(); // the end countdown has begun (a 10-s game)
    const first = h.submit("b", { typedText: "안녕하세요", sentenceId: 1 });
    expect(first.ok).toBe(true);
    const submitted = h.take();
    expect(submitted).toHaveLength(1);
    expect(submitted[0]).toMatchObject({
      type: "submitted",
      result: { playerId: "b", wpm: 120, accuracy: 100, errorCount: 0, completionTime: 6, position: 1 },
    });
    h.advance(1500);
    h.submit("c", { typedText: "안녕하세여" });
    expect(h.take().find((e) => e.type === "submitted")).toMatchObject({
      result: { playerId: "c", accuracy: 80, position: 2 },
    });
    expect(h.state.status).toBe("in_progress");
    h.advance(500);
    h.take();
    h.submit("a", { typedText: "안녕" });
    const last = h.take();
    expect(types(last)).toEqual(["submitted", "state", "finished"]);
    expect(last[0]).toMatchObject({ result: { playerId: "a", accuracy: 40, position: null } });
    const game = (last[2] as Extract<RaceEffect, { type: "finished" }>).game;
    expect(game.participants).toBe(3);
    expect(game.standings.map((s) => [s.playerId, s.position])).toEqual([
      ["b", 1],
      ["c", 2],
      ["a", null],
    ]);
  });

  test("ties at the same instant keep arrival order", () => {
    const h = harness();
    h.startGame(player("a", 1), player("b", 2), player("c", 3));
    h.advance(5000);
    h.submit("c", { typedText: "안녕하세요" });
    h.submit("a", { typedText: "안녕하세요" });
    const effects = h.take().filter((e) => e.type === "submitted");
    expect(effects.map((e) => e.type === "submitted" && [e.result.playerId, e.result.position, e.result.wpm])).toEqual([
      ["c", 1, 144],
      ["a", 2, 144],
    ]);
  });

  test("one submission per player per game", () => {
    const h = harness();
    h.startGame(player("a", 1), player("b", 2));
    h.advance(5000);
    expect(h.submit("a", { typedText: "안녕하세요" }).ok).toBe(true);
    expect(h.submit("a", { typedText: "안녕하세요" })).toEqual({
      ok: false,
      error: RACE_MESSAGES.alreadySubmitted,
      code: "duplicate",
    });
    expect(h.state.results).toHaveLength(1);
  });

  test("early submissions (waiting, countdown) are refused", () => {
    const h = harness();
    h.join(player("a", 1));
    expect(h.submit("a", { typedText: "안녕하세요" })).toMatchObject({ ok: false, code: "too_early" });
    h.advance(5500);
    expect(h.state.status).toBe("countdown");
    const early = h.submit("a", { typedText: "안녕하세요" });
    expect(early).toMatchObject({ ok: false, error: RACE_MESSAGES.notStarted });
  });

  test("late submissions (after the time is up, after finished) are refused", () => {
    const h = harness();
    h.startGame(player("a", 1), player("b", 2));
    h.clock.advance(10_000); // the time is up but the host has not ticked yet
    expect(h.submit("a", { typedText: "안녕하세요" })).toMatchObject({ ok: false, code: "too_late" });
    h.advance(0);
    expect(h.state.status).toBe("finished");
    expect(h.submit("b", { typedText: "안녕하세요" })).toMatchObject({ ok: false, error: RACE_MESSAGES.alreadyEnded });
  });

  test("other refusals: not in the room, another sentence, nothing typed", () => {
    const h = harness();
    h.startGame(player("a", 1));
    h.advance(3000);
    expect(h.submit("zz", { typedText: "안녕하세요" })).toMatchObject({ ok: false, code: "not_in_room" });
    expect(h.submit("a", { typedText: "안녕하세요", sentenceId: 99 })).toMatchObject({
      ok: false,
      code: "wrong_sentence",
    });
    expect(h.submit("a", { typedText: "   " })).toMatchObject({ ok: false, code: "empty" });
    expect(h.state.results).toHaveLength(0);
  });

  test("implausible results are rejected, do not count, and use up the player's one attempt", () => {
    const h = harness();
    h.startGame(player("a", 1), player("b", 2), player("c", 3));
    h.advance(100); // sooner than the sentence could have reached the player
    expect(h.submit("a", { typedText: "안녕하세요" })).toMatchObject({
      ok: false,
      code: "implausible",
      error: RACE_MESSAGES.implausible,
    });
    // Trying again, slower, is a second attempt.
    h.advance(5_000);
    expect(h.submit("a", { typedText: "안녕하세요" })).toMatchObject({ ok: false, code: "duplicate" });
    // Pasting a long text fast is implausible even when it is wrong (unweighted speed).
    expect(h.submit("b", { typedText: "가".repeat(100) })).toMatchObject({ ok: false, code: "implausible" });
    expect(h.state.results).toHaveLength(0);
    expect(h.state.status).toBe("in_progress");
    // The last player's plausible answer ends the game: everyone has had their attempt.
    expect(h.submit("c", { typedText: "안녕하세요" })).toMatchObject({ ok: true });
    expect(h.state.status).toBe("finished");
    expect(h.state.results.map((r) => r.playerId)).toEqual(["c"]);
  });

  test("a result speed above 1,500 타/분 is implausible even when the typed keystrokes are fewer", () => {
    // 닭 (3 keystrokes) typed as x (1): 11 keystrokes typed, but the result counts the target's 13 × 90.91 %.
    const h = harness([{ id: 9, text: "닭abcdefghij" }]);
    h.startGame(player("a", 1), player("b", 2));
    h.advance(460); // typed 1,435 타/분, result 1,541 타/분
    expect(h.submit("a", { typedText: "xabcdefghij" })).toMatchObject({ ok: false, code: "implausible" });
    h.advance(2_000);
    expect(h.submit("b", { typedText: "xabcdefghij" })).toMatchObject({ ok: true });
  });

  test("the completion time is the server's: the client's elapsed_time is not used, the gap after the last step is", () => {
    const h = harness();
    h.startGame(player("a", 1), player("c", 3));
    h.advance(1_000);
    h.type("a", "안녕");
    h.type("c", "안");
    h.advance(4_000);
    h.type("a", "안녕하세요");
    h.advance(1_000);
    h.submit("a", { typedText: "안녕하세요", elapsedTime: 1 }); // 5 s after the start: 12 / (5/60) = 144
    h.advance(1_000);
    h.type("c", "안녕하세요");
    h.advance(2_500);
    h.submit("c", { typedText: "안녕하세요" }); // 1.5 s at most: 9.5 - 1.5 = 8 s
    expect(h.state.results.map((r) => [r.completionTime, r.wpm])).toEqual([
      [5, 144],
      [8, 90],
    ]);
  });

  test("the game ends when every present player has submitted, and when one who has not leaves", () => {
    const h = harness();
    h.startGame(player("a", 1), player("b", 2));
    h.advance(4000);
    h.submit("a", { typedText: "안녕하세요" });
    expect(h.state.status).toBe("in_progress");
    h.leave("b");
    expect(h.state.status).toBe("finished");
    expect(types(h.take())).toEqual(["submitted", "state", "finished"]);
  });

  test("a player joining mid-game can still submit", () => {
    const h = harness();
    h.startGame(player("a", 1));
    h.join(player("b", 2));
    h.advance(5000);
    h.submit("a", { typedText: "안녕하세요" });
    expect(h.state.status).toBe("in_progress");
    expect(h.submit("b", { typedText: "안녕하세요" }).ok).toBe(true);
    expect(h.state.status).toBe("finished");
  });
});

describe("game integrity", () => {
  const TEN = { id: 2, text: "가나다라마바사아자차" }; // 10 characters, 20 keystrokes

  test("an answer shorter than 90 % of the sentence gets a result but no position", () => {
    const h = harness([TEN]);
    h.startGame(player("a", 1), player("b", 2), player("c", 3), player("d", 4));
    h.advance(5000);
    h.submit("a", { typedText: "가나다라마바사아" }); // the first 80 %, sent first: 80 % accurate
    h.submit("b", { typedText: "가나다라마바사아   " }); // trailing spaces are trimmed as for the score
    h.submit("c", { typedText: "가나다라마바사아자" }); // exactly 90 %
    h.submit("d", { typedText: "가나다라마바사아xy" }); // full length, 80 % accurate
    expect(h.state.results.map((r) => [r.playerId, r.accuracy, r.position])).toEqual([
      ["a", 80, null],
      ["b", 80, null],
      ["c", 90, 1],
      ["d", 80, 2],
    ]);
  });

  test("a chat line sent as an answer is an attempt only when it is at least 50 % accurate", () => {
    const h = harness();
    h.join(player("a", 1));
    expect(isChatAnswer(h.state, "a", "안녕하세요")).toBe(false); // waiting: ordinary chat
    h.startGame(player("b", 2));
    expect(isChatAnswer(h.state, "a", "ㅋㅋㅋ 어렵다")).toBe(false);
    expect(isChatAnswer(h.state, "a", "안녕")).toBe(false); // 40 %
    expect(isChatAnswer(h.state, "a", "안녕하")).toBe(true); // 60 %
    expect(isChatAnswer(h.state, "a", "안녕하세요")).toBe(true);
    h.advance(100);
    expect(h.submit("a", { typedText: "안녕하세요" })).toMatchObject({ code: "implausible" });
    expect(isChatAnswer(h.state, "a", "안녕하세요")).toBe(false); // the attempt is used up: chat from now on
    h.advance(3000);
    expect(h.submit("b", { typedText: "안녕하세요" }).ok).toBe(true);
    expect(isChatAnswer(h.state, "b", "안녕하세요")).toBe(false);
  });

  test("a game:submission is chat when it is under 50 % accurate for the sentence up, whoever sends it", () => {
    const h = harness();
    h.join(player("a", 1));
    expect(isChatSubmission(h.state, 1, "ㅋㅋ")).toBe(false); // waiting: the race refuses it (too early)
    h.startGame(player("b", 2));
    const id = h.state.sentence!.id;
    expect(isChatSubmission(h.state, id, "ㅋㅋ 어렵다")).toBe(true);
    expect(isChatSubmission(h.state, id, "안녕")).toBe(true); // 40 %
    expect(isChatSubmission(h.state, id, "안녕하")).toBe(false); // 60 %: the attempt
    expect(isChatSubmission(h.state, id, "   ")).toBe(false); // nothing typed: refused as empty
    expect(isChatSubmission(h.state, id + 1, "ㅋㅋ")).toBe(false); // another sentence: refused as such
  });
});

describe("rewards", () => {
  test("formulae of product-rules.md", () => {
    // 300 타/분 × 95 % / 1000 = 28.5 → experience 10 + 28.5 + 30 = 68.5 → 69; points 29 (28.5 rounded)
    expect(computeRewards({ wpm: 300, accuracy: 95, position: 1, participants: 3 })).toEqual({
      experience: 69,
      coins: 30,
      points: 29,
      medal: "gold",
      won: true,
      wpm: 300,
      accuracy: 95,
    });
    expect(computeRewards({ wpm: 200, accuracy: 100, position: 2, participants: 3 })).toMatchObject({
      experience: 50,
      coins: 20,
      points: 20,
      medal: "silver",
      won: false,
    });
    expect(computeRewards({ wpm: 100, accuracy: 90, position: 3, participants: 3 })).toMatchObject({
      experience: 29,
      coins: 10,
      points: 9,
      medal: "bronze",
    });
    expect(computeRewards({ wpm: 100, accuracy: 90, position: 4, participants: 5 })).toMatchObject({
      experience: 19,
      coins: 5,
      medal: null,
    });
    expect(computeRewards({ wpm: 50, accuracy: 60, position: null, participants: 5 })).toMatchObject({
      experience: 13,
      coins: 5,
      points: 3,
      medal: null,
      won: false,
    });
  });

  test("a game with a single participant gives the participation reward: no position bonus, medal or win", () => {
    // 300 × 100 / 1000 = 30 → experience 10 + 30, coins 5, points 30
    expect(computeRewards({ wpm: 300, accuracy: 100, position: 1, participants: 1 })).toEqual({
      experience: 40,
      coins: 5,
      points: 30,
      medal: null,
      won: false,
      wpm: 300,
      accuracy: 100,
    });
  });

  test("a lone player's game: first place on the board, participation reward, streak not extended", () => {
    const h = harness();
    h.startGame(player("a", 1));
    h.advance(6000);
    h.submit("a", { typedText: "안녕하세요" }); // 120 타/분, 100 %
    const finished = h.take().find((e) => e.type === "finished");
    const game = finished?.type === "finished" ? finished.game : null;
    expect(game?.participants).toBe(1);
    expect(game?.standings[0]).toMatchObject({
      position: 1,
      winStreak: 0,
      rewards: { experience: 22, coins: 5, points: 12, medal: null, won: false },
    });
    expect(h.state.streaks).toEqual({ a: 0 });
  });

  test("two players who submitted make a ranked game, even when one of them has no position", () => {
    const h = harness();
    h.startGame(player("a", 1), player("b", 2));
    h.advance(6000);
    h.submit("a", { typedText: "안녕하세요" });
    h.submit("b", { typedText: "안" });
    const finished = h.take().find((e) => e.type === "finished");
    const standings = finished?.type === "finished" ? finished.game.standings : [];
    expect(standings.map((s) => [s.position, s.rewards?.coins, s.rewards?.medal, s.winStreak])).toEqual([
      [1, 30, "gold", 1],
      [null, 5, null, 0],
    ]);
  });

  test("standings carry rewards for members only, and streaks of consecutive first places", () => {
    const h = harness();
    h.startGame(player("a", 1), player("g"));
    h.advance(6000);
    h.submit("g", { typedText: "안녕하세요" });
    h.submit("a", { typedText: "안녕하세요" });
    const first = h.take().find((e) => e.type === "finished");
    const standings = first?.type === "finished" ? first.game.standings : [];
    expect(standings.map((s) => [s.playerId, s.position, s.rewards?.medal ?? null, s.winStreak])).toEqual([
      ["g", 1, null, 1],
      ["a", 2, "silver", 0],
    ]);
    expect(standings[0].rewards).toBeNull();
    expect(standings[1].rewards).toMatchObject({ coins: 20, won: false });

    h.advance(5000 + 8000);
    h.take();
    h.advance(5000);
    h.submit("g", { typedText: "안녕하세요" });
    h.submit("a", { typedText: "안녕하세요" });
    const second = h.take().find((e) => e.type === "finished");
    expect(second?.type === "finished" && second.game.standings.map((s) => s.winStreak)).toEqual([2, 0]);
  });
});

describe("win streaks are kept only for players in the room", () => {
  test("a player who leaves is forgotten, also one who leaves after answering and before the end", () => {
    const h = harness();
    h.startGame(player("a", 1), player("b", 2), player("c", 3));
    h.advance(5000);
    h.submit("b", { typedText: "안녕하세요" });
    h.leave("b"); // answered first, then left while the game goes on
    h.submit("a", { typedText: "안녕하세요" });
    h.submit("c", { typedText: "안녕하세요" });
    expect(h.state.status).toBe("finished");
    expect(h.state.streaks).toEqual({ a: 0, c: 0 });

    h.advance(5000 + 8000 + 5000);
    h.submit("a", { typedText: "안녕하세요" });
    h.submit("c", { typedText: "안녕하세요" });
    expect(h.state.streaks).toEqual({ a: 1, c: 0 });
    h.leave("a");
    expect(h.state.streaks).toEqual({ c: 0 });
  });

  test("guests coming and going leave no trace: the table never outgrows the room", () => {
    const h = harness();
    h.join(player("host", 1));
    for (let i = 0; i < 50; i++) {
      const visitor = player(`visitor${i}`);
      h.join(visitor);
      h.advance(8000 + 5000);
      expect(h.state.status).toBe("in_progress");
      h.submit(visitor.id, { typedText: "안녕하세요" });
      h.submit("host", { typedText: "안녕하세요" });
      h.leave(visitor.id);
      h.advance(5000);
      expect(Object.keys(h.state.streaks).length).toBeLessThanOrEqual(h.state.players.length);
    }
    expect(Object.keys(h.state.streaks)).toEqual(["host"]);
  });
});

describe("the round on the game platform", () => {
  test("roundStartedAt is the sentence's start while the round is in play or its results are shown, else null", () => {
    const h = harness();
    expect(sentenceRace.roundStartedAt(h.state)).toBeNull();
    h.join(player("a", 1));
    h.advance(5_500);
    expect(h.state.status).toBe("countdown");
    expect(sentenceRace.roundStartedAt(h.state)).toBeNull();
    h.advance(2_500);
    const startedAt = h.state.startedAt;
    expect(sentenceRace.roundStartedAt(h.state)).toBe(startedAt);
    h.advance(5_000);
    h.submit("a", { typedText: "안녕하세요" });
    expect(h.state.status).toBe("finished");
    expect(sentenceRace.roundStartedAt(h.state)).toBe(startedAt);
    h.advance(5_000);
    expect(h.state.status).toBe("waiting");
    expect(sentenceRace.roundStartedAt(h.state)).toBeNull();
  });

  test("finish ends the round in play now with the results so far, as when its time runs out", () => {
    const h = harness();
    h.startGame(player("a", 1), player("b", 2));
    h.advance(4_000);
    h.submit("a", { typedText: "안녕하세요" });
    h.take();
    const ctx = { now: h.clock.now(), random: seededRandom(1) };
    const ended = sentenceRace.finish(h.state, ctx);
    expect(ended.state).toMatchObject({ status: "finished", finishedAt: ctx.now });
    expect(types(ended.effects)).toEqual(["state", "finished"]);
    const finished = ended.effects.find((e) => e.type === "finished");
    expect(finished?.type === "finished" && finished.game.standings.map((s) => [s.playerId, s.position])).toEqual([
      ["a", 1],
    ]);
  });

  test("finish outside a round in play changes nothing", () => {
    const h = harness();
    h.join(player("a", 1));
    const ctx = { now: h.clock.now(), random: seededRandom(1) };
    expect(sentenceRace.finish(h.state, ctx)).toEqual({ state: h.state, effects: [] });
  });

  test("an implausible attempt is handed over to be recorded (no position), with what the log needs", () => {
    const h = harness();
    h.startGame(player("a", 1), player("b", 2));
    h.advance(100);
    h.submit("a", { typedText: "안녕하세요", elapsedTime: 0.05 });
    const [effect] = h.take();
    expect(effect).toMatchObject({
      type: "implausible",
      attempt: {
        result: { playerId: "a", userId: 1, position: null, accuracy: 100, completionTime: 0.1 },
        serverSeconds: 0.1,
        clientSeconds: 0.05,
        typedLength: 5,
      },
    });
    expect(effect.type === "implausible" && effect.attempt.rawSpeed).toBeGreaterThan(1_500);
  });

  test("the last attempt refused as implausible ends the round: recorded first, then finished", () => {
    const h = harness();
    h.startGame(player("a", 1));
    h.advance(100);
    h.submit("a", { typedText: "안녕하세요" });
    expect(types(h.take())).toEqual(["implausible", "state", "finished"]);
  });

  test("onPlayerUpdate renames the player in the players and this round's results", () => {
    const h = harness();
    h.startGame(player("a", 1), player("b", 2));
    h.advance(5_000);
    h.submit("a", { typedText: "안녕하세요" });
    const updated = sentenceRace.onPlayerUpdate(h.state, { ...player("a", 1), name: "새이름" });
    expect(updated.effects).toEqual([]);
    expect(updated.state.players.map((p) => p.name)).toEqual(["새이름", "user2"]);
    expect(updated.state.results.map((r) => r.name)).toEqual(["새이름"]);
  });
});

describe("renamePlayer", () => {
  test("a renamed player shows the new name in the players and in this game's results", () => {
    const h = harness();
    h.startGame(player("a", 1), player("b", 2));
    h.advance(5000);
    h.submit("a", { typedText: "안녕하세요" });
    const renamed = renamePlayer(h.state, "a", "새이름");
    expect(renamed.players.map((p) => p.name)).toEqual(["새이름", "user2"]);
    expect(renamed.results.map((r) => r.name)).toEqual(["새이름"]);
    expect(h.state.players[0].name).toBe("user1"); // states are never mutated
  });
});

describe("steps (game:progress)", () => {
  test("each change is stamped with the server's time since the start and reported with its figures", () => {
    const h = harness();
    h.startGame(player("a", 1), player("b", 2));
    h.advance(2_000);
    h.type("a", "안녕");
    h.type("a", "안녕");
    expect(h.take()).toEqual([{ type: "progress", playerId: "a", progress: 0.4, wpm: 180 }]);
    expect(h.state.steps).toEqual({ a: [{ t: 2_000, text: "안녕" }] });
  });

  test("steps outside the round, after the attempt, or from someone not in the room change nothing", () => {
    const h = harness();
    h.join(player("a", 1));
    expect(h.type("a", "안")).toMatchObject({ ok: true });
    h.startGame(player("b", 2));
    h.type("x", "안");
    h.advance(3_000);
    h.type("a", "안녕하세요");
    h.submit("a", { typedText: "안녕하세요" });
    h.take();
    h.type("a", "안녕하세요 더");
    expect(h.take()).toEqual([]);
    expect(Object.keys(h.state.steps)).toEqual(["a"]);
  });

  test("a spectator is no racer: it starts no game, holds no round, and its steps are refused", () => {
    const h = harness();
    h.join({ ...player("w"), spectator: true });
    expect(h.state.players).toEqual([]);
    expect(h.state.nextGameAt).toBeNull();
    h.startGame(player("a", 1));
    expect(h.type("w", "안")).toMatchObject({ ok: false, code: "spectating" });
    h.advance(3_000);
    h.submit("a", { typedText: "안녕하세요" });
    expect(h.state.status).toBe("finished");
  });

  test("a result typed step by step is verified and keeps its steps; one sent without steps is unverified", () => {
    const h = harness();
    h.startGame(player("a", 1), player("b", 2));
    for (const [ms, text] of [
      [800, "안"],
      [700, "안녕"],
      [900, "안녕하"],
      [800, "안녕하세"],
      [700, "안녕하세요"],
    ] as const) {
      h.advance(ms);
      h.type("a", text);
    }
    h.advance(200);
    h.submit("a", { typedText: "안녕하세요" });
    const [a] = h.state.results;
    expect(a).toMatchObject({ verified: true, completionTime: 3.9 });
    expect(a.steps.map((step) => step.text)).toEqual(["안", "안녕", "안녕하", "안녕하세", "안녕하세요"]);

    const old = harness();
    old.startGame(player("a", 1));
    old.advance(3_000);
    old.submit("a", { typedText: "안녕하세요" });
    expect(old.state.results[0]).toMatchObject({ verified: false, steps: [] });
  });

  test("a paste, or an answer other than the last step, is refused as implausible", () => {
    const h = harness([{ id: 2, text: "가나다라마바사아자차카타파하" }]);
    h.startGame(player("a", 1), player("b", 2), player("c", 3));
    h.advance(5_000);
    h.type("b", "가");
    h.type("c", "가");
    h.type("a", "가나다라마바사아자차카타파하");
    h.advance(1_000);
    expect(h.submit("a", { typedText: "가나다라마바사아자차카타파하" })).toMatchObject({ code: "implausible" });
    h.type("b", "가나");
    expect(h.submit("b", { typedText: "가나다라마바사아자차카타파하" })).toMatchObject({ code: "implausible" });
    const refused = h.take().filter((effect) => effect.type === "implausible");
    expect(refused.map((e) => e.type === "implausible" && e.attempt.stepsVerdict)).toEqual([
      { verified: false, implausible: true, reason: "burst" },
      { verified: false, implausible: true, reason: "answer_differs" },
    ]);
  });

  test("steps held up by a busy server arrive at once and still make a verified result", () => {
    const sentence = "가나다라마바사아자차카타파하";
    const h = harness([{ id: 2, text: sentence }]);
    h.startGame(player("a", 1), player("b", 2));
    h.advance(1_000);
    h.type("a", "가");
    // The server stalls for 2 s; the 13 steps the page sent meanwhile are handled in the same millisecond.
    h.advance(2_000);
    for (let length = 2; length <= 14; length++) h.type("a", sentence.slice(0, length));
    h.submit("a", { typedText: sentence });
    expect(h.take().filter((effect) => effect.type === "implausible")).toEqual([]);
    expect(h.state.results[0]).toMatchObject({ verified: true, completionTime: 3 });
  });

  test("a player who never typed does not hold the round's end; when nobody typed, everyone does", () => {
    const h = harness();
    h.startGame(player("a", 1), player("b", 2), player("watcher", 3));
    h.advance(1_000);
    h.type("a", "안녕하세요");
    h.type("b", "안");
    h.advance(1_000);
    h.submit("a", { typedText: "안녕하세요" });
    expect(h.state.status).toBe("in_progress");
    h.type("b", "안녕하세요");
    h.submit("b", { typedText: "안녕하세요" });
    expect(h.state.status).toBe("finished");

    const old = harness();
    old.startGame(player("a", 1), player("b", 2));
    old.advance(3_000);
    old.submit("a", { typedText: "안녕하세요" });
    expect(old.state.status).toBe("in_progress");
  });
});

describe('a private room: its owner starts the rounds, players ask for another (README "Private rooms")', () => {
  const owner = player("owner", 1);
  const friend = player("friend", 2);
  const guest = player("guest");
  const privateRoom = (auto = false) => harness([HELLO], { ranked: false }, { playerId: owner.id, auto });
  /** The owner starts a round and each racer sends the answer given (in order). */
  const playRound = (h: ReturnType<typeof harness>, answers: [RacePlayer, string][]) => {
    h.submit(owner.id, { type: "start" });
    h.advance(3_000);
    h.advance(6_000);
    for (const [racer, typedText] of answers) h.submit(racer.id, { typedText });
  };

  test("with the owner in the room nothing starts by itself; 다음 라운드 starts the countdown at once", () => {
    const h = privateRoom();
    h.join(owner);
    h.join(friend);
    expect(h.state).toMatchObject({ status: "waiting", nextGameAt: null, owner: { present: true } });
    h.advance(60_000);
    expect(h.state.status).toBe("waiting");
    h.take();
    expect(h.submit(owner.id, { type: "start" })).toMatchObject({ ok: true });
    expect(h.state.status).toBe("countdown");
    expect(types(h.take())).toEqual(["state", "countdown_message", "countdown_number"]);
    expect(h.submit(owner.id, { type: "start" })).toEqual({
      ok: false,
      error: RACE_MESSAGES.roundInPlay,
      code: "round_in_play",
    });
    h.advance(3_000);
    expect(h.state.status).toBe("in_progress");
  });

  test("nobody to race, or a public room: the start is refused", () => {
    const h = privateRoom();
    h.join({ ...owner, spectator: true });
    expect(h.submit(owner.id, { type: "start" })).toMatchObject({ ok: false, code: "no_players" });
    const open = harness();
    open.join(friend);
    expect(open.submit(friend.id, { type: "start" })).toMatchObject({
      ok: false,
      error: RACE_MESSAGES.publicRoom,
      code: "unsupported",
    });
    expect(open.submit(friend.id, { type: "ready" })).toMatchObject({ ok: false, code: "unsupported" });
  });

  test("while the owner is away (or watching elsewhere) rounds start by themselves; back, the start is theirs again", () => {
    const h = privateRoom();
    h.join(friend);
    const start = h.clock.now();
    expect(h.state.nextGameAt).toBe(start + 5_000);
    h.join(owner);
    expect(h.state.nextGameAt).toBeNull();
    h.leave(owner.id);
    expect(h.state).toMatchObject({ nextGameAt: h.clock.now() + 5_000, owner: { present: false } });
    // A watching owner is in the room: the start is theirs.
    h.join({ ...owner, spectator: true });
    expect(h.state).toMatchObject({ nextGameAt: null, owner: { present: true } });
  });

  test("automatic rounds on: the usual wait between rounds; off again: the owner starts them", () => {
    const h = privateRoom();
    h.join(owner);
    h.join(friend);
    h.take();
    expect(h.submit(owner.id, { type: "owner", playerId: owner.id, present: true, auto: true })).toMatchObject({
      ok: true,
    });
    expect(types(h.take())).toEqual(["owner", "state"]);
    expect(h.state.nextGameAt).toBe(h.clock.now() + 5_000);
    h.advance(5_000 + 3_000);
    expect(h.state.status).toBe("in_progress");
    h.submit(owner.id, { type: "owner", playerId: owner.id, present: true, auto: false });
    h.advance(60_000 + 5_000);
    expect(h.state).toMatchObject({ status: "waiting", nextGameAt: null });
  });

  test("handed over: the new owner starts the rounds", () => {
    const h = privateRoom();
    h.join(owner);
    h.join(friend);
    h.submit(owner.id, { type: "owner", playerId: friend.id, present: true, auto: false });
    expect(h.state.owner).toEqual({ playerId: friend.id, present: true, auto: false });
    h.leave(owner.id); // the old owner leaving changes nothing: the new one is here
    expect(h.state.nextGameAt).toBeNull();
  });

  test("다시 하기: each racer once; when every racer present asked, the next round starts at once", () => {
    const h = privateRoom();
    h.join(owner);
    h.join(friend);
    h.join(guest);
    playRound(h, [
      [owner, HELLO.text],
      [friend, HELLO.text],
      [guest, "안녕"],
    ]);
    expect(h.state.status).toBe("finished");
    h.take();
    expect(h.submit(friend.id, { type: "ready" })).toMatchObject({ ok: true });
    expect(h.submit(friend.id, { type: "ready" })).toMatchObject({ ok: true });
    expect(h.state.ready).toEqual([friend.id]);
    expect(types(h.take())).toEqual(["ready"]);
    h.advance(5_000); // the results go, the room waits: the owner is here and starts the rounds
    expect(h.state).toMatchObject({ status: "waiting", nextGameAt: null, ready: [friend.id] });
    h.submit(guest.id, { type: "ready" });
    h.take();
    h.submit(owner.id, { type: "ready" }); // a racing owner asking too: everyone is in
    expect(h.state).toMatchObject({ status: "countdown", ready: [] });
    expect(types(h.take())).toEqual(["state", "countdown_message", "countdown_number", "ready"]);
    expect(h.submit(friend.id, { type: "ready" })).toMatchObject({ ok: false, code: "round_in_play" });
  });

  test("the one racer who had not asked leaves: the others are all ready, the round starts", () => {
    const h = privateRoom();
    h.join({ ...owner, spectator: true });
    h.join(friend);
    h.join(guest);
    h.submit(friend.id, { type: "ready" });
    expect(h.state.status).toBe("waiting");
    h.leave(guest.id);
    expect(h.state.status).toBe("countdown");
  });

  test("a spectator cannot ask for another round", () => {
    const h = privateRoom();
    h.join(owner);
    h.join({ ...friend, spectator: true });
    expect(h.submit(friend.id, { type: "ready" })).toMatchObject({
      ok: false,
      error: RACE_MESSAGES.spectatorNotReady,
      code: "spectating",
    });
  });

  test("places pay nothing: the participation reward, no medal, no win, however many raced", () => {
    const h = privateRoom();
    h.join(owner);
    h.join(friend);
    playRound(h, [
      [owner, HELLO.text],
      [friend, HELLO.text],
    ]);
    const finished = h.take().find((e) => e.type === "finished");
    const game = finished?.type === "finished" ? finished.game : null;
    expect(game?.ranked).toBe(false);
    expect(
      game?.standings.map((s) => [s.position, s.rewards?.coins, s.rewards?.medal, s.rewards?.won, s.winStreak]),
    ).toEqual([
      [1, 5, null, false, 0],
      [2, 5, null, false, 0],
    ]);
  });
});
