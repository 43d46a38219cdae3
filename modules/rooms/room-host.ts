import { createHash } from "node:crypto";
import { accountsApi, type GameRewardDelta } from "../accounts";
import type { TimerHandle } from "../kernel/clock";
import type { ModuleContext } from "../kernel/define-module";
import { AppError, badRequest, tooManyRequests } from "../kernel/errors";
import type { Transition } from "../kernel/game-mode";
import { addressLimitKey } from "../kernel/request-info";
import type { AppServer, AppSocket, SocketIdentity } from "../kernel/socket";
import { scoreTyping } from "../kernel/typing";
import type { RoomRow } from "./schema";
import {
  type FinishedGame,
  isChatAnswer,
  type RaceEffect,
  type RaceMode,
  type RacePlayer,
  type RaceResult,
  type RaceState,
  renamePlayer,
  restartedRace,
  type SubmitMove,
  withPool,
} from "./sentence-race";
import { recordGame } from "./service";
import { ROOM_MESSAGES, type RoomsSettings } from "./settings";

/** What a host needs from the rest of the module (the runtime implements it). */
export interface HostEnv {
  io: AppServer;
  ctx: ModuleContext;
  settings: RoomsSettings;
  pool(theme: string): { id: number; text: string }[];
  roomChanged(roomId: number): void;
  /** Removes a socket from the lobby (it is in a room now) or puts it back. */
  setLobby(socket: AppSocket, inLobby: boolean): void;
  graceStarted(playerId: string, roomId: number): void;
  graceEnded(playerId: string): void;
}

interface Profile {
  level: number;
  gold_medals: number;
  silver_medals: number;
  bronze_medals: number;
}

interface Member {
  player: RacePlayer;
  kind: "user" | "guest";
  /** The address a guest came from (the per-address guest cap); null for members. */
  address: string | null;
  /** Usually one; a Set would cost ~260 bytes per player (bench/README.md, "Memory"). */
  sockets: AppSocket[];
  joinedAt: number;
  grace: TimerHandle | null;
  profile: Profile;
  /** Times of the recent chat messages (rate limit); at most `chatBurst` entries. */
  chat: number[];
}

export const ROOM_STATE_KEY = "rooms";
export const roomOfSocket = (socket: AppSocket) => socket.data.state?.[ROOM_STATE_KEY] as number | undefined;
const setRoomOfSocket = (socket: AppSocket, roomId: number | undefined) => {
  socket.data.state ??= {};
  socket.data.state[ROOM_STATE_KEY] = roomId;
};

/** The socket's address as the handshake found it; "unknown" when no middleware set one (all such guests share it). */
/** Guests are counted per address, IPv6 by its /64 (one subscriber holds a whole /64), as accounts' limits do. */
const addressOf = (socket: AppSocket) => (socket.data.ip ? addressLimitKey(socket.data.ip) : "unknown");

/** The game identity of a socket: members by user id, guests by their anonymous client id (never shown). */
export const playerIdOf = (identity: SocketIdentity) =>
  identity.kind === "user" ? `u:${identity.userId}` : `g:${identity.clientId}`;

/** The player as others see it; a guest's public session id is a hash of the client id. */
export function playerOf(identity: SocketIdentity): RacePlayer {
  const id = playerIdOf(identity);
  if (identity.kind === "user") {
    return { id, name: identity.username, userId: identity.userId, sessionId: `u_${identity.userId}` };
  }
  const hash = createHash("sha256").update(identity.clientId).digest("hex").slice(0, 12);
  return { id, name: identity.nickname, userId: null, sessionId: `g_${hash}` };
}

const iso = (at: number) => new Date(at).toISOString();
const NO_PROFILE: Profile = { level: 1, gold_medals: 0, silver_medals: 0, bronze_medals: 0 };
const profileOf = (row: { level: number; goldMedals: number; silverMedals: number; bronzeMedals: number }) => ({
  level: row.level,
  gold_medals: row.goldMedals,
  silver_medals: row.silverMedals,
  bronze_medals: row.bronzeMedals,
});
const sameProfile = (a: Profile, b: Profile) =>
  a.level === b.level &&
  a.gold_medals === b.gold_medals &&
  a.silver_medals === b.silver_medals &&
  a.bronze_medals === b.bronze_medals;

/**
 * One room: its sockets, its sentence-race state, the timers that drive it and the writes of finished games.
 * The mode decides; the host turns effects into socket events (always `io.to(channel).emit`, one encode per
 * broadcast) and database writes.
 */
export class RoomHost {
  state: RaceState;
  readonly channel: string;
  private readonly members = new Map<string, Member>();
  private timer: TimerHandle | null = null;
  private readonly mode: RaceMode;

  constructor(
    public room: RoomRow,
    private readonly env: HostEnv,
  ) {
    this.channel = `rooms:${room.id}`;
    this.mode = env.settings.mode;
    this.state = this.mode.setup({ roomId: room.id, pool: env.pool(room.theme), settings: env.settings.race });
  }

  private get ctx() {
    return this.env.ctx;
  }
  private gameCtx() {
    return { now: this.ctx.clock.now(), random: this.ctx.random };
  }
  private emit(event: string, payload: unknown) {
    this.env.io.to(this.channel).emit(event, payload);
  }

  // --- membership ----------------------------------------------------------------------------------------------

  get size() {
    return this.members.size;
  }

  /**
   * Throws when a new player would not fit: the room is full, or it already holds `guestsPerAddress` guests from
   * this guest's address. Someone already in the room (another tab) always fits.
   */
  assertRoomFor(socket: AppSocket) {
    const identity = socket.data.identity;
    if (this.members.has(playerIdOf(identity))) return;
    if (this.members.size >= this.room.maxUsers) throw badRequest(ROOM_MESSAGES.full, "room_full");
    if (identity.kind === "guest" && this.guestsFrom(addressOf(socket)) >= this.env.settings.guestsPerAddress) {
      throw tooManyRequests(ROOM_MESSAGES.tooManyGuests, "too_many_guests");
    }
  }

  private guestsFrom(address: string) {
    let guests = 0;
    for (const member of this.members.values()) if (member.address === address) guests++;
    return guests;
  }

  addSocket(socket: AppSocket) {
    const player = playerOf(socket.data.identity);
    let member = this.members.get(player.id);
    const isNew = !member;
    if (!member) {
      member = this.newMember(player, socket);
      this.members.set(player.id, member);
      this.apply(this.mode.onPlayerJoin(this.state, member.player, this.gameCtx()));
    } else if (member.grace) {
      this.ctx.clock.clearTimeout(member.grace);
      member.grace = null;
      this.env.graceEnded(player.id);
    }
    if (!member.sockets.includes(socket)) member.sockets.push(socket);
    socket.join(this.channel);
    setRoomOfSocket(socket, this.room.id);
    this.env.setLobby(socket, false);
    this.welcome(socket, member);
    if (isNew) this.announceJoin(member);
  }

  private newMember(player: RacePlayer, socket: AppSocket): Member {
    const identity = socket.data.identity;
    let profile = NO_PROFILE;
    let named = player;
    if (identity.kind === "user") {
      const row = accountsApi(this.ctx).service.findById(identity.userId);
      if (row) {
        profile = profileOf(row);
        // The account's current name: the socket's identity dates from its handshake (a rename may have followed).
        named = { ...player, name: row.username };
      }
    }
    return {
      player: named,
      kind: identity.kind,
      address: identity.kind === "guest" ? addressOf(socket) : null,
      sockets: [],
      joinedAt: this.ctx.clock.now(),
      grace: null,
      profile,
      chat: [],
    };
  }

  /**
   * A socket leaves. `immediate` (leave_room, disconnect_cleanup, joining another room) removes the player at
   * once when it was their last socket; a dropped connection keeps their place for the grace period.
   */
  removeSocket(socket: AppSocket, immediate: boolean) {
    const playerId = playerIdOf(socket.data.identity);
    const member = this.members.get(playerId);
    socket.leave(this.channel);
    setRoomOfSocket(socket, undefined);
    const at = member?.sockets.indexOf(socket) ?? -1;
    if (!member || at < 0) return;
    member.sockets.splice(at, 1);
    if (member.sockets.length > 0) return;
    if (immediate) {
      this.removeMember(playerId);
      return;
    }
    member.grace = this.ctx.clock.setTimeout(
      () => this.guarded("grace", () => this.removeMember(playerId)),
      this.env.settings.reconnectGraceMs,
    );
    this.env.graceStarted(playerId, this.room.id);
  }

  /**
   * A member's account changed (an administrator renamed them, say): the name and profile are read again, and
   * the room sees the new ones in its lists, future chat and this game's results. Nothing is sent when nothing
   * the room shows changed.
   */
  refreshMember(userId: number) {
    const member = this.members.get(`u:${userId}`);
    const row = member && accountsApi(this.ctx).service.findById(userId);
    if (!member || !row) return;
    const profile = profileOf(row);
    const renamed = row.username !== member.player.name;
    if (!renamed && sameProfile(profile, member.profile)) return;
    member.profile = profile;
    if (renamed) {
      member.player = { ...member.player, name: row.username };
      this.state = renamePlayer(this.state, member.player.id, row.username);
    }
    this.emitUsersUpdate();
    this.env.roomChanged(this.room.id);
  }

  /** Ends a grace period at once (the player joined another room meanwhile). */
  expireGrace(playerId: string) {
    const member = this.members.get(playerId);
    if (member?.grace && member.sockets.length === 0) this.removeMember(playerId);
  }

  private removeMember(playerId: string) {
    const member = this.members.get(playerId);
    if (!member) return;
    if (member.grace) this.ctx.clock.clearTimeout(member.grace);
    this.env.graceEnded(playerId);
    this.members.delete(playerId);
    this.apply(this.mode.onPlayerLeave(this.state, playerId, this.gameCtx()));
    const counts = this.counts();
    if (member.kind === "user") {
      this.emit("room:user_left", {
        room_id: this.room.id,
        user_id: member.player.userId,
        username: member.player.name,
        ...counts,
      });
    } else {
      this.emit("room:anonymous_left", {
        room_id: this.room.id,
        session_id: member.player.sessionId,
        nickname: member.player.name,
        ...counts,
      });
    }
    this.emitUsersUpdate();
    this.system(ROOM_MESSAGES.left(member.player.name));
    this.env.roomChanged(this.room.id);
  }

  private welcome(socket: AppSocket, member: Member) {
    const mine = this.state.results.find((r) => r.playerId === member.player.id);
    const base = {
      room_id: this.room.id,
      room: this.present(),
      game_state: this.gameState(),
      session_id: member.player.sessionId,
      my_result: mine ? this.resultPayload(mine) : null,
    };
    if (member.kind === "user") {
      socket.emit("room:joined", {
        ...base,
        user: { id: member.player.userId, username: member.player.name, ...member.profile },
      });
    } else {
      socket.emit("room:joined:anonymous", { ...base, nickname: member.player.name, created_at: iso(member.joinedAt) });
    }
  }

  private announceJoin(member: Member) {
    const counts = this.counts();
    if (member.kind === "user")
      this.emit("room:user_joined", { room_id: this.room.id, user: this.userEntry(member), ...counts });
    else this.emit("room:anonymous_joined", { room_id: this.room.id, ...this.guestEntry(member), ...counts });
    this.emitUsersUpdate();
    this.system(ROOM_MESSAGES.joined(member.player.name));
    this.env.roomChanged(this.room.id);
  }

  // --- chat and submissions ------------------------------------------------------------------------------------

  private memberOf(socket: AppSocket): Member {
    const member = this.members.get(playerIdOf(socket.data.identity));
    if (!member?.sockets.includes(socket)) throw badRequest(ROOM_MESSAGES.notInRoom, "not_in_room");
    return member;
  }

  chat(socket: AppSocket, raw: string, isGameAnswer: boolean) {
    const member = this.memberOf(socket);
    const message = raw.normalize("NFC").trim();
    if (!message) return;
    const { chatMaxLength, chatBurst, chatWindowMs } = this.env.settings;
    if ([...message].length > chatMaxLength) throw badRequest(ROOM_MESSAGES.chatTooLong(chatMaxLength), "too_long");
    const now = this.ctx.clock.now();
    member.chat = member.chat.filter((at) => at > now - chatWindowMs);
    if (member.chat.length >= chatBurst) throw tooManyRequests(ROOM_MESSAGES.rateLimited, "rate_limited");
    member.chat.push(now);
    if (isGameAnswer && isChatAnswer(this.state, member.player.id, message)) {
      this.submitFor(member, { typedText: message });
      return;
    }
    this.emit("chat:message", {
      room_id: this.room.id,
      user_id: member.player.userId,
      username: member.player.name,
      nickname: member.player.name,
      session_id: member.player.sessionId,
      is_anonymous: member.kind === "guest",
      message,
      timestamp: iso(now),
      is_system: false,
      is_private: false,
      message_type: "chat",
    });
  }

  submit(socket: AppSocket, move: SubmitMove) {
    this.submitFor(this.memberOf(socket), move);
  }

  private submitFor(member: Member, move: SubmitMove) {
    const result = this.mode.move(this.state, member.player.id, move, this.gameCtx());
    if (!result.ok) {
      if (result.transition) this.apply(result.transition);
      if (result.code === "implausible") this.logImplausible(member, move);
      throw new AppError(result.code === "implausible" ? 422 : 409, result.error, result.code);
    }
    this.apply(result);
  }

  private logImplausible(member: Member, move: SubmitMove) {
    const serverSeconds = (this.ctx.clock.now() - (this.state.startedAt ?? 0)) / 1000;
    const score = scoreTyping(move.typedText, this.state.sentence?.text ?? "", serverSeconds);
    this.ctx.log.warn("implausible typing result rejected", {
      room_id: this.room.id,
      player: member.player.sessionId,
      user_id: member.player.userId,
      server_seconds: serverSeconds,
      client_seconds: move.elapsedTime ?? null,
      raw_speed: score.raw_speed,
      typed_length: [...move.typedText].length,
    });
  }

  // --- the game loop -------------------------------------------------------------------------------------------

  private apply(transition: Transition<RaceState, RaceEffect>) {
    this.state = transition.state;
    for (const effect of transition.effects) this.perform(effect);
    this.schedule();
  }

  private schedule() {
    if (this.timer) this.ctx.clock.clearTimeout(this.timer);
    this.timer = null;
    const at = this.mode.nextTickAt(this.state);
    if (at === null) return;
    this.timer = this.ctx.clock.setTimeout(
      () => this.guarded("tick", () => this.runDue()),
      Math.max(0, at - this.ctx.clock.now()),
    );
  }

  /**
   * Runs a timer callback. Nothing may escape it: under Bun a throw in a timer ends the whole process, every
   * room with it. A failure is logged and this room starts over.
   */
  private guarded(step: "tick" | "grace", callback: () => void) {
    try {
      callback();
    } catch (error) {
      this.ctx.log.error("room step failed; the room starts over in waiting", {
        room_id: this.room.id,
        step,
        error: String(error),
        stack: error instanceof Error ? error.stack : undefined,
      });
      this.restart();
    }
  }

  /**
   * After a failure: a fresh waiting game for the players present (the member list is the truth of who is in
   * the room), announced with game:state and room:users_update. The game that failed is dropped unrecorded.
   * Never throws; when even this fails the room idles until the next join or leave reschedules it.
   */
  private restart() {
    if (this.timer) this.ctx.clock.clearTimeout(this.timer);
    this.timer = null;
    try {
      const fresh = this.mode.setup({
        roomId: this.room.id,
        pool: this.env.pool(this.room.theme),
        settings: this.env.settings.race,
      });
      const players = [...this.members.values()].map((m) => m.player);
      this.state = restartedRace(fresh, players, this.ctx.clock.now());
      this.schedule();
      this.env.roomChanged(this.room.id);
      this.emit("game:state", this.gameState());
      this.emitUsersUpdate();
    } catch (error) {
      this.ctx.log.error("room restart failed", { room_id: this.room.id, error: String(error) });
    }
  }

  private runDue() {
    this.timer = null;
    // Each tick makes one step; a late timer may owe several (bounded so a bug cannot spin forever).
    for (let step = 0; step < 16; step++) {
      const at = this.mode.nextTickAt(this.state);
      if (at === null || at > this.ctx.clock.now()) break;
      if (this.state.status === "countdown") this.state = withPool(this.state, this.env.pool(this.room.theme));
      const before = this.state;
      const transition = this.mode.tick(this.state, this.gameCtx());
      this.state = transition.state;
      for (const effect of transition.effects) this.perform(effect);
      if (this.state === before) break;
    }
    this.schedule();
  }

  private perform(effect: RaceEffect) {
    const room_id = this.room.id;
    switch (effect.type) {
      case "state":
        this.emit("game:state", this.gameState());
        this.env.roomChanged(room_id);
        return;
      case "countdown_message":
        this.emit("game:countdown_message", {
          room_id,
          message: `${effect.seconds}초 후 게임이 시작됩니다!`,
          seconds: effect.seconds,
        });
        return;
      case "countdown_number":
        this.emit("game:countdown_number", { room_id, number: effect.number });
        this.env.roomChanged(room_id);
        return;
      case "end_countdown_message":
        this.emit("game:end_countdown_message", {
          room_id,
          message: `게임 종료까지 ${effect.seconds}초 남았습니다!`,
          seconds: effect.seconds,
        });
        return;
      case "end_countdown_number":
        this.emit("game:end_countdown_number", { room_id, number: effect.number });
        return;
      case "problem":
        this.emit("chat:message", {
          ...this.systemFields("problem"),
          message: effect.sentence.text,
          sentence_id: effect.sentence.id,
          game_duration: effect.gameDuration,
        });
        return;
      case "submitted":
        this.announceSubmission(effect.result);
        return;
      case "finished":
        this.finishGame(effect.game);
        return;
    }
  }

  private announceSubmission(result: RaceResult) {
    const payload = this.resultPayload(result);
    this.emit("game:submission_complete", {
      ...payload,
      user_id: result.userId,
      username: result.name,
      nickname: result.name,
      is_anonymous: result.userId === null,
      completed_count: this.state.results.length,
      total_players: this.state.players.length,
    });
    const member = this.members.get(result.playerId);
    for (const socket of member?.sockets ?? []) socket.emit("game:personal_feedback", payload);
  }

  private resultPayload(result: RaceResult) {
    return {
      room_id: this.room.id,
      sentence_id: result.sentenceId,
      position: result.position,
      wpm: result.wpm,
      accuracy: result.accuracy,
      completion_time: result.completionTime,
      error_count: result.errorCount,
      session_id: result.sessionId,
    };
  }

  /** Persists the game (one transaction), then announces results, new figures and the bus event. */
  private finishGame(game: FinishedGame) {
    let recorded: ReturnType<typeof recordGame> | null = null;
    if (game.standings.length > 0) {
      try {
        recorded = recordGame(this.ctx.db, { id: this.room.id, name: this.room.name }, game);
      } catch (error) {
        this.ctx.log.error("saving game results failed", { room_id: this.room.id, error: String(error) });
      }
    }
    const results = game.standings.map((s) => ({
      position: s.position,
      user_id: s.userId,
      username: s.name,
      nickname: s.name,
      session_id: s.sessionId,
      is_anonymous: s.userId === null,
      wpm: s.wpm,
      accuracy: s.accuracy,
      completion_time: s.completionTime,
      error_count: s.errorCount,
      // A member's streak is the stored one (across rooms); a guest's is counted in this room.
      win_streak: (s.userId === null ? undefined : recorded?.figures.get(s.userId)?.win_streak) ?? s.winStreak,
      rewards: s.rewards && recorded ? publicRewards(s.rewards) : null,
    }));
    const payload = { room_id: this.room.id, sentence_id: game.sentence.id, participants: game.participants, results };
    this.emit("game:results", payload);
    this.emit("chat:message", {
      ...this.systemFields("result"),
      message: summary(results),
      sentence_id: game.sentence.id,
      results,
    });
    if (recorded) this.announceFigures(game, recorded);
    if (recorded) this.publish(game, recorded.gameId);
  }

  private announceFigures(game: FinishedGame, recorded: NonNullable<ReturnType<typeof recordGame>>) {
    for (const entry of game.standings) {
      const figures = entry.userId === null ? undefined : recorded.figures.get(entry.userId);
      if (!figures || !entry.rewards) continue;
      const { email: _email, ...visible } = figures;
      this.env.io.to(`user:${entry.userId}`).emit("user:stats_update", {
        ...visible,
        user_id: figures.id,
        room_id: this.room.id,
        rewards: publicRewards(entry.rewards),
      });
      const member = this.members.get(entry.playerId);
      if (member) {
        member.profile = {
          level: figures.level,
          gold_medals: figures.gold_medals,
          silver_medals: figures.silver_medals,
          bronze_medals: figures.bronze_medals,
        };
      }
    }
    // Levels and medals in the participants panel changed.
    if (recorded.figures.size === 0) return;
    this.emitUsersUpdate();
    this.env.roomChanged(this.room.id);
  }

  private publish(game: FinishedGame, gameId: number) {
    this.ctx.events.emit("rooms.game_finished", {
      gameId,
      roomId: this.room.id,
      roomName: this.room.name,
      sentenceId: game.sentence.id,
      startedAt: game.startedAt,
      finishedAt: game.finishedAt,
      participants: game.participants,
      results: game.standings.map((s) => ({
        userId: s.userId,
        nickname: s.name,
        playerKey: s.sessionId,
        wpm: s.wpm,
        accuracy: s.accuracy,
        errorCount: s.errorCount,
        completionTime: s.completionTime,
        position: s.position,
        winStreak: s.winStreak,
      })),
    });
  }

  // --- presentation --------------------------------------------------------------------------------------------

  private systemFields(messageType: "system" | "problem" | "result") {
    return {
      room_id: this.room.id,
      user_id: null,
      username: "시스템",
      nickname: "시스템",
      is_anonymous: false,
      timestamp: iso(this.ctx.clock.now()),
      is_system: true,
      is_private: false,
      message_type: messageType,
    };
  }

  private system(message: string) {
    this.emit("chat:message", { ...this.systemFields("system"), message });
  }

  /** What every player sees of the game (the sentence race shows everyone the same). */
  private view() {
    return this.mode.playerView(this.state, null);
  }

  gameState() {
    return { ...this.view(), server_time: iso(this.ctx.clock.now()) };
  }

  private counts() {
    let users = 0;
    for (const member of this.members.values()) if (member.kind === "user") users++;
    return {
      user_count: users,
      anonymous_count: this.members.size - users,
      total_participants: this.members.size,
    };
  }

  private userEntry(member: Member) {
    return {
      id: member.player.userId!,
      username: member.player.name,
      ...member.profile,
      session_id: member.player.sessionId,
      joined_at: iso(member.joinedAt),
      is_anonymous: false,
    };
  }

  private guestEntry(member: Member) {
    return {
      session_id: member.player.sessionId,
      nickname: member.player.name,
      created_at: iso(member.joinedAt),
      is_anonymous: true,
    };
  }

  private lists() {
    const users: ReturnType<RoomHost["userEntry"]>[] = [];
    const anonymous_users: ReturnType<RoomHost["guestEntry"]>[] = [];
    for (const member of this.members.values()) {
      if (member.kind === "user") users.push(this.userEntry(member));
      else anonymous_users.push(this.guestEntry(member));
    }
    return { users, anonymous_users };
  }

  private emitUsersUpdate() {
    this.emit("room:users_update", {
      room_id: this.room.id,
      max_users: this.room.maxUsers,
      ...this.counts(),
      ...this.lists(),
    });
  }

  /** The Room entity of spec part 1 §3, live. */
  present(): RoomView {
    const counts = this.counts();
    const view = this.view();
    return {
      ...presentRoomRow(this.room),
      ...counts,
      is_full: counts.total_participants >= this.room.maxUsers,
      game_status: view.status,
      countdown_seconds: view.countdown_seconds,
      next_game_at: view.next_game_at,
      ...this.lists(),
    };
  }

  stop() {
    if (this.timer) this.ctx.clock.clearTimeout(this.timer);
    this.timer = null;
    for (const member of this.members.values()) if (member.grace) this.ctx.clock.clearTimeout(member.grace);
  }
}

const publicRewards = (r: GameRewardDelta) => ({
  experience: r.experience,
  coins: r.coins,
  points: r.points,
  medal: r.medal,
});

function summary(results: { position: number | null; username: string; wpm: number; accuracy: number }[]) {
  const placed = results.filter((r) => r.position !== null);
  if (placed.length === 0) return ROOM_MESSAGES.noFinishers;
  const top = placed
    .slice(0, 5)
    .map((r) => `${r.position}위 ${r.username} (${r.wpm}타/분, ${r.accuracy}%)`)
    .join(" · ");
  return `게임 결과: ${top}`;
}

export type RoomView = ReturnType<typeof presentRoomRow> & {
  user_count: number;
  anonymous_count: number;
  total_participants: number;
  is_full: boolean;
  game_status: RaceState["status"];
  countdown_seconds: number;
  next_game_at: string | null;
  users: {
    id: number;
    username: string;
    level: number;
    gold_medals: number;
    silver_medals: number;
    bronze_medals: number;
    session_id: string;
    joined_at: string;
    is_anonymous: boolean;
  }[];
  anonymous_users: { session_id: string; nickname: string; created_at: string; is_anonymous: boolean }[];
};

export function presentRoomRow(row: RoomRow) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    max_users: row.maxUsers,
    theme: row.theme,
    language: row.language,
    created_at: row.createdAt.toISOString(),
  };
}

/** A room nobody has entered since the server started. */
export function presentIdleRoom(row: RoomRow, countdownSeconds: number): RoomView {
  return {
    ...presentRoomRow(row),
    user_count: 0,
    anonymous_count: 0,
    total_participants: 0,
    is_full: false,
    game_status: "waiting",
    countdown_seconds: countdownSeconds,
    next_game_at: null,
    users: [],
    anonymous_users: [],
  };
}
