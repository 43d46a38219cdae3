import { ownerEpoch } from "../games";
import type { TimerHandle } from "../kernel/clock";
import type { ModuleContext, ModuleRuntime } from "../kernel/define-module";
import { badRequest } from "../kernel/errors";
import {
  type AnyGameInput,
  type GameDirectory,
  type GameEmitter,
  GameHost,
  type GameOwnerLease,
  type InputResult,
  type OwnedGame,
  playerIdOf,
  playerKeyOf,
  refusalErrors,
  sharedScheduler,
} from "../kernel/game-host";
import { DAY_MS, seoulDate } from "../kernel/seoul-time";
import type { AppSocket } from "../kernel/socket";
import { bestOfPlayer, closePastDays, dayOf } from "./api";
import { type DailyMove, type DailyPlayer, type DailySettings, dailyMode } from "./daily-mode";
import { type DailyHost, DailyPresenter } from "./presenter";
import { claimDailyGame } from "./records";
import { DAILY_RULES, nextMidnight, parseSourceId, sourceIdOf } from "./rules";
import { dailySocketEvents } from "./socket";

export interface DailyRuntimeSettings {
  /** A player whose last tab dropped keeps their attempt this long (a reconnect resumes it). */
  graceMs: number;
  /**
   * A day is closed (its medals given, its board's replays kept) this long after midnight: an attempt started just
   * before midnight (3-s countdown, at most 60 s of sentence) has ended and been stored by then, and still counts
   * for its day.
   */
  closeDelayMs: number;
  /** After a failed look at the past days, the next one comes this much later. */
  closeRetryMs: number;
  mode?: Partial<DailySettings>;
}

export const DEFAULT_DAILY_RUNTIME: DailyRuntimeSettings = {
  graceMs: 5_000,
  closeDelayMs: 90_000,
  closeRetryMs: 60_000,
};

const NOT_JOINED = "오늘의 문장에 먼저 입장해주세요.";
const { orThrow } = refusalErrors({
  statuses: { implausible: 422, empty: 422, too_early: 409, too_late: 409, busy: 409 },
  notInGame: () => badRequest(NOT_JOINED, "not_in_game"),
});

/** The daily game a socket is in (its source id), kept on the socket. */
const sourceOfSocket = (socket: AppSocket) => socket.data.state.daily as string | undefined;
const setSourceOfSocket = (socket: AppSocket, sourceId: string | undefined) => {
  socket.data.state.daily = sourceId;
};

function playerOf(socket: AppSocket): DailyPlayer {
  const identity = socket.data.identity;
  return {
    id: playerIdOf(identity),
    name: identity.kind === "user" ? identity.username : identity.nickname,
    userId: identity.kind === "user" ? identity.userId : null,
    sessionId: playerKeyOf(identity),
  };
}

/**
 * 오늘의 문장 on the process's game directory (kernel game-host README "The game directory"): one game per player
 * and Seoul day (source `<day>:<player key>`), opened by this runtime's opener wherever the directory places it
 * (this process, or the owner among several), so an attempt works whatever process the socket is on. A game is
 * closed (its lease given back) when its player has left. The runtime also closes each past day (its medals, its
 * board's replays kept), at midnight (Seoul) plus `closeDelayMs`, and once at start (a day missed while no process
 * ran).
 */
export class DailyRuntime implements ModuleRuntime {
  readonly socketEvents = dailySocketEvents(this);
  private readonly hosts = new Map<string, { host: DailyHost; owner: GameOwnerLease }>();
  private closeTimer: TimerHandle | null = null;
  private closeRun: Promise<unknown> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly ctx: ModuleContext,
    private readonly directory: GameDirectory,
    private readonly emitter: GameEmitter,
    private readonly settings: DailyRuntimeSettings = DEFAULT_DAILY_RUNTIME,
  ) {
    directory.register(dailyMode.id, {
      storedEpoch: (sourceId) => ownerEpoch(ctx, dailyMode.id, sourceId),
      open: (sourceId, owner) => this.open(sourceId, owner),
    });
  }

  // --- the games ------------------------------------------------------------------------------------------------

  private async open(sourceId: string, owner: GameOwnerLease): Promise<OwnedGame> {
    const source = parseSourceId(sourceId);
    if (!source) throw new Error(`not a daily source: ${sourceId}`);
    const round = await claimDailyGame(this.ctx, sourceId, owner.epoch);
    const day = await dayOf(this.ctx, source.day);
    const scheduler = sharedScheduler(this.ctx);
    const host: DailyHost = new GameHost({
      mode: dailyMode,
      settings: {
        day: source.day,
        sentence: { id: day.sentenceId, text: day.sentenceText },
        settings: this.settings.mode,
      },
      presenter: new DailyPresenter(this.ctx, (left) => this.closeIfEmpty(sourceId, left)),
      sourceId,
      sourceName: DAILY_RULES.sourceName,
      lastRound: round,
      graceMs: this.settings.graceMs,
      scheduler,
      emitter: this.emitter,
      random: this.ctx.random,
      log: this.ctx.log,
      owner,
    });
    this.hosts.set(sourceId, { host, owner });
    if (this.stopped) host.stop();
    return {
      input: (input) => host.input(input as Parameters<DailyHost["input"]>[0]),
      finish: () => host.finish(),
      drain: () => host.drain(),
      giveUp: () => {
        host.giveUp();
        if (this.hosts.get(sourceId)?.host === host) this.hosts.delete(sourceId);
      },
    };
  }

  /** The player has left their game: it is over until they come back (a new opening continues the rounds). */
  private closeIfEmpty(sourceId: string, host: DailyHost) {
    const entry = this.hosts.get(sourceId);
    if (!entry || entry.host !== host || host.size > 0) return;
    this.hosts.delete(sourceId);
    host.stop();
    entry.owner.close();
  }

  /** The game of a source when it runs on this process (tests). */
  hostOf(sourceId: string): DailyHost | undefined {
    return this.hosts.get(sourceId)?.host;
  }

  private input(sourceId: string, input: AnyGameInput): InputResult | Promise<InputResult> {
    return this.directory.input(dailyMode.id, sourceId, input);
  }

  // --- sockets --------------------------------------------------------------------------------------------------

  /** `daily:join`: into today's game (out of another day's game this socket was in). Answers the day. */
  async join(socket: AppSocket): Promise<string> {
    const day = seoulDate(this.ctx.clock.now());
    const player = playerOf(socket);
    const sourceId = sourceIdOf(day, player.sessionId);
    const before = sourceOfSocket(socket);
    if (before === sourceId) return day;
    if (before) await this.leave(socket);
    // The day's sentence is chosen before the game opens (a day without sentences refuses here, with words).
    await dayOf(this.ctx, day).catch(() => {
      throw badRequest("오늘의 문장을 고를 문장이 없습니다. 관리자에게 문의해주세요.", "no_sentence");
    });
    setSourceOfSocket(socket, sourceId);
    const joined = await this.input(sourceId, { type: "join", socketId: socket.id, player, data: undefined });
    if (!joined.ok) setSourceOfSocket(socket, undefined);
    orThrow(joined);
    return day;
  }

  /** The socket player's best verified attempt of the day (guests too: the ghost of their own best). */
  bestOf(socket: AppSocket, day: string) {
    return bestOfPlayer(this.ctx, day, playerOf(socket).sessionId);
  }

  /** A move of the socket's player; a start on a game of a day gone by moves the socket to today's game first. */
  async play(socket: AppSocket, move: DailyMove) {
    let sourceId = sourceOfSocket(socket);
    if (!sourceId) throw badRequest(NOT_JOINED, "not_in_game");
    if (move.type === "start" && parseSourceId(sourceId)?.day !== seoulDate(this.ctx.clock.now())) {
      await this.join(socket);
      sourceId = sourceOfSocket(socket)!;
    }
    const playerId = playerIdOf(socket.data.identity);
    orThrow(await this.input(sourceId, { type: "move", playerId, socketId: socket.id, move }));
  }

  async leave(socket: AppSocket) {
    const sourceId = sourceOfSocket(socket);
    setSourceOfSocket(socket, undefined);
    if (!sourceId) return;
    await this.input(sourceId, { type: "leave", playerId: playerIdOf(socket.data.identity), socketId: socket.id });
  }

  async disconnect(socket: AppSocket) {
    const sourceId = sourceOfSocket(socket);
    if (!sourceId) return;
    await this.input(sourceId, { type: "drop", playerId: playerIdOf(socket.data.identity), socketId: socket.id });
  }

  // --- the day's close at midnight ------------------------------------------------------------------------------

  async start() {
    this.lookAtPastDays(this.ctx.clock.now());
  }

  /** The next look at `at` (epoch ms; a look takes a while, so a delay would drift). */
  private lookAtPastDays(at: number) {
    if (this.stopped) return;
    this.closeTimer = this.ctx.clock.setTimeout(
      () => {
        this.closeTimer = null;
        this.closeRun = this.closeDays();
      },
      Math.max(0, at - this.ctx.clock.now()),
    );
  }

  /** Closes every past day still open, then waits for the next midnight (plus the delay). */
  private async closeDays() {
    const now = this.ctx.clock.now();
    // Before the delay after midnight, yesterday's last attempts may still be running: its close waits for them.
    const midnight = nextMidnight(now) - DAY_MS;
    try {
      if (now < midnight + this.settings.closeDelayMs)
        return this.lookAtPastDays(midnight + this.settings.closeDelayMs);
      await closePastDays(this.ctx);
      this.lookAtPastDays(nextMidnight(now) + this.settings.closeDelayMs);
    } catch (error) {
      this.ctx.log.error("daily close failed", { error: String(error) });
      this.lookAtPastDays(this.ctx.clock.now() + this.settings.closeRetryMs);
    }
  }

  /** Resolves when the look at the past days in progress has finished (tests). */
  closeSettled() {
    return this.closeRun;
  }

  async stop() {
    this.stopped = true;
    if (this.closeTimer) this.ctx.clock.clearTimeout(this.closeTimer);
    this.closeTimer = null;
    await this.closeRun.catch(() => {});
    for (const { host } of this.hosts.values()) host.stop();
  }
}
