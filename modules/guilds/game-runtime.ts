import { ownerEpoch } from "../games";
import type { ModuleContext } from "../kernel/define-module";
import { forbidden, unprocessable } from "../kernel/errors";
import {
  type GameDirectory,
  type GameEmitter,
  GameHost,
  type GameInput,
  type GameOwnerLease,
  type InputResult,
  memberPlayerId,
  type OwnedGame,
  refusalErrors,
  sharedScheduler,
  type WatcherOptions,
} from "../kernel/game-host";
import type { AppSocket } from "../kernel/socket";
import { claimGame } from "../rooms";
import { guildsApi } from "./api";
import { type GuildGameHost, GuildGamePresenter } from "./game-presenter";
import { type GuildGameMode, type GuildGameMove, type GuildGameRules, type GuildPlayer, guildGame } from "./guild-game";
import { checkSettings } from "./rules";
import type { GuildRow } from "./schema";
import { parseProblems } from "./service";

export interface GuildGameSettings {
  /** A member whose last socket dropped keeps their place in a game this long (a reconnect resumes). */
  reconnectGraceMs: number;
  rules?: Partial<GuildGameRules>;
}

export const DEFAULT_GUILD_GAME_SETTINGS: GuildGameSettings = { reconnectGraceMs: 10_000 };

/** What a game needs of its guild (the row as read by the guild room's membership check). */
export type GuildOfGame = Pick<GuildRow, "id" | "name" | "countdownSeconds" | "endCountdownSeconds" | "problems">;

/** The payload of `guild_game:start_request` / `/start`, as validated by the socket schema. */
export interface StartRequest {
  problem?: string | null;
  countdown_seconds?: number | null;
  end_countdown_seconds?: number | null;
}

type GuildGameInput = GameInput<GuildGameMode, GuildPlayer, undefined, never>;

/** A socket that is not (or no longer) in the guild room's game. */
const NOT_IN_ROOM = "길드 방에 먼저 입장해주세요.";

/**
 * A refusal of the game host as the AppError the shared dispatcher turns into the socket's `error` event (the kernel's
 * one rule, with the guild game's statuses and its words for a socket not in the room).
 */
const { orThrow } = refusalErrors({
  statuses: { mismatch: 422, implausible: 422, unknown_problem: 422, short_problem: 422 },
  notInGame: () => forbidden(NOT_IN_ROOM, "not_in_room"),
});

/** A guild game's watchers get its events after its players; of its state frames only the latest. */
const GUILD_WATCHERS: WatcherOptions<GuildPlayer> = {
  is: (player) => player.spectator === true,
  merges: { "guild_game:state": true },
};

/**
 * The guild games of one server, on one process or several: one `GameHost` per guild whose room someone entered,
 * on the process the game directory places it (opened there by this class's opener, on the process's shared
 * scheduler), so one live game per guild. Its players are in the game's own channel `guild_game:<id>` (joined
 * through the host) and its watchers in `guild_game:<id>:watchers` (kernel game-host README "Watchers"), beside the
 * guild room's `guilds:<id>` that every socket of the room joins for the room's own events (chat, arrivals). The guild room (room.ts)
 * decides who is in the room; this class feeds the game the same joins, leaves, drops and moves, through the
 * directory.
 */
export class GuildGames {
  private stopped = false;

  constructor(
    private readonly ctx: ModuleContext,
    private readonly directory: GameDirectory,
    private readonly emitter: GameEmitter,
    private readonly settings: GuildGameSettings = DEFAULT_GUILD_GAME_SETTINGS,
  ) {
    directory.register(guildGame.id, {
      storedEpoch: (sourceId) => ownerEpoch(ctx, guildGame.id, sourceId),
      open: (sourceId, owner) => this.open(Number(sourceId), owner),
    });
  }

  /**
   * The opener: the claim step (epoch, the round a previous owner left in play, the last round), the guild as
   * stored now, then the host.
   */
  private async open(guildId: number, owner: GameOwnerLease): Promise<OwnedGame> {
    const round = await claimGame(this.ctx, guildGame.id, guildId, owner.epoch);
    const guild = await guildsApi(this.ctx).store.guild(guildId);
    if (!guild) throw new Error(`guild ${guildId} not found`);
    // The host is the directory's entry itself (`hostOf` reads it back): input forwarded from another process was
    // made by a guild runtime for this mode (JSON of the same types).
    return this.newGame(guild, round, owner);
  }

  private newGame(guild: GuildOfGame, round: number, owner: GameOwnerLease): GuildGameHost {
    const scheduler = sharedScheduler(this.ctx);
    const presenter = new GuildGamePresenter({ id: guild.id, name: guild.name }, this.ctx, scheduler);
    const host: GuildGameHost = new GameHost({
      mode: guildGame,
      settings: {
        guildId: guild.id,
        countdownSeconds: guild.countdownSeconds,
        endCountdownSeconds: guild.endCountdownSeconds,
        rules: this.settings.rules,
      },
      presenter,
      // However the host stops (shutdown, given up to another process), the coalesced state frames stop with it.
      lifecycle: { stopped: () => presenter.stop() },
      sourceId: guild.id,
      sourceName: guild.name,
      watchers: GUILD_WATCHERS,
      lastRound: round,
      graceMs: this.settings.reconnectGraceMs,
      scheduler,
      emitter: this.emitter,
      random: this.ctx.random,
      log: this.ctx.log,
      owner,
    });
    if (this.stopped) host.stop();
    return host;
  }

  /** The host of a guild's game when it runs on this process (the directory's entry); null otherwise. */
  hostOf(guildId: number): GuildGameHost | null {
    return guildHostOf(this.directory.localGame(guildGame.id, String(guildId)));
  }

  /**
   * A member's socket entered the guild room: it joins the game too (a new player, another tab, or a reconnect), as
   * a player or, with `spectate`, a watcher. Another tab's seat keeps its role (the host adds the socket to it).
   */
  async enter(socket: AppSocket, guild: GuildOfGame, userId: number, username: string, spectate = false) {
    if (!socket.connected) return;
    const player: GuildPlayer = { id: memberPlayerId(userId), name: username, userId };
    if (spectate) player.spectator = true;
    orThrow(await this.input(guild.id, { type: "join", socketId: socket.id, player, data: undefined }));
  }

  /**
   * The socket left the guild room: `immediate` (guild:leave, another guild's room, removed from the guild) takes the
   * member out of the game at once when it was their last socket; a lost connection keeps their place for the grace.
   */
  async leave(socket: AppSocket, guildId: number, userId: number, immediate: boolean) {
    const type = immediate ? "leave" : "drop";
    await this.input(guildId, { type, playerId: memberPlayerId(userId), socketId: socket.id }).catch((error) =>
      this.ctx.log.warn("guild game leave not delivered", { guildId, error: String(error) }),
    );
  }

  /** The member is no longer in the guild (left, kicked, disbanded): out of its game at once, every socket. */
  removeUser(guildId: number, userId: number) {
    // The game's host decides; with several processes every process hears the removal and only the owner has it.
    const host = this.hostOf(guildId);
    const member = host?.member(memberPlayerId(userId));
    if (!host || !member) return;
    const playerId = member.player.id;
    if (member.sockets.length === 0) host.input({ type: "expire", playerId });
    for (const socketId of [...member.sockets]) host.input({ type: "leave", playerId, socketId });
  }

  /**
   * An admin's start (`guild_game:start_request` or `/start`): the guild's problems and settings as stored now; a
   * chosen problem must be one of them, otherwise one is drawn at random; countdown and end time from the request
   * when given (inside the spec §5 ranges), else the guild's settings.
   */
  start(socket: AppSocket, guild: GuildOfGame, userId: number, username: string, request: StartRequest) {
    const countdownSeconds = request.countdown_seconds ?? guild.countdownSeconds;
    const endCountdownSeconds = request.end_countdown_seconds ?? guild.endCountdownSeconds;
    const checked = checkSettings({ countdown_seconds: countdownSeconds, end_countdown_seconds: endCountdownSeconds });
    if (!checked.ok) throw unprocessable(checked.error, "invalid_settings");
    const move: GuildGameMove = {
      type: "start",
      problems: parseProblems(guild.problems),
      problem: request.problem,
      countdownSeconds,
      endCountdownSeconds,
      by: username,
    };
    return this.play(socket, guild.id, userId, move);
  }

  /** `guild_game:progress` / `guild_game:submission` of a member in the room. */
  async play(socket: AppSocket, guildId: number, userId: number, move: GuildGameMove) {
    orThrow(await this.input(guildId, { type: "move", playerId: memberPlayerId(userId), socketId: socket.id, move }));
  }

  /** Every input of a guild's game goes through here: the directory runs it where the game runs. */
  private async input(guildId: number, input: GuildGameInput): Promise<InputResult> {
    return this.directory.input(guildGame.id, String(guildId), input);
  }

  /**
   * Shutdown (the rounds were finished by then). The games run here are stopped by the directory's `stop`, which
   * the kernel runs right after every runtime's (module-runtime.ts); a game opened meanwhile stops at once.
   */
  stop() {
    this.stopped = true;
  }
}

/** A directory entry of the guild game as its host: the opener above makes every such entry a `GameHost`. */
const guildHostOf = (game: OwnedGame | null): GuildGameHost | null =>
  game instanceof GameHost ? (game as GuildGameHost) : null;
