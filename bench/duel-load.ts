/**
 * Load benchmark of the 1:1 duel (issue 13, "Benchmark"). One process is the orchestrator and the load generator
 * (pinned to core 1), so every latency is taken on one clock. For every step (players, two per duel) it starts the
 * server under test on core 0, alternating A = our real server (bench/server-under-test.ts: every module, the duel
 * runtime on the game host's shared scheduler) and B = bench/raw-duel-server.ts (the same pure duel mode and the
 * same frames over raw Bun pub/sub, one timer per duel).
 *
 * Every player (`duel-players.ts`) is a guest that behaves like the /duel page: enters the menu (and so gets the coalesced online list,
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
import { clearTimers, connectDuelPlayers, type DuelCounters, makeDuelPlayer, startHeartbeats } from "./duel-players";
import { type LaunchedProcess, launchServer, processRssKiB, ROOT, sleep } from "./launch-server";
import {
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
const now = () => performance.now();

// --- metrics ---------------------------------------------------------------------------------------------------

class RunMetrics extends WindowMetrics implements DuelCounters {
  wordsSent = 0;
  wordsAnswered = 0;
  wordLatency = new Samples();
  timeLateness = new Samples();
  duelsStarted = 0;
  duelsOver = 0;
  reasons = new Map<string, number>();
  concurrentDuels = new Samples();
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
  const players = Array.from({ length: playerCount }, (_, i) => makeDuelPlayer(i, server.port, { metrics: () => m }));
  let stopHeartbeats = () => {};
  try {
    const rampStart = now();
    const connectFailures = await connectDuelPlayers(players, OPTIONS.connectConcurrency, OPTIONS.searchSpreadMs);
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
