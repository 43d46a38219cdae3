import type { UserRow } from "../../db/core/schema";
import { accountsApi } from "../accounts";
import { badRequest } from "../kernel/errors";
import {
  type GameEmitter,
  GameHost,
  type GameOwnerLease,
  memberPlayerId,
  playerIdOf,
  refusalErrors,
  sharedScheduler,
} from "../kernel/game-host";
import type { AppSocket } from "../kernel/socket";
import {
  addressOf,
  type MemberData,
  NO_PROFILE,
  playerOf,
  profileOf,
  type RoomGame,
  sameProfile,
  setRoomOfSocket,
  submissionCommand,
} from "./members";
import { type PresenterEnv, RoomPresenter } from "./room-presenter";
import { presentRoom, type RoomView } from "./room-view";
import type { RoomRow } from "./schema";
import type { RacePlayer, SubmitMove } from "./sentence-race";
import { ROOM_MESSAGES } from "./settings";

/** What a room needs from the rest of the module (the runtime implements it). */
export interface HostEnv extends PresenterEnv {
  emitter: GameEmitter;
  /** Removes a socket from the lobby (it is in a room now) or puts it back. */
  setLobby(socket: AppSocket, inLobby: boolean): void;
  /** The player's last socket dropped: this room keeps their place for the grace period. */
  graceStarted(playerId: string, roomId: number): void;
}

/** The socket.io room of a typing room (kept from before the game platform: clients never see it, tests do). */
export const roomChannel = (roomId: number) => `rooms:${roomId}`;

/**
 * A refusal of the game host as the AppError the shared dispatcher turns into the socket's `error` event (the kernel's
 * one rule, with the room's statuses and its words for a socket not in the room).
 */
export const { refusalError, orThrow } = refusalErrors({
  statuses: { implausible: 422, too_long: 400, rate_limited: 429, room_full: 400, too_many_guests: 429 },
  notInGame: () => badRequest(ROOM_MESSAGES.notInRoom, "not_in_room"),
});

/**
 * One typing room: the sentence race on the generic game host (`GameHost`, shared scheduler, reconnect grace,
 * guarded callbacks, write queue) with the room's presenter, plus what only a room has: its row, the capacity
 * and per-address guest checks, the socket ↔ room bookkeeping, and the account lookups of its members.
 */
export class RoomHost {
  readonly game: RoomGame;
  private readonly presenter: RoomPresenter;

  /** `owner`: the lease under which this process runs the room (several processes); absent on one process. */
  constructor(
    readonly room: RoomRow,
    private readonly env: HostEnv,
    lastRound: number,
    owner?: GameOwnerLease,
  ) {
    const { ctx, settings } = env;
    this.presenter = new RoomPresenter(room, env);
    this.game = new GameHost({
      mode: settings.mode,
      settings: { roomId: room.id, pool: env.pool(room.theme), settings: settings.race },
      presenter: this.presenter,
      owner,
      sourceId: room.id,
      sourceName: room.name,
      channel: roomChannel(room.id),
      lastRound,
      graceMs: settings.reconnectGraceMs,
      scheduler: sharedScheduler(ctx),
      emitter: env.emitter,
      random: ctx.random,
      log: ctx.log,
    });
  }

  get size() {
    return this.game.size;
  }

  /**
   * Throws when a new player would not fit (the presenter's `admit`: full, or too many guests from this guest's
   * address), before the socket leaves the room it is in. Someone already in the room (another tab) always fits.
   */
  assertRoomFor(socket: AppSocket) {
    if (this.game.member(playerIdOf(socket.data.identity))) return;
    const { player, data } = memberOf(socket, null);
    const refused = this.presenter.admit(this.game, player, data);
    if (refused && !refused.ok) throw refusalError(refused);
  }

  /**
   * A socket enters: a new player, another tab, or a reconnect within the grace period. `account`: the member's
   * row, read by the caller before (the accounts store is asynchronous); null for a guest.
   */
  enter(socket: AppSocket, account: UserRow | null | undefined) {
    const playerId = playerIdOf(socket.data.identity);
    const known = this.game.member(playerId);
    const { player, data } = known ?? memberOf(socket, account);
    setRoomOfSocket(socket, this.room.id);
    this.env.setLobby(socket, false);
    const entered = this.game.input({ type: "join", socketId: socket.id, player, data });
    if (!entered.ok) {
      setRoomOfSocket(socket, undefined);
      this.env.setLobby(socket, true);
      throw refusalError(entered);
    }
    this.env.graceEnded(playerId, this.room.id);
  }

  /**
   * A socket leaves. `immediate` (leave_room, disconnect_cleanup, joining another room) removes the player at
   * once when it was their last socket; a dropped connection keeps their place for the grace period.
   */
  leave(socket: AppSocket, immediate: boolean) {
    const playerId = playerIdOf(socket.data.identity);
    setRoomOfSocket(socket, undefined);
    this.game.input({ type: immediate ? "leave" : "drop", playerId, socketId: socket.id });
    if (!immediate && this.game.member(playerId)?.sockets.length === 0) this.env.graceStarted(playerId, this.room.id);
  }

  /** Ends a grace period at once (the player joined another room meanwhile). */
  expireGrace(playerId: string) {
    this.game.input({ type: "expire", playerId });
  }

  /**
   * A member's account changed (an administrator renamed them, say): the name and profile are read again, and
   * the room sees the new ones in its lists, future chat and this game's results. Nothing is sent when nothing
   * the room shows changed.
   */
  async refreshMember(userId: number) {
    if (!this.game.member(memberPlayerId(userId))) return;
    const row = await accountsApi(this.env.ctx).service.findById(userId);
    // Read again after the await: the member may have left meanwhile.
    const member = this.game.member(memberPlayerId(userId));
    if (!member || !row) return;
    const profile = profileOf(row);
    const renamed = row.username !== member.player.name;
    if (!renamed && sameProfile(profile, member.data.profile)) return;
    const player = renamed ? { ...member.player, name: row.username } : member.player;
    this.game.input({ type: "update", player, data: { ...member.data, profile } });
  }

  chat(socket: AppSocket, message: string, isGameAnswer: boolean) {
    const playerId = playerIdOf(socket.data.identity);
    orThrow(this.game.input({ type: "command", playerId, socketId: socket.id, command: { message, isGameAnswer } }));
  }

  /** A `game:submission`: the presenter plays it as the attempt, or posts it as chat when it is a chat line. */
  submit(socket: AppSocket, move: SubmitMove) {
    const playerId = playerIdOf(socket.data.identity);
    const command = submissionCommand(move);
    orThrow(this.game.input({ type: "command", playerId, socketId: socket.id, command }));
  }

  /** The Room entity of spec part 1 §3, live. */
  present(): RoomView {
    return presentRoom(this.room, this.game);
  }

  stop() {
    this.game.stop();
  }
}

/** A member is shown with the account's current name and figures, not the handshake's (a rename may follow it). */
export function memberOf(socket: AppSocket, row: UserRow | null | undefined): { player: RacePlayer; data: MemberData } {
  const identity = socket.data.identity;
  const player = playerOf(identity);
  if (identity.kind === "guest") {
    return { player, data: { kind: "guest", address: addressOf(socket), profile: NO_PROFILE, chat: [] } };
  }
  return {
    player: row ? { ...player, name: row.username } : player,
    data: { kind: "user", address: null, profile: row ? profileOf(row) : NO_PROFILE, chat: [] },
  };
}
