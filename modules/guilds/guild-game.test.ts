import { describe, expect, test } from "bun:test";
import { seededRandom } from "../kernel/clock";
import type { GameContext } from "../kernel/game-mode";
import { liveFigures } from "../kernel/typing";
import {
  GUILD_GAME_MSG,
  type GuildGameEffect,
  type GuildGameMove,
  type GuildGameState,
  type GuildPlayer,
  guildGame,
  progressOf,
  viewOf,
} from "./guild-game";
import { GUILD_MSG } from "./rules";

const T0 = Date.UTC(2026, 3, 1, 3, 0, 0);
const PROBLEM = "가는 말이 고와야 오는 말이 곱다";
const PROBLEMS = ["하늘 천 따 지", PROBLEM];
const players: GuildPlayer[] = [
  { id: "u:1", name: "관리자", userId: 1 },
  { id: "u:2", name: "회원", userId: 2 },
  { id: "u:3", name: "손님", userId: 3 },
];

/** The mode driven as the host drives it on a fake time line: `at(t)` runs every tick due by then. */
class Game {
  now = T0;
  state: GuildGameState;
  effects: GuildGameEffect[] = [];
  private readonly random = seededRandom(3);

  constructor(present = players.slice(0, 2)) {
    this.state = guildGame.setup({ guildId: 7, countdownSeconds: 3, endCountdownSeconds: 60 });
    for (const p of present) this.apply(guildGame.onPlayerJoin(this.state, p, this.ctx()));
  }
  ctx(): GameContext {
    return { now: this.now, random: this.random };
  }
  apply(t: { state: GuildGameState; effects: GuildGameEffect[] }) {
    this.state = t.state;
    this.effects.push(...t.effects);
  }
  at(time: number) {
    for (
      let due = guildGame.nextTickAt(this.state);
      due !== null && due <= time;
      due = guildGame.nextTickAt(this.state)
    ) {
      this.now = Math.max(this.now, due);
      const before = this.state;
      this.apply(guildGame.tick(this.state, this.ctx()));
      if (this.state === before) throw new Error("a due tick made no progress");
    }
    this.now = time;
  }
  move(playerId: string, move: GuildGameMove) {
    const result = guildGame.move(this.state, playerId, move, this.ctx());
    if (result.ok) this.apply(result);
    else if (result.transition) this.apply(result.transition);
    return result;
  }
  start(problem: string | null = PROBLEM) {
    return this.move("u:1", {
      type: "start",
      problems: PROBLEMS,
      problem,
      countdownSeconds: 3,
      endCountdownSeconds: 60,
      by: "관리자",
    });
  }
  /** Started and through its countdown: in progress at T0 + 3 s. */
  running() {
    expect(this.start().ok).toBe(true);
    this.at(T0 + 3_000);
    expect(this.state.status).toBe("in_progress");
    return this;
  }
  kinds() {
    return this.effects.map((e) => e.type);
  }
}

describe("the guild game mode", () => {
  test("start: countdown 3-2-1 each second, then in progress with the chosen problem and the end time", () => {
    const game = new Game();
    expect(game.start().ok).toBe(true);
    expect(viewOf(game.state)).toMatchObject({ status: "countdown", problem: null, countdown_seconds: 3 });
    game.at(T0 + 2_999);
    expect(game.effects.filter((e) => e.type === "countdown").map((e) => (e as { seconds: number }).seconds)).toEqual([
      3, 2, 1,
    ]);
    game.at(T0 + 3_000);
    const view = viewOf(game.state);
    expect(view).toMatchObject({ status: "in_progress", problem: PROBLEM, end_countdown_seconds: 60 });
    expect(view.started_at).toBe(new Date(T0 + 3_000).toISOString());
    expect(view.ends_at).toBe(new Date(T0 + 63_000).toISOString());
    expect(view.participants.map((p) => [p.username, p.progress, p.completed])).toEqual([
      ["관리자", 0, false],
      ["회원", 0, false],
    ]);
    expect(game.kinds()).toContain("started");
  });

  test("a random problem comes from the guild's list; no list, an unknown problem or a second start are refused", () => {
    const random = new Game();
    expect(random.start(null).ok).toBe(true);
    expect(PROBLEMS).toContain(random.state.problem!);
    expect(random.start().ok).toBe(false);
    expect(random.start()).toMatchObject({ error: GUILD_GAME_MSG.alreadyRunning });

    const game = new Game();
    expect(game.start("없는 문제")).toMatchObject({ ok: false, error: GUILD_GAME_MSG.unknownProblem });
    const empty = game.move("u:1", {
      type: "start",
      problems: [],
      countdownSeconds: 3,
      endCountdownSeconds: 60,
      by: "관리자",
    });
    expect(empty).toMatchObject({ ok: false, error: GUILD_GAME_MSG.noProblems });
    expect(game.state.status).toBe("waiting");
  });

  test("a problem shorter than 10 characters (saved before that rule) is never played", () => {
    const short = PROBLEMS[0]; // "하늘 천 따 지": 8 characters
    expect(new Game().start(short)).toMatchObject({ ok: false, error: GUILD_MSG.problemTooShort });
    for (let i = 0; i < 20; i++) {
      const random = new Game();
      expect(random.start(null).ok).toBe(true);
      expect(random.state.problem).toBe(PROBLEM);
    }
    const onlyShort = new Game().move("u:1", {
      type: "start",
      problems: [short, "한 글자", "가"],
      countdownSeconds: 3,
      endCountdownSeconds: 60,
      by: "관리자",
    });
    expect(onlyShort).toMatchObject({ ok: false, error: "10자 이상인 문제가 없습니다. 문제를 다시 등록해주세요." });
  });

  test("progress is the correct prefix of the problem; typing before the start is refused", () => {
    const game = new Game();
    game.start();
    expect(game.move("u:2", { type: "progress", typedText: "가는" })).toMatchObject({
      ok: false,
      error: GUILD_GAME_MSG.notStarted,
    });
    game.at(T0 + 3_000);
    game.move("u:2", { type: "progress", typedText: "가는 말이" });
    expect(game.state.participants[1].progress).toBeCloseTo(5 / [...PROBLEM].length);
    // A typo stops the correct prefix where it is.
    game.move("u:2", { type: "progress", typedText: "가는 말니 고와야" });
    expect(game.state.participants[1].progress).toBeCloseTo(4 / [...PROBLEM].length);
    expect(progressOf(PROBLEM, PROBLEM)).toBe(1);
    expect(progressOf("", PROBLEM)).toBe(0);
  });

  test("only the exact text completes; positions by finishing order; the game ends when everyone present is done", () => {
    const game = new Game().running();
    game.now = T0 + 10_000;
    const wrong = game.move("u:2", { type: "submit", typedText: `${PROBLEM}.` });
    expect(wrong).toMatchObject({ ok: false, error: GUILD_GAME_MSG.mismatch });
    expect(game.state.participants[1].completed).toBe(false);
    expect(game.move("u:2", { type: "submit", typedText: PROBLEM }).ok).toBe(true);
    game.now = T0 + 12_000;
    expect(game.move("u:1", { type: "submit", typedText: ` ${PROBLEM} ` }).ok).toBe(true);
    const [admin, member] = game.state.participants;
    expect([member.position, member.completionTime, admin.position, admin.completionTime]).toEqual([1, 7, 2, 9]);
    expect(member.accuracy).toBe(100);
    expect(game.state.status).toBe("finished");
    expect(game.state.endReason).toBe("all_finished");
    const ended = game.effects.find((e) => e.type === "ended") as Extract<GuildGameEffect, { type: "ended" }>;
    expect(ended.game.standings.map((p) => p.name)).toEqual(["회원", "관리자"]);
    expect(game.move("u:1", { type: "submit", typedText: PROBLEM })).toMatchObject({ ok: false });
  });

  test("time up: the game ends after end_countdown_seconds with those who finished", () => {
    const game = new Game().running();
    game.now = T0 + 20_000;
    game.move("u:1", { type: "submit", typedText: PROBLEM });
    game.at(T0 + 62_999);
    expect(game.state.status).toBe("in_progress");
    game.at(T0 + 63_000);
    expect(game.state).toMatchObject({ status: "finished", endReason: "time_up" });
    const ended = game.effects.find((e) => e.type === "ended") as Extract<GuildGameEffect, { type: "ended" }>;
    expect(ended.game.standings.map((p) => [p.name, p.position])).toEqual([["관리자", 1]]);
  });

  test("a member who leaves mid-game is dropped (unfinished) and the rest may end the game; a late arrival plays", () => {
    const game = new Game().running();
    game.apply(guildGame.onPlayerJoin(game.state, players[2], game.ctx()));
    expect(game.state.participants.map((p) => p.name)).toEqual(["관리자", "회원", "손님"]);
    game.now = T0 + 10_000;
    game.move("u:1", { type: "submit", typedText: PROBLEM });
    game.apply(guildGame.onPlayerLeave(game.state, "u:3", game.ctx()));
    expect(game.state.status).toBe("in_progress");
    game.apply(guildGame.onPlayerLeave(game.state, "u:2", game.ctx()));
    expect(game.state).toMatchObject({ status: "finished", endReason: "all_finished" });
    expect(game.state.participants.map((p) => p.name)).toEqual(["관리자"]);
  });

  test("a finished member who leaves keeps their result; an implausibly fast exact answer never counts", () => {
    const game = new Game().running();
    game.now = T0 + 3_100; // 0.1 s after the start: nobody can have read the problem
    expect(game.move("u:2", { type: "submit", typedText: PROBLEM })).toMatchObject({
      ok: false,
      error: GUILD_GAME_MSG.implausible,
    });
    expect(game.state.participants[1]).toMatchObject({ rejected: true, completed: false, position: null });
    expect(game.kinds()).toContain("implausible");
    game.now = T0 + 15_000;
    game.move("u:1", { type: "submit", typedText: PROBLEM });
    expect(game.state.status).toBe("finished");
    const ended = game.effects.find((e) => e.type === "ended") as Extract<GuildGameEffect, { type: "ended" }>;
    expect(ended.game.standings.map((p) => [p.name, p.position])).toEqual([["관리자", 1]]);
  });

  test("shutdown ends a game in play as stopped; a new start from finished is the next round", () => {
    const game = new Game().running();
    const first = guildGame.roundStartedAt(game.state);
    game.apply(guildGame.finish(game.state, game.ctx()));
    expect(game.state).toMatchObject({ status: "finished", endReason: "stopped" });
    game.now = T0 + 30_000;
    expect(game.start().ok).toBe(true);
    expect(game.state.participants.every((p) => p.progress === 0 && !p.completed)).toBe(true);
    game.at(T0 + 33_000);
    expect(guildGame.roundStartedAt(game.state)).not.toBe(first);
  });
});

describe("steps (guild_game:progress)", () => {
  /** `playerId` types PROBLEM one character every 300 ms from `from` (ms after the start). */
  function typeOut(game: Game, playerId: string, from: number) {
    const chars = [...PROBLEM];
    chars.forEach((_, i) => {
      game.at(T0 + 3_000 + from + i * 300);
      game.move(playerId, { type: "progress", typedText: chars.slice(0, i + 1).join("") });
    });
  }

  test("an answer typed step by step is verified, timed at its last step, and keeps its steps", () => {
    const game = new Game().running();
    typeOut(game, "u:2", 1_000);
    game.at(T0 + 3_000 + 1_000 + 17 * 300 + 400);
    expect(game.move("u:2", { type: "submit", typedText: PROBLEM, elapsedTime: 1 }).ok).toBe(true);
    const done = game.state.participants.find((p) => p.playerId === "u:2")!;
    expect(done).toMatchObject({ completed: true, verified: true, completionTime: 6.1 });
    expect(done.steps).toHaveLength(18);
  });

  test("a paste is refused as implausible; an answer sent without steps counts, unverified", () => {
    const game = new Game(players).running();
    game.move("u:3", { type: "progress", typedText: "가" });
    game.at(T0 + 8_000);
    game.move("u:2", { type: "progress", typedText: PROBLEM });
    expect(game.move("u:2", { type: "submit", typedText: PROBLEM })).toMatchObject({ code: "implausible" });
    expect(game.move("u:1", { type: "submit", typedText: PROBLEM }).ok).toBe(true);
    expect(game.state.participants.find((p) => p.playerId === "u:1")).toMatchObject({ verified: false });
    // 손님 typed and has not finished: the game goes on for them.
    expect(game.state.status).toBe("in_progress");
  });

  test("a participant who never typed does not hold the game's end", () => {
    const game = new Game(players).running();
    typeOut(game, "u:2", 500);
    game.at(T0 + 10_000);
    game.move("u:2", { type: "submit", typedText: PROBLEM });
    expect(game.state).toMatchObject({ status: "finished", endReason: "all_finished" });
  });
});

describe("live speed and watchers", () => {
  const watcher: GuildPlayer = { id: "u:4", name: "구경꾼", userId: 4, spectator: true };

  test("each participant's live 타/분 since the start, as the rooms' lanes; the result's speed once completed", () => {
    const game = new Game().running();
    expect(viewOf(game.state).participants.map((p) => p.wpm)).toEqual([0, 0]);
    game.at(T0 + 5_000);
    game.move("u:2", { type: "progress", typedText: "가는 말이" });
    const live = liveFigures("가는 말이", PROBLEM, 2).wpm;
    expect(live).toBeGreaterThan(0);
    expect(viewOf(game.state).participants[1]).toMatchObject({ wpm: live, completed: false, accuracy: null });
    // The same text later is no step (nothing changes); a composing jamo is a step with a new speed.
    const effects = game.effects.length;
    game.at(T0 + 6_000);
    game.move("u:2", { type: "progress", typedText: "가는 말이" });
    expect(game.effects).toHaveLength(effects);
    game.move("u:2", { type: "progress", typedText: "가는 말이 ㄱ" });
    expect(viewOf(game.state).participants[1].wpm).toBe(liveFigures("가는 말이 ㄱ", PROBLEM, 3).wpm);
    expect(game.effects.slice(effects).map((e) => e.type)).toEqual(["state"]);

    const chars = [...PROBLEM];
    for (let i = 6; i <= chars.length; i++) {
      game.at(T0 + 6_000 + (i - 5) * 300);
      game.move("u:2", { type: "progress", typedText: chars.slice(0, i).join("") });
    }
    expect(game.move("u:2", { type: "submit", typedText: PROBLEM }).ok).toBe(true);
    const done = game.state.participants[1];
    expect(viewOf(game.state).participants[1]).toMatchObject({ wpm: done.wpm, completed: true, position: 1 });
  });

  test("a watcher is listed apart, never a participant nor holding the end, and cannot type", () => {
    const game = new Game();
    game.apply(guildGame.onPlayerJoin(game.state, watcher, game.ctx()));
    expect(viewOf(game.state).spectators).toEqual([{ user_id: 4, username: "구경꾼" }]);
    expect(game.move("u:4", { type: "progress", typedText: "가" })).toMatchObject({
      ok: false,
      code: "spectating",
      error: GUILD_GAME_MSG.spectating,
    });
    game.running();
    expect(game.state.participants.map((p) => p.name)).toEqual(["관리자", "회원"]);
    for (const move of [
      { type: "progress", typedText: "가" },
      { type: "submit", typedText: PROBLEM },
    ] as const) {
      expect(game.move("u:4", move)).toMatchObject({ ok: false, code: "spectating", error: GUILD_GAME_MSG.spectating });
    }
    game.at(T0 + 12_000);
    game.move("u:1", { type: "submit", typedText: PROBLEM });
    game.move("u:2", { type: "submit", typedText: PROBLEM });
    expect(game.state).toMatchObject({ status: "finished", endReason: "all_finished" });
    expect(viewOf(game.state).participants.map((p) => p.user_id)).toEqual([1, 2]);

    game.apply(guildGame.onPlayerLeave(game.state, "u:4", game.ctx()));
    expect(viewOf(game.state).spectators).toEqual([]);
  });

  test("a watcher who comes back as a player during a game takes part from then on", () => {
    const game = new Game();
    game.apply(guildGame.onPlayerJoin(game.state, watcher, game.ctx()));
    game.running();
    game.apply(guildGame.onPlayerLeave(game.state, "u:4", game.ctx()));
    const player: GuildPlayer = { ...watcher, spectator: false };
    game.apply(guildGame.onPlayerJoin(game.state, player, game.ctx()));
    expect(game.state.participants.map((p) => p.name)).toEqual(["관리자", "회원", "구경꾼"]);
    expect(viewOf(game.state).spectators).toEqual([]);
    game.at(T0 + 4_000);
    expect(game.move("u:4", { type: "progress", typedText: "가" }).ok).toBe(true);
  });
});
