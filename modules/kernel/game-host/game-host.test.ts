import { describe, expect, test } from "bun:test";
import { GAME_HOST_MESSAGES } from "./errors";
import {
  type Faults,
  player,
  settle,
  TOY_FULL,
  type ToyHost,
  type ToyLifecycle,
  type ToyState,
  toyMode,
  toyWorld,
} from "./test-support";

const alice = player("alice", 1);
const bob = player("bob", 2);
const carol = player("carol");

/** Joins a player's socket through the one input method and expects it accepted. */
function join(host: ToyHost, who = alice, socketId = `${who.name}-1`) {
  expect(host.input({ type: "join", socketId, player: who, data: undefined })).toEqual({ ok: true });
  return socketId;
}

/** From a joined player to a round in play (5 s wait + 3-2-1). */
function toPlaying(world: ReturnType<typeof toyWorld>) {
  world.clock.advance(5_000 + 3_000);
}

const errorsLogged = (world: ReturnType<typeof toyWorld>) => world.log.lines.filter((l) => l.level === "error");

describe("members and their sockets", () => {
  test("a new player: the mode is told, the socket enters the game's channel, gets its welcome, everyone sees the join", () => {
    const world = toyWorld();
    const host = world.game();
    const a = join(host, alice);
    const b = join(host, bob);

    expect(host.state.players).toEqual([alice.id, bob.id]);
    expect(world.emitter.inChannel(host.channel, a)).toBe(true);
    expect(world.emitter.events(a)).toEqual(["toy:welcome", "toy:joined", "toy:joined"]);
    expect(world.emitter.received(b, "toy:welcome")[0].payload).toEqual({
      phase: "waiting",
      count: 0,
      players: [alice.id, bob.id],
      mine: null,
    });
    expect(world.emitter.received(a, "toy:joined").map((r) => r.payload.playerId)).toEqual([alice.id, bob.id]);
  });

  test("a second tab of the same player is the same member: no second join for the mode or the others", () => {
    const world = toyWorld();
    const host = world.game();
    const a1 = join(host, alice, "a1");
    const a2 = join(host, alice, "a2");

    expect(host.size).toBe(1);
    expect(host.member(alice.id)?.sockets).toEqual(["a1", "a2"]);
    expect(host.state.players).toEqual([alice.id]);
    expect(world.emitter.events(a1)).toEqual(["toy:welcome", "toy:joined"]);
    expect(world.emitter.events(a2)).toEqual(["toy:welcome"]);

    // Closing one tab on purpose keeps the player in with the other.
    host.input({ type: "leave", playerId: alice.id, socketId: a1 });
    expect(host.size).toBe(1);
    expect(world.emitter.inChannel(host.channel, a1)).toBe(false);
    expect(world.emitter.events(a2)).not.toContain("toy:left");
  });

  test("leave: out at once; the mode and the others are told", () => {
    const world = toyWorld();
    const host = world.game();
    const a = join(host, alice);
    const b = join(host, bob);
    host.input({ type: "leave", playerId: alice.id, socketId: a });

    expect(host.size).toBe(1);
    expect(host.state.players).toEqual([bob.id]);
    expect(world.emitter.received(b, "toy:left").map((r) => r.payload.playerId)).toEqual([alice.id]);
    expect(world.emitter.inChannel(host.channel, a)).toBe(false);
  });

  test("a move or command from someone not in the game, or from another player's socket, is refused in Korean", () => {
    const world = toyWorld();
    const host = world.game();
    join(host, alice);
    const refused = { ok: false, error: GAME_HOST_MESSAGES.notInGame, code: "not_in_game" };
    expect(host.input({ type: "move", playerId: bob.id, move: { text: "안녕" } })).toEqual(refused);
    expect(host.input({ type: "move", playerId: alice.id, socketId: "bob-1", move: { text: "안녕" } })).toEqual(
      refused,
    );
    expect(host.input({ type: "command", playerId: bob.id, command: { type: "shout", text: "야" } })).toEqual(refused);
  });
});

describe("admission", () => {
  test("the presenter's admit refuses a new player (a full game); another tab of a member always gets in", () => {
    const world = toyWorld();
    const host = world.game({ capacity: 1 });
    join(host, alice, "a1");
    expect(host.input({ type: "join", socketId: "bob-1", player: bob, data: undefined })).toEqual(TOY_FULL);
    expect(host.state.players).toEqual([alice.id]);
    expect(world.emitter.inChannel(host.channel, "bob-1")).toBe(false);
    expect(world.emitter.events("bob-1")).toEqual([]);
    expect(world.emitter.events("a1")).toEqual(["toy:welcome", "toy:joined"]);
    join(host, alice, "a2");
    expect(host.member(alice.id)?.sockets).toEqual(["a1", "a2"]);
  });
});

describe("updates", () => {
  test("an update replaces the member's player (and data), tells the mode, then the presenter", () => {
    const world = toyWorld();
    const host = world.game();
    const a = join(host, alice);
    const renamed = { ...alice, name: "앨리스" };
    expect(host.input({ type: "update", player: renamed })).toEqual({ ok: true });

    expect(host.member(alice.id)?.player.name).toBe("앨리스");
    expect(world.emitter.received(a, "toy:renamed").map((r) => r.payload.name)).toEqual(["앨리스"]);
    expect(world.emitter.received(a, "toy:updated").map((r) => r.payload.name)).toEqual(["앨리스"]);
    expect(world.emitter.events(a).slice(-2)).toEqual(["toy:renamed", "toy:updated"]);
    expect(host.size).toBe(1);
  });

  test("an update for someone not in the game is refused and changes nothing", () => {
    const world = toyWorld();
    const host = world.game();
    const a = join(host, alice);
    expect(host.input({ type: "update", player: bob })).toEqual({
      ok: false,
      error: GAME_HOST_MESSAGES.notInGame,
      code: "not_in_game",
    });
    expect(host.size).toBe(1);
    expect(world.emitter.received(a, "toy:updated")).toEqual([]);
  });
});

describe("reconnect grace", () => {
  test("a dropped last socket keeps the place; a new socket within the grace period resumes silently", () => {
    const world = toyWorld();
    const host = world.game({ graceMs: 5_000 });
    const a = join(host, alice);
    const b = join(host, bob);
    host.input({ type: "drop", playerId: alice.id, socketId: a });
    world.clock.advance(4_000);
    expect(host.size).toBe(2);
    expect(world.emitter.inChannel(host.channel, a)).toBe(false);

    world.emitter.clear();
    const again = join(host, alice, "alice-2");
    world.clock.advance(10_000);
    expect(host.size).toBe(2);
    expect(host.state.players).toEqual([alice.id, bob.id]);
    expect(world.emitter.events(again)[0]).toBe("toy:welcome");
    expect(world.emitter.events(b)).not.toContain("toy:left");
    expect(world.emitter.events(b)).not.toContain("toy:joined");
  });

  test("when the grace period runs out the player is removed through the mode's onPlayerLeave", () => {
    const world = toyWorld();
    const host = world.game({ graceMs: 5_000 });
    const a = join(host, alice);
    const b = join(host, bob);
    host.input({ type: "drop", playerId: alice.id, socketId: a });
    world.clock.advance(5_000);

    expect(host.size).toBe(1);
    expect(host.state.players).toEqual([bob.id]);
    expect(world.emitter.received(b, "toy:left").map((r) => r.payload.playerId)).toEqual([alice.id]);
  });

  test("a second drop after a reconnect gets a full grace period of its own", () => {
    const world = toyWorld();
    const host = world.game({ graceMs: 5_000 });
    const a = join(host, alice);
    const b = join(host, bob);
    host.input({ type: "drop", playerId: alice.id, socketId: a });
    world.clock.advance(4_000);
    const again = join(host, alice, "alice-2");
    world.clock.advance(500);
    host.input({ type: "drop", playerId: alice.id, socketId: again });

    world.clock.advance(4_000); // 8.5 s after the first drop, 4 s after the second
    expect(host.state.players).toEqual([alice.id, bob.id]);
    world.clock.advance(1_000);
    expect(host.state.players).toEqual([bob.id]);
    expect(world.emitter.received(b, "toy:left")).toHaveLength(1);
  });

  test("expire ends a pending grace period at once, and does nothing to a player who is connected", () => {
    const world = toyWorld();
    const host = world.game();
    const a = join(host, alice);
    join(host, bob);
    host.input({ type: "expire", playerId: bob.id });
    expect(host.size).toBe(2);

    host.input({ type: "drop", playerId: alice.id, socketId: a });
    host.input({ type: "expire", playerId: alice.id });
    expect(host.state.players).toEqual([bob.id]);
  });

  test("grace periods of every game wait on the one shared timer", () => {
    const world = toyWorld();
    const games = [world.game(), world.game(), world.game()];
    for (const [i, host] of games.entries()) {
      const socket = join(host, player(`p${i}`), `s${i}`);
      host.input({ type: "drop", playerId: player(`p${i}`).id, socketId: socket });
    }
    expect(world.scheduler.size).toBe(6); // three grace expiries and the three games' ticks
    expect(world.clock.pendingTimers()).toBe(1);
  });
});

describe("scheduling from nextTickAt", () => {
  test("the loop: waiting → countdown 3-2-1 → playing → finished → waiting again", () => {
    const world = toyWorld();
    const host = world.game();
    const a = join(host, alice);
    world.clock.advance(5_000);
    expect(world.emitter.received(a, "toy:count").map((r) => r.payload.number)).toEqual([3]);
    world.clock.advance(3_000);
    expect(world.emitter.received(a, "toy:count").map((r) => r.payload.number)).toEqual([3, 2, 1]);
    expect(host.state.phase).toBe("playing");
    world.clock.advance(10_000);
    expect(host.state.phase).toBe("finished");
    world.clock.advance(3_000);
    expect(host.state.phase).toBe("waiting");
    expect(world.emitter.received(a, "toy:phase").map((r) => r.payload.phase)).toEqual([
      "countdown",
      "playing",
      "finished",
      "waiting",
    ]);
  });

  test("several games run on one scheduler timer", () => {
    const world = toyWorld();
    const first = world.game();
    const second = world.game();
    join(first, alice);
    world.clock.advance(1_500);
    join(second, bob);
    expect(world.scheduler.size).toBe(2);
    expect(world.clock.pendingTimers()).toBe(1);

    world.clock.advance(5_000);
    expect(first.state.phase).toBe("countdown");
    expect(second.state.phase).toBe("countdown");
    expect(world.clock.pendingTimers()).toBe(1);
  });

  test("a late timer: every step each game owes runs, in due order, none skipped", () => {
    const world = toyWorld();
    const first = world.game(); // label g1
    const second = world.game(); // label g2
    const start = world.clock.now();
    join(first, alice);
    world.clock.advance(1_500);
    join(second, bob);

    world.clock.stall(20_000); // the process was stuck until 21.5 s: the games owe six and five steps
    world.clock.advance(0);
    const at = (ms: number) => String(start + ms);
    expect(world.trace).toEqual([
      `g1@${at(5_000)}`,
      `g1@${at(6_000)}`,
      `g2@${at(6_500)}`,
      `g1@${at(7_000)}`,
      `g2@${at(7_500)}`,
      `g1@${at(8_000)}`,
      `g2@${at(8_500)}`,
      `g2@${at(9_500)}`,
      `g1@${at(18_000)}`,
      `g2@${at(19_500)}`,
      `g1@${at(21_000)}`,
    ]);
    expect(first.state.phase).toBe("waiting");
    expect(second.state.phase).toBe("finished");
  });

  test("the last player leaving during the countdown stops the loop: nothing stays scheduled", () => {
    const world = toyWorld();
    const host = world.game();
    const a = join(host, alice);
    world.clock.advance(6_000);
    expect(host.state.phase).toBe("countdown");

    host.input({ type: "leave", playerId: alice.id, socketId: a });
    expect(host.state.phase).toBe("waiting");
    expect(world.scheduler.size).toBe(0);
    expect(world.clock.pendingTimers()).toBe(0);
    world.clock.advance(60_000);
    expect(world.trace).toHaveLength(2); // the wait and "3 → 2", nothing after the leave
  });

  test("a player leaving during the countdown while others stay: the countdown goes on", () => {
    const world = toyWorld();
    const host = world.game();
    const a = join(host, alice);
    const b = join(host, bob);
    world.clock.advance(6_000);
    host.input({ type: "leave", playerId: alice.id, socketId: a });
    world.clock.advance(2_000);
    expect(host.state.phase).toBe("playing");
    expect(world.emitter.received(b, "toy:count").map((r) => r.payload.number)).toEqual([3, 2, 1]);
  });
});

describe("input through the one method", () => {
  test("moves: accepted ones reach everyone, refused ones answer the player with the mode's Korean text", () => {
    const world = toyWorld();
    const host = world.game();
    const a = join(host, alice);
    const b = join(host, bob);
    expect(host.input({ type: "move", playerId: alice.id, socketId: a, move: { text: "가" } })).toEqual({
      ok: false,
      error: "아직 시작하지 않았습니다.",
      code: "too_early",
    });

    toPlaying(world);
    expect(host.input({ type: "move", playerId: alice.id, socketId: a, move: { text: "가나다" } })).toEqual({
      ok: true,
    });
    expect(world.emitter.received(b, "toy:answered").map((r) => [r.payload.playerId, r.payload.position])).toEqual([
      [alice.id, 1],
    ]);
    expect(host.input({ type: "move", playerId: alice.id, move: { text: "또" } })).toMatchObject({ code: "duplicate" });
  });

  test("commands go to the presenter, which may play a move for the member", () => {
    const world = toyWorld();
    const host = world.game();
    const a = join(host, alice);
    join(host, bob);
    host.input({ type: "command", playerId: alice.id, socketId: a, command: { type: "shout", text: "안녕" } });
    expect(world.emitter.received(a, "toy:shout")[0].payload).toEqual({ playerId: alice.id, text: "안녕" });

    toPlaying(world);
    expect(host.input({ type: "command", playerId: bob.id, command: { type: "answer", text: "답" } })).toEqual({
      ok: true,
    });
    expect(host.state.answers.map((x) => x.playerId)).toEqual([bob.id]);
  });
});

describe("guarded callbacks", () => {
  test("a throwing tick resets THAT game (players told, members re-joined); another game on the scheduler goes on", () => {
    const world = toyWorld();
    const broken = world.game({ faults: { tick: 1 } });
    const healthy = world.game();
    const a = join(broken, alice);
    const c = join(healthy, carol);

    world.clock.advance(5_000); // both are due: the broken game's tick throws
    const reset = world.emitter.received(a, "toy:reset");
    expect(reset).toHaveLength(1);
    expect(reset[0].payload).toEqual({
      message: GAME_HOST_MESSAGES.reset,
      view: { phase: "waiting", count: 0, players: [alice.id], mine: null },
    });
    expect(errorsLogged(world)[0].fields).toMatchObject({ callback: "tick", source_id: broken.sourceId });
    expect(healthy.state.phase).toBe("countdown");
    expect(world.emitter.events(c)).not.toContain("toy:reset");

    // The reset game runs again from the start; the healthy one was never disturbed.
    world.clock.advance(5_000);
    expect(broken.state.phase).toBe("countdown");
    expect(healthy.state.phase).toBe("playing");
  });

  test("a move that throws inside the mode answers the player with an error; the game is not reset", () => {
    const world = toyWorld();
    const host = world.game({ faults: { move: 1 } });
    const a = join(host, alice);
    join(host, bob);
    toPlaying(world);
    const before = host.state;

    expect(host.input({ type: "move", playerId: alice.id, socketId: a, move: { text: "가" } })).toEqual({
      ok: false,
      error: GAME_HOST_MESSAGES.failed,
      code: "internal",
    });
    expect(host.state).toBe(before);
    expect(world.emitter.events(a)).not.toContain("toy:reset");
    expect(errorsLogged(world).map((l) => l.message)).toEqual(["game move failed"]);
    // The next move is played normally.
    expect(host.input({ type: "move", playerId: alice.id, socketId: a, move: { text: "가" } })).toEqual({ ok: true });
  });

  test("a presenter throwing on a move's effect resets the game and answers the mover with an error", () => {
    const world = toyWorld();
    const presenterFaults: Faults = {};
    const host = world.game({ presenterFaults });
    const a = join(host, alice);
    const b = join(host, bob);
    toPlaying(world);

    presenterFaults.effect = 1; // the "answered" effect of the next move throws
    expect(host.input({ type: "move", playerId: alice.id, socketId: a, move: { text: "가" } })).toEqual({
      ok: false,
      error: GAME_HOST_MESSAGES.failed,
      code: "internal",
    });
    expect(world.emitter.received(b, "toy:reset").map((r) => r.payload.view)).toEqual([
      { phase: "waiting", count: 0, players: [alice.id, bob.id], mine: null },
    ]);
    expect(errorsLogged(world)[0].fields).toMatchObject({ callback: "move" });
  });

  test("a throwing grace expiry (the mode's onPlayerLeave) resets the game without that player", () => {
    const world = toyWorld();
    const host = world.game({ faults: { leave: 1 } });
    const a = join(host, alice);
    const b = join(host, bob);
    host.input({ type: "drop", playerId: alice.id, socketId: a });
    world.clock.advance(5_000);

    expect(host.size).toBe(1);
    expect(host.state.players).toEqual([bob.id]);
    const reset = world.emitter.received(b, "toy:reset");
    expect(reset.map((r) => r.payload.view.players)).toEqual([[bob.id]]);
    expect(errorsLogged(world)[0].fields).toMatchObject({ callback: "grace expiry" });
  });

  test("a join that throws: the joiner gets an error and is not kept; the others get a reset; a later join works", () => {
    const world = toyWorld();
    const faults: Faults = {};
    const host = world.game({ faults });
    const b = join(host, bob);

    faults.join = 1;
    expect(host.input({ type: "join", socketId: "a", player: alice, data: undefined })).toEqual({
      ok: false,
      error: GAME_HOST_MESSAGES.failed,
      code: "internal",
    });
    expect(host.size).toBe(1);
    expect(world.emitter.inChannel(host.channel, "a")).toBe(false);
    expect(world.emitter.received(b, "toy:reset").map((r) => r.payload.view.players)).toEqual([[bob.id]]);

    expect(host.input({ type: "join", socketId: "a", player: alice, data: undefined })).toEqual({ ok: true });
    expect(host.state.players).toEqual([bob.id, alice.id]);
  });

  test("a presenter throwing while welcoming a socket resets the game", () => {
    const world = toyWorld();
    const presenterFaults: Faults = {};
    const host = world.game({ presenterFaults });
    const b = join(host, bob);
    presenterFaults.welcome = 1;
    host.input({ type: "join", socketId: "a2", player: bob, data: undefined });
    expect(world.emitter.received(b, "toy:reset")).toHaveLength(1);
    expect(host.member(bob.id)?.sockets).toEqual([b, "a2"]);
  });

  test("a mode whose due tick makes no progress is reset instead of spinning", () => {
    const world = toyWorld();
    const stuck = { ...toyMode(), tick: (state: ToyState) => ({ state, effects: [] }) };
    const host = world.game({ mode: stuck });
    const a = join(host, alice);
    world.clock.advance(5_000);
    expect(world.emitter.received(a, "toy:reset")).toHaveLength(1);
    expect(String(errorsLogged(world)[0].fields?.error)).toContain("no progress");
    expect(host.state.phase).toBe("waiting");
  });

  test("a game whose reset fails too is halted: input refused in Korean, no timers, other games go on", () => {
    const world = toyWorld();
    const faults: Faults = {};
    const broken = world.game({ faults });
    const healthy = world.game();
    const a = join(broken, alice);
    join(healthy, carol);

    faults.tick = 1;
    faults.setup = 1; // the reset's fresh setup throws as well
    world.clock.advance(5_000);
    expect(broken.running).toBe(false);
    expect(broken.input({ type: "move", playerId: alice.id, socketId: a, move: { text: "가" } })).toEqual({
      ok: false,
      error: GAME_HOST_MESSAGES.halted,
      code: "game_halted",
    });
    expect(errorsLogged(world).map((l) => l.message)).toEqual([
      "game callback failed; the game restarts",
      "game reset failed; the game is halted",
    ]);
    world.clock.advance(3_000);
    expect(healthy.state.phase).toBe("playing");
    expect(world.scheduler.size).toBe(1); // only the healthy game's tick

    // Players can still leave a halted game.
    broken.input({ type: "leave", playerId: alice.id, socketId: a });
    expect(broken.size).toBe(0);
  });

  test("a game that faults at every step is halted after five faults within a minute", () => {
    const world = toyWorld();
    const host = world.game({ faults: { tick: Number.POSITIVE_INFINITY } });
    const a = join(host, alice);
    for (let i = 0; i < 4; i++) world.clock.advance(5_000);
    expect(world.emitter.received(a, "toy:reset")).toHaveLength(4);
    expect(host.running).toBe(true);

    world.clock.advance(5_000);
    expect(host.running).toBe(false);
    expect(world.emitter.received(a, "toy:reset")).toHaveLength(4);
    expect(world.scheduler.size).toBe(0);
    expect(errorsLogged(world).at(-1)?.message).toBe("game keeps failing; the game is halted");
  });
});

describe("rounds and the game's identity", () => {
  test("the round counts up each time a round starts; gameRef names mode, source, round and start", () => {
    const world = toyWorld();
    const host = world.game({ sourceId: 7 });
    join(host, alice);
    expect(host.round).toBe(0);
    expect(host.gameRef()).toBeNull();

    toPlaying(world);
    const firstStart = world.clock.now();
    expect(host.gameRef()).toEqual({
      mode: "sentence_race",
      sourceId: 7,
      sourceName: "방 7",
      round: 1,
      startedAt: firstStart,
    });
    world.clock.advance(10_000 + 3_000); // finished, then waiting: between rounds
    expect(host.gameRef()).toBeNull();
    world.clock.advance(5_000 + 3_000);
    expect(host.gameRef()?.round).toBe(2);
  });

  test("a host continues the numbering of its source (after a restart or a takeover)", () => {
    const world = toyWorld();
    const host = world.game({ lastRound: 41 });
    join(host, alice);
    toPlaying(world);
    expect(host.gameRef()?.round).toBe(42);
  });
});

describe("durable writes", () => {
  test("writes leave the transition, run in order, and a failing one is retried with backoff before the next", async () => {
    const world = toyWorld();
    const host = world.game();
    const a = join(host, alice);
    toPlaying(world);

    world.store.failures = 2;
    host.input({ type: "move", playerId: alice.id, socketId: a, move: { text: "가나다" } });
    // The lone answer also finishes the round: a result write, then a finish write, both queued.
    expect(world.store.calls).toBe(0);
    expect(host.pendingWrites).toBe(2);

    await settle();
    expect(world.store.calls).toBe(1); // first try failed; waiting 100 ms
    world.clock.advance(100);
    await settle();
    expect(world.store.calls).toBe(2); // second try failed; waiting 200 ms
    world.clock.advance(200);
    await host.drain();

    expect(world.store.rows).toEqual([
      { name: "result", source: host.sourceId, round: 1, key: alice.id },
      { name: "finish", source: host.sourceId, round: 1, key: "game" },
    ]);
    expect(world.emitter.received(a, "toy:stored").map((r) => r.payload)).toEqual([{ count: 1, playerId: alice.id }]);
    expect(world.log.lines.filter((l) => l.level === "warn").map((l) => l.fields?.attempt)).toEqual([1, 2]);
  });

  test("a write that still fails after its last try is logged and dropped; the next one is performed", async () => {
    const world = toyWorld();
    const host = world.game();
    const a = join(host, alice);
    toPlaying(world);

    world.store.failures = 3; // every try of the result write (3 attempts in this world)
    host.input({ type: "move", playerId: alice.id, socketId: a, move: { text: "가나다" } });
    const drained = host.drain();
    for (const wait of [100, 200]) {
      await settle();
      world.clock.advance(wait);
    }
    await drained;

    expect(world.store.rows).toEqual([{ name: "finish", source: host.sourceId, round: 1, key: "game" }]);
    expect(errorsLogged(world)).toHaveLength(1);
    expect(errorsLogged(world)[0]).toMatchObject({
      message: "game write failed for good; dropped",
      fields: { write: "record_result", attempt: 3, round: 1 },
    });
    expect(world.emitter.events(a)).not.toContain("toy:stored");
    expect(world.emitter.received(a, "toy:not_stored").map((r) => r.payload)).toEqual([{ playerId: alice.id }]);
  });

  test("a retried write is harmless: the store is idempotent per round and player", async () => {
    const world = toyWorld();
    const host = world.game();
    join(host, alice);
    const row = { name: "result", source: host.sourceId, round: 1, key: alice.id };
    const write = () => host.write({ name: "record_result", run: () => world.store.save(row) });
    write();
    write();
    await host.drain();
    expect(world.store.rows).toHaveLength(1);
  });

  test("a throwing completion callback resets the game like any other callback", async () => {
    const world = toyWorld();
    const host = world.game();
    const a = join(host, alice);
    host.write({
      name: "record_result",
      run: () => 1,
      done: () => {
        throw new Error("presenter broke");
      },
    });
    await host.drain();
    expect(world.emitter.received(a, "toy:reset")).toHaveLength(1);
    expect(errorsLogged(world)[0].fields).toMatchObject({ callback: "write done" });
  });
});

describe("lifecycle events (the owner's listeners)", () => {
  /** A listener object that records each event as `<event>` or `<event>:<player id>`, with what it saw then. */
  function recorder(world: ReturnType<typeof toyWorld>, watch = "bob-1") {
    const told: string[] = [];
    const seen: string[][] = [];
    const note = (entry: string) => {
      told.push(entry);
      seen.push(world.emitter.events(watch));
    };
    const lifecycle: ToyLifecycle = {
      playerLeft: (_host, member) => note(`playerLeft:${member.player.id}`),
      roundEnded: (host) => note(`roundEnded:${host.round}`),
      closed: () => note("closed"),
      stopped: () => note("stopped"),
      listingChanged: () => note("listingChanged"),
    };
    return { told, seen, lifecycle };
  }

  test("playerLeft: after a leave, a grace period that ran out or an expire, each after the presenter's `left`", () => {
    const world = toyWorld();
    const { told, seen, lifecycle } = recorder(world);
    const host = world.game({ lifecycle, graceMs: 5_000 });
    join(host, bob);
    const a = join(host, alice);
    join(host, alice, "alice-2");
    const c = join(host, carol);

    host.input({ type: "leave", playerId: alice.id, socketId: a }); // another tab stays: still in
    host.input({ type: "drop", playerId: carol.id, socketId: c }); // grace: still in
    expect(told).toEqual([]);
    host.input({ type: "leave", playerId: alice.id, socketId: "alice-2" });
    expect(told).toEqual([`playerLeft:${alice.id}`]);
    expect(seen[0].at(-1)).toBe("toy:left"); // the others were told first

    world.clock.advance(5_000);
    expect(told).toEqual([`playerLeft:${alice.id}`, `playerLeft:${carol.id}`]);

    const d = join(host, player("dave"));
    host.input({ type: "drop", playerId: "p:dave", socketId: d });
    host.input({ type: "expire", playerId: "p:dave" });
    expect(told.at(-1)).toBe("playerLeft:p:dave");
    expect(host.size).toBe(1);
  });

  test("roundEnded: once per round, after the transition's effects; a shutdown's finish ends the round too", async () => {
    const world = toyWorld();
    const { told, seen, lifecycle } = recorder(world);
    const host = world.game({ lifecycle });
    const b = join(host, bob);
    toPlaying(world);
    expect(told).toEqual([]);
    host.input({ type: "move", playerId: bob.id, socketId: b, move: { text: "가" } });
    expect(told).toEqual(["roundEnded:1"]);
    expect(seen[0].slice(-2)).toEqual(["toy:phase", "toy:finished"]);
    expect(host.state.phase).toBe("finished");

    world.clock.advance(3_000 + 5_000 + 3_000); // results, waiting, countdown: round 2 in play
    expect(told).toEqual(["roundEnded:1"]);
    expect(host.round).toBe(2);
    await world.scheduler.finishAll();
    expect(told).toEqual(["roundEnded:1", "roundEnded:2", "stopped"]);
  });

  test("closed: once, when the mode says the game is over for good; the listener may stop the host", () => {
    const world = toyWorld();
    const closing = recorder(world);
    const open = recorder(world, "carol-1");
    const host = world.game({
      closeAfterRound: true,
      lifecycle: {
        ...closing.lifecycle,
        closed: (game) => {
          closing.told.push("closed");
          game.stop();
        },
      },
    });
    const plain = world.game({ lifecycle: open.lifecycle });
    join(host, bob);
    join(plain, carol);
    toPlaying(world);
    world.clock.advance(10_000); // both rounds time out

    expect(closing.told).toEqual(["roundEnded:1", "closed", "stopped"]);
    expect(open.told).toEqual(["roundEnded:1"]);
    expect(host.running).toBe(false);
    world.clock.advance(60_000);
    expect(host.state.phase).toBe("finished");
    expect(plain.round).toBe(4);
  });

  test("stopped: once, whether the host is stopped, finished or given up to another process", () => {
    const world = toyWorld();
    const stopped = recorder(world);
    const finished = recorder(world);
    const givenUp = recorder(world);
    const a = world.game({ lifecycle: stopped.lifecycle });
    const b = world.game({ lifecycle: finished.lifecycle });
    let held = true;
    const lease = { epoch: 1, holds: () => held, lost() {}, close() {} };
    const c = world.game({ lifecycle: givenUp.lifecycle, owner: lease });
    join(c, alice);

    a.stop();
    a.stop();
    b.finish();
    held = false;
    world.clock.advance(5_000); // c's tick finds the lease gone
    c.giveUp();

    expect(stopped.told).toEqual(["stopped"]);
    expect(finished.told).toEqual(["stopped"]);
    expect(givenUp.told).toEqual(["stopped"]);
  });

  test("listingChanged: told at once, each time the presenter raises it (from an effect or a write's done), never by the host itself", async () => {
    const world = toyWorld();
    const { told, lifecycle } = recorder(world);
    const host = world.game({ lifecycle, graceMs: 5_000 });
    const b = join(host, bob);
    toPlaying(world);
    host.input({ type: "move", playerId: bob.id, socketId: b, move: { text: "가" } });
    expect(told).toEqual(["roundEnded:1"]); // the toy presenter raises nothing: joins and ends are not listings

    host.listingChanged();
    host.listingChanged();
    expect(told).toEqual(["roundEnded:1", "listingChanged", "listingChanged"]);
    host.write({ name: "figures", run: () => 1, done: () => host.listingChanged() });
    expect(told).toHaveLength(3); // writes run after the step
    await settle();
    expect(told.at(-1)).toBe("listingChanged");
  });

  test("a throwing listener is logged with the game's fields and the event; the game goes on and is not reset", () => {
    const world = toyWorld();
    const fail = () => {
      throw new Error("runtime bookkeeping failed");
    };
    const host = world.game({
      lifecycle: { playerLeft: fail, roundEnded: fail, closed: fail, stopped: fail, listingChanged: fail },
    });
    const b = join(host, bob);
    const a = join(host, alice);
    expect(host.input({ type: "leave", playerId: alice.id, socketId: a })).toEqual({ ok: true });
    expect(host.member(alice.id)).toBeUndefined();
    host.listingChanged();

    toPlaying(world);
    expect(host.input({ type: "move", playerId: bob.id, socketId: b, move: { text: "가" } })).toEqual({ ok: true });
    expect(host.state.phase).toBe("finished");
    world.clock.advance(3_000);
    expect(host.state.phase).toBe("waiting");
    expect(world.emitter.events(b)).not.toContain("toy:reset");
    expect(host.running).toBe(true);

    host.stop();
    expect(host.running).toBe(false);
    const failures = errorsLogged(world);
    expect(failures.map((l) => [l.message, l.fields?.event])).toEqual([
      ["game lifecycle listener failed", "playerLeft"],
      ["game lifecycle listener failed", "listingChanged"],
      ["game lifecycle listener failed", "roundEnded"],
      ["game lifecycle listener failed", "stopped"],
    ]);
    expect(failures[2].fields).toMatchObject({ mode: "sentence_race", source_id: host.sourceId, round: 1 });
    expect(String(failures[1].fields?.error)).toContain("runtime bookkeeping failed");
  });

  test("a reset tells no end: the fresh game has none, and the next real end is told", async () => {
    const world = toyWorld();
    const { told, lifecycle } = recorder(world);
    const host = world.game({ lifecycle });
    const b = join(host, bob);
    toPlaying(world);
    host.input({ type: "move", playerId: bob.id, socketId: b, move: { text: "가" } });
    expect(told).toEqual(["roundEnded:1"]);
    // A throwing completion resets the game (writes run after the transition).
    host.write({
      name: "boom",
      run: () => 1,
      done: () => {
        throw new Error("boom");
      },
    });
    await settle();
    expect(world.emitter.events(b)).toContain("toy:reset");
    toPlaying(world);
    host.input({ type: "move", playerId: bob.id, socketId: b, move: { text: "가" } });
    expect(told).toEqual(["roundEnded:1", "roundEnded:2"]);
  });
});

describe("shutdown", () => {
  test("finishAll ends every round in play (players told, results written) and flushes every queued write", async () => {
    const world = toyWorld();
    const playing = world.game();
    const idle = world.game();
    const a = join(playing, alice);
    join(idle, carol);
    toPlaying(world); // the second game joined at the same time: playing too
    playing.input({ type: "move", playerId: alice.id, socketId: a, move: { text: "가" } });
    join(playing, bob); // bob has not answered: alice's game is still in play

    world.store.failures = 1; // the first write needs a retry during shutdown
    const finished = world.scheduler.finishAll();
    await settle();
    world.clock.advance(100);
    await finished;

    expect(world.emitter.received(a, "toy:finished")).toHaveLength(1);
    const stored = world.store.rows.map((r) => `${r.name}@${r.source}`);
    expect(stored.sort()).toEqual(
      [`finish@${idle.sourceId}`, `finish@${playing.sourceId}`, `result@${playing.sourceId}`].sort(),
    );
    expect(world.scheduler.size).toBe(0);
    expect(world.scheduler.gameCount).toBe(0);
    expect(playing.input({ type: "move", playerId: bob.id, move: { text: "가" } })).toEqual({
      ok: false,
      error: GAME_HOST_MESSAGES.stopped,
      code: "game_stopped",
    });
    // Sockets still leave a stopped game.
    playing.input({ type: "leave", playerId: alice.id, socketId: a });
    expect(playing.member(alice.id)).toBeUndefined();
    expect(world.emitter.inChannel(playing.channel, a)).toBe(false);
  });

  test("a stopped game no longer ticks or expires grace periods", () => {
    const world = toyWorld();
    const host = world.game();
    const a = join(host, alice);
    join(host, bob);
    host.input({ type: "drop", playerId: alice.id, socketId: a });
    host.stop();
    world.clock.advance(60_000);
    expect(host.state.phase).toBe("waiting");
    expect(host.size).toBe(2);
    expect(world.clock.pendingTimers()).toBe(0);
  });
});

describe("under a lease (several processes)", () => {
  /** The lease the ownership would hand over: `held` flips to false when the local deadline passes. */
  function lease(epoch: number) {
    const owner = { epoch, held: true, losses: [] as string[] };
    return {
      owner,
      lease: { epoch, holds: () => owner.held, lost: (reason: "fenced") => owner.losses.push(reason), close() {} },
    };
  }

  test("every write carries the owner's epoch in its GameRef; storage keeps the highest epoch of the source", async () => {
    const world = toyWorld();
    const { lease: owner } = lease(3);
    const host = world.game({ sourceId: 7, owner });
    const a = join(host, alice);
    toPlaying(world);
    expect(host.gameRef()).toMatchObject({ sourceId: 7, round: 1, epoch: 3 });
    host.input({ type: "move", playerId: alice.id, socketId: a, move: { text: "가나다" } });
    await host.drain();
    expect(world.store.rows.map((r) => r.name)).toEqual(["result", "finish"]);
    expect(world.store.storedEpoch(7)).toBe(3);
  });

  test("a lease that no longer holds (the process stalled past its deadline): no more steps, input answered 'moving'", () => {
    const world = toyWorld();
    const { owner, lease: ownerLease } = lease(1);
    const host = world.game({ owner: ownerLease });
    const a = join(host, alice);
    world.clock.advance(5_000); // countdown 3
    owner.held = false;
    world.clock.advance(3_000); // would be playing
    expect(host.state.phase).toBe("countdown");
    expect(host.running).toBe(false);
    expect(host.input({ type: "move", playerId: alice.id, socketId: a, move: { text: "가" } })).toEqual({
      ok: false,
      error: GAME_HOST_MESSAGES.moving,
      code: "game_moving",
    });
    expect(host.input({ type: "join", socketId: "bob-1", player: bob, data: undefined }).ok).toBe(false);
    // A socket can still leave (its place here is freed; the new owner never hears of it).
    expect(host.input({ type: "leave", playerId: alice.id, socketId: a })).toEqual({ ok: true });
    expect(host.size).toBe(0);
  });

  test("a write refused as stale: not retried, the writes after it dropped, nothing told, the game given up", async () => {
    const world = toyWorld();
    const { owner, lease: ownerLease } = lease(1);
    const host = world.game({ sourceId: 9, owner: ownerLease });
    const a = join(host, alice);
    const b = join(host, bob);
    toPlaying(world);
    // Another process took the game over and claimed epoch 2 for the source (this one stalled meanwhile).
    await world.store.claim(9, 2);
    host.input({ type: "move", playerId: alice.id, socketId: a, move: { text: "가나다" } });
    host.input({ type: "move", playerId: bob.id, socketId: b, move: { text: "가나다" } });
    expect(host.pendingWrites).toBe(3); // alice's result, bob's result, the finish
    await host.drain();

    expect(world.store.rows).toEqual([]);
    expect(world.store.calls).toBe(1); // the first refusal ends the queue: no retry, the rest dropped
    expect(owner.losses).toEqual(["fenced"]);
    expect(world.emitter.events(a)).not.toContain("toy:not_stored");
    expect(
      host.input({ type: "command", playerId: bob.id, socketId: b, command: { type: "shout", text: "!" } }),
    ).toEqual({ ok: false, error: GAME_HOST_MESSAGES.moving, code: "game_moving" });
    expect(world.log.lines.find((l) => l.level === "warn")).toMatchObject({
      message: "game write refused: a newer owner has the game; its writes are dropped",
      fields: { write: "record_result", dropped: 2, source_id: 9 },
    });
    expect(errorsLogged(world)).toEqual([]);
  });

  test("the new owner's writes of the same source pass (same or higher epoch)", async () => {
    const world = toyWorld();
    await world.store.claim(5, 2);
    const host = world.game({ sourceId: 5, owner: lease(2).lease });
    const a = join(host, alice);
    toPlaying(world);
    host.input({ type: "move", playerId: alice.id, socketId: a, move: { text: "가나다" } });
    await host.drain();
    expect(world.store.rows.map((r) => r.name)).toEqual(["result", "finish"]);
    expect(world.store.refused).toBe(0);
  });
});
