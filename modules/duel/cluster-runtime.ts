import type { TimerHandle } from "../kernel/clock";
import type { Cluster } from "../kernel/cluster";
import type { ModuleContext } from "../kernel/define-module";
import { AppError, badRequest, conflict } from "../kernel/errors";
import {
  type AnyGameInput,
  type GameEmitter,
  GameHost,
  type GameOwnerLease,
  GameOwnership,
  type InputResult,
  localFirstEmitter,
  sharedScheduler,
} from "../kernel/game-host";
import type { AppServer, AppSocket } from "../kernel/socket";
import { duelStore } from "./api";
import { type DuelMove, type DuelPlayer, duelMode } from "./duel-mode";
import { GLICKO2_NEW_PLAYER } from "./glicko2";
import { Matchmaker, type PlayerStatus } from "./matchmaker";
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
import { DuelPresenter, type PresenterEnv, REASON_TEXT } from "./presenter";
import { DUEL_SOURCE_NAME } from "./records";
import {
  byName,
  DUEL_MESSAGES,
  type DuelModuleSettings,
  LIST_REBUILD_MS,
  type OnlineUser,
  STATUS_ORDER,
} from "./runtime";
import { type ClosedAnnouncement, type MatchAnnouncement, SharedDuelLobby, type SharedWaiting } from "./shared-lobby";
import type { DuelStore } from "./store";

const MODE = "duel";
/** A matching pass holds the shared matcher lease at most this long. */
const MATCHER_TTL_MS = 2_000;
/** A pass that found the matcher busy tries again this much later (the other pass may have missed a new search). */
const MATCHER_RETRY_MS = 100;

/**
 * The duel on several processes (`ctx.cluster`; README "Several processes"): the same socket events as
 * `DuelRuntime`, with the queue, the players in duels and the online list in Redis (`SharedDuelLobby`), and one
 * owner per duel through `GameOwnership` (input forwarded to the owner, output through the socket.io adapter).
 */
export class ClusterDuelRuntime implements PresenterEnv {
  readonly emitter: GameEmitter;
  readonly store: DuelStore;
  readonly lobby: SharedDuelLobby;
  readonly ownership: GameOwnership;
  private readonly presenter: DuelPresenter;
  /** The duels this process owns, and the lease of each (given back when the duel closes). */
  private readonly hosts = new Map<string, DuelGame>();
  private readonly leases = new Map<string, GameOwnerLease>();
  /** This process's sockets in the menu (their heartbeats; the shared list has the players). */
  private readonly menu = new Map<string, { player: DuelPlayer; beatAt: number }>();
  private listTimer: TimerHandle | null = null;
  private lastOnline: {
    at: number;
    online: { player: DuelPlayer; status: PlayerStatus }[];
    waitingCount: number;
  } | null = null;
  private matchTimer: TimerHandle | null = null;
  private sweepTimer: TimerHandle | null = null;
  private stopped = false;
  private readonly started: Promise<void>;
  /** This process in the shared queue (`waiting:<player>`.process). */
  private readonly processId: string;
  private readonly onMatch = (message: string) => this.matched(message);
  private readonly onClosed = (message: string) => this.closedElsewhere(message);

  constructor(
    readonly io: AppServer,
    readonly ctx: ModuleContext,
    readonly settings: DuelModuleSettings,
    cluster: Cluster,
  ) {
    this.emitter = localFirstEmitter(io);
    this.processId = cluster.processId;
    this.store = duelStore(ctx);
    this.lobby = new SharedDuelLobby(cluster);
    this.presenter = new DuelPresenter(this);
    // Its own process id: a second GameOwnership of this process (the rooms') answers on its own reply channel.
    this.ownership = new GameOwnership({
      processId: `${cluster.processId}/duel`,
      prefix: cluster.prefix,
      redis: cluster.redis,
      subscriber: cluster.subscriber,
      games: { [MODE]: { open: (sessionId, owner) => this.openDuel(sessionId, owner) } },
      log: ctx.log,
    });
    this.started = Promise.all([
      this.ownership.start(),
      cluster.subscriber.subscribe(this.lobby.matchChannel, this.onMatch),
      cluster.subscriber.subscribe(this.lobby.closedChannel, this.onClosed),
    ]).then(() => undefined);
    this.started.catch((error) => ctx.log.error("duel cluster start failed", { error: String(error) }));
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
    if (entry && !this.listedElsewhereHere(entry.player.id)) await this.lobby.unlist(entry.player.id);
    if (entry) this.listChanged();
  }

  /** Another socket of the same player on this process is still in the menu. */
  private listedElsewhereHere(playerId: string) {
    for (const entry of this.menu.values()) if (entry.player.id === playerId) return true;
    return false;
  }

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

  /** `fresh`: read now (a push); an answer may use a read up to `LIST_REBUILD_MS` old when the list is long. */
  async listFor(socket: AppSocket | null, fresh = false) {
    const me = socket ? playerOf(socket.data.identity) : null;
    const { online, waitingCount } = await this.readOnline(fresh);
    const limit = this.settings.listLimit;
    const mine = me ? online.find((entry) => entry.player.id === me.id) : undefined;
    const ordered = mine ? [mine, ...online.slice(0, limit + 1).filter((entry) => entry !== mine)] : online;
    const users: OnlineUser[] = ordered.slice(0, limit).map(({ player, status }) => ({
      sid: player.key,
      nickname: player.name,
      status,
      is_me: player.id === me?.id,
    }));
    return { users, waiting_count: waitingCount, online_count: online.length, my_sid: me?.key ?? null };
  }

  /**
   * The shared online list in list order. As on one process (runtime.ts `listedInOrder`), a list longer than its
   * window is read and sorted at most every `LIST_REBUILD_MS` for the answers every finished duel asks for; changes
   * come from every process, so the rule is by time alone.
   */
  private async readOnline(fresh: boolean) {
    const last = this.lastOnline;
    const long = last && last.online.length > this.settings.listLimit;
    if (!fresh && long && this.now < last.at + LIST_REBUILD_MS) return last;
    const [online, waitingCount] = await Promise.all([
      this.lobby.online(this.now - this.settings.heartbeatTimeoutMs),
      this.lobby.waitingCount(),
    ]);
    online.sort((a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status] || byName(a.player.name, b.player.name));
    this.lastOnline = { at: this.now, online, waitingCount };
    return this.lastOnline;
  }

  async sendList(socket: AppSocket) {
    socket.emit("duel:user_list_update", await this.listFor(socket));
  }

  /**
   * Coalesced across processes: the process that claims the shared window sends one list to every menu socket of
   * every process (the adapter) when the window closes; another process whose change falls in that window tries
   * again when it closes, so no change goes unsent.
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
      // Another process sends one now: ours goes after its window, so a change made meanwhile is not lost.
      this.listChanged();
      return;
    }
    this.io.to(MENU).emit("duel:user_list_update", await this.listFor(null, true));
  }

  private armSweep() {
    if (this.sweepTimer || this.stopped) return;
    this.sweepTimer = this.ctx.clock.setTimeout(() => {
      this.sweepTimer = null;
      this.sweep().catch(this.logged("duel heartbeat sweep failed"));
    }, this.settings.sweepEveryMs);
  }

  /** This process's stale menu sockets: their searches are cancelled (the shared list prunes them by score). */
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
    const rating = identity.kind === "user" ? await this.store.rating(identity.userId) : GLICKO2_NEW_PLAYER.rating;
    if (!socket.connected || this.stopped) return { success: false };
    const player = playerOf(identity);
    const queued = await this.lobby.enqueue(player, rating, this.now, socket.id);
    if (queued === "in_game") throw conflict(DUEL_MESSAGES.alreadyInGame, "already_in_game");
    if (queued === "queued") {
      this.listChanged();
      this.matchSoon(0);
    }
    const waitingCount = await this.lobby.waitingCount();
    const status = (await this.lobby.gameOf(player.id)) ? "in_game" : "waiting";
    return { success: true, status, waiting_count: waitingCount };
  }

  async cancelMatch(socket: AppSocket) {
    const playerId = playerIdOf(socket.data.identity);
    if (await this.lobby.cancel(playerId)) this.listChanged();
    const status = (await this.lobby.gameOf(playerId)) ? "in_game" : "idle";
    return { success: true, status };
  }

  private async cancelQueueOf(socket: AppSocket) {
    if (await this.lobby.cancel(playerIdOf(socket.data.identity), socket.id)) this.listChanged();
  }

  /** One local timer for the next pass (a new search: at once; otherwise when an accepted gap widens). */
  private matchSoon(delayMs: number) {
    if (this.stopped) return;
    if (this.matchTimer) this.ctx.clock.clearTimeout(this.matchTimer);
    this.matchTimer = this.ctx.clock.setTimeout(() => {
      this.matchTimer = null;
      this.runMatching().catch(this.logged("duel matching failed"));
    }, delayMs);
  }

  /**
   * A matching pass under the shared matcher lease: the pure `Matchmaker`'s rule on the shared queue; each pair is
   * taken atomically (a player another pass took meanwhile fails the take) and announced. Then the next pass is
   * timed for the moment an accepted gap widens.
   */
  private async runMatching() {
    if (!(await this.lobby.claimMatcher(MATCHER_TTL_MS))) {
      this.matchSoon(MATCHER_RETRY_MS);
      return;
    }
    let nextAt: number | null;
    let paired = 0;
    try {
      const now = this.now;
      const matchmaker = new Matchmaker<SharedWaiting>(this.settings.match);
      const waiting = (await this.lobby.waiting()).sort((a, b) => a.seq - b.seq);
      for (const entry of waiting) matchmaker.enqueue(entry.playerId, entry.rating, entry.since, entry);
      for (const { red, blue } of matchmaker.match(now)) {
        const sessionId = crypto.randomUUID();
        if (!(await this.lobby.take(sessionId, red.data, blue.data))) continue;
        paired++;
        await this.lobby.announce({ sessionId, red: red.data, blue: blue.data });
      }
      nextAt = matchmaker.nextWideningAt(now);
    } finally {
      await this.lobby.releaseMatcher();
    }
    if (nextAt !== null) this.matchSoon(Math.max(0, nextAt - this.now));
    if (paired > 0) this.listChanged();
  }

  /** A pair was announced: this process's sockets among them join the new duel (wherever it runs). */
  private matched(message: string) {
    let match: MatchAnnouncement;
    try {
      match = JSON.parse(message) as MatchAnnouncement;
    } catch {
      this.ctx.log.warn("unreadable duel match announcement");
      return;
    }
    for (const seat of [match.red, match.blue]) {
      // The process that queued the socket seats it, even when the socket went meanwhile (its grace starts).
      if (seat.process !== this.processId) continue;
      this.seat(match.sessionId, seat.player, seat.socketId).catch(this.logged("seating a duel player failed"));
    }
  }

  private async seat(sessionId: string, player: DuelPlayer, socketId: string) {
    const socket = this.local(socketId);
    if (socket) {
      await this.leaveGame(socket);
      setDuelOfSocket(socket, sessionId, this.menu.has(socket.id));
    }
    await this.input(sessionId, { type: "join", socketId, player, data: undefined });
    // Gone between the queue and the match: the player's place starts its grace period at once.
    if (!socket?.connected) await this.input(sessionId, { type: "drop", playerId: player.id, socketId });
  }

  private async input(sessionId: string, input: AnyGameInput): Promise<InputResult> {
    return this.ownership.input(MODE, sessionId, input);
  }

  // --- opening a duel (the owner) --------------------------------------------------------------------------------

  /**
   * The opener: the first opening creates the duel from the players the matcher stored. A duel lives only in its
   * owner's memory, so a takeover cannot continue it: the duel is ended — with its stored result when the old owner
   * stored one, otherwise as a draw `stopped`, not rated — and the players told (`duel:game_over`).
   */
  private async openDuel(sessionId: string, owner: GameOwnerLease): Promise<DuelGame> {
    const duel = await this.lobby.duel(sessionId);
    if (!duel) throw new Error(`unknown duel ${sessionId}`);
    const first = !duel.over && (await this.lobby.open(sessionId, owner.epoch, duel.red, duel.blue));
    const host = this.newHost(sessionId, duel.red, duel.blue, owner);
    this.hosts.set(sessionId, host);
    this.leases.set(sessionId, owner);
    if (first) return host;
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
      sourceId: sessionId,
      sourceName: DUEL_SOURCE_NAME,
      channel: `duel:${sessionId}`,
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
    this.emitter.toChannel(host.channel, "duel:game_over", { session_id: sessionId, result });
    this.ended(host);
  }

  // --- in a duel -------------------------------------------------------------------------------------------------

  async play(socket: AppSocket, move: DuelMove) {
    const sessionId = duelOfSocket(socket);
    if (!sessionId) throw badRequest(DUEL_MESSAGES.noDuel, "not_in_duel");
    const playerId = playerIdOf(socket.data.identity);
    const result = await this.input(sessionId, { type: "move", playerId, socketId: socket.id, move });
    if (result.ok) return;
    // The duel was closed on its owner (this process did not hear of it): the socket is in no duel any more.
    if (result.code === "game_stopped" || result.code === "not_in_game") {
      if (duelOfSocket(socket) === sessionId) setDuelOfSocket(socket, undefined, this.menu.has(socket.id));
      throw badRequest(DUEL_MESSAGES.noDuel, "not_in_duel");
    }
    throw new AppError(409, result.error, result.code);
  }

  async leaveGame(socket: AppSocket) {
    const sessionId = duelOfSocket(socket);
    setDuelOfSocket(socket, undefined, this.menu.has(socket.id));
    if (!sessionId) return;
    const playerId = playerIdOf(socket.data.identity);
    await this.input(sessionId, { type: "leave", playerId, socketId: socket.id });
  }

  async connect(socket: AppSocket) {
    // A player whose connection dropped mid-duel comes back within the grace period: the new socket resumes it.
    const player = playerOf(socket.data.identity);
    const sessionId = await this.lobby.gameOf(player.id);
    if (!sessionId || !socket.connected) return;
    const joined = await this.input(sessionId, { type: "join", socketId: socket.id, player, data: undefined });
    if (!joined.ok) return;
    setDuelOfSocket(socket, sessionId, this.menu.has(socket.id));
    await this.input(sessionId, { type: "move", playerId: player.id, move: { type: "connection", connected: true } });
  }

  async disconnect(socket: AppSocket) {
    const entry = this.menu.get(socket.id);
    if (entry) {
      this.menu.delete(socket.id);
      if (!this.listedElsewhereHere(entry.player.id)) await this.lobby.unlist(entry.player.id);
      this.listChanged();
    }
    await this.cancelQueueOf(socket);
    const sessionId = duelOfSocket(socket);
    if (!sessionId) return;
    const playerId = playerIdOf(socket.data.identity);
    // The player's last socket here: the mode learns it was a disconnect (if the grace runs out, the reason says so).
    if (!this.otherSocketInDuel(socket, sessionId)) {
      await this.input(sessionId, { type: "move", playerId, move: { type: "connection", connected: false } });
    }
    await this.input(sessionId, { type: "drop", playerId, socketId: socket.id });
  }

  private otherSocketInDuel(socket: AppSocket, sessionId: string) {
    const playerId = playerIdOf(socket.data.identity);
    for (const other of this.io.of("/").sockets.values()) {
      if (other.id === socket.id || !other.connected) continue;
      if (duelOfSocket(other) === sessionId && playerIdOf(other.data.identity) === playerId) return true;
    }
    return false;
  }

  // --- PresenterEnv (the owner's side) ---------------------------------------------------------------------------

  ended(host: DuelGame) {
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

  playerLeft(host: DuelGame, _member: DuelMember) {
    if (host.size === 0 && host.state.status === "finished") this.close(host);
  }

  expired(host: DuelGame) {
    this.close(host);
  }

  /** The finished duel is done with: its sockets leave the channel (on their processes) and its host stops. */
  private close(host: DuelGame) {
    const sessionId = host.sourceId as string;
    if (this.hosts.get(sessionId) !== host) return;
    this.hosts.delete(sessionId);
    const sockets: ClosedAnnouncement["sockets"] = [];
    for (const member of [...host.members()]) {
      for (const socketId of member.sockets) {
        this.emitter.leave(socketId, host.channel);
        sockets.push({ socketId, playerId: member.player.id });
      }
    }
    host.stop();
    if (sockets.length > 0) {
      this.lobby.announceClosed({ sessionId, sockets }).catch(this.logged("announcing a closed duel failed"));
    }
    this.giveBack(sessionId);
  }

  /** The closed duel's lease goes back, with its input subscription and seats (queued writes still complete). */
  private giveBack(sessionId: string) {
    const lease = this.leases.get(sessionId);
    this.leases.delete(sessionId);
    lease?.close();
  }

  /**
   * A duel closed on its owner: this process's sockets still in it are in no duel any more, and their seats are
   * given up (a leave, which a stopped host still accepts), so no process looks after the closed duel.
   */
  private closedElsewhere(message: string) {
    let closed: ClosedAnnouncement;
    try {
      closed = JSON.parse(message) as ClosedAnnouncement;
    } catch {
      this.ctx.log.warn("unreadable closed duel announcement");
      return;
    }
    for (const { socketId, playerId } of closed.sockets) {
      const socket = this.local(socketId);
      if (!socket) continue;
      if (duelOfSocket(socket) === closed.sessionId) setDuelOfSocket(socket, undefined, this.menu.has(socket.id));
      this.input(closed.sessionId, { type: "leave", playerId, socketId }).catch(this.logged("leaving a duel failed"));
    }
  }

  get liveDuels() {
    return this.hosts.size;
  }

  duel(sessionId: string): DuelGame | undefined {
    return this.hosts.get(sessionId);
  }

  async stop() {
    this.stopped = true;
    for (const timer of [this.listTimer, this.sweepTimer, this.matchTimer]) {
      if (timer) this.ctx.clock.clearTimeout(timer);
    }
    this.listTimer = this.sweepTimer = this.matchTimer = null;
    await this.started.catch(() => undefined);
    await this.ownership.stop();
    for (const host of this.hosts.values()) host.stop();
    const subscriber = this.ctx.cluster?.subscriber;
    await Promise.all([
      subscriber?.unsubscribe(this.lobby.matchChannel, this.onMatch),
      subscriber?.unsubscribe(this.lobby.closedChannel, this.onClosed),
    ]).catch(() => undefined);
  }
}
