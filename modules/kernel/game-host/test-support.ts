import { FakeClock, seededRandom } from "../clock";
import type { GameMode, GamePlayer, Transition } from "../game-mode";
import type { Logger } from "../logger";
import type { GameEmitter } from "./emitter";
import { GAME_HOST_MESSAGES, StaleOwnerError } from "./errors";
import { GameHost, type GameLifecycle, type GameOwnerLease, type GamePresenter } from "./game-host";
import type { GameOpener } from "./ownership";
import { GameScheduler } from "./scheduler";
import type { WatcherOptions } from "./watchers";

/**
 * Test doubles for the game host: a clock that can also stall (time passes while no timer fires, like a blocked
 * event loop), an emitter that records what every fake socket received, a logger that keeps its lines, and a
 * scripted toy mode + presenter whose callbacks throw on demand.
 */

/** The kernel's FakeClock, which can also stall. */
export const TestClock = FakeClock;
export type TestClock = FakeClock;

export interface Received {
  event: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever payload the event carries
  payload: any;
}

/** Fake sockets: channel membership and every event each socket id (and each user channel) received. */
export class RecordingEmitter implements GameEmitter {
  readonly channels = new Map<string, Set<string>>();
  readonly inbox = new Map<string, Received[]>();
  readonly users = new Map<number, Received[]>();

  toChannel(channel: string, event: string, payload: unknown) {
    for (const id of this.channels.get(channel) ?? []) this.deliver(id, event, payload);
  }
  toSockets(socketIds: readonly string[], event: string, payload: unknown) {
    for (const id of socketIds) this.deliver(id, event, payload);
  }
  toUser(userId: number, event: string, payload: unknown) {
    const list = this.users.get(userId) ?? [];
    list.push({ event, payload });
    this.users.set(userId, list);
  }
  join(socketId: string, channel: string) {
    const members = this.channels.get(channel) ?? new Set<string>();
    members.add(socketId);
    this.channels.set(channel, members);
  }
  leave(socketId: string, channel: string) {
    this.channels.get(channel)?.delete(socketId);
  }
  /** Every event a socket received (optionally of one name). */
  received(socketId: string, event?: string): Received[] {
    const all = this.inbox.get(socketId) ?? [];
    return event === undefined ? all : all.filter((r) => r.event === event);
  }
  events(socketId: string): string[] {
    return this.received(socketId).map((r) => r.event);
  }
  inChannel(channel: string, socketId: string) {
    return this.channels.get(channel)?.has(socketId) ?? false;
  }
  clear() {
    this.inbox.clear();
  }
  private deliver(socketId: string, event: string, payload: unknown) {
    const list = this.inbox.get(socketId) ?? [];
    list.push({ event, payload });
    this.inbox.set(socketId, list);
  }
}

export interface LogLine {
  level: "debug" | "info" | "warn" | "error";
  message: string;
  fields?: Record<string, unknown>;
}

export function recordingLogger(lines: LogLine[] = []): Logger & { lines: LogLine[] } {
  const line = (level: LogLine["level"]) => (message: string, fields?: Record<string, unknown>) => {
    lines.push({ level, message, fields });
  };
  const logger = {
    lines,
    debug: line("debug"),
    info: line("info"),
    warn: line("warn"),
    error: line("error"),
    child: () => logger,
  };
  return logger;
}

// --- a toy mode: waiting → countdown 3-2-1 → playing → finished → waiting ---------------------------------------

/** The callbacks a test can make throw: how many more times each one throws (Infinity: always). */
export type Faults = Partial<Record<"setup" | "tick" | "join" | "leave" | "move" | "effect" | "welcome", number>>;

export interface ToySettings {
  label: string;
  waitMs: number;
  playMs: number;
  resultsMs: number;
  /** The game is over for good once its first round has finished (the mode's `isClosed`). */
  closeAfterRound?: boolean;
}
export const TOY_SETTINGS: ToySettings = { label: "toy", waitMs: 5_000, playMs: 10_000, resultsMs: 3_000 };

export interface ToyState {
  settings: ToySettings;
  phase: "waiting" | "countdown" | "playing" | "finished";
  players: readonly string[];
  /** When the next tick is due (null: nothing scheduled). */
  dueAt: number | null;
  count: number;
  startedAt: number | null;
  endedAt: number | null;
  answers: readonly { playerId: string; text: string; position: number }[];
}

export type ToyEffect =
  | { type: "phase"; phase: ToyState["phase"] }
  | { type: "count"; number: number }
  | { type: "answered"; playerId: string; text: string; position: number }
  | { type: "finished"; answers: ToyState["answers"] }
  | { type: "renamed"; playerId: string; name: string };

export interface ToyMove {
  text: string;
}

export function takeFault(faults: Faults, name: keyof Faults) {
  const left = faults[name] ?? 0;
  if (left <= 0) return;
  faults[name] = left - 1;
  throw new Error(`scripted ${name} fault`);
}

type T = Transition<ToyState, ToyEffect>;

const finished = (state: ToyState, at: number): T => ({
  state: { ...state, phase: "finished", dueAt: at + state.settings.resultsMs, endedAt: at },
  effects: [
    { type: "phase", phase: "finished" },
    { type: "finished", answers: state.answers },
  ],
});

const waiting = (state: ToyState, now: number): ToyState => ({
  ...state,
  phase: "waiting",
  dueAt: state.players.length > 0 ? now + state.settings.waitMs : null,
  count: 0,
  startedAt: null,
  endedAt: null,
  answers: [],
});

/** One step; times follow the schedule (`due`), not the late clock, so a stalled game owes several steps. */
function tickToy(state: ToyState, due: number, now: number): T {
  switch (state.phase) {
    case "waiting":
      return {
        state: { ...state, phase: "countdown", count: 3, dueAt: due + 1_000 },
        effects: [
          { type: "phase", phase: "countdown" },
          { type: "count", number: 3 },
        ],
      };
    case "countdown":
      if (state.count > 1) {
        return {
          state: { ...state, count: state.count - 1, dueAt: due + 1_000 },
          effects: [{ type: "count", number: state.count - 1 }],
        };
      }
      return {
        state: { ...state, phase: "playing", count: 0, startedAt: due, dueAt: due + state.settings.playMs },
        effects: [{ type: "phase", phase: "playing" }],
      };
    case "playing":
      return finished(state, due);
    case "finished":
      return { state: waiting(state, now), effects: [{ type: "phase", phase: "waiting" }] };
  }
}

/** `trace` receives `<label>@<due>` for every tick (tests read the order of late steps). */
export function toyMode(faults: Faults = {}, trace?: string[]) {
  return {
    id: "sentence_race",
    setup(settings: ToySettings): ToyState {
      takeFault(faults, "setup");
      return {
        settings,
        phase: "waiting",
        players: [],
        dueAt: null,
        count: 0,
        startedAt: null,
        endedAt: null,
        answers: [],
      };
    },
    move(state, playerId, move, ctx) {
      takeFault(faults, "move");
      if (state.phase !== "playing") return { ok: false, error: "아직 시작하지 않았습니다.", code: "too_early" };
      if (state.answers.some((a) => a.playerId === playerId)) {
        return { ok: false, error: "이미 답했습니다.", code: "duplicate" };
      }
      const answer = { playerId, text: move.text, position: state.answers.length + 1 };
      const next = { ...state, answers: [...state.answers, answer] };
      const effects: ToyEffect[] = [{ type: "answered", ...answer }];
      if (next.answers.length < next.players.length) return { ok: true, state: next, effects };
      const done = finished(next, ctx.now);
      return { ok: true, state: done.state, effects: [...effects, ...done.effects] };
    },
    tick(state, ctx) {
      takeFault(faults, "tick");
      trace?.push(`${state.settings.label}@${state.dueAt}`);
      return tickToy(state, state.dueAt!, ctx.now);
    },
    nextTickAt: (state) => state.dueAt,
    onPlayerJoin(state, player, ctx) {
      takeFault(faults, "join");
      if (state.players.includes(player.id)) return { state, effects: [] };
      const joined = { ...state, players: [...state.players, player.id] };
      if (state.phase !== "waiting" || state.dueAt !== null) return { state: joined, effects: [] };
      return {
        state: { ...joined, dueAt: ctx.now + state.settings.waitMs },
        effects: [{ type: "phase", phase: "waiting" }],
      };
    },
    onPlayerLeave(state, playerId, ctx) {
      takeFault(faults, "leave");
      const left = { ...state, players: state.players.filter((p) => p !== playerId) };
      if (left.players.length > 0 || left.phase === "playing" || left.phase === "finished") {
        return { state: left, effects: [] };
      }
      // The last player left before the round began: stop until someone comes.
      return { state: waiting(left, ctx.now), effects: [{ type: "phase", phase: "waiting" }] };
    },
    onPlayerUpdate(state, player) {
      return { state, effects: [{ type: "renamed", playerId: player.id, name: player.name }] };
    },
    playerView: (state, playerId) => ({
      phase: state.phase,
      count: state.count,
      players: state.players,
      mine: state.answers.find((a) => a.playerId === playerId) ?? null,
    }),
    roundStartedAt: (state) => state.startedAt,
    roundEndedAt: (state) => state.endedAt,
    isClosed: (state) => state.settings.closeAfterRound === true && state.phase === "finished",
    finish(state, ctx) {
      return state.phase === "playing" ? finished(state, ctx.now) : { state, effects: [] };
    },
  } satisfies GameMode<ToyState, ToySettings, ToyMove, ToyEffect, unknown>;
}

export type ToyMode = ReturnType<typeof toyMode>;

// --- its presenter and a fake store -------------------------------------------------------------------------------

interface StoredRow {
  name: string;
  source: number | string;
  round: number;
  key: string;
}

/**
 * A stand-in for the games module: idempotent by (name, source, round, key), fails the next `failures` calls, and
 * fenced the way the games module is (README "Fencing"): per source, the highest owner epoch seen is kept; a write
 * with a lower epoch is refused with `StaleOwnerError`, a higher one raises it.
 */
export class FakeStore {
  readonly rows: StoredRow[] = [];
  /** Source → the highest owner epoch that has written (or claimed). */
  readonly epochs = new Map<number | string, number>();
  failures = 0;
  calls = 0;
  refused = 0;

  async save(row: StoredRow, epoch?: number) {
    this.calls++;
    if (this.failures > 0) {
      this.failures--;
      throw new Error("database is locked");
    }
    if (epoch !== undefined) this.fence(row.source, epoch);
    const same = (r: StoredRow) =>
      r.name === row.name && r.source === row.source && r.round === row.round && r.key === row.key;
    if (!this.rows.some(same)) this.rows.push(row);
    return this.rows.length;
  }

  /** A new owner raises the source's epoch before it reads anything: the old owner's late writes are refused. */
  async claim(source: number | string, epoch: number) {
    this.fence(source, epoch);
  }

  storedEpoch(source: number | string) {
    return this.epochs.get(source) ?? 0;
  }

  lastRound(source: number | string) {
    return Math.max(0, ...this.rows.filter((r) => r.source === source).map((r) => r.round));
  }

  /** The rows of one round (results and finish). */
  round(source: number | string, round: number) {
    return this.rows.filter((r) => r.source === source && r.round === round);
  }

  private fence(source: number | string, epoch: number) {
    const stored = this.storedEpoch(source);
    if (epoch < stored) {
      this.refused++;
      throw new StaleOwnerError(epoch, stored);
    }
    this.epochs.set(source, epoch);
  }
}

export type ToyCommand = { type: "shout"; text: string } | { type: "answer"; text: string };
export type ToyHost = GameHost<ToyMode, GamePlayer, undefined, ToyCommand>;
export type ToyLifecycle = GameLifecycle<ToyMode, GamePlayer, undefined, ToyCommand>;

/**
 * The toy's output: its events are made up, so they go through the host without the app's wire contract (the host's
 * output methods are typed against `ServerEvents`, which only modules fill).
 */
interface ToyOutput {
  broadcast(event: `toy:${string}`, payload: unknown): void;
  sendToSocket(socketId: string, event: `toy:${string}`, payload: unknown): void;
}
const out = (host: ToyHost) => host as unknown as ToyOutput;

/** The toy's refusal of a new player beyond its capacity. */
export const TOY_FULL = { ok: false as const, error: "방이 가득 찼습니다.", code: "room_full" };

export function toyPresenter(
  store: FakeStore,
  faults: Faults = {},
  capacity = Number.POSITIVE_INFINITY,
): GamePresenter<ToyMode, GamePlayer, undefined, ToyCommand> {
  return {
    admit(host) {
      return host.size >= capacity ? TOY_FULL : undefined;
    },
    effect(host, effect) {
      takeFault(faults, "effect");
      out(host).broadcast(`toy:${effect.type}`, effect);
      if (effect.type === "answered") {
        const ref = host.gameRef()!;
        host.write({
          name: "record_result",
          run: () =>
            store.save({ name: "result", source: ref.sourceId, round: ref.round, key: effect.playerId }, ref.epoch),
          done: (count) => out(host).broadcast("toy:stored", { count, playerId: effect.playerId }),
          failed: () => out(host).broadcast("toy:not_stored", { playerId: effect.playerId }),
        });
      }
      if (effect.type === "finished") {
        const ref = host.gameRef()!;
        host.write({
          name: "finish_game",
          run: () => store.save({ name: "finish", source: ref.sourceId, round: ref.round, key: "game" }, ref.epoch),
        });
      }
    },
    welcome(host, member, socketId) {
      takeFault(faults, "welcome");
      out(host).sendToSocket(socketId, "toy:welcome", host.view(member.player.id));
    },
    joined(host, member) {
      out(host).broadcast("toy:joined", { playerId: member.player.id });
    },
    left(host, member) {
      out(host).broadcast("toy:left", { playerId: member.player.id });
    },
    updated(host, member) {
      out(host).broadcast("toy:updated", { playerId: member.player.id, name: member.player.name });
    },
    command(host, member, command) {
      if (command.type === "answer") return host.play(member.player.id, { text: command.text });
      out(host).broadcast("toy:shout", { playerId: member.player.id, text: command.text });
      return undefined;
    },
    reset(host) {
      out(host).broadcast("toy:reset", { message: GAME_HOST_MESSAGES.reset, view: host.view(null) });
    },
  };
}

export const player = (name: string, userId: number | null = null): GamePlayer => ({ id: `p:${name}`, name, userId });

interface GameOptions {
  faults?: Faults;
  presenterFaults?: Faults;
  graceMs?: number;
  sourceId?: number;
  lastRound?: number;
  mode?: ToyMode;
  owner?: GameOwnerLease;
  /** New players admitted beyond this many are refused (`TOY_FULL`). */
  capacity?: number;
  lifecycle?: ToyLifecycle;
  closeAfterRound?: boolean;
  /** Members who only watch (README "Watchers"). */
  watchers?: WatcherOptions<GamePlayer>;
}

/**
 * One scheduler, one emitter, one store, and as many toy games on them as a test wants. Several "processes" of
 * one test share the clock, the emitter (the socket.io adapter reaches every socket from every process) and the
 * store (the database), each with a scheduler of its own.
 */
export function toyWorld(shared: { clock?: TestClock; emitter?: RecordingEmitter; store?: FakeStore } = {}) {
  const clock = shared.clock ?? new TestClock();
  const log = recordingLogger();
  const scheduler = new GameScheduler(clock, log);
  const emitter = shared.emitter ?? new RecordingEmitter();
  const store = shared.store ?? new FakeStore();
  const trace: string[] = [];
  let rooms = 0;
  const game = (options: GameOptions = {}) => {
    const sourceId = options.sourceId ?? ++rooms;
    return new GameHost<ToyMode, GamePlayer, undefined, ToyCommand>({
      mode: options.mode ?? toyMode(options.faults, trace),
      lastRound: options.lastRound,
      settings: { ...TOY_SETTINGS, label: `g${sourceId}`, closeAfterRound: options.closeAfterRound },
      presenter: toyPresenter(store, options.presenterFaults, options.capacity),
      lifecycle: options.lifecycle,
      sourceId,
      sourceName: `방 ${sourceId}`,
      graceMs: options.graceMs ?? 5_000,
      scheduler,
      emitter,
      random: seededRandom(1),
      log,
      retry: { attempts: 3, firstDelayMs: 100, maxDelayMs: 1_000 },
      owner: options.owner,
      watchers: options.watchers,
    });
  };
  return { clock, log, scheduler, emitter, store, trace, game };
}

export type ToyWorld = ReturnType<typeof toyWorld>;

/**
 * The toy's opener, doing what a module does when its process takes a game (README "Takeover"): claim the new
 * epoch in storage first (the old owner's late writes are refused from then on), then end the round the old owner
 * left unfinished from what is stored (finish written once, players told with `toy:round_closed`), then a new host
 * continuing the stored round numbering under the lease.
 */
export function toyOpener(world: ToyWorld, options: { capacity?: number } = {}): GameOpener {
  return {
    storedEpoch: async (sourceId) => world.store.storedEpoch(Number(sourceId)),
    async open(sourceId, owner) {
      const source = Number(sourceId);
      await world.store.claim(source, owner.epoch);
      const lastRound = world.store.lastRound(source);
      const rows = world.store.round(source, lastRound);
      if (lastRound > 0 && !rows.some((r) => r.name === "finish")) {
        await world.store.save({ name: "finish", source, round: lastRound, key: "game" }, owner.epoch);
        world.emitter.toChannel(`sentence_race:${source}`, "toy:round_closed", {
          round: lastRound,
          results: rows.map((r) => r.key),
        });
      }
      return world.game({ sourceId: source, lastRound, owner, capacity: options.capacity });
    },
  };
}

/** Lets queued promise callbacks (the write queue) run; no timing involved. */
export async function settle() {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}
