import { type Clock, systemClock, type TimerHandle } from "../clock";
import type { AnyGameMode, GamePlayer } from "../game-mode";
import type { Logger } from "../logger";
import { describeError, FAILED, type InputResult, MOVING } from "./errors";
import type { GameInput, GameOwnerLease } from "./game-host";
import { type Lease, LeaseKeeper, type LeaseRedis, type LeaseTimings, leaseKey } from "./lease";
import { type GameDirectory, GameOpeners } from "./local-games";

/**
 * Exactly one owner per live game across processes (README "Several processes"). For a game (mode + source id)
 * one process holds the lease (`lease.ts`) and runs the `GameHost`; every other process forwards the input of its
 * sockets to it through Redis (`game:in:<game>`, answered on `game:reply:<process>`), with the sender's identity
 * in the input; the owner stamps the time with its own clock. Output needs nothing here: presenters name sockets
 * by id and the emitter goes through the socket.io adapter.
 *
 * Each process remembers the seats of ITS sockets (game → socket → player and data). When an owner dies, its lease
 * expires; a process with seats in the game sees the game free (it looks every `renewEveryMs`) and takes it: a new
 * epoch, the module's opener ends the round the dead owner left from what is stored and creates a new host, the
 * taker re-joins its own seats and announces itself on `game:owners`, and every other process re-announces its
 * seats to it (`join`).
 */

// biome-ignore lint/suspicious/noExplicitAny: input of any mode, player, data and command travels as JSON
export type AnyGameInput = GameInput<AnyGameMode, GamePlayer, any, any>;

/** What the owning process runs (a `GameHost` of any mode). */
export interface OwnedGame {
  input(input: AnyGameInput): InputResult;
  /** Ends the round in play (results presented and written) and stops: a clean shutdown. */
  finish(): void;
  /** Another process owns the game now: no more steps here. */
  giveUp(): void;
  drain(): Promise<void>;
}

/** What a module gives the ownership for one mode: how its process opens a game it has just taken. */
export interface GameOpener {
  /** The highest owner epoch storage has seen for the source (0: none); the new lease's epoch will be above it. */
  storedEpoch?(sourceId: string): Promise<number>;
  /**
   * This process has just taken the game (`owner.epoch` is new). In this order: raise the source's stored epoch to
   * `owner.epoch` (from then on the previous owner's late writes are refused), end the round the previous owner
   * left unfinished from what is stored (idempotently; players told on the game's channel), read the last round,
   * and create the host with `owner` and that `lastRound`. A throw gives the lease back.
   */
  open(sourceId: string, owner: GameOwnerLease): Promise<OwnedGame>;
}

/** The node-redis commands the ownership uses (a connected node-redis client satisfies it). */
export interface OwnershipRedis extends LeaseRedis {
  publish(channel: string, message: string): Promise<number>;
  mGet(keys: string[]): Promise<(string | null)[]>;
}

/** A second connection, for subscriptions only (node-redis: `client.duplicate()`, connected). */
export interface OwnershipSubscriber {
  subscribe(channel: string, listener: (message: string, channel: string) => void): Promise<unknown>;
  /** With a listener, only that one is removed (a later subscription of the same channel stays). */
  unsubscribe(channel: string, listener?: (message: string, channel: string) => void): Promise<unknown>;
}

export interface GameOwnershipOptions {
  /** Unique per process (and per start: a restarted process is another owner). */
  processId: string;
  redis: OwnershipRedis;
  subscriber: OwnershipSubscriber;
  /** Every mode id there is (the mode registry); default: the modes of `games`. */
  modes?: readonly string[];
  /** Openers registered at once, by mode id (more come through `register`). */
  games?: Partial<Record<string, GameOpener>>;
  log: Logger;
  lease?: Partial<LeaseTimings>;
  /** How long a join, move or command waits for an owner while a game changes hands (default: ttl + 2 s). */
  moveWaitMs?: number;
  /** How long a forwarded input waits for the owner's answer (default 3 s; then "요청을 처리하지 못했습니다…"). */
  replyTimeoutMs?: number;
  clock?: Clock;
  /** Start of every key and channel (the deployment's REDIS_PREFIX, `ctx.cluster.prefix`). */
  prefix?: string;
}

export const gameKey = (mode: string, sourceId: string) => `${mode}:${sourceId}`;
const splitKey = (game: string) => {
  const at = game.indexOf(":");
  return { mode: game.slice(0, at), sourceId: game.slice(at + 1) };
};
export const inputChannel = (game: string, prefix = "") => `${prefix}game:in:${game}`;
export const replyChannel = (processId: string, prefix = "") => `${prefix}game:reply:${processId}`;
export const OWNERS_CHANNEL = "game:owners";

/** Between two looks for an owner while a game changes hands. */
const RETRY_MS = 100;

interface Seat {
  player: GamePlayer;
  data: unknown;
}

/** A game this process owns or is opening. */
interface Owned {
  lease: Lease | null;
  game: OwnedGame | null;
  /** Resolves true once the game runs here, false when taking it failed. */
  ready: Promise<boolean>;
  /** Shutting down: forwarded input is answered "moving". */
  closing: boolean;
  /** Its subscription to `game:in:<game>` (removed by this listener: a re-take subscribes a new one). */
  listener: ((message: string) => void) | null;
}

interface Forwarded {
  id: string;
  from: string;
  input: AnyGameInput;
}

/** The owner's answer to a forwarded input, with its lease token (`<processId>:<epoch>`). */
interface Answer {
  id: string;
  result: InputResult;
  owner: string | null;
}

export class GameOwnership implements GameDirectory {
  readonly processId: string;
  private readonly redis: OwnershipRedis;
  private readonly subscriber: OwnershipSubscriber;
  private readonly log: Logger;
  private readonly clock: Clock;
  private readonly leases: LeaseKeeper;
  private readonly moveWaitMs: number;
  private readonly replyTimeoutMs: number;
  private readonly owned = new Map<string, Owned>();
  private readonly openers: GameOpeners;
  /** game → this process's sockets in it → what to re-announce to a new owner. */
  private readonly seats = new Map<string, Map<string, Seat>>();
  /**
   * game → the lease token of the owner this process's seats were last given to. The watcher compares it with
   * Redis: an owner change this process did not hear of (pub/sub delivers at most once) is caught there.
   */
  private readonly knownOwners = new Map<string, string>();
  private readonly waiting = new Map<string, (answer: Answer) => void>();
  private sequence = 0;
  private watchTimer: TimerHandle | null = null;
  private stopped = false;
  private dead = false;
  private readonly prefix: string;
  private readonly ownersChannel: string;

  constructor(options: GameOwnershipOptions) {
    this.processId = options.processId;
    this.prefix = options.prefix ?? "";
    this.ownersChannel = `${this.prefix}${OWNERS_CHANNEL}`;
    this.redis = options.redis;
    this.subscriber = options.subscriber;
    this.log = options.log;
    this.clock = options.clock ?? systemClock;
    this.leases = new LeaseKeeper({
      redis: options.redis,
      processId: options.processId,
      timings: options.lease,
      log: options.log,
      clock: this.clock,
      prefix: this.prefix,
    });
    this.moveWaitMs = options.moveWaitMs ?? this.leases.timings.ttlMs + 2_000;
    this.replyTimeoutMs = options.replyTimeoutMs ?? 3_000;
    this.openers = new GameOpeners(options.modes, options.games);
  }

  register(mode: string, opener: GameOpener) {
    this.openers.register(mode, opener);
  }

  /** Listens for answers and for new owners, and starts looking after the games this process has seats in. */
  async start() {
    await this.subscriber.subscribe(replyChannel(this.processId, this.prefix), (message) => this.onReply(message));
    await this.subscriber.subscribe(this.ownersChannel, (message) => this.onNewOwner(message));
    this.scheduleWatch();
  }

  // --- input ---------------------------------------------------------------------------------------------------

  /**
   * Input of a socket of this process for a game, run by the game's owner wherever it is; this process takes the
   * game when nobody owns it. A join, move or command waits up to `moveWaitMs` while the game changes hands, then
   * is answered "게임을 다른 서버로 옮기는 중입니다…" (`game_moving`); a leave, drop, expire or update with no owner
   * is done here (the seat is forgotten or changed, and a new owner gets the seats as they are).
   */
  input(mode: string, sourceId: string, input: AnyGameInput): InputResult | Promise<InputResult> {
    const game = gameKey(mode, sourceId);
    // The common case, answered at once: the game runs here. No promise is made, so a chat line to a room this
    // process owns costs what it costs on one process (bench/README "Several processes").
    const running = this.stopped ? null : this.owned.get(game)?.game;
    if (running) return this.remembered(game, input, running.input(input));
    return this.deliver(game, input).then((result) => this.remembered(game, input, result));
  }

  private remembered(game: string, input: AnyGameInput, result: InputResult): InputResult {
    this.remember(game, input, result);
    return result;
  }

  /** The game's host when this process owns it (null otherwise). */
  localGame(mode: string, sourceId: string): OwnedGame | null {
    return this.owned.get(gameKey(mode, sourceId))?.game ?? null;
  }

  /** The epoch of this process's lease on the game, or null when it does not own it. */
  epochOf(mode: string, sourceId: string): number | null {
    const entry = this.owned.get(gameKey(mode, sourceId));
    return entry?.game ? (entry.lease?.epoch ?? null) : null;
  }

  private async deliver(game: string, input: AnyGameInput): Promise<InputResult> {
    const mustReachOwner = input.type === "join" || input.type === "move" || input.type === "command";
    const giveUpAt = performance.now() + this.moveWaitMs;
    for (;;) {
      if (this.stopped) return MOVING;
      const running = this.owned.get(game)?.game;
      if (running) return running.input(input);
      const local = await this.ownedGame(game);
      if (local) return local.input(input);
      const answer = await this.forward(game, input);
      if (answer !== null && !isMoving(answer)) return answer;
      if (!mustReachOwner) return answer ?? { ok: true };
      if (answer === null && (await this.take(game))) continue;
      if (performance.now() >= giveUpAt) return MOVING;
      await this.sleep(RETRY_MS);
    }
  }

  /** The host when this process owns the game (waiting for it while it is being opened here). */
  private async ownedGame(game: string): Promise<OwnedGame | null> {
    const entry = this.owned.get(game);
    if (!entry) return null;
    if (!entry.game) await entry.ready;
    return this.owned.get(game) === entry ? entry.game : null;
  }

  /** To the owner through Redis: its answer, or null when nobody owns the game right now (no subscriber). */
  private async forward(game: string, input: AnyGameInput): Promise<InputResult | null> {
    const id = `${++this.sequence}`;
    let timer: TimerHandle | null = null;
    const answer = new Promise<Answer>((resolve) => {
      this.waiting.set(id, resolve);
      timer = this.clock.setTimeout(() => {
        this.log.warn("forwarded game input got no answer", { game, input: input.type });
        resolve({ id, result: FAILED, owner: null });
      }, this.replyTimeoutMs);
    });
    const message: Forwarded = { id, from: this.processId, input };
    try {
      // Raced with the answer's timeout: a Redis that is down queues commands rather than failing them.
      const sent = await Promise.race([
        this.redis.publish(inputChannel(game, this.prefix), JSON.stringify(message)),
        answer,
      ]);
      if (typeof sent === "number" && sent === 0) return null;
      const { result, owner } = typeof sent === "number" ? await answer : sent;
      if (owner && result.ok) this.knownOwners.set(game, owner);
      return result;
    } catch (error) {
      this.log.warn("forwarding game input failed", { game, error: describeError(error) });
      return FAILED;
    } finally {
      this.waiting.delete(id);
      if (timer) this.clock.clearTimeout(timer);
    }
  }

  /** The owner's side: run a forwarded input and answer the sender. A subscription callback: never throws. */
  private serve(game: string, entry: Owned, message: string) {
    if (this.dead) return;
    let forwarded: Forwarded;
    try {
      forwarded = JSON.parse(message) as Forwarded;
    } catch {
      this.log.warn("unreadable forwarded game input", { game });
      return;
    }
    const current = this.owned.get(game) === entry && !entry.closing ? entry.game : null;
    const answer: Answer = {
      id: forwarded.id,
      result: current ? current.input(forwarded.input) : MOVING,
      owner: entry.lease?.token ?? null,
    };
    this.redis
      .publish(replyChannel(forwarded.from, this.prefix), JSON.stringify(answer))
      .catch((error) => this.log.warn("answering forwarded game input failed", { game, error: describeError(error) }));
  }

  private onReply(message: string) {
    if (this.dead) return;
    try {
      const answer = JSON.parse(message) as Answer;
      this.waiting.get(answer.id)?.(answer);
    } catch {
      this.log.warn("unreadable game input answer");
    }
  }

  // --- seats of this process's sockets -------------------------------------------------------------------------

  private remember(game: string, input: AnyGameInput, result: InputResult) {
    const seats = this.seats.get(game) ?? new Map<string, Seat>();
    switch (input.type) {
      case "join":
        if (result.ok) seats.set(input.socketId, { player: input.player, data: input.data });
        else if (!isMoving(result)) seats.delete(input.socketId); // refused (room full): not in it any more
        break;
      case "leave":
      case "drop":
        seats.delete(input.socketId);
        break;
      case "update":
        for (const seat of seats.values()) {
          if (seat.player.id !== input.player.id) continue;
          seat.player = input.player;
          if ("data" in input) seat.data = input.data;
        }
        break;
    }
    if (seats.size > 0) this.seats.set(game, seats);
    else {
      this.seats.delete(game);
      this.knownOwners.delete(game);
    }
  }

  /** Another process took a game: this process's sockets in it join it there. */
  private onNewOwner(message: string) {
    if (this.dead) return;
    let announced: { game: string; processId: string; epoch: number };
    try {
      announced = JSON.parse(message);
    } catch {
      this.log.warn("unreadable game owner announcement");
      return;
    }
    if (announced.processId === this.processId) return;
    const entry = this.owned.get(announced.game);
    // A newer owner than this process: its lease was lost without its knowing yet (it stalled).
    if (entry?.lease && entry.lease.epoch < announced.epoch) this.lose(announced.game, entry, "taken");
    const token = `${announced.processId}:${announced.epoch}`;
    // Seats elsewhere only; the watcher may have seen this owner first and re-announced already.
    if (!this.seats.has(announced.game) || this.knownOwners.get(announced.game) === token) return;
    this.knownOwners.set(announced.game, token);
    this.reannounce(announced.game);
  }

  private reannounce(game: string) {
    this.reannounceSeats(game).catch((error) =>
      this.log.warn("re-announcing seats failed", { game, error: describeError(error) }),
    );
  }

  private async reannounceSeats(game: string) {
    const { mode, sourceId } = splitKey(game);
    for (const [socketId, seat] of [...(this.seats.get(game) ?? [])]) {
      const result = await this.input(mode, sourceId, { type: "join", socketId, player: seat.player, data: seat.data });
      if (!result.ok) this.log.warn("re-announcing a seat failed", { game, socket_id: socketId, code: result.code });
    }
  }

  // --- taking and losing games ---------------------------------------------------------------------------------

  /** Takes the game when nobody holds it: true once it runs here. */
  private take(game: string): Promise<boolean> {
    const existing = this.owned.get(game);
    if (existing) return existing.ready;
    const { mode, sourceId } = splitKey(game);
    const opener = this.openers.get(mode);
    if (!opener || this.stopped) return Promise.resolve(false);
    const entry: Owned = { lease: null, game: null, ready: Promise.resolve(false), closing: false, listener: null };
    this.owned.set(game, entry);
    entry.ready = this.open(game, entry, opener, sourceId);
    return entry.ready;
  }

  private async open(game: string, entry: Owned, opener: GameOpener, sourceId: string): Promise<boolean> {
    try {
      const minEpoch = (await opener.storedEpoch?.(sourceId)) ?? 0;
      const lease = await this.leases.acquire(game, { minEpoch, onLost: (reason) => this.lose(game, entry, reason) });
      if (!lease) {
        this.forget(game, entry);
        return false;
      }
      entry.lease = lease;
      const owner: GameOwnerLease = {
        epoch: lease.epoch,
        holds: () => lease.check(),
        lost: (reason) => this.lose(game, entry, reason),
        close: () => {
          this.seats.delete(game);
          this.knownOwners.delete(game);
          this.lose(game, entry, "closed", false);
        },
      };
      const host = await opener.open(sourceId, owner);
      entry.game = host;
      if (this.owned.get(game) !== entry || !lease.check()) {
        host.giveUp(); // lost while opening
        return false;
      }
      this.knownOwners.set(game, lease.token);
      this.rejoinOwnSeats(game, host);
      entry.listener = (message) => this.serve(game, entry, message);
      await this.subscriber.subscribe(inputChannel(game, this.prefix), entry.listener);
      await this.redis.publish(
        this.ownersChannel,
        JSON.stringify({ game, processId: this.processId, epoch: lease.epoch }),
      );
      this.log.info("game taken", { game, epoch: lease.epoch });
      return true;
    } catch (error) {
      this.log.error("taking a game failed; its lease is given back", { game, error: describeError(error) });
      this.lose(game, entry, "failed");
      return false;
    }
  }

  private rejoinOwnSeats(game: string, host: OwnedGame) {
    const seats = this.seats.get(game);
    if (!seats) return;
    for (const [socketId, seat] of [...seats]) {
      const result = host.input({ type: "join", socketId, player: seat.player, data: seat.data });
      this.remember(game, { type: "join", socketId, player: seat.player, data: seat.data }, result);
    }
  }

  private forget(game: string, entry: Owned) {
    if (this.owned.get(game) === entry) this.owned.delete(game);
  }

  /** The game is not this process's any more: its host stops stepping, forwarded input goes elsewhere. */
  private lose(game: string, entry: Owned, reason: string, unexpected = true) {
    if (this.owned.get(game) !== entry) return;
    this.owned.delete(game);
    entry.game?.giveUp();
    void entry.lease?.release(); // compare-and-delete: harmless when it is not this process's any more
    if (entry.listener && !this.dead) {
      this.subscriber
        .unsubscribe(inputChannel(game, this.prefix), entry.listener)
        .catch((error) => this.log.warn("unsubscribing a game failed", { game, error: describeError(error) }));
    }
    if (unexpected) this.log.warn("game given up", { game, epoch: entry.lease?.epoch ?? null, reason });
  }

  // --- looking after the games this process has seats in -------------------------------------------------------

  private scheduleWatch() {
    if (this.stopped) return;
    this.watchTimer = this.clock.setTimeout(() => {
      this.watchTimer = null;
      this.watch()
        .catch((error) => this.log.warn("looking for free games failed", { error: describeError(error) }))
        .finally(() => this.scheduleWatch());
    }, this.leases.timings.renewEveryMs);
  }

  /**
   * The games with seats here that another process owns or nobody does: a free one (its owner died, or shut down)
   * is taken; one whose owner changed without this process hearing of it gets this process's seats again.
   */
  private async watch() {
    const games = [...this.seats.keys()].filter((game) => !this.owned.has(game));
    if (games.length === 0) return;
    const holders = await this.redis.mGet(games.map((game) => leaseKey(game, this.prefix)));
    for (const [index, game] of games.entries()) {
      const holder = holders[index];
      if (holder === null) void this.take(game);
      else if (holder !== this.knownOwners.get(game) && !this.owned.has(game)) {
        this.knownOwners.set(game, holder);
        this.reannounce(game);
      }
    }
  }

  // --- shutdown ------------------------------------------------------------------------------------------------

  /**
   * A clean shutdown: the rounds in play of the games owned here are finished (results written with this epoch),
   * then their leases are released, and the processes with seats in them take them over at their next look.
   */
  async stop() {
    if (this.stopped) return;
    this.stopped = true;
    this.clearWatch();
    const entries = [...this.owned.values()];
    for (const entry of entries) entry.closing = true;
    await Promise.all(entries.map((entry) => entry.ready));
    for (const entry of entries) entry.game?.finish();
    await Promise.all(entries.map((entry) => entry.game?.drain()));
    for (const [game, entry] of [...this.owned]) this.lose(game, entry, "shutdown");
    await this.leases.stop();
    await Promise.all([
      this.subscriber.unsubscribe(replyChannel(this.processId, this.prefix)),
      this.subscriber.unsubscribe(this.ownersChannel),
    ]).catch((error) => this.log.warn("unsubscribing failed", { error: describeError(error) }));
  }

  /**
   * What a killed process leaves: nothing released, nothing finished, no more steps; Redis expires its leases
   * and the other processes take its games over. (Tests; the caller also drops its Redis connections.)
   */
  abandon() {
    this.stopped = true;
    this.dead = true;
    this.clearWatch();
    this.leases.abandon();
    for (const entry of this.owned.values()) entry.game?.giveUp();
    this.owned.clear();
  }

  private clearWatch() {
    if (this.watchTimer) this.clock.clearTimeout(this.watchTimer);
    this.watchTimer = null;
  }

  private sleep(ms: number) {
    return new Promise<void>((resolve) => this.clock.setTimeout(resolve, ms));
  }
}

const isMoving = (result: InputResult) => !result.ok && result.code === "game_moving";
