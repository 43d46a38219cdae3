/**
 * Watchers (issue 27, "Figures"): a room of 20 players with 1,000 watchers and a duel with 1,000 watchers, each on one
 * server process, against the same game without watchers — the players' p99 latencies must stay within 1.2×
 * (bench/README.md "Watchers (issue 27)").
 *
 * ONE run per scene: one server process (bench/server-under-test.ts: our real server, every module, on core 0), the
 * players in this process (the generator, core 1; every players' latency on its one clock) and the watchers in a
 * crowd process (watchers-crowd.ts, core 1 at nice 10: a thousand watchers' frames read by the players' own event
 * loop would delay the players' frames by the generator's work, not the server's). The players stay for the whole
 * run and never stop playing; the run is a series of phases, each with a number of watchers (`--phases
 * 0,1000,0,1000`: without, with, without, with, so a drift of the machine or of the server over the run shows as a
 * difference between two phases of the same kind). Between phases the watchers arrive or leave; then the generator
 * waits until the server is calm again and the machine is quiet (other processes, not ours), warms up, and measures a
 * window.
 *
 * Scenes (`--scenes room,duel`, each with a fresh server and crowd, one after the other):
 *   - room (watchers-room.ts): 20 guests racing rounds with their steps and chat as rooms-load's `--progress 1`
 *     players, typing without mistakes so every step that moves a lane can be found in the frames; watchers join
 *     with `spectate: true` and chat now and then. Sampled at players and watchers: chat, submission, lanes.
 *   - duel (watchers-duel.ts): two guests playing duels back to back as duel-load's players; the watchers follow the
 *     pair from duel to duel (`duel_watch` at each match) and chat among themselves. Sampled: the word latency and
 *     the time updates' lateness at the players and at the watchers, the watchers' chat and arrival.
 *
 * Measured in each window: the scene's latencies (by send time; the watchers' with the share over 1 s: watchers see
 * what players see within 1 s), chat lines delivered against expected, the server's CPU (utime + stime of
 * /proc/<pid>/stat) per delivered event frame (players' and watchers') and its share of a core, its RSS. A window is
 * marked invalid as rooms-load's are (generator lag p99 > 20 ms, blocked > 1 % of the window, generator CPU > 90 %,
 * other processes > 10 % of a core), when the crowd process used more than 90 % of a core, or when players or
 * watchers are missing; one disturbed by other processes is measured again (`--retries`). The summary pools the
 * phases with the same number of watchers and gives, for each players' latency, p99 with watchers ÷ p99 without (the
 * figure: ≤ 1.2).
 *
 * Usage: ulimit -n "$(ulimit -Hn)"; bun bench/watchers-load.ts [--scenes room,duel] [--phases 0,1000,0,1000]
 *   [--window 120] [--warmup 15] [--watcher-chat 0.002] [--retries 2] [--quiet-wait 600]
 * Prints a table per scene; writes bench/results/watchers-load-<time>.json (every phase, every counter).
 * BENCH_CPU_PROF=<dir>: a CPU profile of each scene's server, start to end (Bun --cpu-prof --cpu-prof-md).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type LaunchedProcess, launchServer, processRssKiB, ROOT, sleep } from "./launch-server";
import {
  DISTURBED,
  generatorAndMachineReasons,
  machine,
  option,
  pinSelf,
  type Samples,
  startLagSampler,
  startWindowReadings,
  WINDOW_LIMITS,
  type WindowReadings,
  waitForQuiet,
  waitForServerCalm,
} from "./measure";
import { DuelPlayers } from "./watchers-duel";
import { RoomPlayers } from "./watchers-room";
import {
  type CrowdPhase,
  type FromCrowd,
  type LatencyFigures,
  type News,
  type PhaseMetrics,
  type PlayersScene,
  pooledFigures,
  type SceneName,
  type ToCrowd,
  toEpoch,
} from "./watchers-scene";

// --- options ---------------------------------------------------------------------------------------------------

const OPTIONS = {
  scenes: option("scenes", "room,duel").split(",") as SceneName[],
  /** Watchers in each phase, in order. */
  phases: option("phases", "0,1000,0,1000").split(",").map(Number),
  windowS: Number(option("window", "120")),
  warmupS: Number(option("warmup", "15")),
  /** The room's players. */
  players: 20,
  chatRatePerPlayer: 0.1,
  /** Chat lines a second per watcher. */
  watcherChatRate: Number(option("watcher-chat", "0.002")),
  stepMs: 100,
  connectConcurrency: 200,
  retries: Number(option("retries", "2")),
  quietWaitS: Number(option("quiet-wait", "600")),
  /** The figure: the players' p99 with watchers within this multiple of the p99 without. */
  ratioLimit: 1.2,
  /** The crowd process's niceness: below the players' process when both have frames to read on core 1. */
  crowdNice: 10,
  ...WINDOW_LIMITS,
};
for (const scene of OPTIONS.scenes) if (scene !== "room" && scene !== "duel") throw new Error("scenes: room, duel");
for (const w of OPTIONS.phases) if (!(Number.isInteger(w) && w >= 0 && w <= 5_000)) throw new Error("phases: 0..5000");
if (!(OPTIONS.windowS > 0 && OPTIONS.windowS <= 600)) throw new Error("window: 1..600 s");

const SERVER_CORE = "0";
const GENERATOR_CORE = "1";
const now = () => performance.now();
const round2 = (v: number) => Math.round(v * 100) / 100;
const round3 = (v: number) => Math.round(v * 1000) / 1000;

// --- the crowd process -----------------------------------------------------------------------------------------

/** The watchers' process: one request at a time, answered by a message of the same type; news any time. */
class Crowd {
  private waiting: { type: string; resolve: (message: FromCrowd) => void } | null = null;
  /** Windows the crowd measured (retries included), for the pooled figures. */
  windows = 0;

  private constructor(private readonly proc: Bun.Subprocess) {}

  static spawn() {
    let crowd: Crowd | undefined;
    const proc = Bun.spawn([process.execPath, join(ROOT, "bench/watchers-crowd.ts")], {
      cwd: ROOT,
      stdout: "inherit",
      stderr: "inherit",
      ipc: (message: FromCrowd) => crowd?.answered(message),
    });
    crowd = new Crowd(proc);
    // Pinned beside the generator, below it: the players' frames are read first when both have some.
    Bun.spawnSync(["taskset", "-cp", GENERATOR_CORE, String(proc.pid)]);
    Bun.spawnSync(["renice", "-n", String(OPTIONS.crowdNice), "-p", String(proc.pid)]);
    return crowd;
  }

  get pid() {
    return this.proc.pid;
  }

  request<T extends FromCrowd["type"]>(message: ToCrowd, type: T): Promise<Extract<FromCrowd, { type: T }>> {
    return new Promise((resolve) => {
      this.waiting = { type, resolve: resolve as (message: FromCrowd) => void };
      this.proc.send(message);
    });
  }

  tell(news: News) {
    this.proc.send(news);
  }

  private answered(message: FromCrowd) {
    if (this.waiting?.type !== message.type) return;
    const { resolve } = this.waiting;
    this.waiting = null;
    resolve(message);
  }

  /** How far the crowd's epoch clock is from this process's (half a round trip), at the smallest round trip. */
  async clockOffset() {
    let best = { rtt: Number.POSITIVE_INFINITY, offset: 0 };
    for (let i = 0; i < 10; i++) {
      const sentAt = toEpoch(now());
      const { at } = await this.request({ type: "clock", sentAt }, "clock");
      const back = toEpoch(now());
      if (back - sentAt < best.rtt) best = { rtt: back - sentAt, offset: at - (sentAt + back) / 2 };
    }
    return best;
  }

  async stop() {
    this.proc.send({ type: "stop" } satisfies ToCrowd);
    await Promise.race([this.proc.exited, sleep(5000)]);
    this.proc.kill();
  }
}

// --- phases ----------------------------------------------------------------------------------------------------

interface Present {
  players: number;
  watchers: number;
}

interface PhaseResult {
  scene: SceneName;
  phase: number;
  watchers: number;
  attempt: number;
  players_present: number;
  watchers_present: number;
  settle_seconds: number;
  window_seconds: number;
  valid: boolean;
  invalid_reasons: string[];
  delivered: number;
  delivered_per_second: number;
  watcher_frames_per_second: number;
  by_event_players: Record<string, number>;
  by_event_watchers: Record<string, number>;
  server_cpu_utilisation: number;
  server_cpu_us_per_delivered: number;
  server_user_us_per_delivered: number;
  server_rss_kib: number;
  /** Chat lines received ÷ expected (null: no chat line in the window). */
  chat_delivery_ratio: number | null;
  latency_ms: Record<string, LatencyFigures>;
  errors: Record<string, number>;
  generator_cpu: number;
  generator_lag_p99_ms: number;
  crowd_cpu: number;
  crowd_lag_p99_ms: number;
  /** Lane frames that showed a step before the crowd had been told of it (0 expected; room only). */
  crowd_lanes_ahead_of_news: number;
  other_processes_cpu: number;
  closed_unexpectedly: number;
  /** The scene's own counters (messages sent, duels played…). */
  scene_counts: Record<string, unknown>;
  /** The crowd's window, for its pooled figures. */
  crowd_window: number;
  samples?: Map<string, Samples>;
}

async function runPhase(scene: PlayersScene, crowd: Crowd, server: LaunchedProcess, phase: number, watchers: number) {
  console.log(`\n▶ ${scene.name}, phase ${phase + 1}/${OPTIONS.phases.length}: ${watchers} watchers`);
  const { inGame, total } = await crowd.request({ type: "watchers", count: watchers }, "watchers");
  console.log(`  watchers in the game: ${inGame}/${total}`);
  let result: PhaseResult | undefined;
  for (let attempt = 0; attempt <= OPTIONS.retries; attempt++) {
    const settleSeconds = await waitForServerCalm(server.pid);
    await waitForQuiet(OPTIONS.quietWaitS, OPTIONS.foreignLimit, [server.pid, crowd.pid]);
    result = await measureWindow(scene, crowd, server, { phase, watchers, attempt, settleSeconds });
    printPhase(scene, result);
    if (!result.invalid_reasons.some((r) => r.startsWith(DISTURBED))) break;
    if (attempt < OPTIONS.retries) console.log("  window disturbed by other processes: measuring it again");
  }
  return result!;
}

async function measureWindow(
  scene: PlayersScene,
  crowd: Crowd,
  server: LaunchedProcess,
  at: { phase: number; watchers: number; attempt: number; settleSeconds: number },
): Promise<PhaseResult> {
  const m = scene.metrics.open();
  const stopLag = startLagSampler(m);
  try {
    await sleep(OPTIONS.warmupS * 1000);
    const start = now() + 100;
    const end = start + OPTIONS.windowS * 1000;
    await crowd.request({ type: "open", windowStart: toEpoch(start), windowEnd: toEpoch(end) }, "opened");
    await sleep(start - now());
    const readings = startWindowReadings(server.pid, [crowd.pid]);
    m.windowStart = start;
    m.windowEnd = end;
    m.recording = true;
    await sleep(end - now());
    const read = readings.finish();
    const rss = processRssKiB(server.pid);
    const players = scene.playersPresent();
    m.recording = false;
    await sleep(3000); // what was sent in the window may still be on its way
    const { phase } = await crowd.request({ type: "close" }, "closed");
    const crowdWindow = crowd.windows++;
    return phaseResult(scene, m, phase, read, {
      ...at,
      rss,
      crowdWindow,
      present: { players, watchers: phase.watchersPresent },
    });
  } finally {
    stopLag();
    scene.metrics.close();
  }
}

function phaseResult(
  scene: PlayersScene,
  m: PhaseMetrics,
  crowd: CrowdPhase,
  read: WindowReadings,
  at: {
    phase: number;
    watchers: number;
    attempt: number;
    settleSeconds: number;
    rss: number;
    crowdWindow: number;
    present: Present;
  },
): PhaseResult {
  const { present } = at;
  const reasons = generatorAndMachineReasons(m, read, OPTIONS);
  if (read.helpersCpu > OPTIONS.cpuLimit) reasons.push(`crowd process CPU ${(read.helpersCpu * 100).toFixed(0)} %`);
  if (present.players < scene.playerCount) reasons.push(`${scene.playerCount - present.players} players missing`);
  if (present.watchers < at.watchers) reasons.push(`${at.watchers - present.watchers} watchers missing`);
  const delivered = m.delivered + crowd.frames;
  const perFrame = (us: number) => round3(us / Math.max(1, delivered));
  const expected = scene.chatExpected({ players: m.chatLines, watchers: crowd.chatLines }, present);
  const players = pooledFigures(scene.latencies, [m.latency]);
  return {
    scene: scene.name,
    phase: at.phase + 1,
    watchers: at.watchers,
    attempt: at.attempt + 1,
    players_present: present.players,
    watchers_present: present.watchers,
    settle_seconds: round2(at.settleSeconds),
    window_seconds: round2(read.elapsedS),
    valid: reasons.length === 0,
    invalid_reasons: reasons,
    delivered,
    delivered_per_second: Math.round(delivered / read.elapsedS),
    watcher_frames_per_second: Math.round(crowd.frames / read.elapsedS),
    by_event_players: Object.fromEntries([...m.byEvent].sort((a, b) => b[1] - a[1])),
    by_event_watchers: crowd.byEvent,
    server_cpu_utilisation: round3(read.serverUs / 1e6 / read.elapsedS),
    server_cpu_us_per_delivered: perFrame(read.serverUs),
    server_user_us_per_delivered: perFrame(read.serverUserUs),
    server_rss_kib: at.rss,
    chat_delivery_ratio: expected === 0 ? null : round3((m.chatReceived + crowd.chatReceived) / expected),
    latency_ms: { ...players, ...crowd.latency },
    errors: { ...Object.fromEntries(m.errors), ...prefixed("watchers ", crowd.errors) },
    generator_cpu: round3(read.generatorCpu),
    generator_lag_p99_ms: round2(m.lag.percentiles(99)[0]),
    crowd_cpu: round3(read.helpersCpu),
    crowd_lag_p99_ms: round2(crowd.lagP99Ms),
    crowd_lanes_ahead_of_news: crowd.aheadOfNews,
    other_processes_cpu: round3(read.foreignCores),
    closed_unexpectedly: m.closedUnexpectedly + crowd.closedUnexpectedly,
    scene_counts: {
      ...scene.extra(m),
      chat_lines: { players: m.chatLines, watchers: crowd.chatLines },
      sent: Object.fromEntries(m.sent),
      crowd_sent: crowd.sent,
    },
    crowd_window: at.crowdWindow,
    samples: m.latency,
  };
}

const prefixed = (prefix: string, counts: Record<string, number>) =>
  Object.fromEntries(Object.entries(counts).map(([key, n]) => [`${prefix}${key}`, n]));

function printPhase(scene: PlayersScene, r: PhaseResult) {
  const names = r.watchers > 0 ? [...scene.latencies, ...scene.watcherLatencies] : scene.latencies;
  const p99s = names.map((name) => `${name} ${r.latency_ms[name]?.p99}`).join(", ");
  const chat = r.chat_delivery_ratio === null ? "-" : `${(r.chat_delivery_ratio * 100).toFixed(2)} %`;
  console.log(
    `  ${r.valid ? "valid" : `INVALID (${r.invalid_reasons.join("; ")})`}: ${r.delivered_per_second} frames/s ` +
      `(${r.watcher_frames_per_second} to watchers), server ${(r.server_cpu_utilisation * 100).toFixed(1)} % of a core = ` +
      `${r.server_cpu_us_per_delivered} µs/frame; p99 (ms): ${p99s}; chat delivered ${chat}; generator CPU ` +
      `${(r.generator_cpu * 100).toFixed(0)} % lag p99 ${r.generator_lag_p99_ms} ms; crowd CPU ` +
      `${(r.crowd_cpu * 100).toFixed(0)} % lag p99 ${r.crowd_lag_p99_ms} ms; other processes ` +
      `${(r.other_processes_cpu * 100).toFixed(0)} % of a core; ${JSON.stringify(r.scene_counts)}`,
  );
  if (Object.keys(r.errors).length > 0) console.log(`  errors: ${JSON.stringify(r.errors)}`);
}

// --- summary ---------------------------------------------------------------------------------------------------

/** The phases with the same number of watchers, their samples pooled; then each players' p99 against no watchers. */
async function summarise(scene: PlayersScene, crowd: Crowd, phases: PhaseResult[]) {
  const counts = [...new Set(phases.map((p) => p.watchers))].sort((a, b) => a - b);
  const groups = [];
  for (const watchers of counts) {
    const list = phases.filter((p) => p.watchers === watchers);
    const mean = (pick: (p: PhaseResult) => number) => list.reduce((s, p) => s + pick(p), 0) / list.length;
    const players = pooledFigures(
      scene.latencies,
      list.map((p) => p.samples!),
    );
    const { latency } = await crowd.request({ type: "pooled", phases: list.map((p) => p.crowd_window) }, "pooled");
    groups.push({
      watchers,
      phases: list.length,
      valid: list.every((p) => p.valid),
      cpu_us_per_delivered: round3(mean((p) => p.server_cpu_us_per_delivered)),
      server_cpu_utilisation: round3(mean((p) => p.server_cpu_utilisation)),
      delivered_per_second: Math.round(mean((p) => p.delivered_per_second)),
      server_rss_kib: Math.round(mean((p) => p.server_rss_kib)),
      latency_ms: { ...players, ...latency } as Record<string, LatencyFigures>,
    });
  }
  const base = groups.find((g) => g.watchers === 0);
  const ratios = groups
    .filter((g) => base && g !== base)
    .map((g) => {
      const ratio = Object.fromEntries(
        scene.latencies.map((name) => [name, round2(g.latency_ms[name].p99 / base!.latency_ms[name].p99)]),
      );
      return {
        watchers: g.watchers,
        p99_over_no_watchers: ratio,
        within: Object.values(ratio).every((r) => r <= OPTIONS.ratioLimit),
        // A figure only from windows that were all valid, with and without watchers.
        valid: g.valid && base!.valid,
      };
    });
  return { scene: scene.name, groups, ratios };
}

function printTable(scene: PlayersScene, summary: Awaited<ReturnType<typeof summarise>>) {
  const { groups, ratios } = summary;
  const cost = [[scene.name, "phases", "µs/frame", "server CPU", "frames/s", "server RSS", "valid"]];
  for (const g of groups) {
    cost.push([
      `${g.watchers} watchers`,
      String(g.phases),
      String(g.cpu_us_per_delivered),
      `${(g.server_cpu_utilisation * 100).toFixed(1)} %`,
      String(g.delivered_per_second),
      `${(g.server_rss_kib / 1024).toFixed(0)} MiB`,
      g.valid ? "yes" : "NO",
    ]);
  }
  // One row per latency: p50/p99 (and the watchers' share over 1 s) at each number of watchers.
  const latency = [["latency (ms)", ...groups.map((g) => `${g.watchers} watchers p50/p99`), "p99 ratio"]];
  for (const name of [...scene.latencies, ...scene.watcherLatencies]) {
    const cells = groups.map((g) => {
      const f = g.latency_ms[name];
      if (!f || f.count === 0) return "-";
      const over = name.startsWith("watchers.") ? ` (${(f.over_1s * 100).toFixed(2)} % > 1 s)` : "";
      return `${f.p50}/${f.p99}${over}`;
    });
    const ratio = ratios.map((r) => r.p99_over_no_watchers[name]).filter((v) => v !== undefined);
    latency.push([name, ...cells, ratio.map((v) => `${v}×`).join(", ")]);
  }
  for (const table of [cost, latency]) {
    const widths = table[0].map((_, i) => Math.max(...table.map((l) => l[i].length)));
    console.log("");
    for (const line of table) console.log(line.map((cell, i) => cell.padStart(widths[i])).join("  "));
  }
  for (const r of ratios) {
    console.log(
      `\n${scene.name}: the players' p99 with ${r.watchers} watchers is ${r.within ? "" : "NOT "}within ` +
        `${OPTIONS.ratioLimit}× of the p99 without (every players' latency above)` +
        (r.valid ? "" : " — but some windows were invalid: no figure"),
    );
  }
}

// --- main ------------------------------------------------------------------------------------------------------

/** One scene's run: a fresh server and crowd, its players, the phases, the summary. */
async function runScene(name: SceneName) {
  console.log(`\n■ ${name}`);
  await waitForQuiet(OPTIONS.quietWaitS, OPTIONS.foreignLimit);
  const server = await launchServer({
    entry: "bench/server-under-test.ts",
    roomCount: name === "room" ? 1 : 0,
    core: SERVER_CORE,
    bunArgs: process.env.BENCH_CPU_PROF
      ? ["--cpu-prof", "--cpu-prof-md", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
      : [],
  });
  const crowd = Crowd.spawn();
  const scene: PlayersScene =
    name === "room"
      ? new RoomPlayers({ ...OPTIONS, port: server.port, roomId: server.rooms[0] })
      : new DuelPlayers(server.port);
  const phases: PhaseResult[] = [];
  try {
    const { connectConcurrency: concurrency, watcherChatRate } = OPTIONS;
    const roomId = server.rooms[0] ?? 0;
    await crowd.request(
      { type: "start", scene: name, port: server.port, roomId, watcherChatRate, concurrency },
      "started",
    );
    const clock = await crowd.clockOffset();
    console.log(`  crowd clock: ${clock.offset.toFixed(3)} ms from ours (round trip ${clock.rtt.toFixed(3)} ms)`);
    await scene.start((news) => crowd.tell(news));
    for (const [index, watchers] of OPTIONS.phases.entries()) {
      phases.push(await runPhase(scene, crowd, server, index, watchers));
    }
    const summary = await summarise(scene, crowd, phases);
    printTable(scene, summary);
    return { phases, summary: { ...summary, crowd_clock_offset_ms: round3(clock.offset) } };
  } finally {
    scene.stop();
    await crowd.stop();
    await server.stop();
  }
}

async function main() {
  pinSelf(GENERATOR_CORE);
  const info = machine();
  console.log(`machine: ${JSON.stringify(info)}`);
  console.log(`options: ${JSON.stringify(OPTIONS)}`);
  const started = new Date();
  const runs = [];
  for (const name of OPTIONS.scenes) runs.push(await runScene(name));
  const dir = join(ROOT, "bench/results");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `watchers-load-${started.toISOString().replace(/[:.]/g, "-")}.json`);
  const summaries = runs.map((run) => run.summary);
  const phases = runs.flatMap((run) => run.phases.map(({ samples: _samples, ...rest }) => rest));
  writeFileSync(file, `${JSON.stringify({ machine: info, options: OPTIONS, started, summaries, phases }, null, 2)}\n`);
  console.log(`\nwrote ${file}`);
}

await main();
process.exit(0);
