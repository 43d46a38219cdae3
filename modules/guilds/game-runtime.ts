import { claimOwner, lastRound, ownerEpoch, unfinishedLastRound } from "../games";
import type { ModuleContext } from "../kernel/define-module";
import { forbidden, unprocessable } from "../kernel/errors";
import {
  adapterEmitter,
  type GameEmitter,
  GameHost,
  type GameInput,
  type GameOwnerLease,
  GameOwnership,
  type InputResult,
  memberPlayerId,
  refusal,
  refusalErrors,
  sharedScheduler,
  socketIoEmitter,
} from "../kernel/game-host";
import type { AppServer, AppSocket } from "../kernel/socket";
import { abandonGame } from "../rooms";
import { guildsApi } from "./api";
import { type GuildGameHost, GuildGamePresenter } from "./game-presenter";
import {
  GUILD_GAME_MSG,
  type GuildGameMode,
  type GuildGameMove,
  type GuildGameRules,
  type GuildPlayer,
  guildGame,
} from "./guild-game";
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

interface LiveGame {
  host: GuildGameHost;
  presenter: GuildGamePresenter;
}

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

/**
 * The guild games of one server: one `GameHost` per guild whose room someone entered (created on first use, on the
 * process's shared scheduler, on the guild room's channel `guilds:<id>`), so one live game per guild. The guild room
 * (room.ts) decides who is in the room; this class feeds the host the same joins, leaves, drops and moves.
 */
export class GuildGames {
  private readonly emitter: GameEmitter;
  private readonly games = new Map<number, LiveGame>();
  private readonly opening = new Map<number, Promise<LiveGame>>();
  private stopped = false;
  /** Several processes (ctx.cluster): each guild's game has one owner, and every input goes to it. */
  private readonly ownership: GameOwnership | null;
  private readonly started: Promise<unknown>;

  constructor(
    io: AppServer,
    private readonly ctx: ModuleContext,
    private readonly channelOf: (guildId: number) => string,
    private readonly settings: GuildGameSettings = DEFAULT_GUILD_GAME_SETTINGS,
  ) {
    const cluster = ctx.cluster;
    this.emitter = cluster ? adapterEmitter(io) : socketIoEmitter(io);
    this.ownership = cluster
      ? new GameOwnership({
          // Its own id: the rooms' and the duel's ownerships answer on their own reply channels.
          processId: `${cluster.processId}/guilds`,
          prefix: cluster.prefix,
          redis: cluster.redis,
          subscriber: cluster.subscriber,
          games: {
            [guildGame.id]: {
              storedEpoch: (sourceId) => ownerEpoch(ctx, guildGame.id, sourceId),
              open: (sourceId, owner) => this.openOwned(Number(sourceId), owner),
            },
          },
          log: ctx.log,
        })
      : null;
    this.started =
      this.ownership?.start().catch((error) => {
        ctx.log.error("guild game ownership did not start", { error: String(error) });
      }) ?? Promise.resolve();
  }

  /**
   * This process has just taken a guild's game: the epoch is claimed first (the previous owner's late writes are
   * refused from then on), a round it left in play is closed without medals or rewards (its stored results stay
   * and count as played),
   * then the host is made as on one process.
   */
  private async openOwned(guildId: number, owner: GameOwnerLease) {
    await claimOwner(this.ctx, guildGame.id, guildId, owner.epoch);
    const open = await unfinishedLastRound(this.ctx, guildGame.id, guildId);
    if (open) {
      const ref = { mode: guildGame.id, sourceId: guildId, sourceName: open.sourceName, round: open.round };
      // Closed like a game cut short by a fault: its counted results are paid as played (the account counts them).
      await abandonGame(
        this.ctx,
        { ...ref, startedAt: open.startedAt, epoch: owner.epoch },
        this.ctx.clock.now(),
        open.results,
      );
    }
    const guild = await guildsApi(this.ctx).store.guild(guildId);
    if (!guild) throw new Error(`guild ${guildId} not found`);
    const live = await this.open(guild, owner);
    return {
      input: (input: Parameters<GuildGameHost["input"]>[0]) => live.host.input(input),
      finish: () => live.host.finish(),
      drain: () => live.host.drain(),
      giveUp: () => {
        live.host.giveUp();
        this.stopGame(live);
        if (this.games.get(guildId) === live) this.games.delete(guildId);
      },
    };
  }

  /** The guild's game, created on first use; its rounds continue the numbering stored by the games module. */
  private game(guild: GuildOfGame): LiveGame | Promise<LiveGame> {
    const existing = this.games.get(guild.id) ?? this.opening.get(guild.id);
    if (existing) return existing;
    const opening = this.open(guild).finally(() => this.opening.delete(guild.id));
    this.opening.set(guild.id, opening);
    return opening;
  }

  private async open(guild: GuildOfGame, owner?: GameOwnerLease): Promise<LiveGame> {
    const round = await lastRound(this.ctx, guildGame.id, String(guild.id));
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
      sourceId: guild.id,
      sourceName: guild.name,
      channel: this.channelOf(guild.id),
      lastRound: round,
      graceMs: this.settings.reconnectGraceMs,
      scheduler,
      emitter: this.emitter,
      random: this.ctx.random,
      log: this.ctx.log,
      owner,
    });
    const live = { host, presenter };
    this.games.set(guild.id, live);
    if (this.stopped) this.stopGame(live);
    return live;
  }

  /** The host of a guild whose game exists; null when nobody entered its room since the server started. */
  hostOf(guildId: number): GuildGameHost | null {
    return this.games.get(guildId)?.host ?? null;
  }

  /** A member's socket entered the guild room: it joins the game too (a new player, another tab, or a reconnect). */
  async enter(socket: AppSocket, guild: GuildOfGame, userId: number, username: string) {
    if (!this.ownership) await this.game(guild);
    if (!socket.connected) return;
    const player: GuildPlayer = { id: memberPlayerId(userId), name: username, userId };
    orThrow(await this.input(guild.id, { type: "join", socketId: socket.id, player, data: undefined }));
  }

  /**
   * The socket left the guild room: `immediate` (guild:leave, another guild's room, removed from the guild) takes the
   * member out of the game at once when it was their last socket; a lost connection keeps their place for the grace.
   */
  leave(socket: AppSocket, guildId: number, userId: number, immediate: boolean) {
    const type = immediate ? "leave" : "drop";
    this.input(guildId, { type, playerId: memberPlayerId(userId), socketId: socket.id }).catch((error) =>
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

  /**
   * Every input of a guild's game goes through here: on one process the local host runs it; with REDIS_URL
   * `ownership.input("guild_game", guildId, input)` runs it on the game's owner, wherever it is.
   */
  private async input(guildId: number, input: GuildGameInput): Promise<InputResult> {
    if (this.ownership) {
      await this.started;
      return this.ownership.input(guildGame.id, String(guildId), input);
    }
    const host = this.hostOf(guildId);
    if (!host) return refusal(GUILD_GAME_MSG.noGame, "no_game");
    return host.input(input);
  }

  private stopGame(live: LiveGame) {
    live.presenter.stop();
    live.host.stop();
  }

  async stop() {
    this.stopped = true;
    await this.started;
    await this.ownership?.stop();
    for (const live of this.games.values()) this.stopGame(live);
  }
}
