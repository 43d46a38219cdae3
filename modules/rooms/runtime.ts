import type { UserRow } from "../../db/core/schema";
import { accountsApi } from "../accounts";
import { ownerEpoch } from "../games";
import type { TimerHandle } from "../kernel/clock";
import type { ModuleContext, ModuleRuntime } from "../kernel/define-module";
import { badRequest, notFound } from "../kernel/errors";
import {
  type AnyGameInput,
  type GameDirectory,
  type GameEmitter,
  type GameOwnerLease,
  type InputResult,
  memberPlayerId,
  type OwnedGame,
  playerIdOf,
  playerKeyOf,
} from "../kernel/game-host";
import type { AppServer, AppSocket, SocketEvents } from "../kernel/socket";
import { CachedRead } from "./cached-read";
import {
  type ChatCommand,
  type RoomLifecycle,
  roomOfSocket,
  setRoomOfSocket,
  setSpectating,
  spectatingOf,
  submissionCommand,
} from "./members";
import { isRoomAction, type RoomAction } from "./private-room";
import { type PrivateLive, privateEntry, privateSettingsOf } from "./private-rooms";
import { OWN_TEXTS } from "./private-rules";
import { type PrivateRecord, poolThemeOf, privateRoomsStoreOf } from "./private-store";
import { claimGame } from "./records";
import { type HostEnv, memberOf, orThrow, RoomHost, refusalError } from "./room-host";
import { LOBBY, type RoomList } from "./room-list";
import { presentIdleRoom, type RoomView, summaryOf } from "./room-view";
import type { RoomRow } from "./schema";
import { DEFAULT_RACE_SETTINGS, type Sentence, type SubmitMove } from "./sentence-race";
import { listRoomRows, loadSentencePool } from "./service";
import { ROOM_MESSAGES, type RoomsSettings } from "./settings";
import { roomSocketEvents } from "./socket";

export { LOBBY } from "./room-list";

/**
 * Where the rooms' shared state lives: the emitter and the room list beyond this process's rooms. One process:
 * `socketIoEmitter`, `LocalRoomList`; several: `localFirstEmitter`, `SharedRoomList` (index.ts picks them; the game
 * directory, where each room's game runs, is the kernel's).
 */
export interface RoomsPlacement {
  emitter: GameEmitter;
  list(feed: { ownViews(): RoomView[]; heard(rooms: RoomView[], gone: number[]): void; lobbySize(): number }): RoomList;
}

/**
 * All rooms of one server, on one process or several (README "One runtime"): each room's game on the process the
 * game directory places it (opened there by this runtime's opener, on the process's one shared scheduler), every
 * socket's input through the directory, the lobby's coalesced room:list_update, and cached reads (room rows,
 * sentence pools) so a busy server does not query them on every join or game. The socket's own bookkeeping (its
 * room, the lobby, a grace it left in a room run here) stays on the process holding the socket.
 *
 * The database is asynchronous (either engine), a game step never is: a host is opened only once its round number
 * and its sentence pool are loaded, and a step reads the pool as loaded (`pool`), while a stale pool is reloaded
 * in the background for the next round. The mode's transitions never wait for the database.
 */
export class RoomsRuntime implements HostEnv, ModuleRuntime, PrivateLive {
  readonly emitter: GameEmitter;
  readonly socketEvents: SocketEvents;
  /** The rooms whose game runs on this process. */
  private readonly hosts = new Map<number, RoomHost>();
  private readonly dirty = new Set<number>();
  private flushTimer: TimerHandle | null = null;
  private readonly rows: CachedRead<RoomRow[]>;
  /** The whole list, rebuilt only after a change: every connecting socket gets it (room:list). */
  private listCache: { at: number; rooms: RoomView[] } | null = null;
  private readonly pools = new Map<string, CachedRead<Sentence[]>>();
  /** Players inside a reconnect grace period in a room run here → the room keeping their place. */
  private readonly graces = new Map<string, number>();
  private stopped = false;
  private readonly unsubscribe: () => void;
  private readonly roomList: RoomList;
  private readonly mode: string;
  /**
   * What the runtime does when a room's game tells it (HostEnv; one object for every room run here): a player out
   * of a room keeps no grace there, and a room whose listing changed goes into the lobby's next coalesced update.
   */
  readonly lifecycle: RoomLifecycle = {
    playerLeft: (host, member) => {
      this.graceOver(member.player.id, Number(host.sourceId));
      if (host.size === 0) this.closeEmpty(Number(host.sourceId));
    },
    listingChanged: (host) => this.roomChanged(Number(host.sourceId)),
  };
  private sweepTimer: TimerHandle | null = null;
  /** The sweep running now (resolved when none is). */
  private sweeping: Promise<void> = Promise.resolve();

  constructor(
    readonly io: AppServer,
    readonly ctx: ModuleContext,
    readonly settings: RoomsSettings,
    private readonly directory: GameDirectory,
    placement: RoomsPlacement,
  ) {
    this.mode = settings.mode.id;
    this.emitter = placement.emitter;
    this.roomList = placement.list({
      ownViews: () => this.ownViews(),
      heard: (rooms, gone) => this.heard(rooms, gone),
      lobbySize: () => this.lobbySize(),
    });
    directory.register(this.mode, {
      storedEpoch: (sourceId) => ownerEpoch(ctx, settings.mode.id, sourceId),
      open: (sourceId, owner) => this.open(Number(sourceId), owner),
    });
    this.rows = this.cachedRead(() => listRoomRows(ctx.database));
    // An administrator's rename (or any account change) reaches the rooms the member is in.
    this.unsubscribe = ctx.events.on("accounts.user_updated", ({ userId }) => this.userUpdated(userId));
    this.socketEvents = roomSocketEvents(this);
  }

  start() {
    this.scheduleSweep();
    return this.roomList.start();
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

  /** HostEnv: a private room's own sentences changed; its next round plays the new ones. */
  reloadPool(theme: string) {
    const pool = this.poolOf(theme);
    pool.forget();
    pool.load().catch((error) => this.ctx.log.error("sentence pool reload failed", { theme, error: String(error) }));
  }

  private async readPool(theme: string): Promise<Sentence[]> {
    const pool = await loadSentencePool(this.ctx.database, theme);
    if (pool.length > 0 || isOwnTexts(theme)) return pool;
    // A theme without sentences borrows from every theme rather than leaving its room idle.
    const others = new Set((await this.rows.value()).filter((r) => r.theme !== theme).map((r) => r.theme));
    const borrowed = await Promise.all([...others].map((other) => loadSentencePool(this.ctx.database, other)));
    return borrowed.flat();
  }

  /** The lobby's coalesced room:list_update carries this room (it is presented when the update goes out). */
  private roomChanged(roomId: number) {
    this.listCache = null;
    this.dirty.add(roomId);
    if (this.flushTimer || this.stopped) return;
    this.flushTimer = this.ctx.clock.setTimeout(() => this.flush(), this.settings.listUpdateMs);
  }

  setLobby(socket: AppSocket, inLobby: boolean) {
    if (!inLobby) return socket.leave(LOBBY);
    socket.join(LOBBY);
    // A socket of this process watches the list: with several processes, the other owners' changes come here.
    this.roomList.want();
  }

  private lobbySize() {
    return this.io.sockets.adapter.rooms.get(LOBBY)?.size ?? 0;
  }

  /** The player is back in the room or out of it: the grace they kept there is over. */
  private graceOver(playerId: string, roomId: number) {
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

  /**
   * Resolves once no read of rooms or sentence pools and no sweep of private rooms is running (tests: a reload a
   * step started is in place, a sweep the clock started is done).
   */
  async settled() {
    await Promise.all([this.rows.settled(), this.sweeping, ...[...this.pools.values()].map((pool) => pool.settled())]);
  }

  private async findRow(roomId: number): Promise<RoomRow | undefined> {
    const row = (await this.rows.value()).find((r) => r.id === roomId);
    if (row) return row;
    this.rows.forget(); // created by the CLI since the last read?
    return (await this.rows.value()).find((r) => r.id === roomId);
  }

  // --- opening a room's game (on the process the directory places it) ---------------------------------------------

  /**
   * The opener: the claim step (epoch, the round a previous owner left in play, the last round), the room's
   * sentence pool loaded meanwhile (its first round needs it), then the host. An unknown room is refused
   * (`room_not_found`).
   */
  private async open(roomId: number, owner: GameOwnerLease): Promise<OwnedGame> {
    const row = await this.findRow(roomId);
    const record = row ? undefined : await this.privateRooms.byId(roomId);
    const room = row ?? (record && !record.private.closedAt ? record.room : undefined);
    if (!room) throw notFound(ROOM_MESSAGES.notFound, "room_not_found");
    const [round, , privateRoom] = await Promise.all([
      claimGame(this.ctx, this.settings.mode.id, roomId, owner.epoch),
      this.poolOf(poolThemeOf(room)).value(),
      record ? privateSettingsOf(this.ctx, record) : null,
    ]);
    const host = new RoomHost(room, this, round, owner, privateRoom);
    this.hosts.set(roomId, host);
    if (this.stopped) host.stop();
    if (privateRoom) await this.privateRooms.touch([roomId], new Date(this.ctx.clock.now()));
    else this.listOpened(host);
    return {
      // Input forwarded from another process was made by a rooms runtime for this mode (JSON of the same types);
      // an owner's action (a private room's) is the room's own command, for the host to act on.
      input: (input) =>
        input.type === "command" && isRoomAction(input.command)
          ? this.act(host, input.command.roomAction)
          : host.game.input(input as Parameters<RoomHost["game"]["input"]>[0]),
      finish: () => host.game.finish(),
      drain: () => host.game.drain(),
      giveUp: () => {
        host.giveUp();
        if (this.hosts.get(roomId) === host) this.hosts.delete(roomId);
        if (!host.privateRoom) this.roomList.gone([roomId]);
      },
    };
  }

  private listOpened(host: RoomHost) {
    try {
      this.roomList.opened(host.present());
    } catch (error) {
      this.ctx.log.error("room cannot be listed", { room_id: host.room.id, error: String(error) });
    }
  }

  // --- private rooms (README "Private rooms") -----------------------------------------------------------------

  private get privateRooms() {
    return privateRoomsStoreOf(this.ctx.database);
  }

  /**
   * An owner's action (the routes checked the owner in storage), to the room wherever it runs; a room that runs
   * nowhere is opened for it, and given back once it has acted if nobody is in it.
   */
  deliver(roomId: number, ownerId: number, action: RoomAction): InputResult | Promise<InputResult> {
    const command = { roomAction: action };
    return this.input(roomId, { type: "command", playerId: memberPlayerId(ownerId), command });
  }

  private act(host: RoomHost, action: RoomAction): InputResult {
    const result = host.act(action);
    if (action.kind === "close" || host.size === 0) this.closeEmpty(host.room.id, action.kind === "close");
    return result;
  }

  /**
   * A private room nobody is in is given back (its lease closed: a later input opens it anew from storage), once
   * its writes are done, so the next owner never fences off a round this one is still storing. Public rooms stay.
   */
  private closeEmpty(roomId: number, closing = false) {
    const host = this.hosts.get(roomId);
    if (!host?.privateRoom) return;
    host.game
      .drain()
      .then(() => {
        if (this.hosts.get(roomId) !== host || (!closing && host.size > 0)) return;
        this.hosts.delete(roomId);
        host.stop();
        host.owner.close();
      })
      .catch((error) => this.ctx.log.error("private room not given back", { room_id: roomId, error: String(error) }));
  }

  /**
   * Every minute: the private rooms someone is in here are marked active, and every open private room nobody was
   * seen in for 30 minutes is closed (one statement on the shared database: processes sweeping at once close each
   * room once). A room run here with nobody in it is given back.
   */
  private scheduleSweep() {
    if (this.stopped) return;
    this.sweepTimer = this.ctx.clock.setTimeout(() => {
      this.sweeping = this.sweep()
        .catch((error) => this.ctx.log.error("private rooms sweep failed", { error: String(error) }))
        .finally(() => this.scheduleSweep());
    }, this.settings.privateSweepMs);
  }

  async sweep() {
    const now = this.ctx.clock.now();
    const busy = [...this.hosts.values()].filter((host) => host.privateRoom && host.size > 0);
    await this.privateRooms.touch(
      busy.map((host) => host.room.id),
      new Date(now),
    );
    const closed = await this.privateRooms.closeIdle(new Date(now - this.settings.privateIdleMs), new Date(now));
    if (closed.length > 0) this.ctx.log.info("idle private rooms closed", { rooms: closed.length });
    for (const host of [...this.hosts.values()]) if (host.privateRoom && host.size === 0) this.closeEmpty(host.room.id);
  }

  private idleCountdown() {
    return this.settings.race.countdownSeconds ?? DEFAULT_RACE_SETTINGS.countdownSeconds;
  }

  /** A private room as its link's page first shows it: live when it runs here, else as its row. */
  privateView(record: PrivateRecord): RoomView {
    const host = this.hosts.get(record.room.id);
    return host?.privateRoom ? host.present() : presentIdleRoom(record.room, this.idleCountdown());
  }

  /** A room nobody runs, from the rows as last read (a feed's callback cannot wait for a read). */
  private idleView(roomId: number): RoomView[] {
    const row = this.rows.current?.find((r) => r.id === roomId);
    return row && !this.hosts.has(roomId) ? [presentIdleRoom(row, this.idleCountdown())] : [];
  }

  /** One room, live (GET /api/rooms/{id}); null when there is no such room. */
  async room(roomId: number): Promise<RoomView | null> {
    const host = this.hosts.get(roomId);
    if (host?.privateRoom) return null;
    if (host) return host.present();
    const row = await this.findRow(roomId);
    if (!row) return null;
    const owners = await this.roomList.views([roomId]);
    return owners.get(roomId) ?? presentIdleRoom(row, this.idleCountdown());
  }

  async list(): Promise<RoomView[]> {
    const now = this.ctx.clock.now();
    if (this.listCache && now - this.listCache.at < this.settings.cacheMs) return this.listCache.rooms;
    const rows = await this.rows.value();
    // With several processes a room owned elsewhere is shown as its owner last said it.
    const owners = await this.roomList.views(rows.filter((row) => !this.hosts.has(row.id)).map((row) => row.id));
    const rooms = rows.map(
      (row) => this.hosts.get(row.id)?.present() ?? owners.get(row.id) ?? presentIdleRoom(row, this.idleCountdown()),
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
      if (!watching && !this.roomList.sending) return;
      const rooms = [...this.dirty].flatMap((id) => this.presentForLobby(id));
      if (rooms.length === 0) return;
      // The lobby gets summaries; the other processes the whole views (their room:list shows who is inside).
      if (watching) this.roomList.lobby(this.io).emit("room:list_update", { rooms: rooms.map(summaryOf) });
      this.roomList.changed(rooms);
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
    if (changed.length > 0) this.roomList.lobby(this.io).emit("room:list_update", { rooms: changed.map(summaryOf) });
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
      const host = this.hosts.get(roomId);
      // A private room is never listed: it is found through its link only.
      const room = host && !host.privateRoom ? host.present() : null;
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

  private input(roomId: number, input: AnyGameInput): InputResult | Promise<InputResult> {
    return this.directory.input(this.mode, String(roomId), input);
  }

  /**
   * join_room / join_anonymous. A guest entering a room that runs here is answered at once; otherwise the room is
   * looked up first (an unknown room is refused, `room_not_found`) and a member is shown with the account's current
   * name and figures, read first (the accounts store is async).
   */
  join(socket: AppSocket, roomId: number, spectate = false, code?: string): void | Promise<void> {
    const identity = socket.data.identity;
    const host = this.hosts.get(roomId);
    if (identity.kind === "guest" && host && !host.privateRoom) return this.enter(socket, roomId, null, spectate);
    return this.joinAfterReads(socket, roomId, spectate, code);
  }

  /**
   * A public room must exist; a private one is entered with its current code, open, by someone its owner has not
   * removed (read from storage on every entry: a new code or a removal counts at once, wherever the room runs).
   */
  private async joinAfterReads(socket: AppSocket, roomId: number, spectate: boolean, code: string | undefined) {
    const host = this.hosts.get(roomId);
    if (!(host && !host.privateRoom) && !(await this.findRow(roomId))) {
      await privateEntry(this.ctx, roomId, code, playerKeyOf(socket.data.identity));
    }
    const identity = socket.data.identity;
    const account = identity.kind === "user" ? await accountsApi(this.ctx).service.findById(identity.userId) : null;
    if (socket.connected) await this.enter(socket, roomId, account, spectate);
  }

  /**
   * The socket enters the room: a new player, another tab, or a reconnect within the grace period. Where the room
   * runs here a new player who would not fit is refused before the socket leaves the room it is in (elsewhere the
   * owner's presenter refuses the join itself). The room it was in is left, and a grace the same player keeps in
   * another room run here ends: one room at a time. A socket changing role in its room (a spectator who starts
   * playing, or the reverse) leaves it and enters again; the seat a player keeps in other tabs keeps its role.
   */
  private enter(
    socket: AppSocket,
    roomId: number,
    account: UserRow | null | undefined,
    spectate: boolean,
  ): void | Promise<void> {
    const current = roomOfSocket(socket);
    const moving = current !== roomId || spectatingOf(socket) !== spectate;
    const local = this.hosts.get(roomId);
    if (moving) local?.assertRoomFor(socket, spectate);
    const playerId = playerKey(socket);
    const seat = local?.game.member(playerId);
    const sameRole = seat !== undefined && (seat.player.spectator === true) === spectate;
    const { player, data } = sameRole ? seat : memberOf(socket, account, spectate);
    const left =
      current !== undefined && moving ? this.input(current, { type: "leave", playerId, socketId: socket.id }) : null;
    const graceRoom = this.graces.get(playerId);
    if (graceRoom !== undefined && graceRoom !== roomId) this.input(graceRoom, { type: "expire", playerId });
    const joinNow = () => {
      setRoomOfSocket(socket, roomId);
      setSpectating(socket, spectate);
      this.setLobby(socket, false);
      const result = this.input(roomId, { type: "join", socketId: socket.id, player, data });
      if (result instanceof Promise) return result.then((answer) => this.entered(socket, roomId, answer));
      this.entered(socket, roomId, result);
    };
    if (left instanceof Promise) return left.then(joinNow);
    return joinNow();
  }

  private entered(socket: AppSocket, roomId: number, result: InputResult) {
    if (!result.ok) {
      if (roomOfSocket(socket) === roomId) setRoomOfSocket(socket, undefined);
      this.setLobby(socket, true);
      throw refusalError(result);
    }
    this.graceOver(playerKey(socket), roomId);
  }

  /**
   * A socket leaves its room. `immediate` (leave_room, disconnect_cleanup) removes the player at once when it was
   * their last socket; a dropped connection keeps their place for the grace period.
   */
  private leaveRoom(socket: AppSocket, roomId: number, immediate: boolean): InputResult | Promise<InputResult> {
    const playerId = playerKey(socket);
    setRoomOfSocket(socket, undefined);
    const result = this.input(roomId, { type: immediate ? "leave" : "drop", playerId, socketId: socket.id });
    if (!immediate && this.hosts.get(roomId)?.game.member(playerId)?.sockets.length === 0) {
      this.graces.set(playerId, roomId);
    }
    return result;
  }

  /** leave_room / disconnect_cleanup: out of the room at once, back in the lobby with a fresh list. */
  async leave(socket: AppSocket): Promise<void> {
    const current = roomOfSocket(socket);
    if (current !== undefined) await this.leaveRoom(socket, current, true);
    this.setLobby(socket, true);
    socket.emit("room:left", { room_id: current ?? null });
    return this.sendList(socket);
  }

  disconnect(socket: AppSocket) {
    const current = roomOfSocket(socket);
    if (current === undefined) return;
    const result = this.leaveRoom(socket, current, false);
    if (result instanceof Promise) {
      result.catch((error) => this.ctx.log.warn("room drop not delivered", { room_id: current, error: String(error) }));
    }
  }

  /** A racer's "다시 하기" after a round (a private room's rematch). */
  rematch(socket: AppSocket, roomId: number): void | Promise<void> {
    return this.fromRoom(socket, roomId, {
      type: "move",
      playerId: playerKey(socket),
      socketId: socket.id,
      move: { type: "ready" },
    });
  }

  /** A chat line (or a chat answer) of a socket in the room, to the room's game wherever it runs. */
  chat(socket: AppSocket, roomId: number, message: string, isGameAnswer: boolean): void | Promise<void> {
    return this.command(socket, roomId, { message, isGameAnswer });
  }

  /** The socket's one submission of the game in play. */
  submit(socket: AppSocket, roomId: number, move: SubmitMove): void | Promise<void> {
    return this.command(socket, roomId, submissionCommand(move));
  }

  /** A step of the socket's answer box: the race's progress move, played where the room's game runs. */
  progress(socket: AppSocket, roomId: number, typedText: string): void | Promise<void> {
    const move = { type: "progress" as const, typedText };
    return this.fromRoom(socket, roomId, { type: "move", playerId: playerKey(socket), socketId: socket.id, move });
  }

  private command(socket: AppSocket, roomId: number, command: ChatCommand): void | Promise<void> {
    return this.fromRoom(socket, roomId, {
      type: "command",
      playerId: playerKey(socket),
      socketId: socket.id,
      command,
    });
  }

  /** An input of a socket in the room (any other is refused, `not_in_room`); a refusal becomes the socket's error. */
  private fromRoom(socket: AppSocket, roomId: number, input: AnyGameInput): void | Promise<void> {
    if (roomOfSocket(socket) !== roomId) throw badRequest(ROOM_MESSAGES.notInRoom, "not_in_room");
    const result = this.input(roomId, input);
    return result instanceof Promise ? result.then(orThrow) : orThrow(result);
  }

  /**
   * Shutdown (the rounds were finished by then): this process's sockets drop out of rooms run elsewhere (their
   * players keep the grace); the directory then gives the rooms run here back.
   */
  async stop() {
    this.stopped = true;
    this.unsubscribe();
    if (this.flushTimer) this.ctx.clock.clearTimeout(this.flushTimer);
    this.flushTimer = null;
    if (this.sweepTimer) this.ctx.clock.clearTimeout(this.sweepTimer);
    this.sweepTimer = null;
    const drops: Promise<unknown>[] = [];
    for (const socket of this.io.of("/").sockets.values()) {
      const roomId = roomOfSocket(socket);
      if (roomId === undefined || this.hosts.has(roomId)) continue;
      drops.push(Promise.resolve(this.leaveRoom(socket, roomId, false)).catch(() => {}));
    }
    await Promise.all(drops);
    await this.roomList.stop();
    for (const host of this.hosts.values()) host.stop();
  }
}

const playerKey = (socket: AppSocket) => playerIdOf(socket.data.identity);
const isOwnTexts = (theme: string) => theme.startsWith(`${OWN_TEXTS}:`);
