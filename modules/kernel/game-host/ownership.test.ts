import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import type { GamePlayer } from "../game-mode";
import { GAME_HOST_MESSAGES } from "./errors";
import type { GameOwnerLease } from "./game-host";
import { leaseHolder } from "./lease";
import { type AnyGameInput, type GameOpener, GameOwnership, OWNERS_CHANNEL } from "./ownership";
import { eventually, type TestRedisClient, testRedis } from "./redis-testing";
import {
  FakeStore,
  player,
  RecordingEmitter,
  settle,
  TestClock,
  TOY_FULL,
  type ToyHost,
  type ToyWorld,
  toyOpener,
  toyWorld,
} from "./test-support";

/**
 * Two "processes" in one test: each has its own ownership, Redis connections, process id, scheduler and games;
 * they share the clock (one time for all machines), the emitter (the socket.io adapter reaches every socket from
 * every process) and the store (the database). Short leases: the rules are the same at 5 s.
 */
const TIMINGS = { ttlMs: 800, renewEveryMs: 200, safetyMarginMs: 300 };
const TAKEOVER_LIMIT_MS = 10_000;

let redis: Awaited<ReturnType<typeof testRedis>>;
let observer: TestRedisClient;
const running: Process[] = [];

beforeAll(async () => {
  redis = await testRedis();
  observer = await redis.client();
});
afterEach(() => {
  for (const process of running.splice(0)) process.ownership.abandon();
});
afterAll(() => redis.stop());

interface Process {
  name: string;
  world: ToyWorld;
  ownership: GameOwnership;
  input(source: number, input: AnyGameInput): ReturnType<GameOwnership["input"]>;
  host(source: number): ToyHost | null;
  /** SIGKILL: no release, no finish, connections gone. */
  kill(): void;
  /** Cut off from Redis, still running: its renewals fail. */
  partition(): void;
  subscriber: TestRedisClient;
}

interface Shared {
  clock: TestClock;
  emitter: RecordingEmitter;
  store: FakeStore;
}

const shared = (): Shared => ({ clock: new TestClock(), emitter: new RecordingEmitter(), store: new FakeStore() });

/** `hosts: false`: a process that hosts no toy games (it only has players in them). */
async function startProcess(
  name: string,
  common: Shared,
  options: { hosts?: boolean; capacity?: number; onOpen?: (sourceId: string, owner: GameOwnerLease) => void } = {},
): Promise<Process> {
  const world = toyWorld(common);
  const commands = await redis.client();
  const subscriber = await redis.client();
  const ownership = new GameOwnership({
    processId: `${name}-${crypto.randomUUID().slice(0, 8)}`,
    redis: commands,
    subscriber,
    games: options.hosts === false ? {} : { sentence_race: recording(toyOpener(world, options), options.onOpen) },
    log: world.log,
    lease: TIMINGS,
  });
  await ownership.start();
  const cutOff = () => {
    commands.destroy();
    subscriber.destroy();
  };
  const process: Process = {
    name,
    world,
    ownership,
    input: (source, input) => ownership.input("sentence_race", String(source), input),
    host: (source) => ownership.localGame("sentence_race", String(source)) as ToyHost | null,
    kill: () => {
      ownership.abandon();
      cutOff();
    },
    partition: cutOff,
    subscriber,
  };
  running.push(process);
  return process;
}

/** The opener, telling the test of every lease it is given. */
function recording(opener: GameOpener, onOpen?: (sourceId: string, owner: GameOwnerLease) => void): GameOpener {
  return {
    ...opener,
    open: (sourceId, owner) => {
      onOpen?.(sourceId, owner);
      return opener.open(sourceId, owner);
    },
  };
}

const alice = player("alice", 1);
const bob = player("bob", 2);
const carol = player("carol");
const join = (who: GamePlayer, socketId = `${who.name}-1`): AnyGameInput => ({
  type: "join",
  socketId,
  player: who,
  data: undefined,
});
const move = (who: GamePlayer, text: string, socketId = `${who.name}-1`): AnyGameInput => ({
  type: "move",
  playerId: who.id,
  socketId,
  move: { text },
});
const newSource = () => 100_000 + Math.floor(Math.random() * 1_000_000_000);
const channelOf = (source: number) => `sentence_race:${source}`;
/** From a joined player to a round in play (5 s wait + 3-2-1) on the shared clock. */
const toPlaying = (common: Shared) => common.clock.advance(5_000 + 3_000);

describe("one owner per game", () => {
  test("two processes joining players at once: exactly one owns the game, with both players in it", async () => {
    const common = shared();
    const [a, b] = await Promise.all([startProcess("a", common), startProcess("b", common)]);
    const source = newSource();
    const answers = await Promise.all([a.input(source, join(alice)), b.input(source, join(bob))]);
    expect(answers).toEqual([{ ok: true }, { ok: true }]);

    const owners = [a, b].filter((p) => p.host(source) !== null);
    expect(owners).toHaveLength(1);
    const owner = owners[0];
    expect(owner.host(source)!.state.players.toSorted()).toEqual([alice.id, bob.id]);
    expect(await leaseHolder(observer, channelOf(source))).toEqual({
      processId: owner.ownership.processId,
      epoch: 1,
    });
    expect(common.emitter.inChannel(channelOf(source), "alice-1")).toBe(true);
    expect(common.emitter.inChannel(channelOf(source), "bob-1")).toBe(true);
  });

  test("input from a socket on the other process reaches the owner and its answer comes back", async () => {
    const common = shared();
    const [a, b] = await Promise.all([startProcess("a", common), startProcess("b", common)]);
    const source = newSource();
    expect(await a.input(source, join(alice))).toEqual({ ok: true }); // a owns it
    expect(await b.input(source, join(bob))).toEqual({ ok: true }); // forwarded
    expect(b.host(source)).toBeNull();
    toPlaying(common);

    expect(await b.input(source, move(bob, "가나다"))).toEqual({ ok: true });
    expect(a.host(source)!.state.answers).toEqual([{ playerId: bob.id, text: "가나다", position: 1 }]);
    // The mode's refusal, in Korean, travels back to the sender.
    expect(await b.input(source, move(bob, "또"))).toEqual({ ok: false, error: "이미 답했습니다.", code: "duplicate" });
    // The sender's identity travels with the input: another player's socket is refused by the owner.
    expect(await b.input(source, move(alice, "가", "bob-1"))).toEqual({
      ok: false,
      error: GAME_HOST_MESSAGES.notInGame,
      code: "not_in_game",
    });
    expect(
      await b.input(source, {
        type: "command",
        playerId: bob.id,
        socketId: "bob-1",
        command: { type: "shout", text: "야" },
      }),
    ).toEqual({ ok: true });
    // The owner's output reaches sockets of both processes (the shared emitter stands for the adapter).
    expect(common.emitter.received("alice-1", "toy:shout").map((r) => r.payload.text)).toEqual(["야"]);
    expect(common.emitter.received("bob-1", "toy:answered")).toHaveLength(1);

    expect(await b.input(source, { type: "leave", playerId: bob.id, socketId: "bob-1" })).toEqual({ ok: true });
    expect(a.host(source)!.state.players).toEqual([alice.id]);
  });

  test("the owner decides admission for every process: a join refused there keeps no seat on the sender", async () => {
    const common = shared();
    const [a, b] = await Promise.all([
      startProcess("a", common, { capacity: 1 }),
      startProcess("b", common, { capacity: 1 }),
    ]);
    const source = newSource();
    expect(await a.input(source, join(alice))).toEqual({ ok: true });
    expect(await b.input(source, join(bob))).toEqual(TOY_FULL);
    a.kill();
    // Taken over by b through carol's join; bob was never in, so b has nothing to re-announce for him.
    expect(await b.input(source, join(carol))).toEqual({ ok: true });
    expect(b.host(source)!.state.players).toEqual([carol.id]);
  });
});

describe("takeover", () => {
  test("the owner is killed mid-round: the other takes over within 10 s with a higher epoch, ends the round from what is stored, and plays the next one", async () => {
    const common = shared();
    const [a, b] = await Promise.all([startProcess("a", common), startProcess("b", common)]);
    const source = newSource();
    await a.input(source, join(alice));
    await b.input(source, join(bob));
    toPlaying(common);
    expect(await b.input(source, move(bob, "가나다"))).toEqual({ ok: true });
    await a.host(source)!.drain(); // bob's result is stored (acknowledged)
    expect(common.store.rows).toEqual([{ name: "result", source, round: 1, key: bob.id }]);

    a.kill();
    // A player arriving meanwhile waits for the new owner instead of being refused.
    const carolJoins = b.input(source, join(carol));
    expect(
      await eventually(() => b.ownership.epochOf("sentence_race", String(source)) !== null, TAKEOVER_LIMIT_MS),
    ).toBe(true);
    expect(b.ownership.epochOf("sentence_race", String(source))).toBe(2);
    expect(await carolJoins).toEqual({ ok: true });

    // The round a left is ended cleanly from what is stored: finished once, bob's result kept, players told.
    expect(common.store.rows).toEqual([
      { name: "result", source, round: 1, key: bob.id },
      { name: "finish", source, round: 1, key: "game" },
    ]);
    expect(common.emitter.received("bob-1", "toy:round_closed").map((r) => r.payload)).toEqual([
      { round: 1, results: [bob.id] },
    ]);
    // b's own socket is seated again (alice's was on the dead process); the next round runs on b, numbered on.
    const host = b.host(source)!;
    expect(host.state.players).toEqual([bob.id, carol.id]);
    toPlaying(common);
    expect(host.gameRef()).toMatchObject({ round: 2, epoch: 2 });
    expect(await b.input(source, move(bob, "라마바"))).toEqual({ ok: true });
    expect(await b.input(source, move(carol, "라마바"))).toEqual({ ok: true });
    await host.drain();
    expect(common.store.round(source, 2).map((r) => r.key)).toEqual([bob.id, carol.id, "game"]);
    expect(common.store.refused).toBe(0);
  });

  test("players of a third process are re-announced to the new owner by that process", async () => {
    const common = shared();
    const [a, b, c] = await Promise.all([
      startProcess("a", common),
      startProcess("b", common),
      startProcess("c", common),
    ]);
    const source = newSource();
    await a.input(source, join(alice));
    await b.input(source, join(bob));
    await c.input(source, join(carol));
    a.kill();
    const taken = () => [b, c].find((p) => p.host(source) !== null);
    expect(await eventually(() => taken() !== undefined, TAKEOVER_LIMIT_MS)).toBe(true);
    const host = taken()!.host(source)!;
    expect(await eventually(() => host.size === 2)).toBe(true);
    expect(host.state.players.toSorted()).toEqual([bob.id, carol.id]);
  });

  test("a process that missed the new owner's announcement re-announces its players at its next look", async () => {
    const common = shared();
    const [a, b, c] = await Promise.all([
      startProcess("a", common),
      startProcess("b", common, { hosts: false }),
      startProcess("c", common),
    ]);
    const source = newSource();
    await a.input(source, join(alice));
    await b.input(source, join(bob));
    await b.subscriber.unsubscribe(OWNERS_CHANNEL); // pub/sub delivers at most once: b will not hear of c
    a.kill();
    expect(await c.input(source, join(carol))).toEqual({ ok: true }); // waits for a's lease to expire, takes it
    const host = c.host(source)!;
    expect(await eventually(() => host.size === 2, TAKEOVER_LIMIT_MS)).toBe(true);
    expect(host.state.players).toEqual([carol.id, bob.id]);
  });

  test("an owner cut off from Redis stops its game; its late write is refused by storage (fencing)", async () => {
    const common = shared();
    const [a, b] = await Promise.all([startProcess("a", common), startProcess("b", common)]);
    const source = newSource();
    await a.input(source, join(alice));
    await b.input(source, join(bob));
    toPlaying(common);
    const oldHost = a.host(source)!;
    common.store.failures = 1; // alice's result write fails once and waits for its retry
    expect(await a.input(source, move(alice, "가나다"))).toEqual({ ok: true });
    await settle();
    expect(oldHost.pendingWrites).toBe(1);

    a.partition();
    expect(
      await eventually(() => b.ownership.epochOf("sentence_race", String(source)) !== null, TAKEOVER_LIMIT_MS),
    ).toBe(true);
    expect(oldHost.running).toBe(false); // it stopped stepping on its own (lease deadline)
    common.clock.advance(100); // the old owner's retry comes late
    await oldHost.drain();

    expect(common.store.refused).toBe(1);
    expect(common.store.rows.filter((r) => r.name === "result")).toEqual([]);
    expect(common.store.storedEpoch(source)).toBe(2);
    expect(a.world.log.lines.map((l) => l.message)).toContain(
      "game write refused: a newer owner has the game; its writes are dropped",
    );
    // Nothing of round 1 was stored, so there is no round to close: bob sees the new owner's fresh game.
    expect(common.emitter.received("bob-1", "toy:round_closed")).toEqual([]);
    expect(common.emitter.received("bob-1", "toy:welcome").at(-1)?.payload).toMatchObject({ phase: "waiting" });
  });

  test("a lease lost while the owner lives (Redis dropped it): the game is taken again with a higher epoch and input flows", async () => {
    const common = shared();
    const [a, b] = await Promise.all([startProcess("a", common), startProcess("b", common)]);
    const source = newSource();
    await a.input(source, join(alice));
    await b.input(source, join(bob));
    const first = a.host(source)!;
    await observer.del(`lease:${channelOf(source)}`);

    const owner = () => [a, b].find((p) => p.host(source) !== null && p.host(source) !== first);
    expect(await eventually(() => owner() !== undefined, TAKEOVER_LIMIT_MS)).toBe(true);
    expect(first.running).toBe(false);
    const host = owner()!.host(source)!;
    expect(owner()!.ownership.epochOf("sentence_race", String(source))).toBe(2);
    expect(await eventually(() => host.size === 2)).toBe(true);
    const shout = (who: GamePlayer, text: string): AnyGameInput => ({
      type: "command",
      playerId: who.id,
      socketId: `${who.name}-1`,
      command: { type: "shout", text },
    });
    expect(await a.input(source, shout(alice, "하나"))).toEqual({ ok: true });
    expect(await b.input(source, shout(bob, "둘"))).toEqual({ ok: true });
    expect(common.emitter.received("alice-1", "toy:shout").map((r) => r.payload.text)).toEqual(["하나", "둘"]);
  });

  test("a clean shutdown finishes the round and releases the game; the other process takes it at once", async () => {
    const common = shared();
    const [a, b] = await Promise.all([startProcess("a", common), startProcess("b", common)]);
    const source = newSource();
    await a.input(source, join(alice));
    await b.input(source, join(bob));
    toPlaying(common);
    expect(await b.input(source, move(bob, "가나다"))).toEqual({ ok: true });

    await a.ownership.stop();
    expect(common.store.round(source, 1).map((r) => r.key)).toEqual([bob.id, "game"]);
    expect(common.emitter.received("bob-1", "toy:finished")).toHaveLength(1);
    expect(await eventually(() => b.host(source) !== null, TAKEOVER_LIMIT_MS)).toBe(true);
    expect(b.ownership.epochOf("sentence_race", String(source))).toBe(2);
    // Finished already: nothing to close again.
    expect(common.emitter.received("bob-1", "toy:round_closed")).toEqual([]);
    expect(b.host(source)!.state.players).toEqual([bob.id]);
  });
});

describe("closing a game over for good", () => {
  test("close hands it back quietly: the lease is free, the seats forgotten (never taken again), no warning", async () => {
    const common = shared();
    const owners = new Map<string, GameOwnerLease>();
    const a = await startProcess("a", common, { onOpen: (sourceId, owner) => owners.set(sourceId, owner) });
    const source = newSource();
    expect(await a.input(source, join(alice))).toEqual({ ok: true });
    expect(await leaseHolder(observer, channelOf(source))).toMatchObject({ processId: a.ownership.processId });

    a.host(source)?.stop();
    owners.get(String(source))!.close();
    await eventually(async () => (await leaseHolder(observer, channelOf(source))) === null);
    expect(a.host(source)).toBeNull();
    // The process's watcher looks for free games with its seats every 200 ms: alice's seat is gone, so it stays free.
    await Bun.sleep(TIMINGS.renewEveryMs * 4);
    expect(await leaseHolder(observer, channelOf(source))).toBeNull();
    expect(a.world.log.lines.filter((line) => line.message === "game given up")).toEqual([]);
  });
});
