import { expect, test } from "bun:test";
import { player, type Received, type ToyHost, toyWorld } from "./test-support";
import { WATCHER_FRAME_MS, type WatcherMerges } from "./watchers";

/**
 * The watchers' relay on the toy game (README "Watchers"): members named 관전… watch; the countdown number
 * (`toy:count`) is the toy's state that a newer one replaces, everything else a one-off.
 */
const WATCHERS = {
  is: (p: { name: string }) => p.name.startsWith("관전"),
  // The toy's events are made up, outside the app's wire contract.
  merges: { "toy:count": true } as unknown as WatcherMerges,
};

function setup() {
  const world = toyWorld();
  const game = world.game({ watchers: WATCHERS });
  const join = (name: string, socketId: string) =>
    expect(game.input({ type: "join", socketId, player: player(name), data: undefined })).toEqual({ ok: true });
  const shout = (name: string, text: string) =>
    game.input({ type: "command", playerId: `p:${name}`, command: { type: "shout", text } });
  return { world, game, join, shout };
}

/** What a socket got, with the clock's time at each, for a run stepped 10 ms at a time. */
function timeline(world: ReturnType<typeof toyWorld>, socketIds: string[]) {
  const seen = new Map<string, { at: number; event: Received }[]>(socketIds.map((id) => [id, []]));
  const note = () => {
    for (const id of socketIds) {
      const list = seen.get(id)!;
      for (const event of world.emitter.received(id).slice(list.length)) list.push({ at: world.clock.now(), event });
    }
  };
  const run = (ms: number, each?: (t: number) => void) => {
    for (let t = 0; t < ms; t += 10) {
      each?.(t);
      note();
      world.clock.advance(10);
      note();
    }
  };
  return { seen, run };
}

const label = (r: Received) => `${r.event} ${JSON.stringify(r.payload)}`;

test("players get each event at once; a watcher gets every one-off in their order within a frame, of the countdown its latest", () => {
  const { world, game, join, shout } = setup();
  join("a", "sa");
  join("b", "sb");
  join("관전1", "sw");
  expect(world.emitter.inChannel(game.channel, "sw")).toBe(false);
  expect(world.emitter.inChannel(game.watchersChannel, "sw")).toBe(true);
  expect(world.emitter.inChannel(game.watchersChannel, "sa")).toBe(false);
  world.clock.advance(WATCHER_FRAME_MS); // the arrivals' frame
  world.emitter.clear();

  const { seen, run } = timeline(world, ["sa", "sw"]);
  // The round: waiting 5 s, a countdown of 3, 10 s of play, results; shouts all along, some within one frame.
  run(20_000, (t) => {
    if (t % 700 === 0) shout("a", `a${t}`);
    if (t % 1_300 === 0) shout("b", `b${t}`);
    if (t === 9_000) game.input({ type: "move", playerId: "p:a", move: { text: "답" } });
  });

  const player = seen.get("sa")!;
  const watcher = seen.get("sw")!;
  const oneOffs = (list: typeof player) => list.filter((r) => r.event.event !== "toy:count").map((r) => r.event);
  expect(oneOffs(watcher).map(label)).toEqual(oneOffs(player).map(label));
  expect(oneOffs(player).map((r) => r.event)).toContain("toy:answered");
  expect(oneOffs(player).map((r) => r.event)).toContain("toy:finished");

  // Each one-off reached the watcher within a frame of the player (never before), and always within a second.
  const players = oneOffs(player);
  for (const [i, received] of watcher.filter((r) => r.event.event !== "toy:count").entries()) {
    const atPlayer = player.find((r) => r.event === players[i])!.at;
    expect(received.at - atPlayer).toBeGreaterThanOrEqual(0);
    expect(received.at - atPlayer).toBeLessThanOrEqual(WATCHER_FRAME_MS + 10);
  }
  // The countdown: the players saw 3, 2, 1; the watcher a subsequence ending on the same last number.
  const counts = (list: typeof player) => list.filter((r) => r.event.event === "toy:count");
  expect(counts(player).map((r) => r.event.payload.number)).toEqual([3, 2, 1]);
  expect(counts(watcher).at(-1)?.event.payload.number).toBe(1);
  expect(counts(watcher).at(-1)!.at - counts(player).at(-1)!.at).toBeLessThanOrEqual(WATCHER_FRAME_MS + 10);
});

test("a countdown number queued twice within one frame is sent once, its latest, after the one-offs before it", () => {
  const { world, game, join, shout } = setup();
  join("a", "sa");
  join("관전1", "sw");
  world.clock.advance(WATCHER_FRAME_MS); // the arrivals' frame
  world.emitter.clear();
  const out = game as unknown as { broadcast(event: string, payload: unknown): void };
  out.broadcast("toy:count", { number: 3 });
  shout("a", "하나");
  out.broadcast("toy:count", { number: 2 });
  expect(world.emitter.events("sa")).toEqual(["toy:count", "toy:shout", "toy:count"]);
  expect(world.emitter.events("sw")).toEqual([]);
  world.clock.advance(WATCHER_FRAME_MS);
  expect(world.emitter.received("sw").map(label)).toEqual([
    `toy:shout ${JSON.stringify({ playerId: "p:a", text: "하나" })}`,
    `toy:count ${JSON.stringify({ number: 2 })}`,
  ]);
});

test("an arriving watcher: the queue goes to those already there, its welcome at once; a leaving one gets nothing queued", () => {
  const { world, game, join, shout } = setup();
  join("a", "sa");
  join("관전1", "s1");
  world.clock.advance(WATCHER_FRAME_MS);
  world.emitter.clear();

  shout("a", "하나");
  expect(world.emitter.events("s1")).toEqual([]);
  join("관전2", "s2");
  // The first watcher got the queue when the second arrived; the second only its welcome, then what followed.
  expect(world.emitter.events("s1")).toEqual(["toy:shout"]);
  expect(world.emitter.events("s2")).toEqual(["toy:welcome"]);
  shout("a", "둘");
  world.clock.advance(WATCHER_FRAME_MS);
  expect(world.emitter.received("s2").map((r) => r.payload.text ?? r.event)).toEqual([
    "toy:welcome",
    "toy:joined",
    "둘",
  ]);

  // Leaving: what was queued is not sent to it, and it is in no channel of the game.
  shout("a", "셋");
  game.input({ type: "leave", playerId: "p:관전2", socketId: "s2" });
  world.clock.advance(WATCHER_FRAME_MS);
  expect(world.emitter.received("s2").map((r) => r.payload.text)).not.toContain("셋");
  expect(world.emitter.inChannel(game.watchersChannel, "s2")).toBe(false);
  expect(world.emitter.received("s1").map((r) => r.payload.text)).toContain("셋");
  expect(world.emitter.events("sa").filter((e) => e === "toy:shout")).toHaveLength(3);
});

test("a watcher who becomes a player leaves the watchers' channel; a stopped game sends the watchers' rest at once", () => {
  const { world, game, join, shout } = setup();
  join("a", "sa");
  join("관전1", "sw");
  world.clock.advance(WATCHER_FRAME_MS);
  shout("a", "하나");
  game.stop();
  expect(world.emitter.received("sw").map((r) => r.payload.text)).toContain("하나");
  // After the stop (a write's answer): straight to the watchers too.
  (game as ToyHost as unknown as { broadcast(event: string, payload: unknown): void }).broadcast("toy:stored", {});
  expect(world.emitter.events("sw").at(-1)).toBe("toy:stored");

  const second = setup();
  second.join("관전1", "sx");
  second.game.input({ type: "leave", playerId: "p:관전1", socketId: "sx" });
  second.join("a", "sx");
  expect(second.world.emitter.inChannel(second.game.watchersChannel, "sx")).toBe(false);
  expect(second.world.emitter.inChannel(second.game.channel, "sx")).toBe(true);
});
