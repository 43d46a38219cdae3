import { chatHistory } from "../kernel/chat-history";
import type { TimerHandle } from "../kernel/clock";
import type { ModuleContext, ModuleRuntime } from "../kernel/define-module";
import { badRequest, conflict, forbidden, notFound } from "../kernel/errors";
import {
  type AnyGameInput,
  type GameDirectory,
  type GameEmitter,
  GameHost,
  type GameLifecycle,
  type GameOwnerLease,
  type InputResult,
  playerIdOf,
  refusalErrors,
  sharedScheduler,
} from "../kernel/game-host";
import type { AppServer, AppSocket, SocketEvents } from "../kernel/socket";
import { assertMaySpeak, maskChat } from "../kernel/speech";
import { duelStore } from "./api";
import { DuelChallenges } from "./challenges";
import {
  DEFAULT_DUEL_RULES,
  type DuelMode,
  type DuelMove,
  type DuelPlayer,
  type DuelRules,
  duelMode,
} from "./duel-mode";
import { GLICKO2_NEW_PLAYER } from "./glicko2";
import type { ClosedAnnouncement, DuelLobby, MatchAnnouncement, OnlineEntry } from "./lobby";
import { DEFAULT_MATCH_RULES, type MatchRules, type PlayerStatus } from "./matchmaker";
import {
  DUEL_WATCHERS,
  type DuelGame,
  duelOfSocket,
  followList,
  MENU,
  playerOf,
  playersIn,
  setDuelOfSocket,
  setWatchOfSocket,
  watchOfSocket,
} from "./members";
import { DUEL_MESSAGES } from "./messages";
import { DuelPresenter, REASON_TEXT } from "./presenter";
import { DUEL_SOURCE_NAME } from "./records";
import { duelSocketEvents } from "./socket";
import type { DuelStore } from "./store";

export interface DuelModuleSettings {
  rules: DuelRules;
  match: MatchRules;
  /** How long a player whose connection dropped keeps their place (a reconnecting socket resumes the duel). */
  graceMs: number;
  /** `duel:user_list_update` at most this often. */
  listUpdateMs: number;
  /** A socket that sent no `duel_heartbeat` (nor entered the menu) for this long leaves the online list. */
  heartbeatTimeoutMs: number;
  /** How often stale sockets are looked for (while anyone is in the menu). */
  sweepEveryMs: number;
  /** At most this many users in an online list (`online_count` has them all). */
  listLimit: number;
}

export const DEFAULT_DUEL_SETTINGS: DuelModuleSettings = {
  rules: DEFAULT_DUEL_RULES,
  match: DEFAULT_MATCH_RULES,
  graceMs: 5_000,
  listUpdateMs: 1_000,
  heartbeatTimeoutMs: 15_000,
  sweepEveryMs: 5_000,
  listLimit: 100,
};

/** Duel online user of spec part 2 §3; `session_id`: the duel a player in game plays (to watch it). */
export interface OnlineUser {
  sid: string;
  nickname: string;
  status: PlayerStatus;
  is_me: boolean;
  session_id?: string;
}

/** The game directory's mode id of the duel (`<mode>:<session id>` names a duel's lease with several processes). */
export const DUEL_MODE = "duel";
/**
 * A refusal of a duel's host as the AppError the socket dispatcher sends as `error` (the kernel's one rule; 409 but
 * for a watcher's chat line that is too long or too fast).
 */
const { refusalError } = refusalErrors({ statuses: { too_long: 400, rate_limited: 429 } });
/** A matching pass that found another process matching tries again this much later (it may have missed a search). */
const MATCHER_RETRY_MS = 100;

/**
 * Where the duel's shared state lives: the lobby (queue, who is in which duel, online list, announcements) and the
 * emitter. On one process both are local (`MemoryDuelLobby`, `socketIoEmitter`); on several, Redis
 * (`SharedDuelLobby`, `localFirstEmitter`): index.ts picks them. The game directory (where each duel runs, input to
 * it: `LocalGames` or `GameOwnership`) is the kernel's, one per process for every mode.
 */
export interface DuelPlacement {
  lobby: DuelLobby;
  emitter: GameEmitter;
}

/**
 * Every duel and what surrounds them, on one process or several (README "One runtime"): the online list (this
 * process's menu sockets and their heartbeats; the list itself in the lobby; the coalesced `duel:user_list_update`),
 * matchmaking (a pass of the pure `Matchmaker` in the lobby; a timer only for the moment an accepted gap widens),
 * and one `GameHost` per duel on the process's shared scheduler, on the process the directory places it (input goes
 * through the directory, output through the emitter). Three module timers in all (list, matching, sweep), none per
 * duel or per player. What it does when a duel ends, a player is out or a duel closes, it hears from the host's
 * lifecycle events (`lifecycle` below), not from the presenter.
 */
export class DuelRuntime implements ModuleRuntime {
  readonly emitter: GameEmitter;
  readonly store: DuelStore;
  readonly lobby: DuelLobby;
  readonly socketEvents: SocketEvents;
  /** Direct challenges between members (challenges.ts). */
  readonly challenges: DuelChallenges;
  private readonly presenter: DuelPresenter;
  /** Every duel's host tells this runtime what it must react to (one object for every duel). */
  private readonly lifecycle: GameLifecycle<DuelMode, DuelPlayer> = {
    roundEnded: (host) => this.ended(host),
    // The last player left a finished duel: nobody is looking at its result any more (its watchers saw it).
    playerLeft: (host) => {
      if (playersIn(host) === 0 && host.state.status === "finished") this.close(host);
    },
    // The finished duel has lingered long enough.
    closed: (host) => this.close(host),
  };
  /** The duels this process runs, and the lease of each (given back when the duel closes). */
  private readonly hosts = new Map<string, DuelGame>();
  private readonly leases = new Map<string, GameOwnerLease>();
  /** Duels taken over from a dead owner: ended at once, closed after the grace period (README "Takeover"). */
  private readonly takenOver = new WeakSet<DuelGame>();
  /** This process's sockets in the menu (their heartbeats; the lobby has the players). */
  private readonly menu = new Map<string, { player: DuelPlayer; beatAt: number }>();
  private listTimer: TimerHandle | null = null;
  private matchTimer: { handle: TimerHandle; at: number } | null = null;
  private sweepTimer: TimerHandle | null = null;
  private stopped = false;

  constructor(
    readonly io: AppServer,
    readonly ctx: ModuleContext,
    readonly settings: DuelModuleSettings,
    readonly directory: GameDirectory,
    placement: DuelPlacement,
  ) {
    this.emitter = placement.emitter;
    this.store = duelStore(ctx);
    this.lobby = placement.lobby;
    this.presenter = new DuelPresenter(this.store, chatHistory(ctx));
    this.challenges = new DuelChallenges({
      ctx,
      lobby: this.lobby,
      store: this.store,
      emitter: this.emitter,
      heartbeatTimeoutMs: settings.heartbeatTimeoutMs,
      listChanged: () => this.listChanged(),
    });
    directory.register(DUEL_MODE, { open: (sessionId, owner) => this.openDuel(sessionId, owner) });
    this.socketEvents = duelSocketEvents(this);
  }

  /** The lobby's subscriptions (several processes), before the first socket. */
  start() {
    return this.lobby.start({
      matched: (match) => this.matched(match),
      closed: (closed) => this.closedElsewhere(closed),
      unreadable: (what) => this.ctx.log.warn(`unreadable ${what}`),
    });
  }

  private get now() {
    return this.ctx.clock.now();
  }

  private local(socketId: string) {
    return this.io.of("/").sockets.get(socketId);
  }

  private logged(what: string) {
    return (error: unknown) => this.ctx.log.error(what, { error: String(error) });
  }

  // --- the online list -------------------------------------------------------------------------------------------

  async enterMenu(socket: AppSocket) {
    const player = playerOf(socket.data.identity);
    this.menu.set(socket.id, { player, beatAt: this.now });
    followList(socket, true);
    this.armSweep();
    await this.lobby.list(player, this.now);
    await this.sendList(socket);
    this.listChanged();
  }

  async leaveMenu(socket: AppSocket) {
    socket.leave(MENU);
    const entry = this.menu.get(socket.id);
    this.menu.delete(socket.id);
    await this.cancelQueueOf(socket);
    await this.challenges.withdrawAllOf(socket.id);
    if (entry) await this.unlist(entry.player.id);
  }

  /** Out of the list, unless another socket of the player on this process is still in the menu. */
  private async unlist(playerId: string) {
    for (const entry of this.menu.values()) if (entry.player.id === playerId) return;
    await this.lobby.unlist(playerId);
    this.listChanged();
  }

  /** A heartbeat keeps the socket listed; one from a socket swept meanwhile (a hidden tab) lists it again. */
  async heartbeat(socket: AppSocket) {
    const entry = this.menu.get(socket.id);
    const player = entry?.player ?? playerOf(socket.data.identity);
    this.menu.set(socket.id, { player, beatAt: this.now });
    await this.lobby.list(player, this.now);
    if (entry) return;
    followList(socket, true);
    this.armSweep();
    this.listChanged();
  }

  /**
   * The answer of `duel_get_online_users`, and what `duel:user_list_update` carries. `fresh`: as of now (a push);
   * an answer may use a list up to `LIST_REBUILD_MS` old when it is long (lobby.ts). The asker's own entry comes
   * first, with its status as of now where the lobby knows it at no cost.
   */
  async listFor(socket: AppSocket | null, fresh = false) {
    const me = socket ? playerOf(socket.data.identity) : null;
    const limit = this.settings.listLimit;
    const now = this.now;
    const list = await this.lobby.onlineList({
      now,
      staleBefore: now - this.settings.heartbeatTimeoutMs,
      fresh,
      limit,
    });
    const { ordered, byId } = list;
    const listed = me && (byId.has(me.id) || (socket !== null && this.menu.has(socket.id)));
    const mine: OnlineEntry | undefined = listed
      ? { player: me, status: list.statusOf(me.id), sessionId: null }
      : undefined;
    const others = ordered.slice(0, limit + 1).filter((entry) => entry.player.id !== mine?.player.id);
    const users: OnlineUser[] = (mine ? [mine, ...others] : others)
      .slice(0, limit)
      .map(({ player, status, sessionId }) => {
        const isMe = player === mine?.player;
        const user: OnlineUser = { sid: player.key, nickname: player.name, status, is_me: isMe };
        // What the 관전 button watches (one's own entry needs none).
        if (!isMe && status === "in_game" && sessionId) user.session_id = sessionId;
        return user;
      });
    return {
      users,
      waiting_count: list.waitingCount,
      online_count: ordered.length + (mine && !byId.has(mine.player.id) ? 1 : 0),
      my_sid: me?.key ?? null,
    };
  }

  async sendList(socket: AppSocket) {
    socket.emit("duel:user_list_update", await this.listFor(socket));
  }

  /**
   * Coalesced: at most one `duel:user_list_update` per `listUpdateMs` to the whole menu — across processes, the one
   * that claims the window sends it to every process's menu (the adapter); a process whose change falls in another's
   * window tries again when it closes, so no change goes unsent.
   */
  private listChanged() {
    if (this.listTimer || this.stopped) return;
    this.listTimer = this.ctx.clock.setTimeout(() => {
      this.listTimer = null;
      this.flushList().catch(this.logged("duel user list update failed"));
    }, this.settings.listUpdateMs);
  }

  private async flushList() {
    if (this.stopped) return;
    if (!(await this.lobby.claimListUpdate(this.settings.listUpdateMs))) {
      this.listChanged();
      return;
    }
    // One payload for everyone (one encode): `is_me` is false in it; a client knows its own `my_sid`. Always as
    // of now: no later push may come to correct a list that missed the last change.
    this.io.to(MENU).emit("duel:user_list_update", await this.listFor(null, true));
  }

  private armSweep() {
    if (this.sweepTimer || this.stopped) return;
    this.sweepTimer = this.ctx.clock.setTimeout(() => {
      this.sweepTimer = null;
      this.sweep().catch(this.logged("duel heartbeat sweep failed"));
    }, this.settings.sweepEveryMs);
  }

  /** This process's stale menu sockets: out of the menu, their searches cancelled (the lobby drops stale players). */
  private async sweep() {
    const staleBefore = this.now - this.settings.heartbeatTimeoutMs;
    for (const [socketId, entry] of [...this.menu]) {
      if (entry.beatAt > staleBefore) continue;
      this.menu.delete(socketId);
      const socket = this.local(socketId);
      socket?.leave(MENU);
      if (socket) await this.cancelQueueOf(socket);
      this.listChanged();
    }
    if (this.menu.size > 0) this.armSweep();
  }

  // --- matchmaking -----------------------------------------------------------------------------------------------

  async findMatch(socket: AppSocket) {
    const identity = socket.data.identity;
    // Guests play unrated: they are matched as a new player would be.
    const rating = identity.kind === "user" ? await this.store.rating(identity.userId) : GLICKO2_NEW_PLAYER.rating;
    if (!socket.connected || this.stopped) return { success: false };
    // A member's rating travels with the match to the duel's watchers.
    const player = identity.kind === "user" ? { ...playerOf(identity), rating } : playerOf(identity);
    const queued = await this.lobby.enqueue(player, rating, this.now, socket.id);
    if (queued === "in_game") throw conflict(DUEL_MESSAGES.alreadyInGame, "already_in_game");
    if (queued === "queued") {
      this.listChanged();
      await this.runMatching();
    }
    const [status, waitingCount] = await Promise.all([this.lobby.status(player.id), this.lobby.waitingCount()]);
    return { success: true, status, waiting_count: waitingCount };
  }

  async cancelMatch(socket: AppSocket) {
    const playerId = playerIdOf(socket.data.identity);
    if (await this.lobby.cancel(playerId)) this.listChanged();
    return { success: true, status: await this.lobby.status(playerId) };
  }

  private async cancelQueueOf(socket: AppSocket) {
    if (await this.lobby.cancel(playerIdOf(socket.data.identity), socket.id)) this.listChanged();
  }

  /**
   * A matching pass (at once after a new search; otherwise when an accepted gap widens): the lobby takes the pairs
   * out of the queue, then each is announced to the processes of its sockets, which seat them.
   */
  private async runMatching() {
    if (this.stopped) return;
    const pass = await this.lobby.matchPass(this.now);
    if (!pass) {
      this.matchAt(this.now + MATCHER_RETRY_MS);
      return;
    }
    for (const match of pass.pairs) await this.lobby.announce(match);
    if (pass.pairs.length > 0) this.listChanged();
    this.matchAt(pass.nextAt);
  }

  /** One timer for the next pass, re-armed only when its moment changes. */
  private matchAt(at: number | null) {
    if (this.matchTimer && this.matchTimer.at !== at) {
      this.ctx.clock.clearTimeout(this.matchTimer.handle);
      this.matchTimer = null;
    }
    if (at === null || this.matchTimer || this.stopped) return;
    const handle = this.ctx.clock.setTimeout(
      () => {
        this.matchTimer = null;
        this.runMatching().catch(this.logged("duel matching failed"));
      },
      Math.max(0, at - this.now),
    );
    this.matchTimer = { handle, at };
  }

  /** A pair was announced: this process's sockets among them join the new duel (wherever it runs). */
  private matched(match: MatchAnnouncement) {
    for (const seat of [match.red, match.blue]) {
      // The process that queued the socket seats it, even when the socket went meanwhile (its grace starts).
      if (seat.process !== this.lobby.processId) continue;
      this.seat(match.sessionId, seat.player, seat.socketId).catch(this.logged("seating a duel player failed"));
    }
  }

  /** Puts a socket in a duel (leaving the finished one it may still show, or the one it watched). */
  private async seat(sessionId: string, player: DuelPlayer, socketId: string) {
    const socket = this.local(socketId);
    if (socket) {
      await this.challenges.withdrawAllOf(socketId);
      await this.stopWatching(socket);
      await this.leaveGame(socket);
      setDuelOfSocket(socket, sessionId, this.menu.has(socket.id));
    }
    await this.input(sessionId, { type: "join", socketId, player, data: undefined });
    // A socket gone between the queue and the match: the player's place starts its grace period at once.
    if (!socket?.connected) await this.input(sessionId, { type: "drop", playerId: player.id, socketId });
  }

  private input(sessionId: string, input: AnyGameInput): InputResult | Promise<InputResult> {
    return this.directory.input(DUEL_MODE, sessionId, input);
  }

  // --- opening a duel (the process the directory places it on) ---------------------------------------------------

  /**
   * The opener: the first opening creates the duel from the players the matcher stored. A duel lives only in its
   * owner's memory, so a takeover (several processes: the owner died) cannot continue it: the duel is ended — with
   * its stored result when the old owner stored one, otherwise as a draw `stopped`, not rated — and the players told
   * (`duel:game_over`).
   */
  private async openDuel(sessionId: string, owner: GameOwnerLease): Promise<DuelGame> {
    const duel = await this.lobby.duel(sessionId);
    if (!duel) throw new Error(`unknown duel ${sessionId}`);
    const first = !duel.over && (await this.lobby.open(sessionId, owner.epoch, duel.red, duel.blue));
    const host = this.newHost(sessionId, duel.red, duel.blue, owner);
    this.hosts.set(sessionId, host);
    this.leases.set(sessionId, owner);
    if (first) return host;
    this.takenOver.add(host);
    if (!duel.over) await this.endTakenOver(host);
    host.stop();
    // The other processes re-announce their seats meanwhile (refused: the duel is over, so they forget them); then
    // the duel is closed and its lease given back.
    this.ctx.clock.setTimeout(() => {
      try {
        this.close(host);
      } catch (error) {
        this.logged("closing a taken-over duel failed")(error);
      }
    }, this.settings.graceMs);
    return host;
  }

  private newHost(sessionId: string, red: DuelPlayer, blue: DuelPlayer, owner: GameOwnerLease): DuelGame {
    const { ctx, settings } = this;
    return new GameHost({
      mode: duelMode,
      settings: { sessionId, red, blue, rules: settings.rules },
      presenter: this.presenter,
      lifecycle: this.lifecycle,
      sourceId: sessionId,
      sourceName: DUEL_SOURCE_NAME,
      channel: `duel:${sessionId}`,
      watchers: DUEL_WATCHERS,
      graceMs: settings.graceMs,
      scheduler: sharedScheduler(ctx),
      emitter: this.emitter,
      random: ctx.random,
      log: ctx.log,
      owner,
    });
  }

  private async endTakenOver(host: DuelGame) {
    const sessionId = host.sourceId as string;
    const stored = await this.store.duelBySession(sessionId);
    if (!stored) {
      host.finish(); // a draw, `stopped`, not played: told on the channel, nothing stored
      return;
    }
    const result = { ...stored, reason_text: REASON_TEXT[stored.reason] };
    host.broadcast("duel:game_over", { session_id: sessionId, result });
    this.ended(host);
  }

  // --- in a duel -------------------------------------------------------------------------------------------------

  /** A move; answered at once (no promise) when the duel runs on this process, as a word typed mostly does. */
  play(socket: AppSocket, move: DuelMove): void | Promise<void> {
    const sessionId = duelOfSocket(socket);
    if (!sessionId && watchOfSocket(socket)) throw forbidden(DUEL_MESSAGES.watching, "watching");
    if (!sessionId) throw badRequest(DUEL_MESSAGES.noDuel, "not_in_duel");
    const playerId = playerIdOf(socket.data.identity);
    const result = this.input(sessionId, { type: "move", playerId, socketId: socket.id, move });
    if (result instanceof Promise) return result.then((answer) => this.played(socket, sessionId, answer));
    this.played(socket, sessionId, result);
  }

  private played(socket: AppSocket, sessionId: string, result: InputResult) {
    if (result.ok) return;
    // The duel was closed (this socket did not hear of it), or the socket is not in it any more: in no duel.
    if (result.code === "game_stopped" || result.code === "not_in_game") {
      if (duelOfSocket(socket) === sessionId) setDuelOfSocket(socket, undefined, this.menu.has(socket.id));
      throw badRequest(DUEL_MESSAGES.noDuel, "not_in_duel");
    }
    throw refusalError(result);
  }

  /** duel_leave_game: out of the duel at once (before its end that is a forfeit). */
  async leaveGame(socket: AppSocket) {
    const sessionId = duelOfSocket(socket);
    setDuelOfSocket(socket, undefined, this.menu.has(socket.id));
    if (!sessionId) return;
    const playerId = playerIdOf(socket.data.identity);
    await this.input(sessionId, { type: "leave", playerId, socketId: socket.id });
    this.afterExit(sessionId, playerId);
  }

  async connect(socket: AppSocket) {
    // A player whose connection dropped mid-duel comes back within the grace period: the new socket resumes it.
    const player = playerOf(socket.data.identity);
    const sessionId = await this.lobby.gameOf(player.id);
    if (!sessionId || !socket.connected) return;
    // Where the duel runs here, only a player with no socket left in it resumes (another tab stays in the menu).
    const host = this.hosts.get(sessionId);
    const member = host?.member(player.id);
    if (host && (!member || member.sockets.length > 0)) return;
    const joined = await this.input(sessionId, { type: "join", socketId: socket.id, player, data: undefined });
    if (!joined.ok) return;
    setDuelOfSocket(socket, sessionId, this.menu.has(socket.id));
    await this.input(sessionId, { type: "move", playerId: player.id, move: { type: "connection", connected: true } });
  }

  async disconnect(socket: AppSocket) {
    const entry = this.menu.get(socket.id);
    this.menu.delete(socket.id);
    if (entry) await this.unlist(entry.player.id);
    await this.cancelQueueOf(socket);
    await this.challenges.withdrawAllOf(socket.id);
    // A watcher holds no place: it leaves at once (no grace period).
    await this.stopWatching(socket);
    const sessionId = duelOfSocket(socket);
    if (!sessionId) return;
    const playerId = playerIdOf(socket.data.identity);
    // The player's last socket: the mode learns it was a disconnect (if the grace runs out, the reason says so).
    if (this.lastSocketIn(sessionId, socket)) {
      await this.input(sessionId, { type: "move", playerId, move: { type: "connection", connected: false } });
    }
    await this.input(sessionId, { type: "drop", playerId, socketId: socket.id });
    this.afterExit(sessionId, playerId);
  }

  /** The duel's host knows its members' sockets; a duel run elsewhere, by this process's sockets. */
  private lastSocketIn(sessionId: string, socket: AppSocket) {
    const playerId = playerIdOf(socket.data.identity);
    const host = this.hosts.get(sessionId);
    if (host) {
      const member = host.member(playerId);
      return member?.sockets.length === 1 && member.sockets[0] === socket.id;
    }
    for (const other of this.io.of("/").sockets.values()) {
      if (other.id === socket.id || !other.connected) continue;
      if (duelOfSocket(other) === sessionId && playerIdOf(other.data.identity) === playerId) return false;
    }
    return true;
  }

  /**
   * A halted duel (it kept failing, on this process) plays no end: its players are freed as they go, and it closes
   * when all have gone.
   */
  private afterExit(sessionId: string, playerId: string) {
    const host = this.hosts.get(sessionId);
    if (!host || host.running || host.movedAway || this.takenOver.has(host)) return;
    if (!host.member(playerId)) {
      Promise.resolve(this.lobby.release(playerId, sessionId))
        .then(() => this.listChanged())
        .catch(this.logged("freeing a duel player failed"));
    }
    if (playersIn(host) === 0) this.close(host);
  }

  // --- watching (README "Watching") ------------------------------------------------------------------------------

  /**
   * `duel_watch {session_id}`: the socket joins the duel's host as a watcher (wherever the duel runs): it gets the
   * whole field now and the duel's events from then on, never counts as a player and cannot type. One duel at a
   * time: watching another leaves the first.
   */
  async watch(socket: AppSocket, sessionId: string) {
    const me = playerOf(socket.data.identity);
    const [duel, playing] = await Promise.all([this.lobby.duel(sessionId), this.lobby.gameOf(me.id)]);
    if (!duel || duel.over) throw notFound(DUEL_MESSAGES.noDuelToWatch, "no_duel");
    if (duel.red.id === me.id || duel.blue.id === me.id) throw conflict(DUEL_MESSAGES.ownDuel, "own_duel");
    if (playing) throw conflict(DUEL_MESSAGES.watchWhilePlaying, "already_in_game");
    if (watchOfSocket(socket) === sessionId) return { success: true as const, session_id: sessionId };
    await this.stopWatching(socket);
    await this.leaveGame(socket); // the finished duel the page may still show
    const player: DuelPlayer = { ...me, watcher: true };
    const joined = await this.input(sessionId, { type: "join", socketId: socket.id, player, data: undefined });
    if (!joined.ok)
      throw joined.code === "game_stopped" ? notFound(DUEL_MESSAGES.noDuelToWatch, "no_duel") : refusalError(joined);
    setWatchOfSocket(socket, sessionId, this.menu.has(socket.id));
    return { success: true as const, session_id: sessionId };
  }

  /** `duel_watch_leave` (and a watcher's disconnect): out of the duel at once. */
  async stopWatching(socket: AppSocket) {
    const sessionId = watchOfSocket(socket);
    if (!sessionId) return;
    setWatchOfSocket(socket, undefined, this.menu.has(socket.id));
    const playerId = playerIdOf(socket.data.identity);
    await this.input(sessionId, { type: "leave", playerId, socketId: socket.id });
  }

  /** `duel_watch_chat {message}`: to the duel's watchers, never to its players (the presenter's `command`). */
  async watchChat(socket: AppSocket, message: string) {
    const sessionId = watchOfSocket(socket);
    if (!sessionId) throw badRequest(DUEL_MESSAGES.notWatching, "not_watching");
    const { identity } = socket.data;
    assertMaySpeak(this.ctx, identity.kind === "user" ? identity.userId : null, "chat");
    const playerId = playerIdOf(identity);
    const command = { type: "watch_chat" as const, message: maskChat(this.ctx, message) };
    const result = await this.input(sessionId, { type: "command", playerId, socketId: socket.id, command });
    if (result.ok) return;
    if (result.code === "game_stopped" || result.code === "not_in_game") {
      setWatchOfSocket(socket, undefined, this.menu.has(socket.id));
      throw badRequest(DUEL_MESSAGES.notWatching, "not_watching");
    }
    throw refusalError(result);
  }

  // --- the duels' lifecycle (the process that runs the duel) ----------------------------------------------------

  /** The duel is over: its players may look for a new one; the online list changed. */
  private ended(host: DuelGame) {
    const sessionId = host.sourceId as string;
    const { red, blue } = host.state;
    Promise.all([
      this.lobby.markOver(sessionId),
      this.lobby.release(red.player.id, sessionId),
      this.lobby.release(blue.player.id, sessionId),
    ])
      .then(() => this.listChanged())
      .catch(this.logged("freeing duel players failed"));
  }

  /**
   * The duel is over and done with: its host stops (queued writes still complete), its sockets leave the channel
   * and are let go on their processes (the closed announcement), and its lease goes back to the directory.
   */
  private close(host: DuelGame) {
    const sessionId = host.sourceId as string;
    if (this.hosts.get(sessionId) !== host) return;
    this.hosts.delete(sessionId);
    // Stopped first: the watchers' last frame (the duel's end) goes out before their sockets leave.
    host.stop();
    const sockets: ClosedAnnouncement["sockets"] = [];
    for (const member of [...host.members()]) {
      for (const socketId of member.sockets) {
        host.leaveChannel(socketId);
        sockets.push({ socketId, playerId: member.player.id });
      }
    }
    if (sockets.length > 0) {
      Promise.resolve(this.lobby.announceClosed({ sessionId, sockets })).catch(
        this.logged("announcing a closed duel failed"),
      );
    }
    const lease = this.leases.get(sessionId);
    this.leases.delete(sessionId);
    lease?.close();
  }

  /**
   * A duel closed where it ran: this process's sockets still in it are in no duel any more, and their seats are
   * given up (a leave, which a stopped host still accepts), so nothing looks after the closed duel.
   */
  private closedElsewhere(closed: ClosedAnnouncement) {
    for (const { socketId, playerId } of closed.sockets) {
      const socket = this.local(socketId);
      if (!socket) continue;
      if (duelOfSocket(socket) === closed.sessionId) setDuelOfSocket(socket, undefined, this.menu.has(socket.id));
      if (watchOfSocket(socket) === closed.sessionId) setWatchOfSocket(socket, undefined, this.menu.has(socket.id));
      Promise.resolve(this.input(closed.sessionId, { type: "leave", playerId, socketId })).catch(
        this.logged("leaving a duel failed"),
      );
    }
  }

  get liveDuels() {
    return this.hosts.size;
  }

  duel(sessionId: string): DuelGame | undefined {
    return this.hosts.get(sessionId);
  }

  /** Shutdown (the duels were finished by then); the directory gives the duels run here back afterwards. */
  async stop() {
    this.stopped = true;
    for (const timer of [this.listTimer, this.sweepTimer, this.matchTimer?.handle]) {
      if (timer) this.ctx.clock.clearTimeout(timer);
    }
    this.listTimer = this.sweepTimer = this.matchTimer = null;
    this.challenges.stop();
    for (const host of this.hosts.values()) host.stop();
    await this.lobby.stop();
  }
}
