import type { Cluster } from "../kernel/cluster";
import type { Logger } from "../kernel/logger";
import type { AppServer } from "../kernel/socket";
import type { RoomView } from "./room-view";
import { HEARD_TTL_MS, RoomViewsFeed, type RoomViewsFeedEnv } from "./room-views-feed";

/** Sockets in no room (the home page's viewers): they get room:list_update. */
export const LOBBY = "lobby";

/**
 * The room list beyond this process's own rooms: on one process there is nothing beyond (`LocalRoomList`); with
 * several (REDIS_URL) the rooms other processes run are shown as their owners say (`SharedRoomList`). The rooms
 * runtime is the same on both; index.ts picks the list.
 */
export interface RoomList {
  start(): Promise<void>;
  /** Where the lobby's room:list_update goes: this process's lobby sockets (another process's hears its own). */
  lobby(io: AppServer): ReturnType<AppServer["to"]>;
  /** A socket of this process watches the list: the other owners' changes come here from now on. */
  want(): void;
  /** Whether a change of this process's rooms is sent anywhere (else the caller need not present it). */
  readonly sending: boolean;
  /** This process's rooms that changed. */
  changed(rooms: RoomView[]): void;
  /** A room this process has just opened: the other processes' lists show it run here. */
  opened(view: RoomView): void;
  /** This process no longer runs these rooms. */
  gone(roomIds: number[]): void;
  /** The rooms' views as their owners elsewhere show them; a room missing from the answer is idle. */
  views(roomIds: number[]): Promise<Map<number, RoomView>>;
  stop(): Promise<void>;
}

/** One process: every room runs here, the list is this process's own. */
export class LocalRoomList implements RoomList {
  readonly sending = false;
  async start() {}
  lobby(io: AppServer) {
    return io.to(LOBBY);
  }
  want() {}
  changed() {}
  opened() {}
  gone() {}
  async views() {
    return new Map<number, RoomView>();
  }
  async stop() {}
}

/** How long a room's summary stays in Redis without its owner writing it again (it rewrites every 20 s). */
const SUMMARY_TTL_MS = HEARD_TTL_MS;
const SUMMARY_REFRESH_MS = 20_000;

/**
 * The room list on several processes: what the owners say on the views feed (`RoomViewsFeed`, while this process
 * shows the list), else their summaries in Redis (`<prefix>rooms:view:<id>`, written when a room is opened and every
 * 20 s: what a process that starts listening reads until the owners have answered).
 */
export class SharedRoomList implements RoomList {
  private readonly feed: RoomViewsFeed;
  private summaryTimer: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly cluster: Cluster,
    private readonly log: Logger,
    private readonly env: Pick<RoomViewsFeedEnv, "ownViews" | "heard" | "lobbySize" | "lingerMs">,
  ) {
    this.feed = new RoomViewsFeed({ ...env, cluster, log });
  }

  async start() {
    await this.feed.start();
    // Summaries expire unless written again: a dead owner's players stop showing after a minute.
    this.summaryTimer = setInterval(() => this.writeSummaries(this.env.ownViews()), SUMMARY_REFRESH_MS);
    this.summaryTimer.unref?.();
  }

  lobby(io: AppServer) {
    return io.local.to(LOBBY);
  }

  want() {
    this.feed.want().catch(() => {});
  }

  get sending() {
    return this.feed.sending;
  }

  changed(rooms: RoomView[]) {
    this.feed.changed(rooms);
  }

  opened(view: RoomView) {
    this.writeSummaries([view]);
    this.feed.changed([view]);
  }

  gone(roomIds: number[]) {
    // Its summary stays until the next owner writes it or it expires: after a lost lease it may be the new one's.
    this.feed.gone(roomIds);
  }

  private summaryKey = (roomId: number) => `${this.cluster.prefix}rooms:view:${roomId}`;

  /**
   * The owner's views of its rooms in Redis (fire and forget: the next refresh writes again), for a process that
   * starts listening before the owners answer it, or an owner that does not answer.
   */
  private writeSummaries(views: RoomView[]) {
    for (const view of views) {
      this.cluster.redis
        .set(this.summaryKey(view.id), JSON.stringify(view), { PX: SUMMARY_TTL_MS })
        .catch((error) => this.log.warn("room summary not written", { error: String(error) }));
    }
  }

  /** What this process heard on the feed (it listens from now on), else the owners' summaries. */
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
      this.log.warn("room summaries unavailable", { error: String(error) });
    }
    return views;
  }

  async stop() {
    if (this.summaryTimer) clearInterval(this.summaryTimer);
    await this.feed.stop();
  }
}
