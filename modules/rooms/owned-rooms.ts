import type { UserRow } from "../../db/core/schema";
import { claimOwner, ownerEpoch, unfinishedLastRound } from "../games";
import type { Cluster } from "../kernel/cluster";
import type { ModuleContext } from "../kernel/define-module";
import {
  type AnyGameInput,
  type GameOpener,
  type GameOwnerLease,
  GameOwnership,
  type InputResult,
  type OwnedGame,
  playerIdOf,
} from "../kernel/game-host";
import type { AppSocket } from "../kernel/socket";
import { roomOfSocket, setRoomOfSocket } from "./members";
import { abandonGame } from "./records";
import { memberOf, type RoomHost, refusalError } from "./room-host";
import type { RoomView } from "./room-view";
import { HEARD_TTL_MS, RoomViewsFeed, type RoomViewsFeedEnv } from "./room-views-feed";
import type { RoomsSettings } from "./settings";

/** What the rooms runtime gives the multi-process path. */
export interface OwnedRoomsEnv {
  ctx: ModuleContext;
  settings: RoomsSettings;
  /** Opens this process's host of a room it has just taken (its round numbering continues the stored one). */
  openHost(roomId: number, owner: GameOwnerLease): Promise<RoomHost>;
  /** The host is not this process's any more. */
  forgetHost(roomId: number, host: RoomHost): void;
  setLobby(socket: AppSocket, inLobby: boolean): void;
  /** The list between processes (`RoomViewsFeed`): this process's rooms, its lobby, what it hears. */
  feed: Pick<RoomViewsFeedEnv, "ownViews" | "heard" | "lobbySize">;
}

/** How long a room's summary stays in Redis without its owner writing it again (it rewrites every 20 s). */
const SUMMARY_TTL_MS = HEARD_TTL_MS;
const SUMMARY_REFRESH_MS = 20_000;

/**
 * The rooms on several processes (REDIS_URL): each room's game is owned by one process through `GameOwnership`
 * (a lease, forwarded input, takeover), and every socket's input goes through it, wherever the socket is. The
 * socket's own bookkeeping (its room, the lobby) stays on the process holding the socket. The room list is what
 * the owners say on the views feed (`RoomViewsFeed`, while this process shows the list), else their summaries in
 * Redis (`<prefix>rooms:view:<id>`, written when a room is taken and every 20 s: what a process that starts
 * listening reads until the owners have answered).
 */
export class OwnedRooms {
  readonly ownership: GameOwnership;
  readonly feed: RoomViewsFeed;
  private readonly started: Promise<void>;
  private isStarted = false;
  private readonly mode: string;
  private readonly summaryTimer: ReturnType<typeof setInterval>;

  constructor(
    private readonly env: OwnedRoomsEnv,
    private readonly cluster: Cluster,
  ) {
    this.mode = env.settings.mode.id;
    this.ownership = new GameOwnership({
      processId: cluster.processId,
      prefix: cluster.prefix,
      redis: cluster.redis,
      subscriber: cluster.subscriber,
      games: { [this.mode]: this.opener() },
      log: env.ctx.log,
    });
    this.feed = new RoomViewsFeed({
      ...env.feed,
      cluster,
      log: env.ctx.log,
      lingerMs: env.settings.lobbyLingerMs,
    });
    this.started = Promise.all([this.ownership.start(), this.feed.start()]).then(
      () => {
        this.isStarted = true;
      },
      (error) => {
        env.ctx.log.error("room ownership did not start", { error: String(error) });
      },
    );
    // Summaries expire unless written again: a dead owner's players stop showing after a minute.
    this.summaryTimer = setInterval(() => this.writeSummaries(env.feed.ownViews()), SUMMARY_REFRESH_MS);
    this.summaryTimer.unref?.();
  }

  private opener(): GameOpener {
    const { ctx } = this.env;
    return {
      storedEpoch: (sourceId) => ownerEpoch(ctx, "sentence_race", sourceId),
      open: async (sourceId, owner) => {
        const roomId = Number(sourceId);
        // First the fence (the previous owner's late writes are refused from now on), then what it left open.
        await claimOwner(ctx, "sentence_race", roomId, owner.epoch);
        await this.closeAbandonedRound(roomId, owner.epoch);
        const host = await this.env.openHost(roomId, owner);
        this.announce(host);
        return this.owned(roomId, host);
      },
    };
  }

  /**
   * The round a dead owner left in play is closed as a round cut short by a fault (the rooms' rule): its stored
   * results stay and count, no medals or rewards; the next round is played on this process.
   */
  private async closeAbandonedRound(roomId: number, epoch: number) {
    const open = await unfinishedLastRound(this.env.ctx, "sentence_race", roomId);
    if (!open) return;
    const ref = { mode: "sentence_race" as const, sourceId: roomId, sourceName: open.sourceName, round: open.round };
    await abandonGame(
      this.env.ctx,
      { ...ref, startedAt: open.startedAt, epoch },
      this.env.ctx.clock.now(),
      open.results,
    );
    this.env.ctx.log.warn("room round left by a lost owner closed", { room_id: roomId, round: open.round });
  }

  private owned(roomId: number, host: RoomHost): OwnedGame {
    return {
      // Forwarded input was made by a rooms process for this mode (JSON of the same types).
      input: (input) => host.game.input(input as Parameters<RoomHost["game"]["input"]>[0]),
      finish: () => host.game.finish(),
      drain: () => host.game.drain(),
      giveUp: () => {
        host.game.giveUp();
        this.env.forgetHost(roomId, host);
        // Its summary stays until the next owner writes it or it expires: after a lost lease it may be the new one's.
        this.feed.gone([roomId]);
      },
    };
  }

  /**
   * Input for a room, run by its owner wherever it is (this process takes the room when nobody owns it). Answered
   * at once, without a promise, when the room runs here.
   */
  input(roomId: number, input: AnyGameInput): InputResult | Promise<InputResult> {
    if (!this.isStarted) return this.started.then(() => this.ownership.input(this.mode, String(roomId), input));
    return this.ownership.input(this.mode, String(roomId), input);
  }

  /** join_room / join_anonymous on this process's socket; the account was read by the caller. */
  async join(socket: AppSocket, roomId: number, account: UserRow | null | undefined) {
    const current = roomOfSocket(socket);
    const playerId = playerIdOf(socket.data.identity);
    if (current !== undefined && current !== roomId) {
      await this.input(current, { type: "leave", playerId, socketId: socket.id });
    }
    const { player, data } = memberOf(socket, account);
    setRoomOfSocket(socket, roomId);
    this.env.setLobby(socket, false);
    const result = await this.input(roomId, { type: "join", socketId: socket.id, player, data });
    if (!result.ok) {
      if (roomOfSocket(socket) === roomId) setRoomOfSocket(socket, undefined);
      this.env.setLobby(socket, true);
      throw refusalError(result);
    }
  }

  /** leave_room (`immediate`) or a dropped connection (the player keeps the place for the grace period). */
  async leave(socket: AppSocket, roomId: number, immediate: boolean) {
    setRoomOfSocket(socket, undefined);
    const playerId = playerIdOf(socket.data.identity);
    await this.input(roomId, { type: immediate ? "leave" : "drop", playerId, socketId: socket.id });
  }

  // --- the room list ---------------------------------------------------------------------------------------------

  private summaryKey = (roomId: number) => `${this.cluster.prefix}rooms:view:${roomId}`;

  /** A room this process has just taken: the other processes' lists show it run here. */
  private announce(host: RoomHost) {
    try {
      const view = host.present();
      this.writeSummaries([view]);
      this.feed.changed([view]);
    } catch (error) {
      this.env.ctx.log.error("room cannot be listed", { room_id: host.room.id, error: String(error) });
    }
  }

  /**
   * The owner's views of its rooms in Redis (fire and forget: the next refresh writes again), for a process that
   * starts listening before the owners answer it, or an owner that does not answer.
   */
  private writeSummaries(views: RoomView[]) {
    for (const view of views) {
      this.cluster.redis
        .set(this.summaryKey(view.id), JSON.stringify(view), { PX: SUMMARY_TTL_MS })
        .catch((error) => this.env.ctx.log.warn("room summary not written", { error: String(error) }));
    }
  }

  /**
   * The rooms' views as their owners show them: what this process heard on the feed (it listens from now on), else
   * the owners' summaries. A room missing from the answer has no owner (nobody plays there): it is shown idle.
   */
  async views(roomIds: number[]): Promise<Map<number, RoomView>> {
    await this.feed.want();
    const views = this.feed.viewsOf(roomIds);
    const missing = roomIds.filter((id) => !views.has(id));
    if (missing.length === 0) return views;
    try {
      const texts = await this.cluster.redis.mGet(missing.map(this.summaryKey));
      for (const text of texts) {
        if (!text) continue;
        const view = JSON.parse(text) as RoomView;
        views.set(view.id, view);
      }
    } catch (error) {
      this.env.ctx.log.warn("room summaries unavailable", { error: String(error) });
    }
    return views;
  }

  /** Clean shutdown: this process's sockets drop out of rooms owned elsewhere (their players keep the grace). */
  async stop(localSockets: Iterable<AppSocket>) {
    clearInterval(this.summaryTimer);
    await this.started;
    const drops: Promise<unknown>[] = [];
    for (const socket of localSockets) {
      const roomId = roomOfSocket(socket);
      if (roomId !== undefined && !this.ownership.localGame(this.mode, String(roomId))) {
        drops.push(this.leave(socket, roomId, false).catch(() => {}));
      }
    }
    await Promise.all(drops);
    await this.ownership.stop();
    await this.feed.stop();
  }
}
