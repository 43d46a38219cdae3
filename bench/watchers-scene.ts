/**
 * What bench/watchers-load.ts's two processes share. The generator holds the players (and every players' latency);
 * the crowd process (watchers-crowd.ts) holds the watchers: a thousand watchers' frames read by the players' own
 * event loop would queue the players' frames behind theirs, and the generator's work would pass for the server's.
 * Both scenes (watchers-room.ts, watchers-duel.ts) have a players' side and a watchers' side; the generator tells
 * the crowd what the players sent (its "news": steps, submissions, words, the duel now) before it sends it, so a
 * watcher knows a step before any frame can show it.
 *
 * Times across the two processes are epoch milliseconds (`performance.timeOrigin + performance.now()`: both
 * processes' clocks agree within ≈ 0.1 ms here, measured at the start of a run), within a process its own
 * `performance.now()`.
 */
import { sleep } from "./launch-server";
import { eachConcurrently, Samples, WindowMetrics } from "./measure";
import { type EventHandler, ProtocolClient } from "./protocol-client";
import { ChatPace, startPoisson } from "./room-traffic";

const now = () => performance.now();
export const toEpoch = (t: number) => performance.timeOrigin + t;
export const fromEpoch = (epoch: number) => epoch - performance.timeOrigin;

/** Watchers get what players see within this (product-rules "Playing together"). */
export const WATCHER_DELAY_LIMIT_MS = 1000;

// --- one window's counts -------------------------------------------------------------------------------------

/** One phase's window in one process. Counters count inside it (frames by arrival, latencies by send time). */
export class PhaseMetrics extends WindowMetrics {
  /** Chat lines sent (in the window) and timed lines received. */
  chatLines = 0;
  chatReceived = 0;
  /** What the process sent in the window, by kind. */
  sent = new Map<string, number>();
  readonly latency: Map<string, Samples>;

  constructor(names: readonly string[]) {
    super();
    this.latency = new Map(names.map((name) => [name, new Samples()]));
  }

  sample(name: string, value: number) {
    this.latency.get(name)?.push(value);
  }

  frame(name: string, at: number) {
    if (!this.inWindow(at)) return;
    this.delivered++;
    this.count(this.byEvent, name);
  }

  /** A timed chat line (its send time as epoch ms) received at `at`, as latency `name`. */
  chatLine(name: string, sentAtEpoch: number, at: number) {
    const sentAt = fromEpoch(sentAtEpoch);
    if (!this.inWindow(sentAt)) return;
    this.chatReceived++;
    this.sample(name, at - sentAt);
  }

  /** An `error` event, counted by the event it answers and its code. */
  error(payload: { event?: unknown; code?: unknown } | null) {
    if (this.recording) this.count(this.errors, `${payload?.event ?? "?"}:${payload?.code ?? "?"}`);
  }
}

/** The metrics a scene counts into: a fresh window's when opened, a throwaway one when closed. */
export class MetricsSlot<M extends PhaseMetrics = PhaseMetrics> {
  current: M;

  constructor(private readonly make: () => M) {
    this.current = make();
  }

  open(): M {
    this.current = this.make();
    return this.current;
  }

  /** Nothing counts any more (a watcher arriving for the next phase gets news that is old by then). */
  close() {
    this.current = this.make();
  }
}

export interface LatencyFigures {
  count: number;
  p50: number;
  p99: number;
  max: number;
  /** Share of the samples above the watchers' 1-s promise. */
  over_1s: number;
}

const round2 = (v: number) => Math.round(v * 100) / 100;
const round5 = (v: number) => Math.round(v * 100000) / 100000;

export function figuresOf(samples: Samples): LatencyFigures {
  const [p50, p99, max] = samples.percentiles(50, 99, 100);
  const over = samples.shareAbove(WATCHER_DELAY_LIMIT_MS);
  return { count: samples.length, p50: round2(p50), p99: round2(p99), max: round2(max), over_1s: round5(over) };
}

/** The figures of each latency over the given windows' samples (`PhaseMetrics.latency`) together. */
export function pooledFigures(names: readonly string[], windows: Map<string, Samples>[]) {
  return Object.fromEntries(
    names.map((name) => [name, figuresOf(windows.reduce((s, w) => s.concat(w.get(name)!), new Samples()))]),
  ) as Record<string, LatencyFigures>;
}

// --- the two sides of a scene --------------------------------------------------------------------------------

export type SceneName = "room" | "duel";

/** What the generator tells the crowd that the players did, before they do it (epoch times). */
export type News =
  | { type: "step"; racer: string; round: string; progress: number; sentAt: number }
  | { type: "submitted"; racer: string; sentAt: number }
  | { type: "duel"; session: string }
  | { type: "word"; side: "red" | "blue"; session: string; blockId: number; sentAt: number };

/** Generator → crowd. */
export type ToCrowd =
  | { type: "start"; scene: SceneName; port: number; roomId: number; watcherChatRate: number; concurrency: number }
  | { type: "watchers"; count: number }
  | { type: "open"; windowStart: number; windowEnd: number }
  | { type: "close" }
  | { type: "pooled"; phases: number[] }
  | { type: "clock"; sentAt: number }
  | { type: "stop" }
  | News;

/** A window as the crowd saw it. */
export interface CrowdPhase {
  watchersPresent: number;
  frames: number;
  byEvent: Record<string, number>;
  errors: Record<string, number>;
  chatLines: number;
  chatReceived: number;
  sent: Record<string, number>;
  latency: Record<string, LatencyFigures>;
  closedUnexpectedly: number;
  lagP99Ms: number;
  stalledMs: number;
  /** Lane frames that showed more than the crowd had been told (a step's news arriving after its frame). */
  aheadOfNews: number;
}

/** Crowd → generator: each answers the request of the same type. */
export type FromCrowd =
  | { type: "started" }
  | { type: "watchers"; inGame: number; total: number }
  | { type: "opened" }
  | { type: "closed"; phase: CrowdPhase }
  | { type: "pooled"; latency: Record<string, LatencyFigures> }
  | { type: "clock"; sentAt: number; at: number };

/** The players' side of a scene, in the generator. */
export interface PlayersScene {
  readonly name: SceneName;
  /** The players' latencies (the figure) and the watchers' (the crowd's). */
  readonly latencies: readonly string[];
  readonly watcherLatencies: readonly string[];
  readonly playerCount: number;
  readonly metrics: MetricsSlot;
  /** Connects the players; they play until `stop`, telling the crowd through `tell`. */
  start(tell: (news: News) => void): Promise<void>;
  playersPresent(): number;
  /** Chat lines a window's receivers should have got, from the lines sent on each side. */
  chatExpected(lines: { players: number; watchers: number }, present: { players: number; watchers: number }): number;
  /** The scene's own counters for the phase's record. */
  extra(m: PhaseMetrics): Record<string, unknown>;
  stop(): void;
}

/** The watchers' side of a scene, in the crowd process. */
export interface WatchersScene {
  readonly latencies: readonly string[];
  readonly metrics: MetricsSlot;
  setWatchers(count: number): Promise<void>;
  news(news: News): void;
  inGame(): number;
  total(): number;
  /** Lane frames in window `m` that showed more than the news had said (room only; 0 expected). */
  aheadOfNews(m: PhaseMetrics): number;
  stop(): void;
}

// --- a crowd of guests ---------------------------------------------------------------------------------------

export interface WatchersOptions {
  port: number;
  watcherChatRate: number;
  connectConcurrency: number;
}

/**
 * What both scenes' watchers do alike: guests `bench-watcher-NNNNNN` made, connected and entered 200 at a time, or
 * sent away; their chat as one Poisson process; a window's metrics. A scene says how a watcher enters and leaves,
 * what it says, what it hears, and what news it needs.
 */
export abstract class WatcherCrowd<W extends CrowdMember> implements WatchersScene {
  readonly metrics: MetricsSlot;
  protected readonly watchers: W[] = [];
  protected chatSequence = 0;
  private readonly chat: CrowdChat<W>;

  constructor(
    readonly latencies: readonly string[],
    protected readonly options: WatchersOptions,
  ) {
    this.metrics = new MetricsSlot(() => new PhaseMetrics(latencies));
    this.chat = new CrowdChat(
      options.watcherChatRate,
      () => this.watchers,
      (watcher, sentAt) => this.say(watcher, sentAt),
      () => this.m.count(this.m.sent, "chat_skipped"),
    );
  }

  protected get m() {
    return this.metrics.current;
  }

  /** A new watcher's own fields. */
  protected abstract fields(): Omit<W, keyof CrowdMember>;
  /** What a connected watcher sends to enter the game, and to leave it. */
  protected abstract enter(watcher: W): void;
  protected abstract leave(watcher: W): void;
  /** A chat line from `watcher`, sent at `sentAt`. */
  protected abstract say(watcher: W, sentAt: number): void;
  protected abstract onEvent(watcher: W, name: string, frame: string, at: number): void;
  abstract news(news: News): void;

  async setWatchers(count: number) {
    await resizeCrowd(this.watchers, count, {
      make: (index) =>
        crowdMember<W>(this.fields(), {
          port: this.options.port,
          clientId: guestId("bench-watcher", index),
          onEvent: (watcher) => (name, frame, at) => this.onEvent(watcher, name, frame, at),
          metrics: () => this.m,
        }),
      join: (fresh) => connectCrowd(fresh, this.options.connectConcurrency, (watcher) => this.enter(watcher)),
      leave: (watcher) => this.leave(watcher),
    });
    this.chat.restart();
  }

  inGame() {
    return this.watchers.filter((w) => w.inGame).length;
  }

  total() {
    return this.watchers.length;
  }

  aheadOfNews(_m: PhaseMetrics) {
    return 0;
  }

  stop() {
    this.chat.stop();
    for (const watcher of this.watchers) {
      watcher.leaving = true;
      watcher.client.close();
    }
  }
}

export interface CrowdMember {
  client: ProtocolClient;
  /** In the game (a room's member or spectator, a duel's watcher). */
  inGame: boolean;
  /** Leaving on purpose: its socket's close is not a failure. */
  leaving: boolean;
  chatPace: ChatPace;
}

/** A guest with its socket, not yet connected. */
export function crowdMember<M extends CrowdMember>(
  fields: Omit<M, keyof CrowdMember>,
  options: { port: number; clientId: string; onEvent: (member: M) => EventHandler; metrics: () => PhaseMetrics },
): M {
  const member = { ...fields, inGame: false, leaving: false, chatPace: new ChatPace() } as unknown as M;
  member.client = new ProtocolClient({
    url: `http://127.0.0.1:${options.port}`,
    auth: { client_id: options.clientId },
    onEvent: options.onEvent(member),
    onClose: () => {
      if (member.inGame && !member.leaving) options.metrics().closedUnexpectedly++;
      member.inGame = false;
    },
  });
  return member;
}

export const guestId = (prefix: string, index: number) => `${prefix}-${index.toString().padStart(6, "0")}`;

/**
 * Connects `members` `concurrency` at a time, each entering with `enter` once connected, and waits (60 s at most)
 * until every connected one is in the game. Answers how many are.
 */
export async function connectCrowd<M extends CrowdMember>(
  members: M[],
  concurrency: number,
  enter: (member: M) => void,
) {
  await eachConcurrently(members, concurrency, async (member) => {
    await member.client.connect();
    enter(member);
  });
  const deadline = now() + 60_000;
  while (members.some((m) => !m.inGame && m.client.connected) && now() < deadline) await sleep(100);
  return members.filter((m) => m.inGame).length;
}

/** Members leaving on purpose: `leave` sent, and their sockets closed a second later (once the server has it). */
export async function dismissCrowd<M extends CrowdMember>(members: M[], leave: (member: M) => void) {
  for (const member of members) {
    member.leaving = true;
    leave(member);
  }
  await sleep(1000);
  for (const member of members) member.client.close();
}

/** Brings `crowd` to `count`: `make` and `join` the new members, `leave` the last ones. */
export async function resizeCrowd<M extends CrowdMember>(
  crowd: M[],
  count: number,
  how: { make: (index: number) => M; join: (fresh: M[]) => Promise<number>; leave: (member: M) => void },
) {
  if (count > crowd.length) {
    const fresh = Array.from({ length: count - crowd.length }, (_, i) => how.make(crowd.length + i));
    crowd.push(...fresh);
    const joined = await how.join(fresh);
    console.log(`  [crowd] watchers in: ${joined}/${fresh.length} (${crowd.length} in all)`);
  } else if (count < crowd.length) {
    const gone = crowd.splice(count);
    await dismissCrowd(gone, how.leave);
    console.log(`  [crowd] watchers left: ${gone.length} (${crowd.length} in all)`);
  }
}

/**
 * A crowd's chat: one Poisson process of `ratePerMember` × its size, restarted with `restart` when its size
 * changes; each line from a random member in the game, within the chat limit (5 lines in 3 s).
 */
export class CrowdChat<M extends CrowdMember> {
  private stopTimer = () => {};

  constructor(
    private readonly ratePerMember: number,
    private readonly crowd: () => M[],
    private readonly send: (member: M, sentAt: number) => void,
    private readonly skipped: () => void,
  ) {}

  restart() {
    this.stopTimer();
    this.stopTimer = startPoisson(this.ratePerMember * this.crowd().length, () => this.line());
  }

  stop() {
    this.stopTimer();
  }

  private line() {
    const crowd = this.crowd();
    const member = crowd[Math.floor(Math.random() * crowd.length)];
    if (!member?.inGame) return;
    const sentAt = now();
    if (member.chatPace.take(sentAt)) this.send(member, sentAt);
    else this.skipped();
  }
}
