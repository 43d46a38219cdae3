import type { UserRow } from "../../db/core/schema";
import { accountsApi } from "../accounts";
import { badRequest } from "../kernel/errors";
import {
  GAME_HOST_MESSAGES,
  type GameEmitter,
  GameHost,
  type GameOwnerLease,
  type InputResult,
  memberPlayerId,
  playerIdOf,
  refusal,
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
import type { PrivateSettings, RoomAction } from "./private-room";
import { PRIVATE_MSG } from "./private-rules";
import { poolThemeOf } from "./private-store";
import { type PresenterEnv, ROOM_WATCHERS, RoomPresenter } from "./room-presenter";
import { presentRoom, type RoomView } from "./room-view";
import type { RoomRow } from "./schema";
import { RACE_MESSAGES, type RacePlayer, type RoomMove } from "./sentence-race";
import { ROOM_MESSAGES } from "./settings";

/** What a room needs from the rest of the module (the runtime implements it). */
export interface HostEnv extends PresenterEnv {
  emitter: GameEmitter;
  /** The runtime's listeners, one object for every room it runs (a player out, a room's listing changed). */
  lifecycle: RoomLifecycle;
  /** The theme's pool is read again now (a private room's own sentences changed). */
  reloadPool(theme: string): void;
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
    removed: 403,
    not_here: 409,
    round_in_play: 409,
    no_players: 409,
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

  /**
   * `owner`: the lease under which this process runs the room (the game directory's). `privateRoom`: a private
   * room's settings (null for a public room): its games pay the participation reward only, and its owner starts
   * the rounds unless automatic rounds are on (README "Private rooms").
   */
  constructor(
    room: RoomRow,
    private readonly env: HostEnv,
    lastRound: number,
    readonly owner: GameOwnerLease,
    privateRoom: PrivateSettings | null = null,
  ) {
    const { ctx, settings } = env;
    const scheduler = sharedScheduler(ctx);
    this.presenter = new RoomPresenter(room, env, scheduler, privateRoom);
    const race = privateRoom ? { ...settings.race, ranked: false } : settings.race;
    const roomOwner = privateRoom && { playerId: memberPlayerId(privateRoom.ownerId), auto: privateRoom.autoStart };
    this.game = new GameHost({
      mode: settings.mode,
      settings: { roomId: room.id, pool: env.pool(poolThemeOf(room)), settings: race, owner: roomOwner ?? undefined },
      presenter: this.presenter,
      // The lane frame is the presenter's own job on the shared scheduler: it ends with the host, however it stops.
      lifecycle: { ...env.lifecycle, stopped: () => this.presenter.stop() },
      owner,
      sourceId: room.id,
      sourceName: room.name,
      channel: roomChannel(room.id),
      watchers: ROOM_WATCHERS,
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

  get room(): RoomRow {
    return this.presenter.room;
  }

  /** A private room's settings as the game holds them; null for a public room. */
  get privateRoom(): PrivateSettings | null {
    return this.presenter.privateRoom;
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

  // --- a private room's owner's actions (README "Private rooms") ----------------------------------------------

  /**
   * An owner's action, where the room runs (the routes checked the owner in storage and wrote what it changes).
   * Never throws: a refusal or a fault is the answer, as for any input.
   */
  act(action: RoomAction): InputResult {
    const privateRoom = this.privateRoom;
    if (!privateRoom) return refusal(GAME_HOST_MESSAGES.unsupported, "unsupported");
    if (!this.game.running) return refusal(GAME_HOST_MESSAGES.stopped, "game_stopped");
    try {
      switch (action.kind) {
        case "settings":
          return this.applySettings(privateRoom, action.settings, action.theme, action.textsChanged);
        case "start":
          return this.playForRoom({ type: "start" }) ?? refusal(RACE_MESSAGES.noPlayers, "no_players");
        case "remove":
          return this.remove(privateRoom, action.playerKey);
        case "hand_over":
          return this.handOver(privateRoom, action.userId);
        case "close":
          return this.close();
      }
    } catch (error) {
      this.env.ctx.log.error("room action failed", {
        room_id: this.room.id,
        action: action.kind,
        error: String(error),
      });
      return refusal(GAME_HOST_MESSAGES.failed, "internal");
    }
  }

  /**
   * A move of the room's (not a player's): the host plays moves of members only, so it is played under the id of a
   * member present, which the race does not look at. Undefined when nobody is in the room.
   */
  private playForRoom(move: RoomMove): InputResult | undefined {
    const anyone = this.game.members().next().value;
    return anyone ? this.game.play(anyone.player.id, move) : undefined;
  }

  /** The owner's view of the race: who starts the rounds, whether they are here, automatic rounds. */
  private ownerMove(settings: PrivateSettings): RoomMove {
    const playerId = memberPlayerId(settings.ownerId);
    return { type: "owner", playerId, present: this.game.member(playerId) !== undefined, auto: settings.autoStart };
  }

  private applySettings(before: PrivateSettings, settings: PrivateSettings, theme: string, textsChanged: boolean) {
    if (theme !== this.room.theme) this.presenter.room = { ...this.room, theme };
    this.presenter.privateRoom = settings;
    if (textsChanged) this.env.reloadPool(poolThemeOf(this.room));
    const raceChanged = before.ownerId !== settings.ownerId || before.autoStart !== settings.autoStart;
    // The race's own effect announces the change; otherwise it is announced here.
    const played = raceChanged ? this.playForRoom(this.ownerMove(settings)) : undefined;
    if (!played) this.presenter.announcePrivate(this.game);
    return played ?? { ok: true as const };
  }

  /** The player is told, then out at once (every tab; a place kept for a reconnect too). */
  private remove(privateRoom: PrivateSettings, playerKey: string): InputResult {
    if (!privateRoom.removed.includes(playerKey)) {
      this.presenter.privateRoom = { ...privateRoom, removed: [...privateRoom.removed, playerKey] };
    }
    const member = [...this.game.members()].find((m) => m.player.sessionId === playerKey);
    if (!member) return { ok: true };
    const room_id = this.room.id;
    for (const socketId of member.sockets) {
      this.game.sendToSocket(socketId, "room:removed", { room_id, message: PRIVATE_MSG.removed });
    }
    const playerId = member.player.id;
    if (member.sockets.length === 0) return this.game.input({ type: "expire", playerId });
    for (const socketId of [...member.sockets]) this.game.input({ type: "leave", playerId, socketId });
    return { ok: true };
  }

  /** To another member in the room (racing or watching). */
  private handOver(privateRoom: PrivateSettings, userId: number): InputResult {
    if (userId === privateRoom.ownerId) return refusal(PRIVATE_MSG.handOverSelf, "not_here");
    const member = this.game.member(memberPlayerId(userId));
    if (!member) return refusal(PRIVATE_MSG.notHere, "not_here");
    const settings = { ...privateRoom, ownerId: userId, ownerName: member.player.name };
    this.presenter.privateRoom = settings;
    return this.playForRoom(this.ownerMove(settings)) ?? { ok: true };
  }

  /**
   * Everyone is told and out; a round in play ends now with the results so far (stored like any round's). The
   * runtime then gives the room back (`close` of its lease): a later input finds it closed in storage.
   */
  private close(): InputResult {
    this.game.broadcast("room:closed", { room_id: this.room.id, message: PRIVATE_MSG.closed });
    this.game.finish();
    for (const member of [...this.game.members()]) {
      for (const socketId of [...member.sockets]) {
        this.game.input({ type: "leave", playerId: member.player.id, socketId });
      }
    }
    return { ok: true };
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
