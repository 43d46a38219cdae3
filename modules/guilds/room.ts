import type { ModuleContext, ModuleRuntime } from "../kernel/define-module";
import { AppError, forbidden, unauthorized, unprocessable } from "../kernel/errors";
import type { GameDirectory, GameEmitter } from "../kernel/game-host";
import type { AppServer, AppSocket, SocketEvents } from "../kernel/socket";
import { assertMaySpeak, maskChat } from "../kernel/speech";
import { guildsApi } from "./api";
import { DEFAULT_GUILD_GAME_SETTINGS, type GuildGameSettings, GuildGames, type StartRequest } from "./game-runtime";
import { GUILD_GAME_MSG } from "./guild-game";
import { CHAT_MAX, charLength, GUILD_MSG, type GuildRole, type SettingName } from "./rules";
import type { Actor } from "./service";
import { guildSocketEvents } from "./socket";

/** Socket.io room of a guild's room page: every socket of a member who joined it (any process, via the adapter). */
export const guildChannel = (guildId: number) => `guilds:${guildId}`;

/** Guild chat's own limit (as rooms'): more than 5 lines in 3 s is refused with the rate-limit text. */
export const CHAT_BURST = { count: 5, windowMs: 3_000 };
export const CHAT_RATE_LIMITED = "메시지를 너무 빠르게 보내고 있습니다. 잠시 후 다시 시도해주세요.";
const LOGIN_REQUIRED = "로그인이 필요합니다.";
const NOT_IN_ROOM = "길드 방에 먼저 입장해주세요.";
const SYSTEM_NAME = "시스템";

/** What the guilds module keeps on `socket.data.state.guilds`. */
interface SocketGuildState {
  /** The guild whose room this socket joined (it may have been removed since: the channel is the truth). */
  guildId: number;
  /** Times of the socket's last chat lines (at most `CHAT_BURST.count`). */
  chat: number[];
  /** The socket entered to watch the game (`spectate: true`), not to play. */
  spectate: boolean;
}

/**
 * The guild room of one server, the guilds module's live runtime: joins checked against the database, chat, the
 * state pushed on every change, and the guild games (on the process's game directory).
 */
export class GuildRoom implements ModuleRuntime {
  private readonly unsubscribe: (() => void)[];
  /** The guild games of this server: every member in a guild room is a player of that guild's game. */
  readonly games: GuildGames;
  readonly socketEvents: SocketEvents;

  /** `emitter`: the games' output (with several processes through the adapter: the room's sockets join it themselves). */
  constructor(
    readonly io: AppServer,
    readonly ctx: ModuleContext,
    directory: GameDirectory,
    emitter: GameEmitter,
    gameSettings: GuildGameSettings = DEFAULT_GUILD_GAME_SETTINGS,
  ) {
    this.games = new GuildGames(ctx, directory, emitter, gameSettings);
    this.unsubscribe = [
      ctx.events.on("guilds.changed", ({ guildId }) => void this.pushState(guildId)),
      ctx.events.on("guilds.member_removed", (event) => this.removed(event)),
    ];
    // Other processes' removals (several processes): this process's sockets and, if it owns it, the game.
    io.on(MEMBER_REMOVED, this.onRemoteRemoval);
    this.socketEvents = guildSocketEvents(this);
  }

  /** A lost connection: out of the guild room, the game's place kept for the reconnect grace. */
  disconnect(socket: AppSocket) {
    this.leave(socket, true);
  }

  stop() {
    for (const off of this.unsubscribe) off();
    this.io.off(MEMBER_REMOVED, this.onRemoteRemoval);
    this.games.stop();
  }

  private get service() {
    return guildsApi(this.ctx).service;
  }

  /** The account behind a socket; guests have no guild. */
  actorOf(socket: AppSocket): Actor {
    const identity = socket.data.identity;
    if (identity?.kind !== "user") throw unauthorized(LOGIN_REQUIRED, "login_required");
    return { id: identity.userId, username: identity.username };
  }

  private state(socket: AppSocket): SocketGuildState | undefined {
    return socket.data.state?.guilds as SocketGuildState | undefined;
  }

  /**
   * `guild:join`: the socket's own account must be a member now (read from the database; the client's user_id is
   * never looked at). The socket leaves any other guild room, joins this one, gets `guild:joined` and the others
   * `guild:user_joined`; then the socket joins the guild's game (its `guild_game:state`) as a player or, with
   * `spectate`, a watcher. Joining its own room again with the other role leaves the game and enters it again.
   */
  async join(socket: AppSocket, guildId: number, spectate = false) {
    const actor = this.actorOf(socket);
    const { guild, member } = await this.service.standing(actor, guildId);
    const previous = this.state(socket);
    if (previous && previous.guildId !== guildId) this.leave(socket);
    const switching = previous?.guildId === guildId && previous.spectate !== spectate;
    socket.data.state.guilds = { guildId, chat: previous?.chat ?? [], spectate } satisfies SocketGuildState;
    const channel = guildChannel(guildId);
    const arriving = !socket.rooms.has(channel);
    await socket.join(channel);
    socket.emit("guild:joined", await this.joinedPayload(guildId, member.role, member.id));
    if (arriving) {
      socket.to(channel).emit("guild:user_joined", { guild_id: guildId, user_id: actor.id, username: actor.username });
    }
    if (switching) await this.games.leave(socket, guildId, actor.id, true);
    await this.games.enter(socket, guild, actor.id, actor.username, spectate);
  }

  /**
   * `guild:leave` (or a disconnect, `dropped`): the socket leaves the guild room it is in, and the game — at once,
   * or after the reconnect grace when the connection was lost (a reconnect within it resumes the game).
   */
  leave(socket: AppSocket, dropped = false) {
    const current = this.state(socket);
    if (!current) return;
    const channel = guildChannel(current.guildId);
    delete socket.data.state.guilds;
    const user = socket.data.identity;
    if (user?.kind === "user") void this.games.leave(socket, current.guildId, user.userId, !dropped);
    // After a disconnect socket.io has already emptied `rooms`; the state says the socket was in the room.
    void socket.leave(channel);
    const identity = socket.data.identity;
    if (identity?.kind === "user") {
      this.io.to(channel).emit("guild:user_left", {
        guild_id: current.guildId,
        user_id: identity.userId,
        username: identity.username,
        reason: "left_room",
      });
    }
  }

  /** The guild this socket is in the room of; a socket that was removed (kicked) is in none. */
  requireInRoom(socket: AppSocket, guildId: number) {
    const actor = this.actorOf(socket);
    if (this.state(socket)?.guildId !== guildId || !socket.rooms.has(guildChannel(guildId))) {
      throw forbidden(NOT_IN_ROOM, "not_in_room");
    }
    return actor;
  }

  /**
   * `guild:message`: an empty line is ignored (spec §5); a slash command of spec §5 is run for admins; anything
   * else is stored (the last 100 are kept) and sent to the room.
   */
  async message(socket: AppSocket, guildId: number, raw: string) {
    const actor = this.requireInRoom(socket, guildId);
    const text = raw.trim();
    if (!text) return;
    if (charLength(text) > CHAT_MAX) throw unprocessable(`메시지는 ${CHAT_MAX}자 이내로 입력해주세요.`);
    if (text.startsWith("/") && (await this.command(socket, actor, guildId, text))) return;
    assertMaySpeak(this.ctx, actor.id, "chat");
    this.takeChatBudget(socket);
    const line = await this.service.postMessage(actor, guildId, maskChat(this.ctx, text));
    this.io.to(guildChannel(guildId)).emit("guild:message", line);
  }

  private takeChatBudget(socket: AppSocket) {
    const state = this.state(socket)!;
    const now = this.ctx.clock.now();
    state.chat = state.chat.filter((at) => now - at < CHAT_BURST.windowMs);
    if (state.chat.length >= CHAT_BURST.count) throw new AppError(429, CHAT_RATE_LIMITED, "chat_rate_limited");
    state.chat.push(now);
  }

  /**
   * The guild admins' slash commands (spec §5): `/setcountdown n` (1–10), `/setendtime n` (30–300), `/start`.
   * Answers true when the line was a command (it is then not posted as chat).
   */
  private async command(socket: AppSocket, actor: Actor, guildId: number, text: string): Promise<boolean> {
    const [name, arg] = text.split(/\s+/, 2);
    const setting: Record<string, SettingName> = {
      "/setcountdown": "countdown_seconds",
      "/setendtime": "end_countdown_seconds",
    };
    if (name === "/start") return this.startGame(socket, guildId);
    const target = setting[name];
    if (!target) return false;
    // A value that is not a whole number is out of range all the same (the service refuses it with the range text).
    const value = arg !== undefined && /^-?\d{1,9}$/.test(arg) ? Number(arg) : Number.NaN;
    const guild = await this.service.updateSettings(actor, guildId, { [target]: value });
    const label = target === "countdown_seconds" ? "시작 카운트다운" : "종료 카운트다운";
    const seconds = target === "countdown_seconds" ? guild.countdown_seconds : guild.end_countdown_seconds;
    this.system(guildId, `${actor.username}님이 ${label}을 ${seconds}초로 바꿨습니다.`);
    return true;
  }

  /**
   * `/start` and `guild_game:start_request`: guild admins in the room only (role and problems read from the database
   * now); the game starts with a chosen problem of the guild's list or a random one.
   */
  async startGame(socket: AppSocket, guildId: number, request: StartRequest = {}): Promise<true> {
    const actor = this.requireInRoom(socket, guildId);
    const { guild, member } = await this.service.standing(actor, guildId);
    if (member.role !== "admin") throw forbidden(GUILD_MSG.adminOnly, "role");
    // Read again after the await: the socket may have left the room meanwhile.
    this.requireInRoom(socket, guildId);
    await this.games.start(socket, guild, actor.id, actor.username, request);
    return true;
  }

  /** `guild_game:progress`: the server computes the member's progress from the text typed so far. */
  progress(socket: AppSocket, guildId: number, typedText: string) {
    const actor = this.requireInRoom(socket, guildId);
    return this.games.play(socket, guildId, actor.id, { type: "progress", typedText });
  }

  /** `guild_game:submission`: only the exact problem text completes; anything else is refused and typing goes on. */
  submit(socket: AppSocket, guildId: number, typedText: string, elapsedTime?: number | null) {
    const actor = this.requireInRoom(socket, guildId);
    return this.games.play(socket, guildId, actor.id, { type: "submit", typedText, elapsedTime });
  }

  /** A system line to the room (not stored). */
  private system(guildId: number, message: string) {
    this.io.to(guildChannel(guildId)).emit("guild:message", {
      guild_id: guildId,
      user_id: null,
      username: SYSTEM_NAME,
      message,
      timestamp: new Date(this.ctx.clock.now()).toISOString(),
      is_system: true,
    });
  }

  private async joinedPayload(guildId: number, role: GuildRole, memberId: number) {
    const state = await this.service.roomState(guildId);
    return { ...state, is_admin: role === "admin", role, member_id: memberId };
  }

  /**
   * After any change (settings, problems, roles, members; by socket or HTTP) every socket in the room gets the
   * new state as a `guild:joined`, with its own `is_admin` and role.
   */
  async pushState(guildId: number) {
    try {
      const channel = guildChannel(guildId);
      const sockets = await this.io.in(channel).fetchSockets();
      if (sockets.length === 0) return;
      const state = await this.service.roomState(guildId);
      for (const socket of sockets) {
        const identity = socket.data.identity;
        const member = state.members.find((m) => identity?.kind === "user" && m.user_id === identity.userId);
        if (!member) continue; // removed: `removed` takes it out of the room
        const role = member.role;
        this.io
          .to(socket.id)
          .emit("guild:joined", { ...state, is_admin: role === "admin", role, member_id: member.id });
      }
    } catch (error) {
      this.ctx.log.error("guild state push failed", { guildId, error: String(error) });
    }
  }

  /** This process's sockets of the user no longer count as in the guild's room (their later disconnect is silent). */
  private forgetLocalState(userId: number, guildId: number) {
    const namespace = this.io.of("/");
    for (const id of namespace.adapter.rooms.get(`user:${userId}`) ?? []) {
      const socket = namespace.sockets.get(id);
      if ((socket?.data.state?.guilds as SocketGuildState | undefined)?.guildId === guildId)
        delete socket?.data.state.guilds;
    }
  }

  private readonly onRemoteRemoval = (event: { guildId: number; userId: number }) => {
    this.forgetLocalState(event.userId, event.guildId);
    this.games.removeUser(event.guildId, event.userId);
  };

  /** A member left, was kicked or the guild disbanded: their sockets leave the room at once, the others are told. */
  private removed(event: { guildId: number; userId: number; username: string; reason: string }) {
    const channel = guildChannel(event.guildId);
    const payload = { guild_id: event.guildId, user_id: event.userId, username: event.username, reason: event.reason };
    this.forgetLocalState(event.userId, event.guildId);
    this.games.removeUser(event.guildId, event.userId);
    if (this.ctx.cluster) this.io.serverSideEmit(MEMBER_REMOVED, { guildId: event.guildId, userId: event.userId });
    this.io.in(`user:${event.userId}`).socketsLeave(channel);
    this.io.to(`user:${event.userId}`).emit("guild:removed", { ...payload, message: REMOVED_TEXT[event.reason] });
    this.io.to(channel).emit("guild:user_left", payload);
  }
}

export const GUILD_GAME_NOT_RUNNING = GUILD_GAME_MSG.noGame;

/** The server-side event (socket.io adapter, between processes) of a member removed from a guild. */
const MEMBER_REMOVED = "guilds:member_removed";

const REMOVED_TEXT: Record<string, string> = {
  left: "길드를 탈퇴했습니다.",
  kicked: "길드에서 추방되었습니다.",
  disbanded: "길드가 해산되었습니다.",
};
