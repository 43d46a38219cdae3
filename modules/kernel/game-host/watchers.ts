import type { Logger } from "../logger";
import type { ServerEventName, ServerPayload } from "../socket";
import { CoalescedFrame } from "./coalesced-frame";
import type { GameEmitter } from "./emitter";
import type { GameScheduler } from "./scheduler";

/**
 * At most one watchers' frame per this many milliseconds: five a second, well inside the second of delay a watcher
 * may have (issue 27), and what every frame costs the players' next input is paid five times a second at most.
 */
export const WATCHER_FRAME_MS = 200;

/**
 * The events a watcher may get fewer of (a state that a newer one replaces), each with how a pending copy takes the
 * newer one: `true`, the newer replaces it (a whole state, the time left); a function merges the two (the rooms'
 * lanes carry only the lanes that changed). Every other event is a one-off (a result, a chat line, a word, a hit):
 * each watcher gets every one, in the order the players got them.
 */
export type WatcherMerges = {
  [E in ServerEventName]?: true | ((older: ServerPayload<E>, newer: ServerPayload<E>) => ServerPayload<E>);
};

export interface WatcherOptions<P> {
  /** Whether a member watches (the mode's player flag): its sockets are the watchers' channel's, never the game's. */
  is(player: P): boolean;
  merges?: WatcherMerges;
}

/** The socket.io room of a game's watchers: `<the game's channel>:watchers`. */
export const watchersChannelOf = (channel: string) => `${channel}:watchers`;

type Pending =
  | { kind: "channel"; event: ServerEventName; payload: unknown; round: number }
  | { kind: "sockets"; socketIds: string[]; event: ServerEventName; payload: unknown };

interface RelayEnv {
  scheduler: GameScheduler;
  emitter: GameEmitter;
  /** The watchers' channel. */
  channel: string;
  merges: WatcherMerges;
  /** The round in play now: a state never merges across rounds (the rooms' lanes start again at each). */
  round(): number;
  log: Logger;
  logFields(): Record<string, unknown>;
}

/**
 * What a game sends its watchers, AFTER its players and coalesced (README "Watchers"). The host hands every
 * broadcast to its players' channel first, then here; a watcher socket's own events come here too (straight out
 * when nothing is queued, else after what is), so one watcher sees the sequence a player would, later: one frame
 * (the queue, in order) at most every `WATCHER_FRAME_MS` on the process's shared scheduler, a state merged into its
 * newest pending copy (which moves to the end of the queue, after the one-off events it followed). A watcher who
 * arrives sends the queue first (to the watchers already there), then enters the channel, so its welcome (the whole
 * picture) goes at once and is followed only by what came after it. A thousand
 * watchers' copies of every event were sent from the players' own broadcast, before the next player's input could
 * be read; now the players' copy leaves first and the watchers' fan-out happens five times a second.
 */
export class WatcherRelay {
  private queue: Pending[] = [];
  /** Sockets of watching members (joined or about to): their own events go through the queue too. */
  private readonly sockets = new Set<string>();
  private readonly frame: CoalescedFrame;
  /** The host stopped: nothing will ask for frames any more, so what comes now goes at once. */
  private direct = false;

  constructor(private readonly env: RelayEnv) {
    this.frame = new CoalescedFrame(env.scheduler, {
      everyMs: WATCHER_FRAME_MS,
      ready: () => this.queue.length > 0,
      send: () => this.flush(),
      failed: (error) => env.log.error("watchers' frame failed", { ...env.logFields(), error: String(error) }),
    });
  }

  has(socketId: string) {
    return this.sockets.has(socketId);
  }

  /** A copy of a broadcast for the watchers. */
  broadcast<E extends ServerEventName>(event: E, payload: ServerPayload<E>) {
    // Nobody watches (on any process: every watcher joins through this host): nothing to copy.
    if (this.sockets.size === 0) return;
    const round = this.env.round();
    const merge = this.env.merges[event] as true | ((older: unknown, newer: unknown) => unknown) | undefined;
    let next: unknown = payload;
    if (merge) {
      const at = this.queue.findLastIndex((p) => p.kind === "channel" && p.event === event && p.round === round);
      const older = this.queue[at];
      if (older?.kind === "channel") {
        if (merge !== true) next = merge(older.payload, payload);
        this.queue.splice(at, 1);
      }
    }
    this.enqueue({ kind: "channel", event, payload: next, round });
  }

  /** Events for watchers' sockets (a welcome, a member's own answer), in order with their channel's. */
  toSockets<E extends ServerEventName>(socketIds: readonly string[], event: E, payload: ServerPayload<E>) {
    if (socketIds.length === 0) return;
    if (this.queue.length === 0) this.env.emitter.toSockets(socketIds, event, payload);
    else this.enqueue({ kind: "sockets", socketIds: [...socketIds], event, payload });
  }

  /** A watcher's socket enters the watchers' channel now, after the queue went to those already in it. */
  join(socketId: string) {
    this.frame.flush();
    this.sockets.add(socketId);
    this.env.emitter.join(socketId, this.env.channel);
  }

  /**
   * A watcher's socket leaves now, and what was still queued for it alone is dropped: a socket that became a player
   * must not get its watcher's welcome after its player's.
   */
  leave(socketId: string) {
    if (!this.sockets.delete(socketId)) return;
    this.env.emitter.leave(socketId, this.env.channel);
    const kept: Pending[] = [];
    for (const pending of this.queue) {
      if (pending.kind === "sockets" && pending.socketIds.includes(socketId)) {
        pending.socketIds = pending.socketIds.filter((id) => id !== socketId);
        if (pending.socketIds.length === 0) continue;
      }
      kept.push(pending);
    }
    this.queue = kept;
  }

  /** The host stopped: the queue goes now (a duel's end, a room's closing), and anything later (a write's answer) too. */
  stop() {
    this.direct = true;
    this.frame.cancel();
    this.flush();
  }

  private enqueue(pending: Pending) {
    this.queue.push(pending);
    if (this.direct) this.flush();
    else this.frame.request();
  }

  private flush() {
    const queue = this.queue;
    this.queue = [];
    const { emitter, channel } = this.env;
    for (const pending of queue) {
      try {
        if (pending.kind === "channel") emitter.toChannel(channel, pending.event, pending.payload as never);
        else emitter.toSockets(pending.socketIds, pending.event, pending.payload as never);
      } catch (error) {
        this.env.log.error("watchers' frame failed", { ...this.env.logFields(), error: String(error) });
      }
    }
  }
}
