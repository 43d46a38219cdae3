import { describe, expect, test } from "bun:test";
import { FakeClock, seededRandom } from "../kernel/clock";
import { GameHost, type GameLifecycle, type GamePresenter, sharedScheduler } from "../kernel/game-host";
import { RecordingEmitter, recordingLogger } from "../kernel/game-host/test-support";
import type { GameContext } from "../kernel/game-mode";
import {
  blockX,
  DEFAULT_DUEL_RULES,
  type DuelEffect,
  type DuelMode,
  type DuelMove,
  type DuelPlayer,
  type DuelRules,
  type DuelState,
  duelMode,
  duelView,
  rowY,
  type Side,
} from "./duel-mode";
import { isEarlyForfeit } from "./records";
import { DUEL_WORDS } from "./words";

const T0 = Date.UTC(2026, 2, 1, 3, 0, 0);
const red: DuelPlayer = { id: "u:1", name: "빨강", userId: 1, key: "u_1" };
const blue: DuelPlayer = { id: "g:abc", name: "guest_1234", userId: null, key: "g_abc" };

/**
 * The mode driven like the host drives it, on a fake time line: `at(t)` runs every tick due by then at its due
 * time (as the shared scheduler would), `type`/`ready`/`leave` are inputs at the current time. Effects pile up.
 */
class Duel {
  now = T0;
  state: DuelState;
  effects: DuelEffect[] = [];
  ticks = 0;
  private readonly random = seededRandom(7);

  constructor(rules: Partial<DuelRules> = {}) {
    this.state = duelMode.setup({ sessionId: "s1", red, blue, rules: { ...DEFAULT_DUEL_RULES, ...rules } }, this.ctx());
    this.apply(duelMode.onPlayerJoin(this.state, red));
    this.apply(duelMode.onPlayerJoin(this.state, blue));
  }
  ctx(): GameContext {
    return { now: this.now, random: this.random };
  }
  apply(t: { state: DuelState; effects: DuelEffect[] }) {
    this.state = t.state;
    this.effects.push(...t.effects);
  }
  at(time: number) {
    for (
      let due = duelMode.nextTickAt(this.state);
      due !== null && due <= time;
      due = duelMode.nextTickAt(this.state)
    ) {
      this.now = Math.max(this.now, due);
      this.ticks++;
      const before = this.state;
      this.apply(duelMode.tick(this.state, this.ctx()));
      if (this.state === before) throw new Error("a due tick made no progress");
    }
    this.now = time;
  }
  after(ms: number) {
    this.at(this.now + ms);
  }
  play(side: Side, move: DuelMove) {
    const result = duelMode.move(this.state, side === "red" ? red.id : blue.id, move, this.ctx());
    if (!result.ok) throw new Error(result.error);
    this.apply(result);
  }
  type(side: Side, word: string) {
    this.play(side, { type: "word", word });
  }
  leave(side: Side) {
    this.apply(duelMode.onPlayerLeave(this.state, side === "red" ? red.id : blue.id, this.ctx()));
  }
  /** Both ready and the 3-2-1 countdown played: in progress from `startedAt`. */
  start() {
    this.play("red", { type: "ready" });
    this.play("blue", { type: "ready" });
    this.after(3_000);
    expect(this.state.status).toBe("in_progress");
  }
  block(row: number) {
    return this.state.blocks.find((b) => b.row === row)!;
  }
  of<K extends DuelEffect["type"]>(type: K) {
    return this.effects.filter((e): e is Extract<DuelEffect, { type: K }> => e.type === type);
  }
  get result() {
    return this.state.result!;
  }
}

describe("setup and the start", () => {
  test("a new duel has one static block per row in the middle, 30 px high and 10 px apart, distinct words", () => {
    const duel = new Duel();
    const { blocks } = duel.state;
    expect(blocks).toHaveLength(DEFAULT_DUEL_RULES.rows);
    expect(new Set(blocks.map((b) => b.word)).size).toBe(blocks.length);
    for (const b of blocks) {
      expect(b.status).toBe("static");
      expect(b.x0).toBe(400);
      expect(DUEL_WORDS).toContain(b.word);
    }
    const ys = blocks.map((b) => b.y);
    for (let i = 1; i < ys.length; i++) expect(ys[i] - ys[i - 1]).toBe(40);
    // Centred vertically: the first block's top and the last one's bottom are equally far from the edges.
    expect(ys[0] - 15).toBe(500 - (ys[ys.length - 1] + 15));
    expect(rowY(0, DEFAULT_DUEL_RULES)).toBe(ys[0]);
  });

  test("both ready → countdown 3, 2, 1 a second apart → in progress with 60 s and 5 lives each", () => {
    const duel = new Duel();
    duel.play("red", { type: "ready" });
    expect(duel.state.status).toBe("waiting");
    duel.play("blue", { type: "ready" });
    expect(duel.state.status).toBe("countdown");
    expect(duel.of("countdown").map((e) => e.number)).toEqual([3]);
    duel.after(999);
    expect(duel.of("countdown").map((e) => e.number)).toEqual([3]);
    duel.after(1);
    duel.after(1_000);
    expect(duel.of("countdown").map((e) => e.number)).toEqual([3, 2, 1]);
    duel.after(1_000);
    expect(duel.of("started")).toHaveLength(1);
    const view = duelView(duel.state, duel.now);
    expect(view).toMatchObject({ status: "in_progress", red_lives: 5, blue_lives: 5, remaining_time: 60 });
    expect(view.red_sid).toBe("u_1");
    expect(view.blue_sid).toBe("g_abc");
    expect(duel.state.startedAt).toBe(T0 + 3_000);
  });

  test("a word before the start changes nothing", () => {
    const duel = new Duel();
    const before = duel.state;
    duel.type("red", duel.block(0).word);
    expect(duel.state.blocks).toBe(before.blocks);
    expect(duel.state.red.wordsTyped).toBe(0);
  });
});

describe("fire, movement and the edge", () => {
  test("red types a static block's word: a bullet, and the block moves right at the current speed", () => {
    const duel = new Duel();
    duel.start();
    const target = duel.block(2);
    duel.type("red", `  ${target.word} `);
    const [fired] = duel.of("fired");
    expect(fired.side).toBe("red");
    expect(fired.block).toMatchObject({ id: target.id, status: "moving_right", speed: 50 });
    expect(duel.state.bullets).toEqual([{ side: "red", target_block_id: target.id }]);
    expect(duel.state.red.wordsTyped).toBe(1);
    // 400 px to the right edge at 50 px/s: it arrives 8 s later, and that is the duel's next event but the clock.
    expect(fired.block.arrivesAt).toBe(duel.now + 8_000);
    duel.after(2_000);
    expect(blockX(duel.block(2), duel.now, DEFAULT_DUEL_RULES)).toBe(500);
    expect(duelView(duel.state, duel.now).word_blocks.find((b) => b.id === target.id)?.x).toBe(500);
  });

  test("blue fires left; the block reaching x ≤ 0 costs red a life and a new static word takes its row", () => {
    const duel = new Duel();
    duel.start();
    const target = duel.block(0);
    duel.type("blue", target.word);
    expect(duel.block(0).status).toBe("moving_left");
    duel.after(7_999);
    expect(duel.of("hit")).toHaveLength(0);
    duel.after(1);
    const [hit] = duel.of("hit");
    expect(hit).toMatchObject({ side: "red", lives: 4, blockId: target.id });
    expect(hit.newBlock).toMatchObject({ status: "static", row: 0, x0: 400 });
    expect(hit.newBlock.word).not.toBe(target.word);
    expect(duel.state.red.lives).toBe(4);
    expect(duel.state.blue.lives).toBe(5);
    expect(duel.state.bullets).toEqual([]);
    expect(duel.block(0).id).toBe(hit.newBlock.id);
  });

  test("the block speed grows with the game time", () => {
    const duel = new Duel();
    duel.start();
    duel.type("red", duel.block(0).word);
    duel.after(20_000);
    duel.type("red", duel.block(1).word);
    const speeds = duel.of("fired").map((e) => e.block.speed);
    expect(speeds[0]).toBe(50);
    expect(speeds[1]).toBe(90); // + 2 px/s per second of game time
    duel.after(39_000);
    duel.type("blue", duel.block(3).word);
    expect(duel.of("fired")[2].block.speed).toBe(168);
  });

  test("between events the duel is idle: the next tick is the next arrival or the next second, nothing else", () => {
    const duel = new Duel();
    duel.start();
    const ticks = duel.ticks;
    duel.after(10_000);
    // 10 time updates, no other step.
    expect(duel.ticks - ticks).toBe(10);
    expect(duel.of("time").map((e) => e.remaining)).toEqual([59, 58, 57, 56, 55, 54, 53, 52, 51, 50]);
    duel.type("red", duel.block(1).word);
    const arrivesAt = duel.of("fired")[0].block.arrivesAt!;
    expect(arrivesAt % 1000).not.toBe(0);
    duel.at(arrivesAt - 1);
    expect(duelMode.nextTickAt(duel.state)).toBe(arrivesAt);
  });

  test("a late tick plays every owed event at its own time, in order", () => {
    const duel = new Duel();
    duel.start();
    duel.type("blue", duel.block(0).word); // arrives after 8 s
    // One tick 12 s late: 12 time updates and the arrival at 8 s (before that second's update), all in one step.
    duel.now += 12_000;
    duel.apply(duelMode.tick(duel.state, duel.ctx()));
    const order = duel.effects.filter((e) => e.type === "time" || e.type === "hit").map((e) => e.type);
    expect(order).toEqual([...Array(7).fill("time"), "hit", ...Array(5).fill("time")]);
    // The replacement block appeared when the old one arrived, not when the tick ran.
    expect(duel.of("hit")[0].newBlock.movedAt).toBe(duel.state.startedAt! + 8_000);
  });
});

describe("defence", () => {
  test("typing the word of a block coming at you defends it: replaced by a new static block", () => {
    const duel = new Duel();
    duel.start();
    const target = duel.block(4);
    duel.type("red", target.word);
    duel.after(3_000);
    duel.type("blue", target.word);
    const [defended] = duel.of("defended");
    expect(defended).toMatchObject({ side: "blue", blockId: target.id });
    expect(defended.newBlocks).toHaveLength(1);
    expect(defended.newBlocks[0]).toMatchObject({ status: "static", row: 4, x0: 400 });
    expect(duel.state.blue.wordsTyped).toBe(1);
    expect(duel.state.bullets).toEqual([]);
    duel.after(10_000);
    expect(duel.of("hit")).toHaveLength(0);
    expect(duel.state.blue.lives).toBe(5);
  });

  test("your own shot, a wrong word, or a block that already arrived: no effect", () => {
    const duel = new Duel();
    duel.start();
    const target = duel.block(1);
    duel.type("red", target.word);
    duel.type("red", target.word); // moving away from red
    duel.type("red", "없는단어");
    expect(duel.of("fired")).toHaveLength(1);
    expect(duel.of("defended")).toHaveLength(0);
    expect(duel.state.red.wordsTyped).toBe(1);
    expect(duel.state.red.attempts).toBe(3);
    // Blue types it 1 ms after it reached blue's edge (the tick has not run yet): the arrival comes first.
    duel.now = target.movedAt + 8_000 + 1;
    duel.type("blue", target.word);
    expect(duel.of("hit")).toHaveLength(1);
    expect(duel.of("defended")).toHaveLength(0);
    expect(duel.state.blue.lives).toBe(4);
  });
});

describe("end rules", () => {
  /** Blue fires at red `n` times in a row, each block arriving before the next shot. */
  function hitRed(duel: Duel, n: number) {
    for (let i = 0; i < n; i++) {
      duel.type("blue", duel.block(i % 8).word);
      duel.after(9_000);
    }
  }

  test("no lives: the other side wins at the moment of the last hit", () => {
    const duel = new Duel({ durationMs: 120_000 });
    duel.start();
    hitRed(duel, 5);
    expect(duel.state.status).toBe("finished");
    expect(duel.result).toMatchObject({
      winner_side: "blue",
      reason: "no_lives",
      red_remaining_lives: 0,
      blue_remaining_lives: 5,
      blue_words_typed: 5,
      played: true,
    });
    expect(duel.state.endedAt).toBe(duel.of("hit")[4].newBlock.movedAt);
    expect(duel.result.game_duration).toBe((duel.state.endedAt! - duel.state.startedAt!) / 1000);
    expect(duel.of("over")).toHaveLength(1);
  });

  test("time up: more lives wins", () => {
    const duel = new Duel();
    duel.start();
    duel.type("red", duel.block(0).word);
    duel.after(60_000);
    expect(duel.result).toMatchObject({ winner_side: "red", reason: "time_up_lives", blue_remaining_lives: 4 });
    expect(duel.result.game_duration).toBe(60);
    expect(duel.of("time").at(-1)?.remaining).toBe(1);
  });

  test("time up with equal lives: more words typed wins", () => {
    const duel = new Duel();
    duel.start();
    const block = duel.block(3);
    duel.type("red", block.word);
    duel.after(1_000);
    duel.type("blue", block.word); // defended: 1 word each
    // A shot 59 s in cannot cross 400 px (at 168 px/s) before the end: a word for blue, no life lost.
    duel.after(58_000);
    duel.type("blue", duel.block(5).word);
    duel.after(1_000);
    expect(duel.result).toMatchObject({
      winner_side: "blue",
      reason: "time_up_words",
      red_remaining_lives: 5,
      blue_remaining_lives: 5,
      red_words_typed: 1,
      blue_words_typed: 2,
    });
  });

  test("time up with equal lives and words: a draw", () => {
    const duel = new Duel();
    duel.start();
    duel.after(60_000);
    expect(duel.result).toMatchObject({ winner_side: "draw", reason: "time_up_draw", played: true });
    expect(duelMode.nextTickAt(duel.state)).toBe(duel.state.endedAt! + DEFAULT_DUEL_RULES.lingerMs);
  });

  test("a player who leaves mid-game loses: the other wins, reason opponent_left", () => {
    const duel = new Duel();
    duel.start();
    duel.after(5_000);
    duel.leave("red");
    expect(duel.of("gone")).toEqual([{ type: "gone", side: "red", how: "left" }]);
    expect(duel.result).toMatchObject({ winner_side: "blue", reason: "opponent_left", played: true });
    expect(duel.result.game_duration).toBe(5);
  });

  test("a player whose connection dropped and who does not come back loses: opponent_disconnected", () => {
    const duel = new Duel();
    duel.start();
    duel.play("blue", { type: "connection", connected: false });
    duel.after(5_000); // the host's grace period
    duel.leave("blue");
    expect(duel.of("gone")).toEqual([{ type: "gone", side: "blue", how: "disconnected" }]);
    expect(duel.result).toMatchObject({ winner_side: "red", reason: "opponent_disconnected" });
    expect(duel.result.reason).toContain("disconnected");
  });

  test("a leave after the end changes nothing; nothing at all happens after the end but the close", () => {
    const duel = new Duel();
    duel.start();
    duel.after(60_000);
    const result = duel.result;
    duel.leave("red");
    duel.type("blue", duel.block(0).word);
    expect(duel.result).toBe(result);
    expect(duel.of("over")).toHaveLength(1);
    duel.after(DEFAULT_DUEL_RULES.lingerMs);
    expect(duel.of("closed")).toHaveLength(1);
    expect(duelMode.nextTickAt(duel.state)).toBeNull();
  });

  test("leaving before the start: the other side wins, but the duel was not played (never stored)", () => {
    const duel = new Duel();
    duel.play("red", { type: "ready" });
    duel.leave("blue");
    expect(duel.result).toMatchObject({ winner_side: "red", reason: "opponent_left", played: false, game_duration: 0 });
  });

  test("a forfeit's moment: a leave when it happens, a disconnect when the connection dropped (not after the grace)", () => {
    const left = new Duel();
    left.start();
    left.after(300);
    left.leave("blue");
    expect(left.state.forfeitAt! - left.state.startedAt!).toBe(300);
    expect(isEarlyForfeit(left.state)).toBe(true);

    const dropped = new Duel();
    dropped.start();
    dropped.after(9_000);
    dropped.play("red", { type: "connection", connected: false });
    dropped.after(5_000); // the host's grace period, then the leave
    dropped.leave("red");
    expect(dropped.result).toMatchObject({ reason: "opponent_disconnected", game_duration: 14 });
    expect(dropped.state.forfeitAt! - dropped.state.startedAt!).toBe(9_000);
    expect(isEarlyForfeit(dropped.state)).toBe(true);

    // Back within the grace: the drop is forgotten; a leave 10 s or more into play is an ordinary forfeit.
    const back = new Duel();
    back.start();
    back.after(2_000);
    back.play("red", { type: "connection", connected: false });
    back.after(1_000);
    back.play("red", { type: "connection", connected: true });
    back.after(7_000);
    back.leave("red");
    expect(back.result).toMatchObject({ reason: "opponent_left", game_duration: 10 });
    expect(isEarlyForfeit(back.state)).toBe(false);

    const timeUp = new Duel();
    timeUp.start();
    timeUp.after(DEFAULT_DUEL_RULES.durationMs);
    expect(timeUp.state.forfeitAt).toBeNull();
    expect(isEarlyForfeit(timeUp.state)).toBe(false);
  });

  test("not ready in time: the ready player wins by forfeit, neither ready is a draw; never played", () => {
    const one = new Duel();
    one.play("blue", { type: "ready" });
    one.after(DEFAULT_DUEL_RULES.readyTimeoutMs);
    expect(one.result).toMatchObject({ winner_side: "blue", reason: "not_ready", played: false });
    const none = new Duel();
    none.after(DEFAULT_DUEL_RULES.readyTimeoutMs);
    expect(none.result).toMatchObject({ winner_side: "draw", reason: "not_ready", played: false });
  });

  test("finish (shutdown) judges the game so far, reason stopped", () => {
    const duel = new Duel();
    duel.start();
    duel.type("red", duel.block(0).word);
    duel.after(9_000);
    duel.apply(duelMode.finish(duel.state, duel.ctx()));
    expect(duel.result).toMatchObject({ winner_side: "red", reason: "stopped", blue_remaining_lives: 4, played: true });
  });
});

describe("on the game host", () => {
  test("an idle duel holds one scheduler job at its next event; the shared scheduler arms one timer for many", () => {
    const clock = new FakeClock(T0);
    const ctx = { clock, log: recordingLogger() };
    const scheduler = sharedScheduler(ctx);
    const emitter = new RecordingEmitter();
    const presenter: GamePresenter<DuelMode, DuelPlayer> = { effect() {}, reset() {} };
    const hosts = Array.from({ length: 50 }, (_, i) => {
      const host = new GameHost({
        mode: duelMode,
        settings: { sessionId: `s${i}`, red, blue, rules: DEFAULT_DUEL_RULES },
        presenter,
        sourceId: `s${i}`,
        sourceName: "1:1 대결",
        graceMs: 0,
        scheduler,
        emitter,
        random: seededRandom(i),
        log: ctx.log,
      });
      host.input({ type: "join", socketId: `r${i}`, player: red, data: undefined });
      host.input({ type: "join", socketId: `b${i}`, player: blue, data: undefined });
      host.input({ type: "move", playerId: red.id, move: { type: "ready" } });
      host.input({ type: "move", playerId: blue.id, move: { type: "ready" } });
      return host;
    });
    clock.advance(3_000);
    expect(hosts.every((h) => h.state.status === "in_progress")).toBe(true);
    expect(scheduler.size).toBe(50);
    expect(clock.pendingTimers()).toBe(1);
    expect(scheduler.nextDueAt).toBe(T0 + 4_000);
    clock.advance(61_000);
    expect(hosts.every((h) => h.state.result?.reason === "time_up_draw")).toBe(true);
  });
  test("the host tells the runtime a duel's end and its close exactly where the mode's `over` and `closed` come", () => {
    const clock = new FakeClock(T0);
    const ctx = { clock, log: recordingLogger() };
    const scheduler = sharedScheduler(ctx);
    const told: string[] = [];
    const presenter: GamePresenter<DuelMode, DuelPlayer> = {
      effect(host, effect) {
        if (effect.type === "over" || effect.type === "closed") told.push(`${host.sourceId} effect ${effect.type}`);
      },
      reset() {},
    };
    const lifecycle: GameLifecycle<DuelMode, DuelPlayer> = {
      roundEnded: (host) => told.push(`${host.sourceId} told over`),
      closed: (host) => told.push(`${host.sourceId} told closed`),
    };
    const duel = (sessionId: string) => {
      const host = new GameHost({
        mode: duelMode,
        settings: { sessionId, red, blue, rules: DEFAULT_DUEL_RULES },
        presenter,
        lifecycle,
        sourceId: sessionId,
        sourceName: "1:1 대결",
        graceMs: 0,
        scheduler,
        emitter: new RecordingEmitter(),
        random: seededRandom(1),
        log: ctx.log,
      });
      host.input({ type: "join", socketId: "r", player: red, data: undefined });
      host.input({ type: "join", socketId: "b", player: blue, data: undefined });
      return host;
    };
    const ready = (host: GameHost<DuelMode, DuelPlayer>) => {
      host.input({ type: "move", playerId: red.id, move: { type: "ready" } });
      host.input({ type: "move", playerId: blue.id, move: { type: "ready" } });
    };
    const timeUp = duel("time-up");
    ready(timeUp);
    const left = duel("left");
    left.input({ type: "leave", playerId: blue.id, socketId: "b" });
    duel("not-ready");
    const stopped = duel("stopped");
    ready(stopped);
    clock.advance(3_000 + 10_000);
    stopped.finish();
    clock.advance(DEFAULT_DUEL_RULES.readyTimeoutMs + 60_000 + DEFAULT_DUEL_RULES.lingerMs);

    // Each line twice in a row: the effect, then the host's lifecycle event for it (after the transition).
    expect(told).toHaveLength(14); // the stopped duel's host is stopped: it never lingers to its close
    for (let i = 0; i < told.length; i += 2) expect(told[i + 1]).toBe(told[i].replace("effect", "told"));
    const ends = told.filter((_, i) => i % 2 === 0);
    expect(ends.filter((line) => line.endsWith("over")).sort()).toEqual(
      ["left", "not-ready", "stopped", "time-up"].map((id) => `${id} effect over`),
    );
    expect(ends.filter((line) => line.endsWith("closed")).sort()).toEqual(
      ["left", "not-ready", "time-up"].map((id) => `${id} effect closed`),
    );
  });
});

describe("the word list", () => {
  test("at least 300 distinct Korean words of 2–4 complete syllables", () => {
    expect(DUEL_WORDS.length).toBeGreaterThanOrEqual(300);
    expect(new Set(DUEL_WORDS).size).toBe(DUEL_WORDS.length);
    for (const word of DUEL_WORDS) expect(word).toMatch(/^[가-힣]{2,4}$/);
  });
});
