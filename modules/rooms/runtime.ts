import type { UserRow } from "../../db/core/schema";
import { accountsApi } from "../accounts";
import { lastRound } from "../games";
import type { TimerHandle } from "../kernel/clock";
import type { ModuleContext } from "../kernel/define-module";
import { badRequest, notFound } from "../kernel/errors";
import {
  type GameEmitter,
  type GameOwnerLease,
  localFirstEmitter,
  playerIdOf,
  socketIoEmitter,
} from "../kernel/game-host";
import type { AppServer, AppSocket } from "../kernel/socket";
import { CachedRead } from "./cached-read";
import { type ChatCommand, roomOfSocket, submissionCommand } from "./members";
import { OwnedRooms } from "./owned-rooms";
import { type HostEnv, orThrow, RoomHost } from "./room-host";
import { presentIdleRoom, type RoomView } from "./room-view";
import type { RoomRow } from "./schema";
import { DEFAULT_RACE_SETTINGS, type Sentence, type SubmitMove } from "./sentence-race";
import { listRoomRows, loadSentencePool } from "./service";
import { ROOM_MESSAGES, type RoomsSettings } from "./settings";

/** Sockets in no room (the home page's viewers): they get room:list_update. */
export const LOBBY = "lobby";

/**
 * All rooms of one server: hosts created on first use (each a game on the process's one shared scheduler), the
 * lobby's coalesced room:list_update, and cached reads (room rows, sentence pools) so a busy server does not query
 * them on every join or game.
 *
 * The database is asynchronous (either engine), a game step never is: a host is opened only once its round number
 * and its sentence pool are loaded, and a step reads the pool as loaded (`pool`), while a stale pool is reloaded
 * in the background for the next round. The mode's transitions never wait for the database.
 */
export class RoomsRuntime implements HostEnv {
  readonly emitter: GameEmitter;
  private readonly hosts = new Map<number, RoomHost>();
  /** Hosts being created (their round numbering and sentence pool are read first). */
  private readonly opening = new Map<number, Promise<RoomHost>>();
  private readonly dirty = new Set<number>();
  private flushTimer: TimerHandle | null = null;
  private readonly rows: CachedRead<RoomRow[]>;
  /** The whole list, rebuilt only after a change: every connecting socket gets it (room:list). */
  private listCache: { at: number; rooms: RoomView[] } | null = null;
  private readonly pools = new Map<string, CachedRead<Sentence[]>>();
  /** Players inside a reconnect grace period → the room keeping their place. */
  private readonly graces = new Map<string, number>();
  private stopped = false;
  private readonly unsubscribe: () => void;
  /** Several processes (ctx.cluster): every room's game has one owner; null on one process. */
  private readonly owned: OwnedRooms | null;

  constructor(
    readonly io: AppServer,
    readonly ctx: ModuleContext,
    readonly settings: RoomsSettings,
  ) {
    this.emitter = ctx.cluster ? localFirstEmitter(io) : socketIoEmitter(io);
    this.owned = ctx.cluster
      ? new OwnedRooms(
          {
            ctx,
            settings,
            openHost: (roomId, owner) => this.open(roomId, owner),
            forgetHost: (roomId, host) => this.forgetHost(roomId, host),
            setLobby: (socket, inLobby) => this.setLobby(socket, inLobby),
            feed: {
              ownViews: () => this.ownViews(),
              heard: (rooms, gone) => this.heard(rooms, gone),
              lobbySize: () => this.lobbySize(),
            },
          },
          ctx.cluster,
        )
      : null;
    this.rows = this.cachedRead(() => listRoomRows(ctx.database));
    // An administrator's rename (or any account change) reaches the rooms the member is in.
    this.unsubscribe = ctx.events.on("accounts.user_updated", ({ userId }) => this.userUpdated(userId));
  }

  /** The member is in one room at most; rooms are few, so each host is asked rather than keeping an index. */
  private userUpdated(userId: number) {
    for (const host of this.hosts.values()) {
      host
        .refreshMember(userId)
        .catch((error) => this.ctx.log.error("member refresh failed", { error: String(error) }));
    }
  }

  private cachedRead<T>(read: () => Promise<T>) {
    return new CachedRead(read, () => this.ctx.clock.now(), this.settings.cacheMs);
  }

  // --- sentence pools ------------------------------------------------------------------------------------------

  private poolOf(theme: string): CachedRead<Sentence[]> {
    let pool = this.pools.get(theme);
    if (!pool) {
      pool = this.cachedRead(() => this.readPool(theme));
      this.pools.set(theme, pool);
    }
    return pool;
  }

  /**
   * The theme's sentences as loaded, at once (HostEnv: a game step reads it and never waits). When the pool is
   * stale or empty a reload starts in the background; the room's next countdown step picks it up (the presenter
   * asks before every step, so a reload started when the countdown begins is in place when the sentence is drawn).
   */
  pool(theme: string): Sentence[] {
    const pool = this.poolOf(theme);
    if (!pool.fresh || pool.current?.length === 0) {
      pool.load().catch((error) => this.ctx.log.error("sentence pool reload failed", { theme, error: String(error) }));
    }
    return pool.current ?? [];
  }

  private async readPool(theme: string): Promise<Sentence[]> {
    const pool = await loadSentencePool(this.ctx.database, theme);
    if (pool.length > 0) return pool;
    // A theme without sentences borrows from every theme rather than leaving its room idle.
    const others = new Set((await this.rows.value()).filter((r) => r.theme !== theme).map((r) => r.theme));
    const borrowed = await Promise.all([...others].map((other) => loadSentencePool(this.ctx.database, other)));
    return borrowed.flat();
  }

  roomChanged(roomId: number) {
    this.listCache = null;
    this.dirty.add(roomId);
    if (this.flushTimer || this.stopped) return;
    this.flushTimer = this.ctx.clock.setTimeout(() => this.flush(), this.settings.listUpdateMs);
  }

  setLobby(socket: AppSocket, inLobby: boolean) {
    if (!inLobby) return socket.leave(LOBBY);
    socket.join(LOBBY);
    this.watchOthers();
  }

  /** A socket of this process watches the list: with several processes, the other owners' changes come here. */
  private watchOthers() {
    this.owned?.feed.want().catch(() => {});
  }

  private lobbySize() {
    return this.io.sockets.adapter.rooms.get(LOBBY)?.size ?? 0;
  }

  /** This process's lobby sockets (only they: another process's lobby hears that process's feed). */
  private lobby() {
    return this.owned ? this.io.local.to(LOBBY) : this.io.to(LOBBY);
  }

  graceStarted(playerId: string, roomId: number) {
    this.graces.set(playerId, roomId);
  }

  graceEnded(playerId: string, roomId: number) {
    if (this.graces.get(playerId) === roomId) this.graces.delete(playerId);
  }

  // --- rooms ---------------------------------------------------------------------------------------------------

  /**
   * Forget cached rows and reload the pools this process uses (after a room is created or sentences are imported
   * in this process): resolves once the rooms play from the new pools.
   */
  async invalidate() {
    this.rows.forget();
    this.listCache = null;
    for (const pool of this.pools.values()) pool.forget();
    try {
      await Promise.all([...this.pools.values()].map((pool) => pool.load()));
    } catch (error) {
      // The change itself is stored; the rooms reload their pools before a later round.
      this.ctx.log.error("sentence pools reload failed", { error: String(error) });
    }
  }

  /** Resolves once no read of rooms or sentence pools is running (tests: a reload a step started is in place). */
  async settled() {
    await Promise.all([this.rows.settled(), ...[...this.pools.values()].map((pool) => pool.settled())]);
  }

  private async findRow(roomId: number): Promise<RoomRow | undefined> {
    const row = (await this.rows.value()).find((r) => r.id === roomId);
    if (row) return row;
    this.rows.forget(); // created by the CLI since the last read?
    return (await this.rows.value()).find((r) => r.id === roomId);
  }

  /**
   * The room's host, created on first use. Its rounds continue the numbering stored in the games module (a
   * restart must not reuse a round number) and its first round needs its sentence pool: both are asynchronous
   * reads, so the first join of a room waits for them, every later one finds the host at once. An unknown room
   * is refused (`room_not_found`).
   */
  host(roomId: number): RoomHost | Promise<RoomHost> {
    const existing = this.hosts.get(roomId) ?? this.opening.get(roomId);
    if (existing) return existing;
    const opening = this.open(roomId).finally(() => this.opening.delete(roomId));
    this.opening.set(roomId, opening);
    return opening;
  }

  private async open(roomId: number, owner?: GameOwnerLease): Promise<RoomHost> {
    const row = await this.findRow(roomId);
    if (!row) throw notFound(ROOM_MESSAGES.notFound, "room_not_found");
    const [round] = await Promise.all([
      lastRound(this.ctx, this.settings.mode.id, String(roomId)),
      this.poolOf(row.theme).value(),
    ]);
    const host = new RoomHost(row, this, round, owner);
    this.hosts.set(roomId, host);
    if (this.stopped) host.stop();
    return host;
  }

  private forgetHost(roomId: number, host: RoomHost) {
    if (this.hosts.get(roomId) === host) this.hosts.delete(roomId);
  }

  private idleCountdown() {
    return this.settings.race.countdownSeconds ?? DEFAULT_RACE_SETTINGS.countdownSeconds;
  }

  /** A room nobody runs, from the rows as last read (a feed's callback cannot wait for a read). */
  private idleView(roomId: number): RoomView[] {
    const row = this.rows.current?.find((r) => r.id === roomId);
    return row && !this.hosts.has(roomId) ? [presentIdleRoom(row, this.idleCountdown())] : [];
  }

  /** One room, live (GET /api/rooms/{id}); null when there is no such room. */
  async room(roomId: number): Promise<RoomView | null> {
    const host = this.hosts.get(roomId);
    if (host) return host.present();
    const row = await this.findRow(roomId);
    if (!row) return null;
    const owners = await this.owned?.views([roomId]);
    return owners?.get(roomId) ?? presentIdleRoom(row, this.idleCountdown());
  }

  async list(): Promise<RoomView[]> {
    const now = this.ctx.clock.now();
    if (this.listCache && now - this.listCache.at < this.settings.cacheMs) return this.listCache.rooms;
    const rows = await this.rows.value();
    // With several processes a room owned elsewhere is shown as its owner last said it.
    const owners = await this.owned?.views(rows.filter((row) => !this.hosts.has(row.id)).map((row) => row.id));
    const rooms = rows.map(
      (row) => this.hosts.get(row.id)?.present() ?? owners?.get(row.id) ?? presentIdleRoom(row, this.idleCountdown()),
    );
    // Kept only when no change came while the rows were read (invalidate forgets them).
    if (this.rows.fresh) this.listCache = { at: now, rooms };
    return rooms;
  }

  /**
   * A timer callback: nothing may escape it (under Bun a throw in a timer ends the process). The changed rooms go
   * to this process's lobby and, with several processes, to the others that listen; with nobody watching anywhere
   * nothing is built (a full room:list answers the next get_rooms anyway).
   */
  private flush() {
    this.flushTimer = null;
    try {
      const watching = this.lobbySize() > 0;
      if (!watching && !this.owned?.feed.sending) return;
      const rooms = [...this.dirty].flatMap((id) => this.presentForLobby(id));
      if (rooms.length === 0) return;
      if (watching) this.lobby().emit("room:list_update", { rooms });
      this.owned?.feed.changed(rooms);
    } catch (error) {
      this.ctx.log.error("room list update failed", { error: String(error) });
    } finally {
      this.dirty.clear();
    }
  }

  /** Rooms owned by another process changed (its feed): this process's lobby sees them, its list is rebuilt. */
  private heard(rooms: RoomView[], gone: number[]) {
    this.listCache = null;
    if (this.lobbySize() === 0) return;
    const changed = [...rooms, ...gone.flatMap((id) => this.idleView(id))];
    if (changed.length > 0) this.lobby().emit("room:list_update", { rooms: changed });
  }

  /** Every room this process runs, as the lobby sees it now. */
  private ownViews(): RoomView[] {
    return [...this.hosts.keys()].flatMap((id) => this.presentForLobby(id));
  }

  /**
   * One room of this process in room:list_update; a room that cannot be shown is left out, not the whole update.
   * A room this process no longer runs is not its to show (with several processes another owner says it).
   */
  private presentForLobby(roomId: number): RoomView[] {
    try {
      const room = this.hosts.get(roomId)?.present();
      return room ? [room] : [];
    } catch (error) {
      this.ctx.log.error("room cannot be listed", { room_id: roomId, error: String(error) });
      return [];
    }
  }

  // --- sockets -------------------------------------------------------------------------------------------------

  /**
   * A new socket watches the lobby's room:list_update but gets no room:list: the list carries every room's
   * users[] (about 1 MB with 10,000 players), and only the home page needs it, which asks with get_rooms.
   */
  connect(socket: AppSocket) {
    this.setLobby(socket, true);
  }

  async sendList(socket: AppSocket) {
    socket.emit("room:list", { rooms: await this.list() });
  }

  join(socket: AppSocket, roomId: number): void | Promise<void> {
    if (this.owned) return this.joinOwned(socket, roomId, this.owned);
    const host = this.host(roomId);
    const identity = socket.data.identity;
    if (identity.kind === "guest" && host instanceof RoomHost) return this.enter(socket, host, null);
    // A member is shown with the account's current name and figures, read first (the accounts store is async).
    const account = identity.kind === "user" ? accountsApi(this.ctx).service.findById(identity.userId) : null;
    return Promise.all([host, account]).then(([opened, row]) => {
      if (socket.connected) this.enter(socket, opened, row);
    });
  }

  private async joinOwned(socket: AppSocket, roomId: number, owned: OwnedRooms) {
    if (!(await this.findRow(roomId))) throw notFound(ROOM_MESSAGES.notFound, "room_not_found");
    const identity = socket.data.identity;
    const account = identity.kind === "user" ? await accountsApi(this.ctx).service.findById(identity.userId) : null;
    if (socket.connected) await owned.join(socket, roomId, account);
  }

  private enter(socket: AppSocket, host: RoomHost, account: UserRow | null | undefined) {
    const roomId = host.room.id;
    const current = roomOfSocket(socket);
    if (current !== roomId) host.assertRoomFor(socket);
    if (current !== undefined && current !== roomId) this.hosts.get(current)?.leave(socket, true);
    // The same player waiting out a dropped connection elsewhere leaves that room now: one room at a time.
    const playerRoom = this.graces.get(playerKey(socket));
    if (playerRoom !== undefined && playerRoom !== roomId) this.hosts.get(playerRoom)?.expireGrace(playerKey(socket));
    host.enter(socket, account);
  }

  /** leave_room / disconnect_cleanup: out of the room at once, back in the lobby with a fresh list. */
  async leave(socket: AppSocket): Promise<void> {
    const current = roomOfSocket(socket);
    if (current !== undefined && this.owned) await this.owned.leave(socket, current, true);
    else if (current !== undefined) this.hosts.get(current)?.leave(socket, true);
    this.setLobby(socket, true);
    socket.emit("room:left", { room_id: current ?? null });
    return this.sendList(socket);
  }

  disconnect(socket: AppSocket) {
    const current = roomOfSocket(socket);
    if (current === undefined) return;
    if (!this.owned) return this.hosts.get(current)?.leave(socket, false);
    this.owned
      .leave(socket, current, false)
      .catch((error) => this.ctx.log.warn("room drop not delivered", { room_id: current, error: String(error) }));
  }

  /** A chat line (or a chat answer) of a socket in the room, to the room's game wherever it runs. */
  chat(socket: AppSocket, roomId: number, message: string, isGameAnswer: boolean): void | Promise<void> {
    if (!this.owned) return this.hostOf(socket, roomId).chat(socket, message, isGameAnswer);
    const input = { type: "command" as const, command: { message, isGameAnswer } };
    return this.ownedInput(socket, roomId, input);
  }

  /** The socket's one submission of the game in play. */
  submit(socket: AppSocket, roomId: number, move: SubmitMove): void | Promise<void> {
    if (!this.owned) return this.hostOf(socket, roomId).submit(socket, move);
    return this.ownedInput(socket, roomId, { type: "command" as const, command: submissionCommand(move) });
  }

  private ownedInput(
    socket: AppSocket,
    roomId: number,
    input: { type: "command"; command: ChatCommand },
  ): void | Promise<void> {
    if (roomOfSocket(socket) !== roomId) throw badRequest(ROOM_MESSAGES.notInRoom, "not_in_room");
    const playerId = playerKey(socket);
    const result = this.owned!.input(roomId, { ...input, playerId, socketId: socket.id });
    return result instanceof Promise ? result.then(orThrow) : orThrow(result);
  }

  /** The host of the room this socket is in; `roomId` must name that room. */
  hostOf(socket: AppSocket, roomId: number): RoomHost {
    const current = roomOfSocket(socket);
    const host = current === roomId ? this.hosts.get(roomId) : undefined;
    if (!host) throw badRequest(ROOM_MESSAGES.notInRoom, "not_in_room");
    return host;
  }

  async stop() {
    this.stopped = true;
    this.unsubscribe();
    if (this.flushTimer) this.ctx.clock.clearTimeout(this.flushTimer);
    this.flushTimer = null;
    // The rounds were finished by the shutdown (finishGames); the ownership then gives the rooms back.
    await this.owned?.stop(this.io.of("/").sockets.values());
    for (const host of this.hosts.values()) host.stop();
  }
}

const playerKey = (socket: AppSocket) => playerIdOf(socket.data.identity);
