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
} from "../kernel/game-host";
import type { AppSocket } from "../kernel/socket";
import { playerIdOf, roomOfSocket, setRoomOfSocket } from "./members";
import { abandonRaceGame } from "./records";
import { memberOf, type RoomHost, refusalError } from "./room-host";
import type { RoomView } from "./room-view";
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
}

/** How long a room's summary stays in Redis without its owner writing it again (it rewrites every 20 s). */
const SUMMARY_TTL_MS = 60_000;
export const SUMMARY_REFRESH_MS = 20_000;

/**
 * The rooms on several processes (REDIS_URL): each room's game is owned by one process through `GameOwnership`
 * (a lease, forwarded input, takeover), and every socket's input goes through it, wherever the socket is. The
 * socket's own bookkeeping (its room, the lobby) stays on the process holding the socket. The room list is read
 * from the owners' summaries in Redis (`<prefix>rooms:view:<id>`), written by each owner when its room changes.
 */
export class OwnedRooms {
  readonly ownership: GameOwnership;
  private readonly started: Promise<void>;
  private isStarted = false;
  private readonly mode: string;

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
    this.started = this.ownership.start().then(
      () => {
        this.isStarted = true;
      },
      (error) => {
        env.ctx.log.error("room ownership did not start", { error: String(error) });
      },
    );
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
    await abandonRaceGame(
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

  /** The owner's view of its rooms, for every process's list (fire and forget: the next change writes again). */
  publish(views: RoomView[]) {
    for (const view of views) {
      this.cluster.redis
        .set(this.summaryKey(view.id), JSON.stringify(view), { PX: SUMMARY_TTL_MS })
        .catch((error) => this.env.ctx.log.warn("room summary not written", { error: String(error) }));
    }
  }

  /** The owners' views of these rooms (missing: nobody plays there, or its owner died; shown idle). */
  async summaries(roomIds: number[]): Promise<Map<number, RoomView>> {
    const views = new Map<number, RoomView>();
    if (roomIds.length === 0) return views;
    try {
      const texts = await this.cluster.redis.mGet(roomIds.map(this.summaryKey));
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
  }
}
