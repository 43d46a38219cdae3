import type { Clock, Random } from "../clock";
import type {
  AnyGameMode,
  EffectOf,
  GameContext,
  GamePlayer,
  GameRef,
  MoveOf,
  MoveResult,
  SettingsOf,
  StateOf,
  Transition,
  ViewOf,
} from "../game-mode";
import type { Logger } from "../logger";
import type { ServerEventName, ServerPayload } from "../socket";
import type { GameEmitter } from "./emitter";
import {
  ACCEPTED,
  describeError,
  FAILED,
  HALTED,
  type InputResult,
  MOVING,
  NOT_IN_GAME,
  STOPPED,
  UNSUPPORTED,
} from "./errors";
import type { GameScheduler, ScheduledGame, ScheduledJob } from "./scheduler";
import { type WatcherOptions, WatcherRelay, watchersChannelOf } from "./watchers";
import { DEFAULT_RETRY, type RetryPolicy, WriteQueue, type WriteRequest } from "./write-queue";

/** This many faults within the window halt a game instead of resetting it once more. */
const MAX_FAULTS_PER_WINDOW = 5;
const FAULT_WINDOW_MS = 60_000;

/** A player in the game, with the ids of their sockets (tabs); several tabs are one member. */
export interface GameMember<P extends GamePlayer = GamePlayer, D = undefined> {
  readonly player: P;
  /** An array, not a Set: a Set costs ~260 bytes from its first entry (bench/README.md "Memory"). */
  readonly sockets: string[];
  readonly joinedAt: number;
  /** What the presenter keeps per player (a room: profile figures, recent chat times). */
  data: D;
}

interface Seat<P extends GamePlayer, D> extends GameMember<P, D> {
  player: P;
  /** The grace expiry while the member has no socket. */
  grace: ScheduledJob | null;
}

/**
 * Everything that happens to a game enters here, so a later change can forward it from another process to the
 * owning one (the sender's identity travels with it; the owner stamps the time on its own clock).
 * - `join`: a socket of a player enters (a new player, another tab, or a reconnect within the grace period);
 *   `data` is kept for a new member only.
 * - `leave`: a socket leaves on purpose; the player is out at once when it was their last socket.
 * - `drop`: a socket's connection was lost; the player keeps their place for `graceMs`.
 * - `expire`: ends a pending grace period now (the player went to another game meanwhile).
 * - `move`: the mode's `move`; `command`: the presenter's own input (e.g. a room's chat message).
 * - `update`: a member is shown differently (a rename, new figures): the member's `player` (same id) and, when
 *   given, `data` are replaced, the mode's `onPlayerUpdate` applied, the presenter's `updated` called.
 * With `socketId`, a move or command is refused unless that socket is the member's.
 */
export type GameInput<M extends AnyGameMode, P extends GamePlayer = GamePlayer, D = undefined, C = never> =
  | { type: "join"; socketId: string; player: P; data: D }
  | { type: "leave"; playerId: string; socketId: string }
  | { type: "drop"; playerId: string; socketId: string }
  | { type: "expire"; playerId: string }
  | { type: "move"; playerId: string; socketId?: string; move: MoveOf<M> }
  | { type: "command"; playerId: string; socketId?: string; command: C }
  | { type: "update"; player: P; data?: D };

/**
 * What one mode adds to the generic host: effects → socket events (through `host.broadcast`/`send`/`sendToUser`)
 * and write requests (`host.write`). Every callback is guarded: a throw resets the game (see `GameHost`).
 */
export interface GamePresenter<M extends AnyGameMode, P extends GamePlayer = GamePlayer, D = undefined, C = never> {
  /** One effect of a transition, in order, after the host has taken the new state. */
  effect(host: GameHost<M, P, D, C>, effect: EffectOf<M>): void;
  /**
   * A new player asks to join (not another tab, nor a reconnect within the grace period): a refusal keeps them out
   * (a room is full, too many guests from one address) and answers the join. It runs where the game runs, so on the
   * owner it sees every member, whichever process holds their sockets. Undefined means admitted.
   */
  admit?(host: GameHost<M, P, D, C>, player: P, data: D): InputResult | undefined;
  /** A socket entered (a new player's first socket, another tab, a reconnect): what that socket must see. */
  welcome?(host: GameHost<M, P, D, C>, member: GameMember<P, D>, socketId: string): void;
  /** A new player is in (after `welcome`); not called for another tab or a reconnect. */
  joined?(host: GameHost<M, P, D, C>, member: GameMember<P, D>): void;
  /** A player is out (left, or their grace period ran out); the mode has been told already. */
  left?(host: GameHost<M, P, D, C>, member: GameMember<P, D>): void;
  /** A member's player or data was replaced (`update` input), after the mode's `onPlayerUpdate`. */
  updated?(host: GameHost<M, P, D, C>, member: GameMember<P, D>): void;
  /** The presenter's own input; may play a move with `host.play`. Undefined means accepted. */
  command?(
    host: GameHost<M, P, D, C>,
    member: GameMember<P, D>,
    command: C,
    socketId: string | undefined,
  ): InputResult | undefined;
  /** Right before a due tick: may refresh data the mode reads (a room's sentence pool); returns the state to tick. */
  beforeTick?(host: GameHost<M, P, D, C>, state: StateOf<M>): StateOf<M>;
  /**
   * The game restarted after a fault, with a fresh state and the members re-joined: show the whole picture again
   * (members and state), since events of the failed step may be missing.
   */
  reset(host: GameHost<M, P, D, C>, error: unknown): void;
}

/**
 * What the game's owner (the module's runtime that created the host) reacts to, told by the host itself: the
 * presenter only turns effects into output and writes, and never calls back into the runtime. Every listener is
 * optional. A listener that throws is logged and the host goes on (README "Lifecycle events").
 */
export interface GameLifecycle<M extends AnyGameMode, P extends GamePlayer = GamePlayer, D = undefined, C = never> {
  /** A player is out (left, or their grace period ran out or was expired), after the presenter's `left`. */
  playerLeft?(host: GameHost<M, P, D, C>, member: GameMember<P, D>): void;
  /** The round in play ended (the mode's `roundEndedAt` turned into a new time), after the transition's effects. */
  roundEnded?(host: GameHost<M, P, D, C>): void;
  /** The game has nothing more to do (the mode's `isClosed` turned true), after the transition's effects. */
  closed?(host: GameHost<M, P, D, C>): void;
  /** The host stopped (`stop`, `finish`, or the game given up to another process): no more steps here. */
  stopped?(host: GameHost<M, P, D, C>): void;
  /**
   * What the game shows outside itself (a room's line in the lobby's list) changed: raised by the presenter with
   * `host.listingChanged()`, told at once. Which changes matter is the presenter's call.
   */
  listingChanged?(host: GameHost<M, P, D, C>): void;
}

/**
 * The lease this process holds on the game when several processes share the games (`GameOwnership` hands it to the
 * module that opens the game, which passes it on here).
 */
export interface GameOwnerLease {
  /** The lease's epoch (fencing token): every `GameRef` of the game carries it. */
  readonly epoch: number;
  /** True while the lease is held by the local clock; false loses it (the ownership stops the game). */
  holds(): boolean;
  /** Storage refused a write as stale: a newer owner has written, this process must give the game up. */
  lost(reason: "fenced"): void;
  /**
   * The game is over for good (a closed duel): hand it back — the lease, the input subscription and this process's
   * seats in it — without the warning a lost game gets. Its host must be stopped already.
   */
  close(): void;
}

export interface GameHostOptions<M extends AnyGameMode, P extends GamePlayer = GamePlayer, D = undefined, C = never> {
  mode: M;
  /** Passed to `mode.setup`, at creation and at every reset. */
  settings: SettingsOf<M>;
  presenter: GamePresenter<M, P, D, C>;
  /** The owner's listeners for the game's lifecycle (players out, round ended, closed, stopped, listing changed). */
  lifecycle?: GameLifecycle<M, P, D, C>;
  /** The source hosting the game (room id, guild id, duel id) and its name at the time. */
  sourceId: number | string;
  sourceName: string;
  /** The socket.io room of the game's players; `<mode>:<sourceId>` when not given. */
  channel?: string;
  /**
   * Members who only watch (README "Watchers"): their sockets are in `<channel>:watchers`, and every broadcast
   * reaches them after the players, coalesced. Without it every member is a player.
   */
  watchers?: WatcherOptions<P>;
  /** The last round number already used by this source (after a restart or a takeover); 0 when not given. */
  lastRound?: number;
  /** How long a dropped last socket keeps the player's place; 0 removes at once. */
  graceMs: number;
  scheduler: GameScheduler;
  emitter: GameEmitter;
  random: Random;
  log: Logger;
  retry?: Partial<RetryPolicy>;
  /**
   * Several processes: the lease under which this process runs the game. The host steps (input, ticks, grace
   * expiries) only while `holds()`; its writes carry the epoch; a write refused as stale gives the game up.
   */
  owner?: GameOwnerLease;
}

/**
 * One live game of any mode (like Colyseus' `Room` around boardgame.io's pure `Game`): its members and their
 * sockets, reconnect grace, the mode's transitions scheduled from `nextTickAt` on the process's ONE shared
 * scheduler, the presenter turning effects into output, and the queue of durable writes.
 *
 * Guarded callbacks: a throw in the mode or the presenter (tick, join, leave, grace expiry, effects, commands,
 * write completions) is logged and resets THIS game: a fresh `setup` state, the present members re-joined, the
 * presenter's `reset` telling the players. Other games and the process go on. A move that throws inside the mode
 * only answers its player with an error (the state is untouched). A reset that fails as well, or a fifth fault
 * within a minute, halts the game: it refuses input from then on (players may still leave), and the process goes
 * on. The owner's lifecycle listeners (`GameLifecycle`) are told what the game did (a player out, a round ended, the
 * game closed or stopped, its listing changed); a throw there is logged and nothing more.
 */
export class GameHost<M extends AnyGameMode, P extends GamePlayer = GamePlayer, D = undefined, C = never>
  implements ScheduledGame
{
  readonly mode: M;
  readonly channel: string;
  /** The socket.io room of the game's watchers (`<channel>:watchers`). */
  readonly watchersChannel: string;
  readonly sourceId: number | string;
  readonly sourceName: string;
  private current: StateOf<M>;
  private readonly seats = new Map<string, Seat<P, D>>();
  private readonly tickJob: ScheduledJob;
  private readonly writes: WriteQueue;
  private readonly watchers: WatcherRelay | null;
  private roundNumber: number;
  private roundStart: number | null = null;
  /** The mode's `roundEndedAt` last told, and whether its `isClosed` held after the last transition. */
  private roundEnd: number | null = null;
  private closedSeen = false;
  private guardDepth = 0;
  /** Times of the latest faults (at most MAX_FAULTS_PER_WINDOW). */
  private recentFaults: number[] = [];
  private stopped = false;
  private halted = false;
  /** Stopped because another process owns the game now: input is answered "moving", not "stopped". */
  private moved = false;

  constructor(private readonly options: GameHostOptions<M, P, D, C>) {
    this.mode = options.mode;
    this.sourceId = options.sourceId;
    this.sourceName = options.sourceName;
    this.channel = options.channel ?? `${options.mode.id}:${options.sourceId}`;
    this.watchersChannel = watchersChannelOf(this.channel);
    this.watchers = options.watchers
      ? new WatcherRelay({
          scheduler: options.scheduler,
          emitter: options.emitter,
          channel: this.watchersChannel,
          merges: options.watchers.merges ?? {},
          round: () => this.roundNumber,
          log: options.log,
          logFields: () => this.logFields(),
        })
      : null;
    this.roundNumber = options.lastRound ?? 0;
    this.tickJob = options.scheduler.job(() => this.runTick());
    this.writes = new WriteQueue(
      {
        wait: (ms) => options.scheduler.wait(ms),
        log: options.log,
        logFields: () => this.logFields(),
        completed: (request, result) => this.guard("write done", () => request.done?.(result), undefined),
        gaveUp: (request, error) => this.guard("write failed", () => request.failed?.(error), undefined),
        // The players are the new owner's now: nothing is told from here (no `failed`).
        fenced: () => this.giveUp("fenced"),
        idle: () => {
          if (this.stopped) options.scheduler.unregister(this);
        },
      },
      { ...DEFAULT_RETRY, ...options.retry },
    );
    this.current = this.mode.setup(options.settings, this.context());
    this.countRound();
    this.endsOf();
    options.scheduler.register(this);
    this.reschedule();
  }

  // --- what presenters and callers read -----------------------------------------------------------------------

  get state(): StateOf<M> {
    return this.current;
  }

  get clock(): Clock {
    return this.options.scheduler.clock;
  }

  get size() {
    return this.seats.size;
  }

  member(playerId: string): GameMember<P, D> | undefined {
    return this.seats.get(playerId);
  }

  /** Members in join order. */
  members(): IterableIterator<GameMember<P, D>> {
    return this.seats.values();
  }

  /** What one player (or a spectator, null) may see. */
  view(playerId: string | null): ViewOf<M> {
    return this.mode.playerView(this.current, playerId);
  }

  /** The number of the round in play or last played (0 before the first). */
  get round() {
    return this.roundNumber;
  }

  /** The key of the round in play for durable writes (with the owner's epoch under a lease); null between rounds. */
  gameRef(): GameRef | null {
    const startedAt = this.mode.roundStartedAt?.(this.current) ?? null;
    if (startedAt === null) return null;
    const ref: GameRef = {
      mode: this.mode.id,
      sourceId: this.sourceId,
      sourceName: this.sourceName,
      round: this.roundNumber,
      startedAt,
    };
    if (this.options.owner) ref.epoch = this.options.owner.epoch;
    return ref;
  }

  /** The owner's lease epoch (null on a single process). */
  get epoch(): number | null {
    return this.options.owner?.epoch ?? null;
  }

  get running() {
    return !this.stopped && !this.halted;
  }

  // --- output (presenters) ------------------------------------------------------------------------------------

  /** To the players at once, then to the watchers in their next frame. */
  broadcast<E extends ServerEventName>(event: E, payload: ServerPayload<E>) {
    this.options.emitter.toChannel(this.channel, event, payload);
    this.watchers?.broadcast(event, payload);
  }

  /** To the watchers only, in their next frame (their own chat). */
  toWatchers<E extends ServerEventName>(event: E, payload: ServerPayload<E>) {
    this.watchers?.broadcast(event, payload);
  }

  send<E extends ServerEventName>(member: GameMember<P, D>, event: E, payload: ServerPayload<E>) {
    if (member.sockets.length === 0) return;
    if (this.isWatcher(member.player)) this.watchers?.toSockets(member.sockets, event, payload);
    else this.options.emitter.toSockets(member.sockets, event, payload);
  }

  /** A watcher's socket gets it in order with its watchers' frames. */
  sendToSocket<E extends ServerEventName>(socketId: string, event: E, payload: ServerPayload<E>) {
    if (this.watchers?.has(socketId)) this.watchers.toSockets([socketId], event, payload);
    else this.options.emitter.toSockets([socketId], event, payload);
  }

  isWatcher(player: P) {
    return this.options.watchers?.is(player) === true;
  }

  /** A socket of the game leaves its channel (the players' or the watchers'), for a runtime letting go of a game. */
  leaveChannel(socketId: string) {
    if (this.watchers?.has(socketId)) this.watchers.leave(socketId);
    else this.options.emitter.leave(socketId, this.channel);
  }

  sendToUser<E extends ServerEventName>(userId: number, event: E, payload: ServerPayload<E>) {
    this.options.emitter.toUser(userId, event, payload);
  }

  /** Queues a durable write; it runs after this transition, in order, with retries (see `WriteQueue`). */
  write<R>(request: WriteRequest<R>) {
    this.writes.push(request);
  }

  /**
   * The presenter says the game's listing changed (it decides what a listing shows, like Colyseus' `setMetadata`):
   * the owner's `listingChanged` listener is told at once, wherever the presenter is (an effect, `joined`, a
   * write's `done`). The listener reads the listing when it needs it, so several changes of one step cost one read.
   */
  listingChanged() {
    this.tell("listingChanged", (lifecycle) => lifecycle.listingChanged?.(this));
  }

  get pendingWrites() {
    return this.writes.pending;
  }

  // --- input --------------------------------------------------------------------------------------------------

  /** The one way in. Never throws: a refusal or a fault comes back as `{ ok: false, error, code }`. */
  input(input: GameInput<M, P, D, C>): InputResult {
    if (!this.running || !this.owning()) return this.inputWhileStopped(input);
    return this.guard(input.type, () => this.dispatch(input), FAILED);
  }

  /** A move of a member, for presenters (a room's chat message that is an answer); same rules as a `move` input. */
  play(playerId: string, move: MoveOf<M>): InputResult {
    return this.guard("move", () => this.playMove(playerId, move), FAILED);
  }

  private dispatch(input: GameInput<M, P, D, C>): InputResult {
    switch (input.type) {
      case "join":
        return this.join(input.player, input.socketId, input.data);
      case "leave":
      case "drop":
        this.detach(input.playerId, input.socketId, input.type === "leave");
        return ACCEPTED;
      case "expire":
        this.expire(input.playerId);
        return ACCEPTED;
      case "move":
        return this.seatOf(input.playerId, input.socketId) ? this.playMove(input.playerId, input.move) : NOT_IN_GAME;
      case "command":
        return this.command(input.playerId, input.socketId, input.command);
      case "update":
        return this.update(input.player, input);
    }
  }

  private inputWhileStopped(input: GameInput<M, P, D, C>): InputResult {
    // Sockets still leave (and places are freed) without the mode; nothing else is played any more.
    if (input.type === "leave" || input.type === "drop") {
      this.leaveChannel(input.socketId);
      const seat = this.seats.get(input.playerId);
      if (seat) this.forget(seat, input.socketId);
      return ACCEPTED;
    }
    if (input.type === "expire") return ACCEPTED;
    if (this.moved) return MOVING;
    return this.halted ? HALTED : STOPPED;
  }

  private forget(seat: Seat<P, D>, socketId: string) {
    const at = seat.sockets.indexOf(socketId);
    if (at >= 0) seat.sockets.splice(at, 1);
    if (seat.sockets.length > 0) return;
    this.cancelGrace(seat);
    this.seats.delete(seat.player.id);
  }

  private seatOf(playerId: string, socketId: string | undefined): Seat<P, D> | undefined {
    const seat = this.seats.get(playerId);
    if (!seat || (socketId !== undefined && !seat.sockets.includes(socketId))) return undefined;
    return seat;
  }

  private join(player: P, socketId: string, data: D): InputResult {
    const existing = this.seats.get(player.id);
    if (existing) {
      this.cancelGrace(existing);
      this.attach(existing, socketId);
      this.options.presenter.welcome?.(this, existing, socketId);
      return ACCEPTED;
    }
    const refused = this.options.presenter.admit?.(this, player, data);
    if (refused && !refused.ok) return refused;
    const seat: Seat<P, D> = { player, sockets: [], joinedAt: this.clock.now(), data, grace: null };
    this.seats.set(player.id, seat);
    // The mode's effects go to the channel before the new socket is in it: its welcome shows the state instead.
    this.apply(this.mode.onPlayerJoin(this.current, player, this.context()));
    this.attach(seat, socketId);
    this.options.presenter.welcome?.(this, seat, socketId);
    this.options.presenter.joined?.(this, seat);
    return ACCEPTED;
  }

  private attach(seat: Seat<P, D>, socketId: string) {
    if (!seat.sockets.includes(socketId)) seat.sockets.push(socketId);
    if (this.watchers && this.isWatcher(seat.player)) {
      if (!this.watchers.has(socketId)) this.watchers.join(socketId);
    } else {
      this.options.emitter.join(socketId, this.channel);
    }
  }

  private detach(playerId: string, socketId: string, immediate: boolean) {
    this.leaveChannel(socketId);
    const seat = this.seats.get(playerId);
    const at = seat?.sockets.indexOf(socketId) ?? -1;
    if (!seat || at < 0) return;
    seat.sockets.splice(at, 1);
    if (seat.sockets.length > 0) return;
    if (immediate || this.options.graceMs <= 0) this.remove(seat);
    else this.startGrace(seat);
  }

  private startGrace(seat: Seat<P, D>) {
    const playerId = seat.player.id;
    seat.grace = this.options.scheduler.job(() => {
      if (this.running && this.owning()) this.guard("grace expiry", () => this.expire(playerId), undefined);
      else if (seat.sockets.length === 0) this.seats.delete(playerId); // halted: free the place quietly
    });
    this.options.scheduler.schedule(seat.grace, this.clock.now() + this.options.graceMs);
  }

  private cancelGrace(seat: Seat<P, D>) {
    if (seat.grace) this.options.scheduler.cancel(seat.grace);
    seat.grace = null;
  }

  /** Ends a grace period: the player is out unless a socket came back meanwhile. */
  private expire(playerId: string) {
    const seat = this.seats.get(playerId);
    if (seat && seat.sockets.length === 0) this.remove(seat);
  }

  private remove(seat: Seat<P, D>) {
    this.cancelGrace(seat);
    this.seats.delete(seat.player.id);
    this.apply(this.mode.onPlayerLeave(this.current, seat.player.id, this.context()));
    this.options.presenter.left?.(this, seat);
    this.tell("playerLeft", (lifecycle) => lifecycle.playerLeft?.(this, seat));
  }

  private playMove(playerId: string, move: MoveOf<M>): InputResult {
    if (!this.seats.has(playerId)) return NOT_IN_GAME;
    let result: MoveResult<StateOf<M>, EffectOf<M>>;
    try {
      result = this.mode.move(this.current, playerId, move, this.context());
    } catch (error) {
      // Nothing was applied: the game goes on, only this player hears of it.
      this.options.log.error("game move failed", {
        ...this.logFields(),
        player: playerId,
        error: describeError(error),
      });
      return FAILED;
    }
    if (!result.ok) {
      if (result.transition) this.apply(result.transition);
      return { ok: false, error: result.error, code: result.code };
    }
    this.apply(result);
    return ACCEPTED;
  }

  private update(player: P, input: { data?: D }): InputResult {
    const seat = this.seats.get(player.id);
    if (!seat) return NOT_IN_GAME;
    seat.player = player;
    if ("data" in input) seat.data = input.data as D;
    if (this.mode.onPlayerUpdate) this.apply(this.mode.onPlayerUpdate(this.current, player, this.context()));
    this.options.presenter.updated?.(this, seat);
    return ACCEPTED;
  }

  private command(playerId: string, socketId: string | undefined, command: C): InputResult {
    const seat = this.seatOf(playerId, socketId);
    if (!seat) return NOT_IN_GAME;
    if (!this.options.presenter.command) return UNSUPPORTED;
    return this.options.presenter.command(this, seat, command, socketId) ?? ACCEPTED;
  }

  // --- the loop -----------------------------------------------------------------------------------------------

  private context(): GameContext {
    return { now: this.clock.now(), random: this.options.random };
  }

  private apply(transition: Transition<StateOf<M>, EffectOf<M>>) {
    this.current = transition.state;
    this.countRound();
    for (const effect of transition.effects) this.options.presenter.effect(this, effect);
    this.reschedule();
    const ends = this.endsOf();
    if (ends.round) this.tell("roundEnded", (lifecycle) => lifecycle.roundEnded?.(this));
    if (ends.game) this.tell("closed", (lifecycle) => lifecycle.closed?.(this));
  }

  /** What the state now in place ended: the round (a new `roundEndedAt`), the game (`isClosed` turned true). */
  private endsOf() {
    const endedAt = this.mode.roundEndedAt?.(this.current) ?? null;
    const round = endedAt !== null && endedAt !== this.roundEnd;
    if (round) this.roundEnd = endedAt;
    const closed = this.mode.isClosed?.(this.current) ?? false;
    const game = closed && !this.closedSeen;
    this.closedSeen = closed;
    return { round, game };
  }

  /**
   * Tells the owner's listener. A throw is logged with the game's fields and goes no further: not a reset, since a
   * listener reacts to the game without changing it (the state is whole), and restarting the game would cost its
   * players the round for a fault of the runtime's bookkeeping.
   */
  private tell(event: keyof GameLifecycle<M, P, D, C>, call: (lifecycle: GameLifecycle<M, P, D, C>) => void) {
    const lifecycle = this.options.lifecycle;
    if (!lifecycle?.[event]) return;
    try {
      call(lifecycle);
    } catch (error) {
      this.options.log.error("game lifecycle listener failed", {
        ...this.logFields(),
        event,
        error: describeError(error),
      });
    }
  }

  private countRound() {
    const startedAt = this.mode.roundStartedAt?.(this.current) ?? null;
    if (startedAt === null || startedAt === this.roundStart) return;
    this.roundStart = startedAt;
    this.roundNumber++;
  }

  private reschedule() {
    if (!this.running) return;
    const at = this.mode.nextTickAt(this.current);
    if (at === null) this.options.scheduler.cancel(this.tickJob);
    else this.options.scheduler.schedule(this.tickJob, at);
  }

  private isDue() {
    const at = this.mode.nextTickAt(this.current);
    return at !== null && at <= this.clock.now();
  }

  /** One step per scheduler turn: a late game owing several steps gets them in order, one turn each. */
  private runTick() {
    if (!this.running || !this.owning()) return;
    this.guard(
      "tick",
      () => {
        if (!this.isDue()) return this.reschedule();
        const before = this.options.presenter.beforeTick?.(this, this.current) ?? this.current;
        this.current = before;
        this.apply(this.mode.tick(before, this.context()));
        // Due, and the tick changed nothing: it would be due again at once, forever.
        if (this.current === before && this.isDue()) throw new Error("the mode's tick made no progress while due");
      },
      undefined,
    );
  }

  // --- faults -------------------------------------------------------------------------------------------------

  /** Runs a callback; a throw resets the game and yields `fallback`. Nested calls share the outermost guard. */
  private guard<T>(what: string, fn: () => T, fallback: T): T {
    if (this.guardDepth > 0) return fn();
    this.guardDepth++;
    try {
      return fn();
    } catch (error) {
      this.fault(what, error);
      return fallback;
    } finally {
      this.guardDepth--;
    }
  }

  private fault(what: string, error: unknown) {
    this.options.log.error("game callback failed; the game restarts", {
      ...this.logFields(),
      callback: what,
      error: describeError(error),
    });
    if (this.faultingAgainAndAgain()) {
      this.halt("game keeps failing; the game is halted", `${MAX_FAULTS_PER_WINDOW} faults within a minute`);
      return;
    }
    try {
      this.reset(error);
    } catch (again) {
      this.halt("game reset failed; the game is halted", again);
    }
  }

  /** A bug that strikes at every step would reset the game forever: after a few faults in a row, halt it. */
  private faultingAgainAndAgain() {
    const now = this.clock.now();
    this.recentFaults = this.recentFaults.filter((at) => at > now - FAULT_WINDOW_MS);
    this.recentFaults.push(now);
    return this.recentFaults.length >= MAX_FAULTS_PER_WINDOW;
  }

  /** A fresh game with the present members; a player whose join failed (no socket, no grace) is not kept. */
  private reset(error: unknown) {
    this.options.scheduler.cancel(this.tickJob);
    for (const seat of [...this.seats.values()]) {
      if (seat.sockets.length === 0 && !seat.grace) this.seats.delete(seat.player.id);
    }
    let state = this.mode.setup(this.options.settings, this.context());
    for (const seat of this.seats.values()) state = this.mode.onPlayerJoin(state, seat.player, this.context()).state;
    this.current = state;
    this.countRound();
    // A fresh state ends nothing; what the failed step ended may be missing, like its events.
    this.endsOf();
    this.options.presenter.reset(this, error);
    this.reschedule();
  }

  private halt(message: string, error: unknown) {
    this.halted = true;
    this.options.scheduler.cancel(this.tickJob);
    this.options.log.error(message, {
      ...this.logFields(),
      error: describeError(error),
    });
  }

  private logFields() {
    return { mode: this.mode.id, source_id: this.sourceId, round: this.roundNumber, channel: this.channel };
  }

  // --- ownership ----------------------------------------------------------------------------------------------

  /**
   * Under a lease: true while it holds by the local clock. A process that stalled past its deadline finds out here,
   * before its next step, and the game stops at once (the lease's `onLost` has run, the ownership stops it too).
   */
  private owning(): boolean {
    const owner = this.options.owner;
    if (!owner || owner.holds()) return true;
    this.giveUp();
    return false;
  }

  /**
   * Another process owns the game now: no more steps, input answered "moving" (leaves still free places here);
   * writes already queued still run and storage's epoch check refuses those that come too late.
   */
  giveUp(reason?: "fenced") {
    if (this.moved) return;
    this.moved = true;
    this.stop();
    if (reason) this.options.owner?.lost(reason);
  }

  get movedAway() {
    return this.moved;
  }

  // --- shutdown -----------------------------------------------------------------------------------------------

  /** Ends the round in play through the mode's `finish` (results presented and written), then stops. */
  finish() {
    if (this.running && this.owning() && this.mode.finish) {
      const finish = this.mode.finish;
      this.guard("finish", () => this.apply(finish(this.current, this.context())), undefined);
    }
    this.stop();
  }

  /** No more ticks, grace expiries or moves; queued writes still complete. */
  stop() {
    if (this.stopped) return;
    this.stopped = true;
    this.options.scheduler.cancel(this.tickJob);
    for (const seat of this.seats.values()) this.cancelGrace(seat);
    this.watchers?.stop();
    if (this.writes.pending === 0) this.options.scheduler.unregister(this);
    this.tell("stopped", (lifecycle) => lifecycle.stopped?.(this));
  }

  drain(): Promise<void> {
    return this.writes.drain();
  }
}
