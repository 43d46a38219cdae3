/**
 * Load benchmark of the 1:1 duel (issue 13, "Benchmark"). One process is the orchestrator and the load generator
 * (pinned to core 1), so every latency is taken on one clock. For every step (players, two per duel) it starts the
 * server under test on core 0, alternating A = our real server (bench/server-under-test.ts: every module, the duel
 * runtime on the game host's shared scheduler) and B = bench/raw-duel-server.ts (the same pure duel mode and the
 * same frames over raw Bun pub/sub, one timer per duel).
 *
 * Every player is a guest that behaves like the /duel page: enters the menu (and so gets the coalesced online list,
 * at most once a second), heartbeats every 5 s, searches after a random 0–30 s, says ready on `duel:match_found`,
 * and while the duel is in progress types a word every 1–2 s: a block coming at it when there is one (80 %), else a
 * static block, and now and then (5 %) a word that is not on the field. After `duel:game_over` it does what the
 * page does (the list at 0.3 s and at 1 s, a forced update at 1 s), then plays again after 1.5–4 s (leave, then
 * search 0.3 s later).
 *
 * Measured in a window after a warm-up: server CPU (utime+stime of /proc/<pid>/stat) per delivered frame (event
 * frames and acknowledgements) and its ratio to B; the word latency (`duel_word_typed` → the typist's own
 * `duel:bullet_fired` or `duel:block_defended` for that block); the lateness of `duel:time_update` (when it arrives
 * − the second it marks, from the game's `started_at`, one clock: the same machine), at both players; concurrent
 * duels in progress (sampled every second); the generator's event-loop lag and CPU (a run where the lag p99 > 20 ms
 * or the generator's CPU > 90 % is marked invalid).
 *
 * Usage: bench/run.sh is for the rooms; run this with the same descriptor limit:
 *   ulimit -n "$(ulimit -Hn)"; bun bench/duel-load.ts [--steps 2000,6000,10000] [--rounds 1] [--window 60]
 *   [--warmup 45] [--spread 30] (seconds over which the first searches are spread) [--variants A,B] [--quiet-wait 600]
 * Writes bench/results/duel-load-<timestamp>.json and prints a table.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_DUEL_RULES } from "../modules/duel/duel-mode";
import { type LaunchedProcess, launchServer, processRssKiB, ROOT, sleep } from "./launch-server";
import {
  eachConcurrently,
  machine,
  machineBusyMicros,
  option,
  pinSelf,
  processCpuMicros,
  Samples,
  startLagSampler,
  WindowMetrics,
  waitForQuiet,
} from "./measure";
import { ProtocolClient, payloadOf } from "./protocol-client";

type Variant = "A" | "B";

const OPTIONS = {
  steps: option("steps", "2000,6000,10000").split(",").map(Number),
  rounds: Number(option("rounds", "1")),
  windowS: Number(option("window", "60")),
  warmupS: Number(option("warmup", "45")),
  variants: option("variants", "A,B").split(",") as Variant[],
  quietWaitS: Number(option("quiet-wait", "600")),
  searchSpreadMs: Number(option("spread", "30")) * 1000,
  connectConcurrency: 200,
  lagLimitMs: 20,
  cpuLimit: 0.9,
  foreignLimit: 0.1,
};
for (const step of OPTIONS.steps) if (!(step >= 2 && step <= 12_000 && step % 2 === 0)) throw new Error("steps: even");

const SERVER_CORE = "0";
const GENERATOR_CORE = "1";
const DURATION_MS = DEFAULT_DUEL_RULES.durationMs;
const JUNK_WORD = "없는낱말";
const now = () => performance.now();
const uniform = (low: number, high: number) => low + Math.random() * (high - low);

// --- metrics ---------------------------------------------------------------------------------------------------

class RunMetrics extends WindowMetrics {
  wordsSent = 0;
  wordsAnswered = 0;
  wordLatency = new Samples();
  timeLateness = new Samples();
  duelsStarted = 0;
  duelsOver = 0;
  reasons = new Map<string, number>();
  concurrentDuels = new Samples();
}

// --- simulated players -----------------------------------------------------------------------------------------

interface BlockSeen {
  word: string;
  status: string;
}

interface Player {
  index: number;
  client: ProtocolClient;
  side: "red" | "blue" | null;
  session: string | null;
  playing: boolean;
  /** Epoch ms of the duel's start (`started_at`), for the lateness of its time updates. */
  startedAt: number;
  blocks: Map<number, BlockSeen>;
  pending: { blockId: number; sentAt: number } | null;
  timers: Timer[];
}

interface BlockWire {
  id: number;
  word: string;
  status: string;
}

function makePlayer(index: number, port: number, m: RunMetrics): Player {
  const player: Player = {
    index,
    client: undefined as never,
    side: null,
    session: null,
    playing: false,
    startedAt: 0,
    blocks: new Map(),
    pending: null,
    timers: [],
  };
  player.client = new ProtocolClient({
    url: `http://127.0.0.1:${port}`,
    auth: { client_id: `bench-duelist-${index.toString().padStart(6, "0")}` },
    onEvent: (name, frame, at) => onPlayerEvent(player, name, frame, at, m),
    onClose: () => {
      if (m.recording) m.closedUnexpectedly++;
    },
  });
  return player;
}

function later(player: Player, ms: number, run: () => void) {
  player.timers.push(setTimeout(run, ms));
}

function clearTimers(player: Player) {
  for (const timer of player.timers) clearTimeout(timer);
  player.timers = [];
}

function countDelivery(m: RunMetrics, name: string, chars: number, at: number) {
  if (!m.inWindow(at)) return;
  m.delivered++;
  m.deliveredChars += chars;
  m.count(m.byEvent, name);
}

function onPlayerEvent(player: Player, name: string, frame: string, at: number, m: RunMetrics) {
  countDelivery(m, name, frame.length, at);
  // The online list is the largest frame and the generator needs nothing from it: never parsed.
  if (name === "duel:user_list_update") return;
  const payload = payloadOf(frame) as Record<string, unknown>;
  if (name === "error") {
    if (m.recording) m.count(m.errors, String(payload.code));
    return;
  }
  if (name === "duel:match_found") {
    player.session = payload.session_id as string;
    player.side = payload.your_side as "red" | "blue";
    player.client.emit("duel_player_ready", {});
    return;
  }
  if (payload.session_id !== player.session) return;
  onDuelEvent(player, name, payload, at, m);
}

function onDuelEvent(player: Player, name: string, payload: Record<string, unknown>, at: number, m: RunMetrics) {
  switch (name) {
    case "duel:game_start": {
      const state = payload.state as { word_blocks: BlockWire[]; started_at: string };
      player.blocks = new Map(state.word_blocks.map((b) => [b.id, { word: b.word, status: b.status }]));
      player.startedAt = Date.parse(state.started_at);
      player.playing = true;
      if (m.inWindow(at) && player.side === "red") m.duelsStarted++;
      scheduleWord(player, m);
      return;
    }
    case "duel:word_position_update": {
      const block = player.blocks.get(payload.block_id as number);
      if (block) block.status = payload.status as string;
      return;
    }
    case "duel:bullet_fired": {
      const bullet = payload.bullet as { side: string; target_block_id: number };
      if (bullet.side === player.side) answered(player, bullet.target_block_id, at, m);
      return;
    }
    case "duel:block_defended":
      if (payload.side === player.side) answered(player, payload.block_id as number, at, m);
      replaceBlocks(player, payload.block_id as number, payload.new_blocks as BlockWire[]);
      return;
    case "duel:new_word":
      replaceBlocks(player, payload.replaced_block_id as number, payload.word_blocks as BlockWire[]);
      return;
    case "duel:time_update": {
      const marks = player.startedAt + DURATION_MS - (payload.remaining_time as number) * 1000;
      if (m.inWindow(at)) m.timeLateness.push(Date.now() - marks);
      return;
    }
    case "duel:game_over":
      gameOver(player, payload.result as { reason: string }, at, m);
      return;
  }
}

function replaceBlocks(player: Player, goneId: number, fresh: BlockWire[]) {
  player.blocks.delete(goneId);
  for (const b of fresh) player.blocks.set(b.id, { word: b.word, status: b.status });
}

function answered(player: Player, blockId: number, at: number, m: RunMetrics) {
  const pending = player.pending;
  if (!pending || pending.blockId !== blockId) return;
  player.pending = null;
  if (m.inWindow(pending.sentAt)) {
    m.wordsAnswered++;
    m.wordLatency.push(at - pending.sentAt);
  }
}

function scheduleWord(player: Player, m: RunMetrics) {
  later(player, uniform(1000, 2000), () => {
    if (!player.playing) return;
    typeWord(player, m);
    scheduleWord(player, m);
  });
}

/** A block coming at the player (80 % when there is one), else a static one; 5 % of words miss the field. */
function typeWord(player: Player, m: RunMetrics) {
  const incoming = player.side === "red" ? "moving_left" : "moving_right";
  const coming: [number, BlockSeen][] = [];
  const still: [number, BlockSeen][] = [];
  for (const entry of player.blocks) {
    if (entry[1].status === incoming) coming.push(entry);
    else if (entry[1].status === "static") still.push(entry);
  }
  const pool = coming.length > 0 && (Math.random() < 0.8 || still.length === 0) ? coming : still;
  const target = Math.random() < 0.05 || pool.length === 0 ? null : pool[Math.floor(Math.random() * pool.length)];
  const sentAt = now();
  if (!player.client.emit("duel_word_typed", { typed_word: target ? target[1].word : JUNK_WORD })) return;
  player.pending = target ? { blockId: target[0], sentAt } : null;
  if (target && m.inWindow(sentAt)) m.wordsSent++;
}

/** What the /duel page does after the end (refreshes at 0.3 s and 1 s), then a player who plays again. */
function gameOver(player: Player, result: { reason: string }, at: number, m: RunMetrics) {
  player.playing = false;
  player.pending = null;
  clearTimers(player);
  if (m.inWindow(at) && player.side === "red") {
    m.duelsOver++;
    m.count(m.reasons, result.reason);
  }
  const listAck = (answer: unknown, receivedAt: number) =>
    countDelivery(m, "ack:duel_get_online_users", JSON.stringify(answer).length, receivedAt);
  later(player, 300, () => player.client.emitWithAck("duel_get_online_users", {}, listAck));
  later(player, 1000, () => {
    player.client.emitWithAck("duel_get_online_users", {}, listAck);
    player.client.emit("duel_update_user_list_force", {});
  });
  later(player, uniform(1500, 4000), () => {
    player.client.emit("duel_leave_game", {});
    player.session = null;
    later(player, 300, () => player.client.emit("duel_find_match", {}));
  });
}

function connectAll(players: Player[]) {
  return eachConcurrently(players, OPTIONS.connectConcurrency, async (player) => {
    await player.client.connect();
    player.client.emit("duel_enter_menu", {});
    later(player, uniform(0, OPTIONS.searchSpreadMs), () => player.client.emit("duel_find_match", {}));
  });
}

/** Every player sends `duel_heartbeat` every 5 s, spread evenly over the 5 s. */
function startHeartbeats(players: Player[]) {
  const slices = 50;
  let slice = 0;
  const timer = setInterval(() => {
    for (let i = slice; i < players.length; i += slices)
      players[i].client.emit("duel_heartbeat", { timestamp: Date.now() });
    slice = (slice + 1) % slices;
  }, 5_000 / slices);
  return () => clearInterval(timer);
}

// --- one run ---------------------------------------------------------------------------------------------------

interface RunResult {
  variant: Variant;
  players: number;
  round: number;
  valid: boolean;
  invalidReasons: string[];
  connectFailures: number;
  concurrentDuelsAvg: number;
  concurrentDuelsMin: number;
  duelsStartedPerS: number;
  duelsOverPerS: number;
  framesPerS: number;
  bytesPerFrame: number;
  serverCores: number;
  serverUsPerFrame: number;
  wordsPerS: number;
  wordAnsweredShare: number;
  wordP50: number;
  wordP99: number;
  timeLatenessP50: number;
  timeLatenessP99: number;
  generatorLagP99: number;
  generatorCpu: number;
  foreignCores: number;
  rssMiB: number;
  closedUnexpectedly: number;
  byEvent: Record<string, number>;
  reasons: Record<string, number>;
  errors: Record<string, number>;
}

const round2 = (v: number) => Math.round(v * 100) / 100;

async function launch(variant: Variant): Promise<LaunchedProcess> {
  return launchServer({
    entry: variant === "B" ? "bench/raw-duel-server.ts" : "bench/server-under-test.ts",
    roomCount: 0,
    core: SERVER_CORE,
    bunArgs: process.env.BENCH_CPU_PROF
      ? ["--cpu-prof", "--cpu-prof-md", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
      : [],
  });
}

async function runOnce(variant: Variant, playerCount: number, round: number): Promise<RunResult> {
  console.log(`\n▶ ${variant} · ${playerCount} players · round ${round}`);
  await waitForQuiet(OPTIONS.quietWaitS, OPTIONS.foreignLimit);
  const server = await launch(variant);
  const m = new RunMetrics();
  const stopLag = startLagSampler(m);
  const players = Array.from({ length: playerCount }, (_, i) => makePlayer(i, server.port, m));
  let stopHeartbeats = () => {};
  try {
    const rampStart = now();
    const connectFailures = await connectAll(players);
    stopHeartbeats = startHeartbeats(players);
    console.log(`  connected in ${((now() - rampStart) / 1000).toFixed(1)} s (${connectFailures} failures)`);
    await sleep(OPTIONS.warmupS * 1000);

    const cpu0 = processCpuMicros(server.pid);
    const gen0 = process.cpuUsage();
    const machine0 = machineBusyMicros();
    m.windowStart = now();
    m.windowEnd = m.windowStart + OPTIONS.windowS * 1000;
    m.recording = true;
    while (now() < m.windowEnd) {
      await sleep(Math.min(1000, m.windowEnd - now()));
      m.concurrentDuels.push(players.filter((p) => p.playing).length / 2);
    }
    const cpu1 = processCpuMicros(server.pid);
    const gen1 = process.cpuUsage(gen0);
    const machine1 = machineBusyMicros();
    const elapsedS = (now() - m.windowStart) / 1000;
    await sleep(3000); // frames sent inside the window still in flight
    m.recording = false;
    const rssMiB = processRssKiB(server.pid) / 1024;

    const serverMicros = cpu1 - cpu0;
    const generatorMicros = gen1.user + gen1.system;
    const foreignCores = Math.max(0, (machine1 - machine0 - serverMicros - generatorMicros) / 1e6 / elapsedS);
    const [wordP50, wordP99] = m.wordLatency.percentiles(50, 99);
    const [timeP50, timeP99] = m.timeLateness.percentiles(50, 99);
    const [lagP99] = m.lag.percentiles(99);
    const [duelsMin] = m.concurrentDuels.percentiles(0);
    const invalidReasons: string[] = [];
    if (lagP99 > OPTIONS.lagLimitMs) invalidReasons.push(`generator lag p99 ${lagP99.toFixed(1)} ms`);
    if (generatorMicros / 1e6 / elapsedS > OPTIONS.cpuLimit) invalidReasons.push("generator CPU > 90 %");
    if (connectFailures > 0) invalidReasons.push(`${connectFailures} players not connected`);
    if (foreignCores > OPTIONS.foreignLimit)
      invalidReasons.push(`other processes used ${foreignCores.toFixed(2)} cores`);
    return {
      variant,
      players: playerCount,
      round,
      valid: invalidReasons.length === 0,
      invalidReasons,
      connectFailures,
      concurrentDuelsAvg: round2(m.concurrentDuels.mean()),
      concurrentDuelsMin: duelsMin,
      duelsStartedPerS: round2(m.duelsStarted / elapsedS),
      duelsOverPerS: round2(m.duelsOver / elapsedS),
      framesPerS: Math.round(m.delivered / elapsedS),
      bytesPerFrame: Math.round(m.deliveredChars / Math.max(1, m.delivered)),
      serverCores: round2(serverMicros / 1e6 / elapsedS),
      serverUsPerFrame: round2(serverMicros / Math.max(1, m.delivered)),
      wordsPerS: Math.round(m.wordsSent / elapsedS),
      wordAnsweredShare: round2(m.wordsAnswered / Math.max(1, m.wordsSent)),
      wordP50: round2(wordP50),
      wordP99: round2(wordP99),
      timeLatenessP50: round2(timeP50),
      timeLatenessP99: round2(timeP99),
      generatorLagP99: round2(lagP99),
      generatorCpu: round2(generatorMicros / 1e6 / elapsedS),
      foreignCores: round2(foreignCores),
      rssMiB: Math.round(rssMiB),
      closedUnexpectedly: m.closedUnexpectedly,
      byEvent: Object.fromEntries(m.byEvent),
      reasons: Object.fromEntries(m.reasons),
      errors: Object.fromEntries(m.errors),
    };
  } finally {
    stopHeartbeats();
    stopLag();
    for (const player of players) {
      clearTimers(player);
      player.client.close();
    }
    await server.stop();
    await sleep(2000);
  }
}

function printRun(r: RunResult) {
  console.log(
    `  ${r.valid ? "valid" : `INVALID (${r.invalidReasons.join("; ")})`}: ${r.concurrentDuelsAvg} duels in progress ` +
      `(min ${r.concurrentDuelsMin}), ${r.framesPerS} frames/s (${r.bytesPerFrame} B), server ${(r.serverCores * 100).toFixed(0)} % ` +
      `of a core = ${r.serverUsPerFrame} µs/frame; words ${r.wordsPerS}/s answered ${r.wordAnsweredShare}, ` +
      `p50 ${r.wordP50} ms p99 ${r.wordP99} ms; time_update late p50 ${r.timeLatenessP50} p99 ${r.timeLatenessP99} ms; ` +
      `generator lag p99 ${r.generatorLagP99} ms, CPU ${(r.generatorCpu * 100).toFixed(0)} %; errors ${JSON.stringify(r.errors)}`,
  );
}

async function main() {
  pinSelf(GENERATOR_CORE);
  const runs: RunResult[] = [];
  for (const step of OPTIONS.steps) {
    for (let round = 1; round <= OPTIONS.rounds; round++) {
      for (const variant of OPTIONS.variants) {
        const result = await runOnce(variant, step, round);
        printRun(result);
        runs.push(result);
      }
    }
  }
  console.log("\nvariant players duels  frames/s  server%  µs/frame  ratio  word p50/p99  time_update p50/p99  valid");
  for (const r of runs) {
    const raw = runs.find((b) => b.variant === "B" && b.players === r.players && b.round === r.round);
    const ratio = raw ? (r.serverUsPerFrame / raw.serverUsPerFrame).toFixed(2) : "-";
    console.log(
      [
        r.variant.padEnd(7),
        String(r.players).padStart(7),
        String(Math.round(r.concurrentDuelsAvg)).padStart(6),
        String(r.framesPerS).padStart(9),
        `${(r.serverCores * 100).toFixed(0)} %`.padStart(8),
        String(r.serverUsPerFrame).padStart(9),
        ratio.padStart(6),
        `${r.wordP50}/${r.wordP99}`.padStart(13),
        `${r.timeLatenessP50}/${r.timeLatenessP99}`.padStart(20),
        r.valid ? "yes" : "no",
      ].join(" "),
    );
  }
  const dir = join(ROOT, "bench/results");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `duel-load-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, JSON.stringify({ machine: machine(), options: OPTIONS, runs }, null, 2));
  console.log(`\nfull record: ${file}`);
  process.exit(0);
}

await main();
