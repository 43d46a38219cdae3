import type { TimerHandle } from "../kernel/clock";
import type { ModuleContext } from "../kernel/define-module";
import { AppError, badRequest, conflict } from "../kernel/errors";
import { type GameEmitter, GameHost, type InputResult, sharedScheduler, socketIoEmitter } from "../kernel/game-host";
import type { AppServer, AppSocket } from "../kernel/socket";
import { duelStore } from "./api";
import { DEFAULT_DUEL_RULES, type DuelMove, type DuelPlayer, type DuelRules, duelMode } from "./duel-mode";
import { GLICKO2_NEW_PLAYER } from "./glicko2";
import { DEFAULT_MATCH_RULES, Matchmaker, type MatchRules, type Pairing, type PlayerStatus } from "./matchmaker";
import {
  type DuelGame,
  type DuelMember,
  duelOfSocket,
  followList,
  MENU,
  playerIdOf,
  playerOf,
  setDuelOfSocket,
} from "./members";
import { DuelPresenter, type PresenterEnv } from "./presenter";
import { DUEL_SOURCE_NAME } from "./records";
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

export const DUEL_MESSAGES = {
  noDuel: "진행 중인 대결이 없습니다.",
  alreadyInGame: "이미 대결 중입니다. 대결이 끝난 뒤에 다시 찾아주세요.",
} as const;

/** Duel online user of spec part 2 §3. */
export interface OnlineUser {
  sid: string;
  nickname: string;
  status: PlayerStatus;
  is_me: boolean;
}

interface MenuEntry {
  player: DuelPlayer;
  beatAt: number;
}

interface Queued {
  player: DuelPlayer;
  socketId: string;
}

export const STATUS_ORDER: Record<PlayerStatus, number> = { waiting: 0, idle: 1, in_game: 2 };
export const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** A list longer than the shown window is rebuilt at most this often (see `listedInOrder`). */
export const LIST_REBUILD_MS = 250;

interface ListedInOrder {
  ordered: { player: DuelPlayer; status: PlayerStatus }[];
  byId: Map<string, { player: DuelPlayer; status: PlayerStatus }>;
}

/**
 * Every duel of one server and what surrounds them: the online list (menu sockets, heartbeats, the coalesced
 * `duel:user_list_update`), matchmaking (the pure `Matchmaker`; a timer only for the moment an accepted gap widens),
 * and one `GameHost` per duel on the process's shared scheduler. Three module timers in all (list, matching,
 * sweep), none per duel or per player.
 */
export class DuelRuntime implements PresenterEnv {
  readonly emitter: GameEmitter;
  readonly store: DuelStore;
  private readonly matchmaker: Matchmaker<Queued>;
  private readonly hosts = new Map<string, DuelGame>();
  private readonly menu = new Map<string, MenuEntry>();
  private readonly presenter: DuelPresenter;
  private listTimer: TimerHandle | null = null;
  private list: ListedInOrder = { ordered: [], byId: new Map() };
  private listDirty = true;
  private listBuiltAt = 0;
  private matchTimer: { handle: TimerHandle; at: number } | null = null;
  private sweepTimer: TimerHandle | null = null;
  private stopped = false;

  constructor(
    readonly io: AppServer,
    readonly ctx: ModuleContext,
    readonly settings: DuelModuleSettings,
  ) {
    this.emitter = socketIoEmitter(io);
    this.store = duelStore(ctx);
    this.matchmaker = new Matchmaker(settings.match);
    this.presenter = new DuelPresenter(this);
  }

  private get now() {
    return this.ctx.clock.now();
  }

  // --- the online list -------------------------------------------------------------------------------------------

  enterMenu(socket: AppSocket) {
    this.menu.set(socket.id, { player: playerOf(socket.data.identity), beatAt: this.now });
    followList(socket, true);
    this.sendList(socket);
    this.listChanged();
    this.armSweep();
  }

  leaveMenu(socket: AppSocket) {
    socket.leave(MENU);
    if (this.menu.delete(socket.id)) this.listChanged();
    this.cancelQueueOf(socket);
  }

  /** A heartbeat keeps the socket listed; one from a socket swept meanwhile (a hidden tab) lists it again. */
  heartbeat(socket: AppSocket) {
    const entry = this.menu.get(socket.id);
    if (entry) {
      entry.beatAt = this.now;
      return;
    }
    this.menu.set(socket.id, { player: playerOf(socket.data.identity), beatAt: this.now });
    followList(socket, true);
    this.listChanged();
    this.armSweep();
  }

  /** The answer of `duel_get_online_users`, and what `duel:user_list_update` to one socket carries. */
  listFor(socket: AppSocket | null) {
    const me = socket ? playerOf(socket.data.identity) : null;
    const { ordered, byId } = this.listedInOrder();
    const limit = this.settings.listLimit;
    // The asker's own entry first, with its status as of now (the rest may be a moment old, see listedInOrder).
    const listed = me && (byId.has(me.id) || (socket !== null && this.menu.has(socket.id)));
    const mine = listed ? { player: me, status: this.matchmaker.status(me.id) } : undefined;
    const others = ordered.slice(0, limit + 1).filter((entry) => entry.player.id !== mine?.player.id);
    const users: OnlineUser[] = (mine ? [mine, ...others] : others).slice(0, limit).map(({ player, status }) => ({
      sid: player.key,
      nickname: player.name,
      status,
      is_me: player === mine?.player,
    }));
    return {
      users,
      waiting_count: this.matchmaker.waitingCount,
      online_count: ordered.length + (mine && !byId.has(mine.player.id) ? 1 : 0),
      my_sid: me?.key ?? null,
    };
  }

  /**
   * The menu's players in list order (waiting, idle, in game, then by name). Every finished duel asks for the list
   * twice per player (spec part 2 §4 step 7), a few hundred answers a second at 10,000 players, and the list
   * changes about as often: sorting the whole menu for each answer was a third of the duel's CPU (bench/README
   * "1:1 duel"). So a list longer than `listLimit` (a window on the menu anyway) is rebuilt at most every
   * `LIST_REBUILD_MS`; a shorter one whenever it changed. Names compare by code unit: Hangul syllables are in
   * 가나다 order there, and it costs a fraction of a collator.
   */
  private listedInOrder() {
    const current = this.list;
    const fresh =
      !this.listDirty ||
      (current.ordered.length > this.settings.listLimit && this.now < this.listBuiltAt + LIST_REBUILD_MS);
    if (fresh) return current;
    const byId = new Map<string, { player: DuelPlayer; status: PlayerStatus }>();
    for (const entry of this.menu.values()) {
      if (!byId.has(entry.player.id)) {
        byId.set(entry.player.id, { player: entry.player, status: this.matchmaker.status(entry.player.id) });
      }
    }
    const ordered = [...byId.values()].sort(
      (a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status] || byName(a.player.name, b.player.name),
    );
    this.list = { ordered, byId };
    this.listDirty = false;
    this.listBuiltAt = this.now;
    return this.list;
  }

  sendList(socket: AppSocket) {
    socket.emit("duel:user_list_update", this.listFor(socket));
  }

  /** Coalesced: at most one `duel:user_list_update` per `listUpdateMs` to the whole menu. */
  private listChanged() {
    this.listDirty = true;
    if (this.listTimer || this.stopped) return;
    this.listTimer = this.ctx.clock.setTimeout(() => this.flushList(), this.settings.listUpdateMs);
  }

  /** A timer callback: nothing may escape it (under Bun a throw in a timer ends the process). */
  private flushList() {
    this.listTimer = null;
    try {
      // One payload for everyone (one encode): `is_me` is false in it; a client knows its own `my_sid`. Always as
      // of now: no later push may come to correct a list that missed the last change.
      this.listBuiltAt = Number.NEGATIVE_INFINITY;
      if (this.menu.size > 0) this.io.to(MENU).emit("duel:user_list_update", this.listFor(null));
    } catch (error) {
      this.ctx.log.error("duel user list update failed", { error: String(error) });
    }
  }

  private armSweep() {
    if (this.sweepTimer || this.stopped) return;
    this.sweepTimer = this.ctx.clock.setTimeout(() => this.sweep(), this.settings.sweepEveryMs);
  }

  private sweep() {
    this.sweepTimer = null;
    try {
      const staleBefore = this.now - this.settings.heartbeatTimeoutMs;
      for (const [socketId, entry] of this.menu) {
        if (entry.beatAt > staleBefore) continue;
        this.menu.delete(socketId);
        const socket = this.io.of("/").sockets.get(socketId);
        socket?.leave(MENU);
        if (socket) this.cancelQueueOf(socket);
        this.listChanged();
      }
    } catch (error) {
      this.ctx.log.error("duel heartbeat sweep failed", { error: String(error) });
    }
    if (this.menu.size > 0) this.armSweep();
  }

  // --- matchmaking -----------------------------------------------------------------------------------------------

  async findMatch(socket: AppSocket) {
    const identity = socket.data.identity;
    // Guests play unrated: they are matched as a new player would be.
    const rating = identity.kind === "user" ? await this.store.rating(identity.userId) : GLICKO2_NEW_PLAYER.rating;
    if (!socket.connected || this.stopped) return { success: false };
    const player = playerOf(identity);
    const queued = this.matchmaker.enqueue(player.id, rating, this.now, { player, socketId: socket.id });
    if (queued === "in_game") throw conflict(DUEL_MESSAGES.alreadyInGame, "already_in_game");
    if (queued === "queued") {
      this.listChanged();
      this.runMatching();
    }
    return { success: true, status: this.matchmaker.status(player.id), waiting_count: this.matchmaker.waitingCount };
  }

  cancelMatch(socket: AppSocket) {
    const playerId = playerIdOf(socket.data.identity);
    if (this.matchmaker.cancel(playerId)) this.listChanged();
    return { success: true, status: this.matchmaker.status(playerId) };
  }

  private cancelQueueOf(socket: AppSocket) {
    const playerId = playerIdOf(socket.data.identity);
    if (this.matchmaker.waiting(playerId)?.data.socketId !== socket.id) return;
    this.matchmaker.cancel(playerId);
    this.listChanged();
  }

  private runMatching() {
    if (this.stopped) return;
    for (const pair of this.matchmaker.match(this.now)) this.open(pair);
    const at = this.matchmaker.nextWideningAt(this.now);
    if (this.matchTimer && this.matchTimer.at !== at) {
      this.ctx.clock.clearTimeout(this.matchTimer.handle);
      this.matchTimer = null;
    }
    if (at === null || this.matchTimer) return;
    const handle = this.ctx.clock.setTimeout(() => {
      this.matchTimer = null;
      try {
        this.runMatching();
      } catch (error) {
        this.ctx.log.error("duel matching failed", { error: String(error) });
      }
    }, at - this.now);
    this.matchTimer = { handle, at };
  }

  /** A new duel for a pair: its host on the shared scheduler, both sockets joined (`welcome` says match_found). */
  private open({ red, blue }: Pairing<Queued>) {
    const sessionId = crypto.randomUUID();
    const { ctx, settings } = this;
    const host: DuelGame = new GameHost({
      mode: duelMode,
      settings: { sessionId, red: red.data.player, blue: blue.data.player, rules: settings.rules },
      presenter: this.presenter,
      sourceId: sessionId,
      sourceName: DUEL_SOURCE_NAME,
      channel: `duel:${sessionId}`,
      graceMs: settings.graceMs,
      scheduler: sharedScheduler(ctx),
      emitter: this.emitter,
      random: ctx.random,
      log: ctx.log,
    });
    this.hosts.set(sessionId, host);
    this.matchmaker.assign(sessionId, red.playerId, blue.playerId);
    for (const { data } of [red, blue]) this.seat(host, data.player, data.socketId);
    this.listChanged();
  }

  /** Puts a socket in a duel (leaving the finished one it may still show). */
  private seat(host: DuelGame, player: DuelPlayer, socketId: string) {
    const socket = this.io.of("/").sockets.get(socketId);
    if (socket) this.leaveGame(socket);
    host.input({ type: "join", socketId, player, data: undefined });
    if (socket) setDuelOfSocket(socket, host.sourceId as string, this.menu.has(socket.id));
    // A socket gone between the queue and the match: the player's place starts its grace period at once.
    if (!socket?.connected) host.input({ type: "drop", playerId: player.id, socketId });
  }

  // --- in a duel -------------------------------------------------------------------------------------------------

  private hostOf(socket: AppSocket): DuelGame {
    const sessionId = duelOfSocket(socket);
    const host = sessionId ? this.hosts.get(sessionId) : undefined;
    if (!host) throw badRequest(DUEL_MESSAGES.noDuel, "not_in_duel");
    return host;
  }

  play(socket: AppSocket, move: DuelMove) {
    const host = this.hostOf(socket);
    orThrow(host.input({ type: "move", playerId: playerIdOf(socket.data.identity), socketId: socket.id, move }));
  }

  /** duel_leave_game: out of the duel at once (before its end that is a forfeit). */
  leaveGame(socket: AppSocket) {
    const sessionId = duelOfSocket(socket);
    setDuelOfSocket(socket, undefined, this.menu.has(socket.id));
    const host = sessionId ? this.hosts.get(sessionId) : undefined;
    if (!host) return;
    const playerId = playerIdOf(socket.data.identity);
    host.input({ type: "leave", playerId, socketId: socket.id });
    this.afterExit(host, playerId);
  }

  connect(socket: AppSocket) {
    // A player whose connection dropped mid-duel comes back within the grace period: the new socket resumes it.
    const playerId = playerIdOf(socket.data.identity);
    const sessionId = this.matchmaker.gameOf(playerId);
    const host = sessionId ? this.hosts.get(sessionId) : undefined;
    const member = host?.member(playerId);
    if (!host || !member || member.sockets.length > 0) return;
    host.input({ type: "join", socketId: socket.id, player: member.player, data: undefined });
    host.input({ type: "move", playerId, move: { type: "connection", connected: true } });
    setDuelOfSocket(socket, host.sourceId as string, this.menu.has(socket.id));
  }

  disconnect(socket: AppSocket) {
    if (this.menu.delete(socket.id)) this.listChanged();
    this.cancelQueueOf(socket);
    const sessionId = duelOfSocket(socket);
    const host = sessionId ? this.hosts.get(sessionId) : undefined;
    if (!host) return;
    const playerId = playerIdOf(socket.data.identity);
    const member = host.member(playerId);
    // The player's last socket: the mode learns it was a disconnect (if the grace runs out, the reason says so).
    if (member?.sockets.length === 1 && member.sockets[0] === socket.id) {
      host.input({ type: "move", playerId, move: { type: "connection", connected: false } });
    }
    host.input({ type: "drop", playerId, socketId: socket.id });
    this.afterExit(host, playerId);
  }

  /** A halted duel (it kept failing) plays no end: its players are freed when they go. */
  private afterExit(host: DuelGame, playerId: string) {
    if (!host.running && !host.member(playerId)) {
      this.matchmaker.release(playerId);
      this.listChanged();
    }
    if (host.size === 0 && (!host.running || host.state.status === "finished")) this.close(host);
  }

  // --- PresenterEnv ----------------------------------------------------------------------------------------------

  ended(host: DuelGame) {
    const { red, blue } = host.state;
    for (const seat of [red, blue]) {
      if (this.matchmaker.gameOf(seat.player.id) === host.sourceId) this.matchmaker.release(seat.player.id);
    }
    this.listChanged();
  }

  playerLeft(host: DuelGame, _member: DuelMember) {
    if (host.size === 0 && host.state.status === "finished") this.close(host);
  }

  expired(host: DuelGame) {
    this.close(host);
  }

  /** The duel is over and done with: its host stops (queued writes still complete) and its sockets are let go. */
  private close(host: DuelGame) {
    if (this.hosts.get(host.sourceId as string) !== host) return;
    this.hosts.delete(host.sourceId as string);
    for (const member of [...host.members()]) {
      for (const socketId of member.sockets) {
        this.emitter.leave(socketId, host.channel);
        const socket = this.io.of("/").sockets.get(socketId);
        if (socket && duelOfSocket(socket) === host.sourceId)
          setDuelOfSocket(socket, undefined, this.menu.has(socket.id));
      }
    }
    host.stop();
  }

  get liveDuels() {
    return this.hosts.size;
  }

  duel(sessionId: string): DuelGame | undefined {
    return this.hosts.get(sessionId);
  }

  stop() {
    this.stopped = true;
    for (const timer of [this.listTimer, this.sweepTimer, this.matchTimer?.handle]) {
      if (timer) this.ctx.clock.clearTimeout(timer);
    }
    this.listTimer = this.sweepTimer = this.matchTimer = null;
    for (const host of this.hosts.values()) host.stop();
  }
}

/** A refusal of the game host as the AppError the shared dispatcher turns into the socket's `error` event. */
function orThrow(result: InputResult) {
  if (!result.ok) throw new AppError(result.code === "not_in_game" ? 400 : 409, result.error, result.code);
}
