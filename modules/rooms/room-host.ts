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
  type RoomLifecycle,
  sameProfile,
} from "./members";
import { type PresenterEnv, RoomPresenter } from "./room-presenter";
import { presentRoom, type RoomView } from "./room-view";
import type { RoomRow } from "./schema";
import type { RacePlayer } from "./sentence-race";
import { ROOM_MESSAGES } from "./settings";

/** What a room needs from the rest of the module (the runtime implements it). */
export interface HostEnv extends PresenterEnv {
  emitter: GameEmitter;
  /** The runtime's listeners, one object for every room it runs (a player out, a room's listing changed). */
  lifecycle: RoomLifecycle;
}

/** The socket.io room of a typing room (kept from before the game platform: clients never see it, tests do). */
export const roomChannel = (roomId: number) => `rooms:${roomId}`;

/**
 * A refusal of the game host as the AppError the shared dispatcher turns into the socket's `error` event (the kernel's
 * one rule, with the room's statuses and its words for a socket not in the room).
 */
export const { refusalError, orThrow } = refusalErrors({
  statuses: {
    implausible: 422,
    too_long: 400,
    rate_limited: 429,
    room_full: 400,
    too_many_guests: 429,
    spectating: 403,
  },
  notInGame: () => badRequest(ROOM_MESSAGES.notInRoom, "not_in_room"),
});

/**
 * One typing room: the sentence race on the generic game host (`GameHost`, shared scheduler, reconnect grace,
 * guarded callbacks, write queue) with the room's presenter, plus what only a room has: its row, the capacity
 * and per-address guest checks, and the account lookups of its members.
 */
export class RoomHost {
  readonly game: RoomGame;
  private readonly presenter: RoomPresenter;

  /** `owner`: the lease under which this process runs the room (the game directory's). */
  constructor(
    readonly room: RoomRow,
    private readonly env: HostEnv,
    lastRound: number,
    owner: GameOwnerLease,
  ) {
    const { ctx, settings } = env;
    const scheduler = sharedScheduler(ctx);
    this.presenter = new RoomPresenter(room, env, scheduler);
    this.game = new GameHost({
      mode: settings.mode,
      settings: { roomId: room.id, pool: env.pool(room.theme), settings: settings.race },
      presenter: this.presenter,
      // The lane frame is the presenter's own job on the shared scheduler: it ends with the host, however it stops.
      lifecycle: { ...env.lifecycle, stopped: () => this.presenter.stop() },
      owner,
      sourceId: room.id,
      sourceName: room.name,
      channel: roomChannel(room.id),
      lastRound,
      graceMs: settings.reconnectGraceMs,
      scheduler,
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
  assertRoomFor(socket: AppSocket, spectate: boolean) {
    const existing = this.game.member(playerIdOf(socket.data.identity));
    if (existing && (spectate || !existing.player.spectator)) return;
    const { player, data } = memberOf(socket, null, spectate);
    const refused = this.presenter.admit(this.game, player, data);
    if (refused && !refused.ok) throw refusalError(refused);
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

  /** The Room entity of spec part 1 §3, live. */
  present(): RoomView {
    return presentRoom(this.room, this.game);
  }

  /** Another process owns the room now (or storage fenced this one): no more steps nor lanes from here. */
  giveUp() {
    this.game.giveUp();
  }

  stop() {
    this.game.stop();
  }
}

/**
 * A member is shown with the account's current name and figures, not the handshake's (a rename may follow it).
 * `spectate`: the member watches without playing.
 */
export function memberOf(
  socket: AppSocket,
  row: UserRow | null | undefined,
  spectate = false,
): { player: RacePlayer; data: MemberData } {
  const identity = socket.data.identity;
  const player = spectate ? { ...playerOf(identity), spectator: true } : playerOf(identity);
  if (identity.kind === "guest") {
    return { player, data: { kind: "guest", address: addressOf(socket), profile: NO_PROFILE, chat: [] } };
  }
  return {
    player: row ? { ...player, name: row.username } : player,
    data: { kind: "user", address: null, profile: row ? profileOf(row) : NO_PROFILE, chat: [] },
  };
}
