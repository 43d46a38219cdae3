/**
 * What forwarding a game's input to its owner through Redis costs, against running it on the owner (issue 11, "choose,
 * measure, and write down why"; figures in modules/kernel/game-host/README.md "Several processes").
 *
 *   bun bench/game-forward.ts [--inputs 5000] [--concurrency 50]
 *
 * Two ownerships (two "processes" in one Bun process, each with its own Redis connections) over one Redis
 * (REDIS_URL, or a throwaway redis-server from scripts/test-services.ts); process A owns a toy game, a player on
 * each process. Timed: a command input (the toy's chat line) from the owner's own socket (local) and from the
 * other process's socket (forwarded: PUBLISH → owner → host.input → PUBLISH answer), one at a time (latency) and
 * with `--concurrency` in flight (throughput). For comparison, routing the socket to the owner instead costs at
 * least a new socket.io connection per change of game: the time from `io(url)` to `connect` on a bare
 * @socket.io/bun-engine server is measured too.
 */
import { parseArgs } from "node:util";
import { Server as Engine } from "@socket.io/bun-engine";
import { createClient } from "redis";
import { Server } from "socket.io";
import { io as connect } from "socket.io-client";
import { type AnyGameInput, GameOwnership } from "../modules/kernel/game-host/ownership";
import {
  FakeStore,
  player,
  RecordingEmitter,
  TestClock,
  toyOpener,
  toyWorld,
} from "../modules/kernel/game-host/test-support";
import { startRedis } from "../scripts/test-services";

const { values } = parseArgs({
  options: { inputs: { type: "string", default: "5000" }, concurrency: { type: "string", default: "50" } },
});
const INPUTS = Number(values.inputs);
const CONCURRENCY = Number(values.concurrency);

const service = process.env.REDIS_URL ? null : await startRedis();
const url = process.env.REDIS_URL ?? service!.url;
const clients: ReturnType<typeof createClient>[] = [];
async function client() {
  const redis = createClient({ url });
  redis.on("error", () => {});
  await redis.connect();
  clients.push(redis);
  return redis;
}

const common = { clock: new TestClock(), emitter: new RecordingEmitter(), store: new FakeStore() };
async function ownership(name: string) {
  const world = toyWorld(common);
  const owned = new GameOwnership({
    processId: `${name}-${crypto.randomUUID().slice(0, 8)}`,
    redis: await client(),
    subscriber: await client(),
    games: { sentence_race: toyOpener(world) },
    log: world.log,
  });
  await owned.start();
  return owned;
}

const a = await ownership("a");
const b = await ownership("b");
const source = String(Date.now());
const alice = player("alice");
const bob = player("bob");
await a.input("sentence_race", source, { type: "join", socketId: "alice-1", player: alice, data: undefined });
await b.input("sentence_race", source, { type: "join", socketId: "bob-1", player: bob, data: undefined });
if (!a.localGame("sentence_race", source)) throw new Error("process a should own the game");

const shout = (who: typeof alice, socketId: string): AnyGameInput => ({
  type: "command",
  playerId: who.id,
  socketId,
  command: { type: "shout", text: "안녕하세요" },
});

function summary(label: string, samples: number[]) {
  const sorted = samples.toSorted((x, y) => x - y);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const mean = sorted.reduce((s, x) => s + x, 0) / sorted.length;
  const us = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;
  console.log(`${label.padEnd(44)} p50 ${us(at(0.5))}  p99 ${us(at(0.99))}  mean ${us(mean)}  (n=${sorted.length})`);
}

async function latency(label: string, send: () => Promise<unknown>) {
  for (let i = 0; i < 200; i++) await send(); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < INPUTS; i++) {
    const start = performance.now();
    await send();
    samples.push(performance.now() - start);
  }
  summary(label, samples);
}

async function throughput(label: string, send: () => Promise<unknown>) {
  let next = 0;
  const start = performance.now();
  const worker = async () => {
    while (next++ < INPUTS) await send();
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - start) / 1000;
  console.log(`${label.padEnd(44)} ${Math.round(INPUTS / seconds).toLocaleString("en")} inputs/s`);
}

const local = async () => a.input("sentence_race", source, shout(alice, "alice-1"));
const forwarded = async () => b.input("sentence_race", source, shout(bob, "bob-1"));
await latency("input on the owner (local)", local);
await latency("input forwarded through Redis", forwarded);
await throughput(`local, ${CONCURRENCY} in flight`, local);
await throughput(`forwarded, ${CONCURRENCY} in flight`, forwarded);

// The alternative: a socket routed to the owner needs a connection to that process.
const engine = new Engine({ path: "/socket.io/" });
const io = new Server();
io.bind(engine as never);
const server = Bun.serve({ port: 0, hostname: "127.0.0.1", ...engine.handler() });
const reconnects: number[] = [];
for (let i = 0; i < 300; i++) {
  const start = performance.now();
  const socket = connect(`http://127.0.0.1:${server.port}`, {
    path: "/socket.io/",
    transports: ["websocket"],
    forceNew: true,
  });
  await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  if (i >= 20) reconnects.push(performance.now() - start);
  socket.disconnect();
}
summary("new socket.io connection (routing instead)", reconnects);

await a.stop();
await b.stop();
io.close();
server.stop(true);
for (const redis of clients) redis.destroy();
await service?.stop();
process.exit(0);
