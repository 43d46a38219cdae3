/**
 * Several processes (issue 11, "Tests and figures"): the same players and chat load against
 *   S  — one process as `npm start` runs it (SQLite, no Redis), pinned to core 0;
 *   R1 — one process on PostgreSQL + Redis (the Redis streams adapter on every broadcast), pinned to core 0;
 *   R1S — R1 on SQLite (Redis alone): what of R1's cost is PostgreSQL's;
 *   S2 — two independent S processes (each its own SQLite file and half of the rooms), cores 0 and 1: the control
 *        for R2A, with the same processes, players and generator competing for this machine's two cores but
 *        nothing shared between the processes;
 *   R2 — two processes on PostgreSQL + Redis, pinned to cores 0 and 1, every room's players split between them
 *        (half of every room's deliveries cross processes, the worst case of a load balancer without room
 *        affinity);
 *   R2A — the same two processes with room affinity: a room's players all on one process (rooms alternate), what a
 *        load balancer routing by room gives (bench/README "Several processes").
 * Players are guests in rooms of 20 chatting at 0.1 message/s each by default (one Poisson process), from one generator
 * process (bench/protocol-client.ts). Measured in the window: server CPU (utime + stime of every server process)
 * per delivered event frame, Redis's CPU apart; chat latency p50/p99 at every receiver, split by whether the
 * receiver is on the sender's process or on the other one.
 *
 * This machine has 2 cores, so R2's servers share them with the generator, Redis and PostgreSQL: its latencies are
 * pessimistic and "players at 1 core each" is projected from CPU per frame, not searched for (see bench/README.md).
 *
 * Usage: bun bench/cluster.ts [--players 2000] [--window 30] [--warmup 10] [--variants S,R1,R2,R2A] [--lobby 0]
 *   [--chat-rate 0.1]
 * A variant may name its own player count: `--variants S@2500,R2A@5000` compares two processes with one at the same
 * load per process (each R2A process then carries what S carries).
 * `--lobby N`: N more guests per server process stay on the home page (the lobby: room:list once, then every
 * room:list_update of every room). CPU per frame still counts the players' frames only, so a lobby shows as a cost;
 * the lobby's frames and characters are reported apart.
 */
import { createPgTestDatabase } from "../db/testing-pg";
import { startPostgres, startRedis, type TestService } from "../scripts/test-services";
import { type LaunchedProcess, launchServer, sleep } from "./launch-server";
import { processCpuMicros as cpuMicros, option } from "./measure";
import { ProtocolClient } from "./protocol-client";

const DEFAULT_PLAYERS = Number(option("players", "2000"));
const WINDOW_S = Number(option("window", "30"));
const WARMUP_S = Number(option("warmup", "10"));
const VARIANTS = option("variants", "S,R1,R2,R2A").split(",");
const LOBBY_PER_PROCESS = Number(option("lobby", "0"));
const ROOM_SIZE = 20;
/**
 * BENCH_CPU_PROF=<dir>: a CPU profile of every server process, start to end (Bun `--cpu-prof --cpu-prof-md`);
 * BENCH_WINDOW_PROF=<dir>: one of the measured window only (bench/window-profile.ts).
 */
const BUN_ARGS = process.env.BENCH_CPU_PROF
  ? ["--cpu-prof", "--cpu-prof-md", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
  : [];
/** `--chat-rate`: messages per second per player (0.1 by default; more puts each process nearer its saturation). */
const CHAT_RATE = Number(option("chat-rate", "0.1"));
const now = () => performance.now();

function pidOfPort(port: number): number | undefined {
  // redis-server's pid, from its port (the test service does not expose it).
  const out = Bun.spawnSync(["pgrep", "-f", `redis-server .*:${port}`])
    .stdout.toString()
    .trim();
  return out ? Number(out.split("\n")[0]) : undefined;
}

const quantile = (values: number[], q: number) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};

interface Player {
  client: ProtocolClient;
  roomId: number;
  process: number;
  joined: boolean;
  chatTimes: number[];
}

/** Commands Redis ran, by name (`INFO commandstats`): what the processes ask of it per frame. */
function redisCommandCounts(url: string): Map<string, number> {
  const out = Bun.spawnSync(["redis-cli", "-u", url, "INFO", "commandstats"]).stdout.toString();
  const counts = new Map<string, number>();
  for (const match of out.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) counts.set(match[1], Number(match[2]));
  return counts;
}

function commandsPerSecond(before: Map<string, number>, after: Map<string, number>, seconds: number) {
  const rates: Record<string, number> = {};
  for (const [name, calls] of after) {
    const rate = (calls - (before.get(name) ?? 0)) / seconds;
    if (rate >= 0.5) rates[name] = Math.round(rate);
  }
  return Object.fromEntries(Object.entries(rates).sort((a, b) => b[1] - a[1]));
}

/**
 * What each variant runs: `redis` (REDIS_URL; PostgreSQL too unless `sqlite`), how many server processes, whether
 * they share one database (one process always does; a second then creates no rooms), and which process player i of
 * room r joins.
 */
interface VariantShape {
  redis: boolean;
  sqlite: boolean;
  processes: 1 | 2;
  shared: boolean;
  processOf: (player: number, room: number) => number;
}
const ONE_PROCESS = () => 0;
const BY_ROOM = (_player: number, room: number) => room % 2;
const SHAPES: Record<string, VariantShape> = {
  S: { redis: false, sqlite: true, processes: 1, shared: true, processOf: ONE_PROCESS },
  S2: { redis: false, sqlite: true, processes: 2, shared: false, processOf: BY_ROOM },
  R1: { redis: true, sqlite: false, processes: 1, shared: true, processOf: ONE_PROCESS },
  R1S: { redis: true, sqlite: true, processes: 1, shared: true, processOf: ONE_PROCESS },
  R2: { redis: true, sqlite: false, processes: 2, shared: true, processOf: (player) => player % 2 },
  R2A: { redis: true, sqlite: false, processes: 2, shared: true, processOf: BY_ROOM },
};

async function runVariant(spec: string, services: { pg?: TestService; redis?: TestService }) {
  const [variant, playersText] = spec.split("@");
  const shape = SHAPES[variant];
  if (!shape) throw new Error(`unknown variant ${variant}: ${Object.keys(SHAPES).join(", ")}`);
  const playerCount = Number(playersText ?? DEFAULT_PLAYERS);
  const clustered = shape.redis;
  // A fresh database per variant (on the PostgreSQL server started for the run).
  const database = clustered && !shape.sqlite ? await createPgTestDatabase() : undefined;
  const env: Record<string, string> = clustered
    ? {
        REDIS_URL: services.redis!.url,
        REDIS_PREFIX: `bench:${crypto.randomUUID()}:`,
        JWT_SECRET: `bench-secret-${crypto.randomUUID()}-${crypto.randomUUID()}`,
      }
    : {};
  if (database) env.DATABASE_URL = database.url;
  const roomCount = Math.ceil(playerCount / ROOM_SIZE);
  // On a shared database the first process creates every room; unshared ones (S2) each create half of them.
  const roomsOf = (p: number) =>
    shape.shared ? (p === 0 ? roomCount : 0) : Math.floor(roomCount / 2) + (p < roomCount % 2 ? 1 : 0);
  const servers: LaunchedProcess[] = [];
  for (let p = 0; p < shape.processes; p++) {
    servers.push(
      await launchServer({
        entry: "bench/server-under-test.ts",
        roomCount: roomsOf(p),
        core: String(p),
        env: shape.shared && p > 0 ? { ...env, SEED: "0" } : env,
        bunArgs: BUN_ARGS,
      }),
    );
  }
  // Room r of the run: on a shared database the first process's r-th; otherwise its process's own (r alternate).
  const roomOf = (r: number) => (shape.shared ? servers[0].rooms[r] : servers[r % 2].rooms[Math.floor(r / 2)]);
  let inWindow = (_at: number) => false;
  const latency = { same: [] as number[], cross: [] as number[] };
  let delivered = 0;

  const players: Player[] = Array.from({ length: playerCount }, (_, i) => {
    // R2: every room split between the processes; R2A: room affinity (a room's players all on one process).
    const room = Math.floor(i / ROOM_SIZE);
    const process = shape.processOf(i, room);
    const player: Player = {
      roomId: roomOf(room),
      process,
      joined: false,
      chatTimes: [],
      client: undefined as unknown as ProtocolClient,
    };
    player.client = new ProtocolClient({
      url: `http://127.0.0.1:${servers[process].port}`,
      auth: { client_id: `bench-cluster-${i.toString().padStart(6, "0")}` },
      onEvent(name, frame, at) {
        if (name === "room:joined:anonymous") player.joined = true;
        if (!inWindow(at)) return;
        delivered++;
        if (name !== "chat:message") return;
        const mark = frame.indexOf(" @");
        if (mark < 0) return;
        const [sentText, fromText] = frame.slice(mark + 2, frame.indexOf('"', mark)).split("#");
        const sentAt = Number(sentText);
        if (inWindow(sentAt)) (Number(fromText) === process ? latency.same : latency.cross).push(at - sentAt);
      },
    });
    return player;
  });

  let next = 0;
  await Promise.all(
    Array.from({ length: 200 }, async () => {
      while (next < players.length) {
        const player = players[next++];
        await player.client.connect();
        player.client.emit("join_anonymous", { room_id: player.roomId });
      }
    }),
  );
  const joinDeadline = now() + 60_000;
  while (players.some((p) => !p.joined) && now() < joinDeadline) await sleep(100);
  const joined = players.filter((p) => p.joined).length;
  const lobby = { frames: 0, chars: 0 };
  const watchers = await lobbyWatchers(servers, (frame, at) => {
    if (!inWindow(at)) return;
    lobby.frames++;
    lobby.chars += frame.length;
  });

  const rate = CHAT_RATE * players.length;
  let nextAt = now();
  const chat = setInterval(() => {
    const t = now();
    for (let guard = 0; nextAt <= t && guard < 10_000; guard++) {
      nextAt += (-Math.log(1 - Math.random()) / rate) * 1000;
      const player = players[Math.floor(Math.random() * players.length)];
      player.chatTimes = player.chatTimes.filter((at) => at > t - 3_000);
      if (!player.joined || player.chatTimes.length >= 5) continue;
      const sentAt = now();
      player.chatTimes.push(sentAt);
      player.client.emit("chat_message", {
        room_id: player.roomId,
        message: `부하 시험 @${sentAt.toFixed(3)}#${player.process}`,
      });
    }
  }, 5);

  await sleep(WARMUP_S * 1000);
  const redisPid = services.redis ? pidOfPort(Number(new URL(services.redis.url).port)) : undefined;
  const cpuBefore = servers.map((s) => cpuMicros(s.pid));
  const redisBefore = redisPid ? cpuMicros(redisPid) : 0;
  const commandsBefore = clustered ? redisCommandCounts(services.redis!.url) : new Map<string, number>();
  const profiling = Boolean(process.env.BENCH_WINDOW_PROF);
  if (profiling) for (const server of servers) process.kill(server.pid, "SIGUSR1");
  const start = now();
  inWindow = (at) => at >= start && at < start + WINDOW_S * 1000;
  await sleep(WINDOW_S * 1000);
  const serverCpu = servers.map((s, i) => cpuMicros(s.pid) - cpuBefore[i]);
  const redisCpu = redisPid ? cpuMicros(redisPid) - redisBefore : 0;
  if (profiling) for (const server of servers) process.kill(server.pid, "SIGUSR1");
  const redisCommands = clustered
    ? commandsPerSecond(commandsBefore, redisCommandCounts(services.redis!.url), WINDOW_S)
    : {};
  await sleep(2_000); // frames in flight
  clearInterval(chat);
  for (const player of players) player.client.close();
  for (const watcher of watchers) watcher.close();
  for (const server of servers) await server.stop();
  await database?.drop();

  const totalCpu = serverCpu.reduce((a, b) => a + b, 0);
  return {
    variant,
    players: playerCount,
    joined,
    frames: delivered,
    serverCoresUsed: serverCpu.map((c) => +(c / (WINDOW_S * 1e6)).toFixed(3)),
    usPerFrame: +(totalCpu / delivered).toFixed(2),
    redisUsPerFrame: +(redisCpu / delivered).toFixed(2),
    lobby: { watchers: watchers.length, frames: lobby.frames, chars: lobby.chars },
    chatSame: { p50: +quantile(latency.same, 0.5).toFixed(2), p99: +quantile(latency.same, 0.99).toFixed(2) },
    chatCross: { p50: +quantile(latency.cross, 0.5).toFixed(2), p99: +quantile(latency.cross, 0.99).toFixed(2) },
    redisCommandsPerSecond: redisCommands,
  };
}

/** `--lobby`: guests on every server's home page, each asking for the list once, then hearing its updates. */
async function lobbyWatchers(servers: LaunchedProcess[], heard: (frame: string, at: number) => void) {
  const watchers: ProtocolClient[] = [];
  for (const [p, server] of servers.entries()) {
    for (let i = 0; i < LOBBY_PER_PROCESS; i++) {
      const watcher = new ProtocolClient({
        url: `http://127.0.0.1:${server.port}`,
        auth: { client_id: `bench-lobby-${p}-${i.toString().padStart(4, "0")}` },
        onEvent: (name, frame, at) => {
          if (name === "room:list_update") heard(frame, at);
        },
      });
      await watcher.connect();
      watcher.emit("get_rooms", {});
      watchers.push(watcher);
    }
  }
  return watchers;
}

const services: { pg?: TestService; redis?: TestService } = {};
if (VARIANTS.some((v) => v !== "S")) {
  services.pg = await startPostgres();
  process.env.TEST_POSTGRES_URL = services.pg.url;
  services.redis = await startRedis();
}
try {
  const results = [];
  for (const variant of VARIANTS) {
    const result = await runVariant(variant, services);
    console.log(JSON.stringify(result));
    results.push(result);
  }
  for (const two of results.filter((r) => r.variant === "R2" || r.variant === "R2A")) {
    // Each process gets one core: players scale with the frames one core of CPU can deliver. Compared with the S
    // run at the same total load, and with the one at half of it (the same load per process) when there is one.
    for (const control of results.filter((r) => r.variant === "S2" && r.players === two.players)) {
      // Two independent processes under the same contention: what sharing costs, apart from this machine's cores.
      const ratio = (2 * control.usPerFrame) / two.usPerFrame;
      console.log(
        `${two.variant}@${two.players} vs S2@${control.players} (two unshared processes, same contention): projected players on 2 processes vs 1: ${ratio.toFixed(2)}×`,
      );
    }
    for (const single of results.filter((r) => r.variant === "S")) {
      const ratio = (2 * single.usPerFrame) / two.usPerFrame;
      const perProcess = single.players * 2 === two.players ? " (same load per process)" : "";
      console.log(
        `${two.variant}@${two.players} vs S@${single.players}${perProcess}: projected players on 2 processes (1 core each) vs 1 process on 1 core: ${ratio.toFixed(2)}×`,
      );
    }
  }
} finally {
  await services.pg?.stop();
  await services.redis?.stop();
}
