/**
 * Load benchmark of the typing rooms (issue 3, "Benchmark"). ONE process is the orchestrator and the load
 * generator, so every latency is measured on one clock (performance.now()). For every step (players in rooms of
 * 20) it runs the server under test, pinned to core 0, alternating A = our real server (apps/server, socket.io
 * on bun-engine, with the fast broadcast path) and B = bench/raw-baseline-server.ts (raw Bun pub/sub doing the
 * same fan-out): A, B, A, B. The generator pins itself to core 1.
 *
 * Traffic: every player is a guest (join_anonymous); chat at 0.1 message/s per player (one Poisson process over
 * all players), one game:submission per game per player (the announced sentence typed with a few errors at
 * 250–550 타/분 after game:state in_progress), and the game broadcasts the rooms send by themselves.
 *
 * Measured in a window after warm-up: server CPU (utime+stime of /proc/<pid>/stat) per delivered event frame,
 * chat_message → chat:message latency at every receiver (the send time travels in the message text), delivery
 * ratio of those chat messages, game:submission → own game:submission_complete latency, server RSS per connected
 * player (VmRSS with N joined − VmRSS idle, over N). The generator samples its event-loop lag (10-ms timer) and
 * its CPU; a run where lag p99 > 20 ms or CPU > 90 % is marked invalid. Then a separate phase measures scoring +
 * one-transaction result writes at saturation (bench/scoring-bench.ts, pinned to core 0).
 *
 * With `--progress 1` every player also sends its answer box as `game:progress` 10 times a second while a round is
 * in progress (the answer typed at its pace, the last step equal to the answer), and the rooms send their coalesced
 * game:progress_update (issue 26's figure: chat p99 and CPU per delivered frame against the baseline's same fan-out).
 *
 * Usage: bench/run.sh [--steps 1000,5000,10000] [--rounds 2] [--window 60] [--warmup 15] [--variants A,B]
 *        [--progress 0|1]
 *        (variant A0 = our server with socket.io's own per-socket broadcast, BENCH_FAST_BROADCAST=0)
 * Writes bench/results/rooms-load-<timestamp>.json and prints a table.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startLagLog } from "./lag-log";
import { type LaunchedProcess, launchServer, processRssKiB, ROOT, sleep } from "./launch-server";
import {
  DISTURBED,
  eachConcurrently,
  generatorAndMachineReasons,
  machine,
  option,
  pinSelf,
  Samples,
  startLagSampler,
  startWindowReadings,
  WINDOW_LIMITS,
  WindowMetrics,
  waitForQuiet,
  waitForServerCalm,
} from "./measure";
import { ProtocolClient, payloadOf } from "./protocol-client";
import {
  ChatPace,
  chatSentAt,
  planAnswer,
  startPoisson,
  startSpreadTicker,
  type Typing,
  timedChatLine,
  typedSoFar,
} from "./room-traffic";

// --- options ---------------------------------------------------------------------------------------------------

type Variant = "A" | "B" | "A0";

const OPTIONS = {
  steps: option("steps", "1000,5000,10000").split(",").map(Number),
  rounds: Number(option("rounds", "2")),
  windowS: Number(option("window", "60")),
  warmupS: Number(option("warmup", "15")),
  variants: option("variants", "A,B").split(",") as Variant[],
  /** Variants run once per step after the alternated rounds (e.g. A0, to see what the fast path saves). */
  extraVariants: option("extra", "").split(",").filter(Boolean) as Variant[],
  scoring: option("scoring", "1") !== "0",
  /** Every player sends 10 steps a second while a round is in progress. */
  progress: option("progress", "0") === "1",
  stepMs: 100,
  roomSize: 20,
  chatRatePerPlayer: 0.1,
  connectConcurrency: Number(option("concurrency", "200")),
  ...WINDOW_LIMITS,
  /** Runs thrown out because other processes disturbed them are repeated this many times. */
  retries: Number(option("retries", "3")),
  quietWaitS: Number(option("quiet-wait", "600")),
};
for (const steps of OPTIONS.steps) if (!(steps > 0 && steps <= 10_000)) throw new Error("steps: 1..10000 players");
if (!(OPTIONS.windowS > 0 && OPTIONS.windowS <= 600)) throw new Error("window: 1..600 s");
if (!(OPTIONS.rounds >= 1 && OPTIONS.rounds <= 5)) throw new Error("rounds: 1..5");

const BUN = process.execPath;
const SERVER_CORE = "0";
const GENERATOR_CORE = "1";
const now = () => performance.now();

// --- the server under test -------------------------------------------------------------------------------------

interface LaunchedServer extends LaunchedProcess {
  variant: Variant;
}

async function launch(variant: Variant, roomCount: number): Promise<LaunchedServer> {
  // BENCH_CPU_PROF=<dir>: the server writes a CPU profile (also as markdown) there when it stops.
  const profile = process.env.BENCH_CPU_PROF
    ? ["--cpu-prof", "--cpu-prof-md", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
    : [];
  const server = await launchServer({
    entry: variant === "B" ? "bench/raw-baseline-server.ts" : "bench/server-under-test.ts",
    roomCount,
    core: SERVER_CORE,
    bunArgs: profile,
    env: { BENCH_FAST_BROADCAST: variant === "A0" ? "0" : "1" },
  });
  return { variant, ...server };
}

// --- simulated players -----------------------------------------------------------------------------------------

interface Player {
  index: number;
  roomIndex: number;
  roomId: number;
  client: ProtocolClient;
  sessionId: string;
  /** `"session_id":"<mine>"`, to spot my own game:submission_complete without parsing it. */
  sessionNeedle: string;
  joined: boolean;
  lastGame: string | null;
  submittedAt: number | null;
  chatPace: ChatPace;
  submitTimer: Timer | null;
  /** The answer being typed (--progress). */
  typing: Typing | null;
}

/** Everything one run counts. Counters only count inside the measurement window unless said otherwise. */
class RunMetrics extends WindowMetrics {
  chatSent = 0;
  chatExpected = 0;
  chatReceived = 0;
  chatLatency = new Samples();
  rateLimitSkips = 0;
  submissionsSent = 0;
  submissionsCompleted = 0;
  submissionLatency = new Samples();
  feedback = 0;
  stepsSent = 0;
}

function makePlayer(index: number, roomIndex: number, roomId: number, port: number, m: RunMetrics): Player {
  const player: Player = {
    index,
    roomIndex,
    roomId,
    client: undefined as never,
    sessionId: "",
    sessionNeedle: "",
    joined: false,
    lastGame: null,
    submittedAt: null,
    chatPace: new ChatPace(),
    submitTimer: null,
    typing: null,
  };
  player.client = new ProtocolClient({
    url: `http://127.0.0.1:${port}`,
    auth: { client_id: `bench-player-${index.toString().padStart(6, "0")}` },
    onEvent: (name, frame, at) => onPlayerEvent(player, name, frame, at, m),
    onClose: () => {
      if (player.joined) m.closedUnexpectedly++;
      player.joined = false;
    },
  });
  return player;
}

/**
 * Per received event. The frequent ones (chat:message, game:submission_complete) are read with string searches,
 * not JSON.parse: at 10,000 players the generator takes ~35,000 frames/s and must not stall on its own garbage.
 */
function onPlayerEvent(player: Player, name: string, frame: string, at: number, m: RunMetrics) {
  if (m.inWindow(at)) {
    m.delivered++;
    m.byEvent.set(name, (m.byEvent.get(name) ?? 0) + 1);
  }
  switch (name) {
    case "chat:message": {
      const sentAt = chatSentAt(frame);
      if (m.inWindow(sentAt)) {
        m.chatReceived++;
        m.chatLatency.push(at - sentAt);
      }
      return;
    }
    case "game:state": {
      if (!frame.includes('"status":"in_progress"')) return;
      const payload = payloadOf(frame) as GameStatePayload;
      if (payload.sentence) scheduleSubmission(player, { ...payload, sentence: payload.sentence }, m);
      return;
    }
    case "game:submission_complete":
      if (player.submittedAt !== null && frame.includes(player.sessionNeedle)) {
        if (m.inWindow(player.submittedAt)) {
          m.submissionsCompleted++;
          m.submissionLatency.push(at - player.submittedAt);
        }
        player.submittedAt = null;
      }
      return;
    case "game:personal_feedback":
      if (m.inWindow(at)) m.feedback++;
      return;
    case "room:joined:anonymous":
      player.sessionId = (payloadOf(frame) as { session_id: string }).session_id;
      player.sessionNeedle = `"session_id":"${player.sessionId}"`;
      player.joined = true;
      return;
    case "error": {
      const payload = payloadOf(frame) as { event?: string; code?: string } | null;
      const key = `${payload?.event ?? "?"}:${payload?.code ?? "?"}`;
      m.errors.set(key, (m.errors.get(key) ?? 0) + 1);
      return;
    }
  }
}

interface GameStatePayload {
  status: string;
  sentence: { id: number; text: string } | null;
  started_at: string | null;
  game_duration: number;
}

function scheduleSubmission(
  player: Player,
  state: GameStatePayload & { sentence: { id: number; text: string } },
  m: RunMetrics,
) {
  const game = `${state.started_at}`;
  if (player.lastGame === game) return;
  player.lastGame = game;
  const { answer, delayMs: delay, typing } = planAnswer(state.sentence.text, Number(state.game_duration));
  if (player.submitTimer) clearTimeout(player.submitTimer);
  if (OPTIONS.progress) player.typing = typing;
  player.submitTimer = setTimeout(() => {
    player.submitTimer = null;
    if (player.typing) {
      // The last step is the answer, as the web's ProgressSender flushes it before submitting.
      player.typing = null;
      if (player.client.emit("game:progress", { room_id: player.roomId, typed_text: answer })) m.stepsSent++;
    }
    const sentAt = now();
    const ok = player.client.emit("game:submission", {
      room_id: player.roomId,
      sentence_id: state.sentence.id,
      typed_text: answer,
      elapsed_time: Math.round(delay) / 1000,
    });
    if (!ok) return;
    player.submittedAt = sentAt;
    if (m.inWindow(sentAt)) m.submissionsSent++;
  }, delay);
}

async function connectAll(players: Player[], concurrency: number) {
  const failed = await eachConcurrently(players, concurrency, async (player) => {
    await player.client.connect();
    player.client.emit("join_anonymous", { room_id: player.roomId });
  });
  // Joins are answered by room:joined:anonymous; wait for them (bounded).
  const deadline = now() + 60_000;
  while (players.some((p) => !p.joined && p.client.connected) && now() < deadline) await sleep(100);
  return { failed, joined: players.filter((p) => p.joined).length };
}

/** Chat as one Poisson process over all players (the superposition of N processes at 0.1/s each). */
function startChat(players: Player[], rooms: Map<number, Player[]>, m: RunMetrics) {
  let sequence = 0;
  return startPoisson(OPTIONS.chatRatePerPlayer * players.length, () => {
    const player = players[Math.floor(Math.random() * players.length)];
    if (!player.joined) return;
    const sentAt = now();
    if (!player.chatPace.take(sentAt)) {
      m.rateLimitSkips++;
      return;
    }
    if (!player.client.emit("chat_message", { room_id: player.roomId, message: timedChatLine(sequence++, sentAt) })) {
      return;
    }
    if (m.inWindow(sentAt)) {
      m.chatSent++;
      // chat:message goes to the whole room, the sender included.
      m.chatExpected += rooms.get(player.roomId)?.filter((p) => p.joined).length ?? 0;
    }
  });
}

/**
 * --progress: every typing player's answer box, 10 times a second, as far as its pace has got. One 10-ms timer
 * serves a tenth of the players per tick, so the steps are spread over the 100 ms instead of sent in one burst.
 */
function startSteps(players: Player[], m: RunMetrics) {
  if (!OPTIONS.progress) return () => {};
  return startSpreadTicker(
    OPTIONS.stepMs,
    () => players.length,
    (i, t) => {
      const { typing, client, roomId } = players[i];
      if (!typing) return;
      const text = typedSoFar(typing, t);
      if (client.emit("game:progress", { room_id: roomId, typed_text: text }) && m.inWindow(t)) m.stepsSent++;
    },
  );
}

/** Bytes queued in the kernel towards the players (Send-Q of the server's sockets). */
function queuedBytes(port: number): number {
  const out = Bun.spawnSync(["ss", "-Htn", "state", "established", `( sport = :${port} )`]).stdout.toString();
  let total = 0;
  for (const line of out.split("\n")) total += Number(line.trim().split(/\s+/)[1] ?? 0) || 0;
  return total;
}

/** After the joins the server still owes every player the room updates of the ramp: waits until it is calm. */
const settle = (server: LaunchedServer) =>
  waitForServerCalm(server.pid, () => `, kernel send queues ${queuedBytes(server.port)} B`);

// --- one run ---------------------------------------------------------------------------------------------------

interface RunResult {
  variant: Variant;
  players: number;
  round: number;
  connected: number;
  connect_failures: number;
  ramp_seconds: number;
  settle_seconds: number;
  window_seconds: number;
  delivered: number;
  delivered_per_second: number;
  mean_frame_chars: number;
  by_event: Record<string, number>;
  server_cpu_seconds: number;
  server_cpu_utilisation: number;
  server_cpu_us_per_delivered: number;
  server_user_us_per_delivered: number;
  server_system_us_per_delivered: number;
  chat_sent: number;
  chat_expected: number;
  chat_received: number;
  chat_delivery_ratio: number;
  chat_latency_ms: { p50: number; p99: number; max: number };
  rate_limit_skips: number;
  submissions_sent: number;
  submissions_completed: number;
  submission_latency_ms: { p50: number; p99: number };
  personal_feedback: number;
  /** game:progress steps sent in the window (--progress). */
  steps_sent: number;
  errors: Record<string, number>;
  rss_idle_kib: number;
  rss_connected_kib: number;
  rss_peak_kib: number;
  rss_per_player_kib: number;
  rss_idle_after_gc_kib: number;
  rss_connected_after_gc_kib: number;
  rss_per_player_after_gc_kib: number;
  generator_cpu_utilisation: number;
  other_processes_cpu: number;
  generator_lag_ms: { p50: number; p99: number; max: number };
  generator_stalled_share: number;
  closed_unexpectedly: number;
  valid: boolean;
  invalid_reasons: string[];
  chatSamples?: Samples;
  submissionSamples?: Samples;
}

async function runOnce(variant: Variant, playerCount: number, round: number): Promise<RunResult> {
  const roomCount = Math.ceil(playerCount / OPTIONS.roomSize);
  console.log(`\n▶ ${variant} · ${playerCount} players · ${roomCount} rooms · round ${round}`);
  const server = await launch(variant, roomCount);
  const m = new RunMetrics();
  const stopLag = startLagSampler(m);
  let stopChat = () => {};
  let stopSteps = () => {};
  const players: Player[] = [];
  try {
    await sleep(1500);
    const rssIdle = processRssKiB(server.pid);
    process.kill(server.pid, "SIGUSR2");
    await sleep(1500);
    const rssIdleGc = processRssKiB(server.pid);
    const byRoom = new Map<number, Player[]>();
    for (let i = 0; i < playerCount; i++) {
      const roomIndex = Math.floor(i / OPTIONS.roomSize);
      const roomId = server.rooms[roomIndex];
      const player = makePlayer(i, roomIndex, roomId, server.port, m);
      players.push(player);
      byRoom.set(roomId, [...(byRoom.get(roomId) ?? []), player]);
    }
    const rampStart = now();
    const { failed, joined } = await connectAll(players, OPTIONS.connectConcurrency);
    const rampSeconds = (now() - rampStart) / 1000;
    console.log(`  joined ${joined}/${playerCount} in ${rampSeconds.toFixed(1)} s (${failed} connect failures)`);
    const settleSeconds = await settle(server);
    const rssConnected = processRssKiB(server.pid);
    process.kill(server.pid, "SIGUSR2");
    await sleep(2000);
    const rssConnectedGc = processRssKiB(server.pid);

    stopChat = startChat(players, byRoom, m);
    stopSteps = startSteps(players, m);
    await sleep(OPTIONS.warmupS * 1000);

    const readings = startWindowReadings(server.pid);
    m.windowStart = now();
    m.windowEnd = m.windowStart + OPTIONS.windowS * 1000;
    m.recording = true;
    if (process.env.BENCH_LAG_LOG === "1") console.log(`  window from ${Date.now() % 1_000_000}`);
    let rssPeak = rssConnected;
    const windowEnd = m.windowEnd;
    while (now() < windowEnd) {
      await sleep(Math.min(1000, windowEnd - now()));
      rssPeak = Math.max(rssPeak, processRssKiB(server.pid));
    }
    const read = readings.finish();
    const { elapsedS, serverUs: serverCpuUs, generatorCpu, foreignCores: foreign } = read;
    m.recording = false;
    if (process.env.BENCH_LAG_LOG === "1") console.log(`  window to ${Date.now() % 1_000_000}`);
    stopChat();
    stopSteps();
    await sleep(3000); // chat and submissions sent in the window may still be on their way

    const [lag50, lag99, lagMax] = m.lag.percentiles(50, 99, 100);
    const [c50, c99, cMax] = m.chatLatency.percentiles(50, 99, 100);
    const [s50, s99] = m.submissionLatency.percentiles(50, 99);
    const stalledShare = m.stalledMs / 1000 / elapsedS;
    const reasons = generatorAndMachineReasons(m, read, OPTIONS);
    if (joined < playerCount) reasons.push(`${playerCount - joined} players not joined`);
    const result: RunResult = {
      variant,
      players: playerCount,
      round,
      connected: joined,
      connect_failures: failed,
      ramp_seconds: round2(rampSeconds),
      settle_seconds: round2(settleSeconds),
      window_seconds: round2(elapsedS),
      delivered: m.delivered,
      delivered_per_second: Math.round(m.delivered / elapsedS),
      mean_frame_chars: 0,
      by_event: Object.fromEntries([...m.byEvent].sort((a, b) => b[1] - a[1])),
      server_cpu_seconds: round2(serverCpuUs / 1e6),
      server_cpu_utilisation: round3(serverCpuUs / 1e6 / elapsedS),
      server_cpu_us_per_delivered: round3(serverCpuUs / Math.max(1, m.delivered)),
      // User space only: the kernel's loopback TCP work (a large, equal share for both servers) left out.
      server_user_us_per_delivered: round3(read.serverUserUs / Math.max(1, m.delivered)),
      server_system_us_per_delivered: round3(read.serverSystemUs / Math.max(1, m.delivered)),
      chat_sent: m.chatSent,
      chat_expected: m.chatExpected,
      chat_received: m.chatReceived,
      chat_delivery_ratio: round5(m.chatReceived / Math.max(1, m.chatExpected)),
      chat_latency_ms: { p50: round2(c50), p99: round2(c99), max: round2(cMax) },
      rate_limit_skips: m.rateLimitSkips,
      submissions_sent: m.submissionsSent,
      submissions_completed: m.submissionsCompleted,
      submission_latency_ms: { p50: round2(s50), p99: round2(s99) },
      personal_feedback: m.feedback,
      steps_sent: m.stepsSent,
      errors: Object.fromEntries(m.errors),
      rss_idle_kib: rssIdle,
      rss_connected_kib: rssConnected,
      rss_peak_kib: rssPeak,
      rss_per_player_kib: round2((rssConnected - rssIdle) / Math.max(1, joined)),
      rss_idle_after_gc_kib: rssIdleGc,
      rss_connected_after_gc_kib: rssConnectedGc,
      rss_per_player_after_gc_kib: round2((rssConnectedGc - rssIdleGc) / Math.max(1, joined)),
      generator_cpu_utilisation: round3(generatorCpu),
      other_processes_cpu: round3(foreign),
      generator_lag_ms: { p50: round2(lag50), p99: round2(lag99), max: round2(lagMax) },
      generator_stalled_share: round5(stalledShare),
      closed_unexpectedly: m.closedUnexpectedly,
      valid: reasons.length === 0,
      invalid_reasons: reasons,
      chatSamples: m.chatLatency,
      submissionSamples: m.submissionLatency,
    };
    let chars = 0;
    for (const p of players) chars += p.client.receivedChars;
    let frames = 0;
    for (const p of players) frames += p.client.received;
    result.mean_frame_chars = Math.round(chars / Math.max(1, frames));
    printRun(result);
    return result;
  } finally {
    stopChat();
    stopSteps();
    stopLag();
    await server.stop();
    for (const p of players) {
      if (p.submitTimer) clearTimeout(p.submitTimer);
      p.client.close();
    }
    await sleep(2000);
  }
}

/** A run, repeated when other processes disturbed it (bounded by --retries). */
async function runMeasured(variant: Variant, playerCount: number, round: number): Promise<RunResult> {
  let result: RunResult | undefined;
  for (let attempt = 0; attempt <= OPTIONS.retries; attempt++) {
    await waitForQuiet(OPTIONS.quietWaitS, OPTIONS.foreignLimit);
    result = await runOnce(variant, playerCount, round);
    if (!result.invalid_reasons.some((r) => r.startsWith(DISTURBED))) return result;
    if (attempt < OPTIONS.retries) console.log("  run disturbed by other processes: repeating it");
  }
  return result!;
}

const round2 = (v: number) => Math.round(v * 100) / 100;
const round3 = (v: number) => Math.round(v * 1000) / 1000;
const round5 = (v: number) => Math.round(v * 100000) / 100000;

function printRun(r: RunResult) {
  console.log(
    `  ${r.variant}: ${r.delivered_per_second} frames/s, server CPU ${(r.server_cpu_utilisation * 100).toFixed(1)} %, ` +
      `${r.server_cpu_us_per_delivered} µs/frame (user ${r.server_user_us_per_delivered}); chat p50 ${r.chat_latency_ms.p50} ms p99 ${r.chat_latency_ms.p99} ms, ` +
      `delivered ${(r.chat_delivery_ratio * 100).toFixed(3)} %; submission p99 ${r.submission_latency_ms.p99} ms ` +
      `(${r.submissions_completed}/${r.submissions_sent}); RSS ${r.rss_per_player_kib} KiB/player ` +
      `(${r.rss_per_player_after_gc_kib} after a full GC); ` +
      `generator CPU ${(r.generator_cpu_utilisation * 100).toFixed(0)} % lag p99 ${r.generator_lag_ms.p99} ms; ` +
      `other processes ${(r.other_processes_cpu * 100).toFixed(0)} % of a core` +
      (r.valid ? "" : ` — INVALID: ${r.invalid_reasons.join("; ")}`),
  );
  if (Object.keys(r.errors).length > 0) console.log(`  errors: ${JSON.stringify(r.errors)}`);
}

// --- scoring at saturation -------------------------------------------------------------------------------------

async function scoringPhase() {
  console.log("\n▶ scoring + result writes at saturation (bench/scoring-bench.ts on core 0)");
  const proc = Bun.spawn(["taskset", "-c", SERVER_CORE, BUN, join(ROOT, "bench/scoring-bench.ts")], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production", LOG_LEVEL: "warn" },
    stdout: "pipe",
    stderr: "inherit",
  });
  const text = await new Response(proc.stdout).text();
  await proc.exited;
  const line = text.split("\n").find((l) => l.startsWith("BENCH_SCORING "));
  if (!line) throw new Error(`scoring bench failed: ${text.slice(0, 500)}`);
  const result = JSON.parse(line.slice("BENCH_SCORING ".length));
  console.log(`  ${JSON.stringify(result)}`);
  return result;
}

// --- summary ---------------------------------------------------------------------------------------------------

function summarise(runs: RunResult[]) {
  const rows = [];
  for (const players of OPTIONS.steps) {
    const of = (variant: Variant) => runs.filter((r) => r.players === players && r.variant === variant);
    const mean = (list: RunResult[], pick: (r: RunResult) => number) =>
      list.length === 0 ? Number.NaN : list.reduce((sum, r) => sum + pick(r), 0) / list.length;
    const summary: Record<string, unknown> = { players };
    for (const variant of [...OPTIONS.variants, ...OPTIONS.extraVariants]) {
      const list = of(variant);
      if (list.length === 0) continue;
      const chat = list.reduce((s, r) => s.concat(r.chatSamples!), new Samples());
      const subs = list.reduce((s, r) => s.concat(r.submissionSamples!), new Samples());
      const [c50, c99] = chat.percentiles(50, 99);
      const [, s99] = subs.percentiles(50, 99);
      const expected = list.reduce((s, r) => s + r.chat_expected, 0);
      const received = list.reduce((s, r) => s + r.chat_received, 0);
      summary[variant] = {
        runs: list.length,
        valid: list.every((r) => r.valid),
        cpu_us_per_delivered: round3(mean(list, (r) => r.server_cpu_us_per_delivered)),
        user_us_per_delivered: round3(mean(list, (r) => r.server_user_us_per_delivered)),
        system_us_per_delivered: round3(mean(list, (r) => r.server_system_us_per_delivered)),
        server_cpu_utilisation: round3(mean(list, (r) => r.server_cpu_utilisation)),
        delivered_per_second: Math.round(mean(list, (r) => r.delivered_per_second)),
        chat_p50_ms: round2(c50),
        chat_p99_ms: round2(c99),
        chat_delivery_ratio: round5(received / Math.max(1, expected)),
        submission_p99_ms: round2(s99),
        rss_per_player_kib: round2(mean(list, (r) => r.rss_per_player_kib)),
        rss_per_player_after_gc_kib: round2(mean(list, (r) => r.rss_per_player_after_gc_kib)),
        generator_cpu: round3(Math.max(...list.map((r) => r.generator_cpu_utilisation))),
        generator_lag_p99_ms: round2(Math.max(...list.map((r) => r.generator_lag_ms.p99))),
      };
    }
    type Cost = { cpu_us_per_delivered: number; user_us_per_delivered: number } | undefined;
    const b = summary.B as Cost;
    for (const variant of ["A", "A0"] as const) {
      const v = summary[variant] as Cost;
      if (!v || !b) continue;
      summary[`ratio_${variant}_over_B`] = round2(v.cpu_us_per_delivered / b.cpu_us_per_delivered);
      summary[`user_ratio_${variant}_over_B`] = round2(v.user_us_per_delivered / b.user_us_per_delivered);
    }
    rows.push(summary);
  }
  return rows;
}

function printTable(rows: Record<string, unknown>[]) {
  const header = [
    "players",
    "variant",
    "µs/frame",
    "ratio/B",
    "user µs",
    "user ratio",
    "server CPU",
    "frames/s",
    "chat p50",
    "chat p99",
    "delivered",
    "submit p99",
    "KiB/player",
    "after GC",
    "gen CPU",
    "gen lag p99",
    "valid",
  ];
  const lines = [header];
  for (const row of rows) {
    for (const variant of [...OPTIONS.variants, ...OPTIONS.extraVariants]) {
      // biome-ignore lint/suspicious/noExplicitAny: summary rows
      const v = row[variant] as any;
      if (!v) continue;
      const ratio = variant === "B" ? "1" : String(row[`ratio_${variant}_over_B`] ?? "");
      const userRatio = variant === "B" ? "1" : String(row[`user_ratio_${variant}_over_B`] ?? "");
      lines.push([
        String(row.players),
        variant,
        String(v.cpu_us_per_delivered),
        ratio,
        String(v.user_us_per_delivered),
        userRatio,
        `${(v.server_cpu_utilisation * 100).toFixed(1)} %`,
        String(v.delivered_per_second),
        `${v.chat_p50_ms} ms`,
        `${v.chat_p99_ms} ms`,
        `${(v.chat_delivery_ratio * 100).toFixed(3)} %`,
        `${v.submission_p99_ms} ms`,
        String(v.rss_per_player_kib),
        String(v.rss_per_player_after_gc_kib),
        `${(v.generator_cpu * 100).toFixed(0)} %`,
        `${v.generator_lag_p99_ms} ms`,
        v.valid ? "yes" : "NO",
      ]);
    }
  }
  const widths = header.map((_, i) => Math.max(...lines.map((l) => l[i].length)));
  console.log("");
  for (const line of lines) console.log(line.map((cell, i) => cell.padStart(widths[i])).join("  "));
}

// --- main ------------------------------------------------------------------------------------------------------

async function main() {
  pinSelf(GENERATOR_CORE);
  startLagLog("generator");
  const info = machine();
  console.log(`machine: ${JSON.stringify(info)}`);
  console.log(`options: ${JSON.stringify(OPTIONS)}`);
  const started = new Date();
  const runs: RunResult[] = [];
  for (const players of OPTIONS.steps) {
    for (let round = 1; round <= OPTIONS.rounds; round++) {
      for (const variant of OPTIONS.variants) runs.push(await runMeasured(variant, players, round));
    }
    for (const variant of OPTIONS.extraVariants) runs.push(await runMeasured(variant, players, 1));
  }
  const scoring = OPTIONS.scoring ? await scoringPhase() : null;
  const summary = summarise(runs);
  printTable(summary);
  if (scoring) console.log(`\nsubmissions scored per second at saturation: ${JSON.stringify(scoring)}`);
  const outDir = join(import.meta.dir, "results");
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, `rooms-load-${started.toISOString().replace(/[:.]/g, "-")}.json`);
  const clean = runs.map(({ chatSamples: _c, submissionSamples: _s, ...rest }) => rest);
  writeFileSync(
    file,
    `${JSON.stringify({ machine: info, options: OPTIONS, started, summary, scoring, runs: clean }, null, 2)}\n`,
  );
  console.log(`\nwrote ${file}`);
}

await main();
process.exit(0);
