/**
 * Watchers (issue 27, "Figures"): a room of 20 players with 1,000 watchers, on one process, against the same game
 * without watchers — the players' p99 latencies must stay within 1.2× (bench/README.md "Watchers (issue 27)").
 *
 * ONE run: one server process (bench/server-under-test.ts: our real server, every module, on core 0) and one
 * generator process (this one, core 1; every latency on its one clock). The players stay for the whole run and never
 * stop playing; the run is a series of phases, each with a number of watchers (`--phases 0,1000,0,1000`: without,
 * with, without, with, so a drift of the machine or of the server over the run shows as a difference between the two
 * phases of the same kind). Between phases the watchers join (`join_anonymous` with `spectate: true`) or leave
 * (`leave_room`, then their sockets close); then the generator waits until the server is calm again and the machine
 * is quiet (other processes, not ours), warms up, and measures a window.
 *
 * The room (`--scene room`): 20 guests racing rounds as bench/rooms-load.ts's players with `--progress 1`: chat at
 * 0.1 line/s each, the announced sentence typed at 250–550 타/분 with its steps (`game:progress`) 10 times a second,
 * the last step the answer, then `game:submission`. They type without mistakes: a mistyped character stops a lane's
 * correct prefix, and every new character must move the lane so that the frame showing it can be found. The watchers
 * send nothing but a chat line now and then (spectators may chat in rooms: `--watcher-chat` lines/s each, 0.002 by
 * default, i.e. 2 a second from 1,000, as many as the 20 players send).
 *
 * Measured in each window:
 *   - players: chat (`chat_message` → `chat:message` at every player, the sender included; every line, players' and
 *     watchers'), submission (`game:submission` → the submitter's own `game:submission_complete`), lanes (a step's
 *     send time → the first `game:progress_update` that shows it — that racer's lane at or past the step's progress —
 *     at every other player; only steps that move the lane count, and the frames go out at most every 200 ms, so
 *     this delay holds the coalescing);
 *   - watchers: the same chat lines, the same submissions (→ `game:submission_complete` at every watcher) and the
 *     same lanes, at every watcher; with the share of samples over 1 s (watchers see what players see within 1 s);
 *   - chat lines delivered (to players and watchers present when the line was sent) against expected;
 *   - the server's CPU (utime + stime of /proc/<pid>/stat) per delivered event frame (players' and watchers') and
 *     its share of a core; its RSS at the window's end.
 * A window is marked invalid as rooms-load's are (generator lag p99 > 20 ms, blocked > 1 % of the window, generator
 * CPU > 90 %, other processes > 10 % of a core, players or watchers not all in); a window disturbed by other
 * processes is measured again (`--retries`). The summary pools the samples of the phases with the same number of
 * watchers and gives, for each players' latency, p99 with watchers ÷ p99 without (the figure: ≤ 1.2).
 *
 * The duel (`--scene duel`): pending — watching a duel is not on `main` yet (branch `duel-together`).
 *
 * Usage: ulimit -n "$(ulimit -Hn)"; bun bench/watchers-load.ts [--phases 0,1000,0,1000] [--window 120]
 *   [--warmup 15] [--watcher-chat 0.002] [--retries 2] [--quiet-wait 600]
 * Prints a table; writes bench/results/watchers-load-<time>.json (every phase, every counter).
 * BENCH_CPU_PROF=<dir>: a CPU profile of the server, start to end (Bun --cpu-prof --cpu-prof-md).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { correctPrefixShare, roundProgress } from "../modules/kernel/race-steps";
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

const OPTIONS = {
  scene: option("scene", "room"),
  /** Watchers in each phase, in order. */
  phases: option("phases", "0,1000,0,1000").split(",").map(Number),
  windowS: Number(option("window", "120")),
  warmupS: Number(option("warmup", "15")),
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
  /** Watchers get what players see within this (product-rules "Playing together"). */
  watcherDelayLimitMs: 1000,
  ...WINDOW_LIMITS,
};
if (OPTIONS.scene !== "room") {
  throw new Error("--scene: only room for now (watching a duel is not on main yet: the duel scene is pending)");
}
for (const w of OPTIONS.phases) if (!(Number.isInteger(w) && w >= 0 && w <= 5_000)) throw new Error("phases: 0..5000");
if (!(OPTIONS.windowS > 0 && OPTIONS.windowS <= 600)) throw new Error("window: 1..600 s");

const SERVER_CORE = "0";
const GENERATOR_CORE = "1";
const now = () => performance.now();
const round2 = (v: number) => Math.round(v * 100) / 100;
const round3 = (v: number) => Math.round(v * 1000) / 1000;
const round5 = (v: number) => Math.round(v * 100000) / 100000;

// --- what a phase counts ---------------------------------------------------------------------------------------

type Who = "players" | "watchers";
type Latency = `${Who}.${"chat" | "submission" | "lanes"}`;
const LATENCIES: Latency[] = [
  "players.chat",
  "players.submission",
  "players.lanes",
  "watchers.chat",
  "watchers.submission",
  "watchers.lanes",
];

/** One phase's window. Counters count inside it (frames by arrival, latencies by send time). */
class PhaseMetrics extends WindowMetrics {
  watcherFrames = 0;
  latency = new Map<Latency, Samples>(LATENCIES.map((name) => [name, new Samples()]));
  chatExpected = 0;
  chatReceived = 0;
  sent = { playerChat: 0, watcherChat: 0, steps: 0, submissions: 0, chatSkipped: 0 };
  sample(name: Latency, value: number) {
    this.latency.get(name)!.push(value);
  }
}

// --- the room: racers and watchers -----------------------------------------------------------------------------

/** A racer's steps of one round that moved its lane: the progress each showed and when it was sent. */
interface StepLog {
  round: string;
  sentence: string;
  progress: number[];
  sentAt: number[];
}

/** Everyone in the room, racer or watcher: what it needs to take its samples from what it receives. */
interface Member {
  who: Who;
  client: ProtocolClient;
  sessionId: string;
  joined: boolean;
  leaving: boolean;
  /** The round this member's socket saw start (`started_at` of `game:state` in_progress). */
  round: string | null;
  /** Per racer (session id): the next of its logged steps this member has not yet seen in a lane. */
  cursors: Map<string, { log: StepLog; next: number }>;
  chatPace: ChatPace;
}

interface Racer extends Member {
  who: "players";
  steps: StepLog | null;
  typing: Typing | null;
  submitTimer: Timer | null;
  /** The round's submission: when it was sent, and whether its own `game:submission_complete` came. */
  submittedAt: number | null;
  answered: boolean;
}

interface GameStatePayload {
  status: string;
  sentence: { id: number; text: string } | null;
  started_at: string | null;
  game_duration: number;
}

interface LaneWire {
  key: number | string;
  progress: number;
}

class RoomScene {
  m = new PhaseMetrics();
  readonly racers: Racer[] = [];
  watchers: Member[] = [];
  private readonly bySession = new Map<string, Racer>();
  private chatSequence = 0;
  private stops: (() => void)[] = [];
  private stopWatcherChat = () => {};

  constructor(
    private readonly server: LaunchedProcess,
    private readonly roomId: number,
  ) {}

  /** A guest (`bench-player-NNNNNN` or `bench-watcher-NNNNNN`) with its socket, not yet connected. */
  private enlist<M extends Member>(fields: Omit<M, keyof Member> & { who: M["who"] }, index: number): M {
    const member = {
      ...fields,
      sessionId: "",
      joined: false,
      leaving: false,
      round: null,
      cursors: new Map(),
      chatPace: new ChatPace(),
    } as unknown as M;
    const prefix = fields.who === "players" ? "bench-player" : "bench-watcher";
    member.client = new ProtocolClient({
      url: `http://127.0.0.1:${this.server.port}`,
      auth: { client_id: `${prefix}-${index.toString().padStart(6, "0")}` },
      onEvent: (name, frame, at) => this.onEvent(member, name, frame, at),
      onClose: () => {
        if (member.joined && !member.leaving) this.m.closedUnexpectedly++;
        member.joined = false;
      },
    });
    return member;
  }

  /** The players join and play until `stop`. */
  async start() {
    for (let i = 0; i < OPTIONS.players; i++) {
      const fields = { who: "players" as const, steps: null, typing: null, submitTimer: null, submittedAt: null };
      this.racers.push(this.enlist<Racer>({ ...fields, answered: false }, i));
    }
    const joined = await this.join(this.racers, false);
    console.log(`  players joined: ${joined}/${OPTIONS.players}`);
    this.stops.push(
      startPoisson(OPTIONS.chatRatePerPlayer * this.racers.length, () => this.chat(this.racers)),
      () => this.stopWatcherChat(),
      startSpreadTicker(
        OPTIONS.stepMs,
        () => this.racers.length,
        (i, t) => this.step(this.racers[i], t),
      ),
    );
  }

  stop() {
    for (const stop of this.stops) stop();
    for (const racer of this.racers) if (racer.submitTimer) clearTimeout(racer.submitTimer);
    for (const member of [...this.racers, ...this.watchers]) {
      member.leaving = true;
      member.client.close();
    }
  }

  /** Brings the room to `count` watchers: new ones join as spectators, the last ones leave. */
  async setWatchers(count: number) {
    const current = this.watchers.length;
    if (count > current) {
      const fresh = Array.from({ length: count - current }, (_, i) =>
        this.enlist<Member>({ who: "watchers" }, current + i),
      );
      this.watchers.push(...fresh);
      const joined = await this.join(fresh, true);
      console.log(`  watchers joined: ${joined}/${fresh.length} (${this.watchers.length} watching)`);
    } else if (count < current) {
      const gone = this.watchers.splice(count);
      for (const watcher of gone) {
        watcher.leaving = true;
        watcher.client.emit("leave_room", { room_id: this.roomId });
      }
      await sleep(1000); // the leaves reach the server before the sockets close (no reconnect grace to wait out)
      for (const watcher of gone) watcher.client.close();
      console.log(`  watchers left: ${gone.length} (${this.watchers.length} watching)`);
    }
    // The watchers' chat is one Poisson process over however many there are: restarted at their new rate.
    this.stopWatcherChat();
    this.stopWatcherChat = startPoisson(OPTIONS.watcherChatRate * this.watchers.length, () => this.chat(this.watchers));
  }

  /** How many of the players and of the watchers are in the room now. */
  present() {
    return {
      players: this.racers.filter((r) => r.joined).length,
      watchers: this.watchers.filter((w) => w.joined).length,
    };
  }

  private async join(members: Member[], spectate: boolean) {
    await eachConcurrently(members, OPTIONS.connectConcurrency, async (member) => {
      await member.client.connect();
      member.client.emit("join_anonymous", { room_id: this.roomId, spectate });
    });
    const deadline = now() + 60_000;
    while (members.some((m) => !m.joined && m.client.connected) && now() < deadline) await sleep(100);
    return members.filter((m) => m.joined).length;
  }

  private chat(crowd: Member[]) {
    if (crowd.length === 0) return;
    const member = crowd[Math.floor(Math.random() * crowd.length)];
    if (!member.joined) return;
    const sentAt = now();
    const m = this.m;
    if (!member.chatPace.take(sentAt)) {
      m.sent.chatSkipped++;
      return;
    }
    const message = timedChatLine(this.chatSequence++, sentAt);
    if (!member.client.emit("chat_message", { room_id: this.roomId, message })) return;
    if (!m.inWindow(sentAt)) return;
    if (member.who === "players") m.sent.playerChat++;
    else m.sent.watcherChat++;
    const { players, watchers } = this.present();
    m.chatExpected += players + watchers; // chat:message goes to the whole room, the sender included
  }

  /** A racer's answer box, 10 times a second while it types; a step that moves its lane is logged. */
  private step(racer: Racer, t: number) {
    if (!racer.typing) return;
    const text = typedSoFar(racer.typing, t);
    if (racer.client.emit("game:progress", { room_id: this.roomId, typed_text: text })) this.logStep(racer, text, t);
  }

  private logStep(racer: Racer, text: string, sentAt: number) {
    if (this.m.inWindow(sentAt)) this.m.sent.steps++;
    const log = racer.steps;
    if (!log) return;
    const progress = roundProgress(correctPrefixShare(text, log.sentence));
    if (progress <= (log.progress.at(-1) ?? 0)) return;
    log.progress.push(progress);
    log.sentAt.push(sentAt);
  }

  private startRound(racer: Racer, state: GameStatePayload & { sentence: { id: number; text: string } }) {
    const round = String(state.started_at);
    if (racer.steps?.round === round) return;
    racer.steps = { round, sentence: state.sentence.text, progress: [], sentAt: [] };
    racer.submittedAt = null;
    racer.answered = false;
    const plan = planAnswer(state.sentence.text, Number(state.game_duration), false);
    racer.typing = plan.typing;
    if (racer.submitTimer) clearTimeout(racer.submitTimer);
    racer.submitTimer = setTimeout(() => {
      racer.submitTimer = null;
      // The last step is the answer, as the web's ProgressSender flushes it before submitting.
      racer.typing = null;
      const last = now();
      if (racer.client.emit("game:progress", { room_id: this.roomId, typed_text: plan.answer })) {
        this.logStep(racer, plan.answer, last);
      }
      const sentAt = now();
      const sent = racer.client.emit("game:submission", {
        room_id: this.roomId,
        sentence_id: state.sentence.id,
        typed_text: plan.answer,
        elapsed_time: Math.round(plan.delayMs) / 1000,
      });
      if (!sent) return;
      racer.submittedAt = sentAt;
      if (this.m.inWindow(sentAt)) this.m.sent.submissions++;
    }, plan.delayMs);
  }

  // --- what everyone receives ---------------------------------------------------------------------------------

  private onEvent(member: Member, name: string, frame: string, at: number) {
    const m = this.m;
    if (m.inWindow(at)) {
      m.delivered++;
      if (member.who === "watchers") m.watcherFrames++;
      m.count(m.byEvent, name);
    }
    switch (name) {
      case "chat:message": {
        const sentAt = chatSentAt(frame);
        if (!m.inWindow(sentAt)) return;
        m.chatReceived++;
        m.sample(`${member.who}.chat`, at - sentAt);
        return;
      }
      case "game:progress_update":
        return this.lanes(member, payloadOf(frame) as { participants: LaneWire[] }, at);
      case "game:submission_complete":
        return this.submissionSeen(member, frame, at);
      case "game:state": {
        if (!frame.includes('"status":"in_progress"')) return;
        const state = payloadOf(frame) as GameStatePayload;
        member.round = String(state.started_at);
        if (member.who === "players" && state.sentence) {
          this.startRound(member as Racer, { ...state, sentence: state.sentence });
        }
        return;
      }
      case "room:joined:anonymous": {
        const joined = payloadOf(frame) as { session_id: string; game_state: GameStatePayload };
        member.sessionId = joined.session_id;
        member.joined = true;
        if (member.who === "players") this.bySession.set(member.sessionId, member as Racer);
        if (joined.game_state.status === "in_progress") member.round = String(joined.game_state.started_at);
        return;
      }
      case "error": {
        const payload = payloadOf(frame) as { event?: string; code?: string } | null;
        if (m.recording) m.count(m.errors, `${payload?.event ?? "?"}:${payload?.code ?? "?"}`);
        return;
      }
    }
  }

  /** Each lane in the frame shows its racer's steps up to its progress: the ones this member had not seen yet. */
  private lanes(member: Member, update: { participants: LaneWire[] }, at: number) {
    for (const lane of update.participants) {
      const racer = this.bySession.get(String(lane.key));
      const log = racer?.steps;
      // A racer's own lane is not news to it; a frame of another round than the member's is not this round's.
      if (!racer || racer === member || !log || log.round !== member.round) continue;
      let cursor = member.cursors.get(racer.sessionId);
      if (cursor?.log !== log) {
        cursor = { log, next: 0 };
        member.cursors.set(racer.sessionId, cursor);
      }
      while (cursor.next < log.progress.length && log.progress[cursor.next] <= lane.progress) {
        const sentAt = log.sentAt[cursor.next++];
        if (this.m.inWindow(sentAt)) this.m.sample(`${member.who}.lanes`, at - sentAt);
      }
    }
  }

  private submissionSeen(member: Member, frame: string, at: number) {
    const field = '"session_id":"';
    const start = frame.indexOf(field) + field.length;
    const racer = this.bySession.get(frame.slice(start, frame.indexOf('"', start)));
    if (!racer || racer.submittedAt === null || !this.m.inWindow(racer.submittedAt)) return;
    if (member === racer) {
      if (racer.answered) return;
      racer.answered = true;
      this.m.sample("players.submission", at - racer.submittedAt);
    } else if (member.who === "watchers") {
      this.m.sample("watchers.submission", at - racer.submittedAt);
    }
  }
}

// --- phases ----------------------------------------------------------------------------------------------------

interface LatencyFigures {
  count: number;
  p50: number;
  p99: number;
  max: number;
  /** Share of the samples above the watchers' 1-s promise. */
  over_1s: number;
}

function figuresOf(samples: Samples): LatencyFigures {
  const [p50, p99, max] = samples.percentiles(50, 99, 100);
  const over = samples.shareAbove(OPTIONS.watcherDelayLimitMs);
  return { count: samples.length, p50: round2(p50), p99: round2(p99), max: round2(max), over_1s: round5(over) };
}

interface PhaseResult {
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
  by_event: Record<string, number>;
  server_cpu_utilisation: number;
  server_cpu_us_per_delivered: number;
  server_user_us_per_delivered: number;
  server_rss_kib: number;
  chat_delivery_ratio: number;
  sent: PhaseMetrics["sent"];
  latency_ms: Record<Latency, LatencyFigures>;
  errors: Record<string, number>;
  generator_cpu: number;
  generator_lag_p99_ms: number;
  other_processes_cpu: number;
  closed_unexpectedly: number;
  samples?: Map<Latency, Samples>;
}

async function runPhase(scene: RoomScene, server: LaunchedProcess, phase: number, watchers: number) {
  console.log(`\n▶ phase ${phase + 1}/${OPTIONS.phases.length}: ${watchers} watchers`);
  await scene.setWatchers(watchers);
  let result: PhaseResult | undefined;
  for (let attempt = 0; attempt <= OPTIONS.retries; attempt++) {
    const settleSeconds = await waitForServerCalm(server.pid);
    await waitForQuiet(OPTIONS.quietWaitS, OPTIONS.foreignLimit, [server.pid]);
    result = await measureWindow(scene, server, { phase, watchers, attempt, settleSeconds });
    printPhase(result);
    if (!result.invalid_reasons.some((r) => r.startsWith(DISTURBED))) break;
    if (attempt < OPTIONS.retries) console.log("  window disturbed by other processes: measuring it again");
  }
  return result!;
}

async function measureWindow(
  scene: RoomScene,
  server: LaunchedProcess,
  at: { phase: number; watchers: number; attempt: number; settleSeconds: number },
): Promise<PhaseResult> {
  const m = new PhaseMetrics();
  scene.m = m;
  const stopLag = startLagSampler(m);
  try {
    await sleep(OPTIONS.warmupS * 1000);
    const readings = startWindowReadings(server.pid);
    m.windowStart = now();
    m.windowEnd = m.windowStart + OPTIONS.windowS * 1000;
    m.recording = true;
    await sleep(OPTIONS.windowS * 1000);
    const read = readings.finish();
    const rss = processRssKiB(server.pid);
    const present = scene.present();
    m.recording = false;
    await sleep(3000); // chat, steps and submissions sent in the window may still be on their way

    const reasons = generatorAndMachineReasons(m, read, OPTIONS);
    if (present.players < OPTIONS.players) reasons.push(`${OPTIONS.players - present.players} players not in the room`);
    if (present.watchers < at.watchers) reasons.push(`${at.watchers - present.watchers} watchers not in the room`);
    const perFrame = (us: number) => round3(us / Math.max(1, m.delivered));
    return {
      phase: at.phase + 1,
      watchers: at.watchers,
      attempt: at.attempt + 1,
      players_present: present.players,
      watchers_present: present.watchers,
      settle_seconds: round2(at.settleSeconds),
      window_seconds: round2(read.elapsedS),
      valid: reasons.length === 0,
      invalid_reasons: reasons,
      delivered: m.delivered,
      delivered_per_second: Math.round(m.delivered / read.elapsedS),
      watcher_frames_per_second: Math.round(m.watcherFrames / read.elapsedS),
      by_event: Object.fromEntries([...m.byEvent].sort((a, b) => b[1] - a[1])),
      server_cpu_utilisation: round3(read.serverUs / 1e6 / read.elapsedS),
      server_cpu_us_per_delivered: perFrame(read.serverUs),
      server_user_us_per_delivered: perFrame(read.serverUserUs),
      server_rss_kib: rss,
      chat_delivery_ratio: round3(m.chatReceived / Math.max(1, m.chatExpected)),
      sent: m.sent,
      latency_ms: Object.fromEntries(LATENCIES.map((name) => [name, figuresOf(m.latency.get(name)!)])) as Record<
        Latency,
        LatencyFigures
      >,
      errors: Object.fromEntries(m.errors),
      generator_cpu: round3(read.generatorCpu),
      generator_lag_p99_ms: round2(m.lag.percentiles(99)[0]),
      other_processes_cpu: round3(read.foreignCores),
      closed_unexpectedly: m.closedUnexpectedly,
      samples: m.latency,
    };
  } finally {
    stopLag();
    // Counters closed: a watcher joining for the next phase gets every lane of the round at once, steps sent
    // inside this window among them, which are no news to anyone.
    scene.m = new PhaseMetrics();
  }
}

function printPhase(r: PhaseResult) {
  const p = r.latency_ms;
  console.log(
    `  ${r.valid ? "valid" : `INVALID (${r.invalid_reasons.join("; ")})`}: ${r.delivered_per_second} frames/s ` +
      `(${r.watcher_frames_per_second} to watchers), server ${(r.server_cpu_utilisation * 100).toFixed(1)} % of a core = ` +
      `${r.server_cpu_us_per_delivered} µs/frame; players p99: chat ${p["players.chat"].p99} ms, submission ` +
      `${p["players.submission"].p99} ms, lanes ${p["players.lanes"].p99} ms; ` +
      (r.watchers === 0
        ? ""
        : `watchers p99: chat ${p["watchers.chat"].p99} ms, submission ${p["watchers.submission"].p99} ms, ` +
          `lanes ${p["watchers.lanes"].p99} ms; `) +
      "chat delivered " +
      `${(r.chat_delivery_ratio * 100).toFixed(2)} %; generator CPU ${(r.generator_cpu * 100).toFixed(0)} % lag p99 ` +
      `${r.generator_lag_p99_ms} ms; other processes ${(r.other_processes_cpu * 100).toFixed(0)} % of a core`,
  );
  if (Object.keys(r.errors).length > 0) console.log(`  errors: ${JSON.stringify(r.errors)}`);
}

// --- summary ---------------------------------------------------------------------------------------------------

/** The phases with the same number of watchers, their samples pooled; then each players' p99 against no watchers. */
function summarise(phases: PhaseResult[]) {
  const counts = [...new Set(phases.map((p) => p.watchers))].sort((a, b) => a - b);
  const groups = counts.map((watchers) => {
    const list = phases.filter((p) => p.watchers === watchers);
    const mean = (pick: (p: PhaseResult) => number) => list.reduce((s, p) => s + pick(p), 0) / list.length;
    const latency = Object.fromEntries(
      LATENCIES.map((name) => [name, figuresOf(list.reduce((s, p) => s.concat(p.samples!.get(name)!), new Samples()))]),
    ) as Record<Latency, LatencyFigures>;
    return {
      watchers,
      phases: list.length,
      valid: list.every((p) => p.valid),
      cpu_us_per_delivered: round3(mean((p) => p.server_cpu_us_per_delivered)),
      server_cpu_utilisation: round3(mean((p) => p.server_cpu_utilisation)),
      delivered_per_second: Math.round(mean((p) => p.delivered_per_second)),
      server_rss_kib: Math.round(mean((p) => p.server_rss_kib)),
      latency_ms: latency,
    };
  });
  const base = groups.find((g) => g.watchers === 0);
  const ratios = groups
    .filter((g) => base && g !== base)
    .map((g) => {
      const players = LATENCIES.filter((name) => name.startsWith("players."));
      const ratio = Object.fromEntries(
        players.map((name) => [name, round2(g.latency_ms[name].p99 / base!.latency_ms[name].p99)]),
      );
      const within = Object.values(ratio).every((r) => r <= OPTIONS.ratioLimit);
      // A figure only from windows that were all valid, with and without watchers.
      const valid = g.valid && base!.valid;
      return { watchers: g.watchers, p99_over_no_watchers: ratio as Partial<Record<Latency, number>>, within, valid };
    });
  return { groups, ratios };
}

function printTable(summary: ReturnType<typeof summarise>) {
  const { groups, ratios } = summary;
  const cost = [["watchers", "phases", "µs/frame", "server CPU", "frames/s", "server RSS", "valid"]];
  for (const g of groups) {
    cost.push([
      String(g.watchers),
      String(g.phases),
      String(g.cpu_us_per_delivered),
      `${(g.server_cpu_utilisation * 100).toFixed(1)} %`,
      String(g.delivered_per_second),
      `${(g.server_rss_kib / 1024).toFixed(0)} MiB`,
      g.valid ? "yes" : "NO",
    ]);
  }
  // One row per latency: p50/p99 (and the share over 1 s for the watchers) at each number of watchers.
  const latency = [["latency (ms)", ...groups.map((g) => `${g.watchers} watchers p50/p99`), "p99 ratio"]];
  for (const name of LATENCIES) {
    const cells = groups.map((g) => {
      const f = g.latency_ms[name];
      if (f.count === 0) return "-";
      return name.startsWith("watchers.")
        ? `${f.p50}/${f.p99} (${(f.over_1s * 100).toFixed(2)} % > 1 s)`
        : `${f.p50}/${f.p99}`;
    });
    const ratio = ratios.map((r) => r.p99_over_no_watchers[name]).filter((v) => v !== undefined);
    latency.push([name, ...cells, ratio.length > 0 ? ratio.map((v) => `${v}×`).join(", ") : ""]);
  }
  for (const table of [cost, latency]) {
    const widths = table[0].map((_, i) => Math.max(...table.map((l) => l[i].length)));
    console.log("");
    for (const line of table) console.log(line.map((cell, i) => cell.padStart(widths[i])).join("  "));
  }
  for (const r of ratios) {
    console.log(
      `\nthe players' p99 with ${r.watchers} watchers is ${r.within ? "" : "NOT "}within ${OPTIONS.ratioLimit}× ` +
        "of the p99 without (every players' latency above)" +
        (r.valid ? "" : " — but some windows were invalid: no figure"),
    );
  }
}

// --- main ------------------------------------------------------------------------------------------------------

async function main() {
  pinSelf(GENERATOR_CORE);
  const info = machine();
  console.log(`machine: ${JSON.stringify(info)}`);
  console.log(`options: ${JSON.stringify(OPTIONS)}`);
  const started = new Date();
  await waitForQuiet(OPTIONS.quietWaitS, OPTIONS.foreignLimit);
  const server = await launchServer({
    entry: "bench/server-under-test.ts",
    roomCount: 1,
    core: SERVER_CORE,
    bunArgs: process.env.BENCH_CPU_PROF
      ? ["--cpu-prof", "--cpu-prof-md", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
      : [],
  });
  const scene = new RoomScene(server, server.rooms[0]);
  const phases: PhaseResult[] = [];
  try {
    await scene.start();
    for (const [index, watchers] of OPTIONS.phases.entries())
      phases.push(await runPhase(scene, server, index, watchers));
  } finally {
    scene.stop();
    await server.stop();
  }
  const summary = summarise(phases);
  printTable(summary);
  const dir = join(ROOT, "bench/results");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `watchers-load-${started.toISOString().replace(/[:.]/g, "-")}.json`);
  const record = phases.map(({ samples: _samples, ...rest }) => rest);
  writeFileSync(
    file,
    `${JSON.stringify({ machine: info, options: OPTIONS, started, summary, phases: record }, null, 2)}\n`,
  );
  console.log(`\nwrote ${file}`);
}

await main();
process.exit(0);
