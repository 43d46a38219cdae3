import { type Clock, systemClock, type TimerHandle } from "../clock";
import type { Logger } from "../logger";
import { describeError } from "./errors";

/**
 * A game's lease in Redis: the one process allowed to run the game holds `lease:<game>` = `<processId>:<epoch>`.
 * The epoch is the fencing token (Kleppmann, "How to do distributed locking"): it comes from `INCR epoch:<game>`,
 * so it is strictly higher for every new holder, and every durable write of the game carries it so that storage
 * refuses a write of a holder that has been replaced (`StaleOwnerError`). The lease alone never makes a write safe:
 * a process can stall (GC, a blocked loop, a slow network) past its lease and wake up believing it still holds it.
 *
 * No Redlock: one Redis is the lock service; what must be correct is enforced by storage with the epoch.
 */

/** The node-redis commands a lease uses (a node-redis client satisfies it). */
export interface LeaseRedis {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  get(key: string): Promise<string | null>;
}

export interface LeaseTimings {
  /** How long Redis keeps a lease that is not renewed (after the owner dies, the game is free this long after). */
  ttlMs: number;
  /** How often a held lease is renewed (about every second). */
  renewEveryMs: number;
  /**
   * The owner gives the game up this long BEFORE Redis could let the lease expire: its local deadline is the time
   * its last successful renewal was sent + ttl − margin, on its own monotonic clock. Covers the clock-rate
   * difference between this machine and Redis and the time a reply takes; must exceed `renewEveryMs / 4` (how
   * often deadlines are checked).
   */
  safetyMarginMs: number;
}

/** A dead owner's game is free after 5 s; with the watchers' 1-s look, a takeover starts within ~6 s (≤ 10 s). */
export const DEFAULT_LEASE_TIMINGS: LeaseTimings = { ttlMs: 5_000, renewEveryMs: 1_000, safetyMarginMs: 1_500 };

/** `expired`: no renewal succeeded before the local deadline; `taken`: Redis holds another token (or none). */
export type LeaseLoss = "expired" | "taken";

/** `prefix`: the deployment's (REDIS_PREFIX), so deployments sharing one Redis never meet. */
export const leaseKey = (game: string, prefix = "") => `${prefix}lease:${game}`;
export const epochKey = (game: string, prefix = "") => `${prefix}epoch:${game}`;

/**
 * SET lease NX PX with the epoch from INCR, in one script: done as two commands, a process could INCR, stall,
 * and SET after a later INCR's holder has come and gone, holding the game with an epoch LOWER than its
 * predecessor's (its writes then all refused). ARGV[3] is a floor: the highest epoch storage has seen, so a Redis
 * that lost its counter (restarted without persistence) still hands out a higher one. The epoch key never expires.
 */
const ACQUIRE = `
if redis.call('EXISTS', KEYS[1]) == 1 then return false end
local epoch = redis.call('INCR', KEYS[2])
local floor = tonumber(ARGV[3])
if epoch <= floor then
  epoch = floor + 1
  redis.call('SET', KEYS[2], epoch)
end
redis.call('SET', KEYS[1], ARGV[1] .. ':' .. epoch, 'PX', ARGV[2])
return epoch`;

/**
 * Compare-and-PEXPIRE of every lease due in one turn of a process: KEYS[i] is renewed only when it still holds
 * ARGV[i + 1] (the holder's own token); ARGV[1] is the ttl. One reply per key, 1 renewed or 0 not. One script per
 * turn instead of one per game: a process owning 125 rooms made 125 calls a second, and each cost it ~50 µs in the
 * client (bench/README "Several processes"). The keys need not share a slot: one Redis, not Redis Cluster.
 */
const RENEW_ALL = `
local renewed = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[i + 1] then renewed[i] = redis.call('PEXPIRE', key, ARGV[1]) else renewed[i] = 0 end
end
return renewed`;

/** Compare-and-delete: only the holder's own token is removed. */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

export interface LeaseHolder {
  processId: string;
  epoch: number;
}

/** Who holds the game's lease now (null: nobody, the game is free). */
export async function leaseHolder(redis: LeaseRedis, game: string, prefix = ""): Promise<LeaseHolder | null> {
  return parseToken(await redis.get(leaseKey(game, prefix)));
}

export function parseToken(token: string | null): LeaseHolder | null {
  if (token === null) return null;
  const at = token.lastIndexOf(":");
  return { processId: token.slice(0, at), epoch: Number(token.slice(at + 1)) };
}

/** One held lease. `check()` is synchronous: the host asks it before every step. */
export class Lease {
  /** Monotonic time when the last successful renewal (or the acquire) was sent. */
  private renewedAt: number;
  private renewing = false;
  /** A renewal failed and none has succeeded since (logged once per streak, not every turn). */
  private failing = false;
  private over = false;

  constructor(
    private readonly keeper: LeaseKeeper,
    readonly game: string,
    readonly epoch: number,
    readonly token: string,
    sentAt: number,
    private readonly onLost: (reason: LeaseLoss) => void,
  ) {
    this.renewedAt = sentAt;
  }

  /** The local deadline: the lease is given up then, before Redis can let it expire. */
  get deadline() {
    return this.renewedAt + this.keeper.timings.ttlMs - this.keeper.timings.safetyMarginMs;
  }

  /** True while the lease is held by the local clock; past the deadline it is lost now (onLost runs first). */
  check(): boolean {
    if (this.over) return false;
    if (this.keeper.monotonic() < this.deadline) return true;
    this.lose("expired");
    return false;
  }

  get held() {
    return !this.over;
  }

  /** Stops renewing and removes the lease if it is still this one's (compare-and-delete). */
  async release(): Promise<void> {
    if (this.over) return;
    this.over = true;
    this.keeper.forget(this);
    await this.keeper.releaseToken(this.game, this.token);
  }

  /** Stops renewing WITHOUT releasing: what a killed process leaves behind (Redis expires it after the ttl). */
  abandon() {
    this.over = true;
    this.keeper.forget(this);
  }

  /**
   * Called by the keeper's one timer: true when the lease is due for renewal (the keeper then renews it with the
   * others due in this turn and reports back through `renewed` / `renewalFailed`).
   */
  tick(now: number): boolean {
    if (this.over) return false;
    if (now >= this.deadline) {
      this.lose("expired");
      return false;
    }
    if (this.renewing || now - this.renewedAt < this.keeper.timings.renewEveryMs) return false;
    this.renewing = true;
    return true;
  }

  /** Redis answered the renewal sent at `sentAt`: still this lease's (true), or another token's or none (false). */
  renewed(sentAt: number, stillHeld: boolean) {
    this.renewing = false;
    if (this.over) {
      // Given up meanwhile (the deadline passed while the reply was on its way): free it for a successor now.
      if (stillHeld) void this.keeper.releaseToken(this.game, this.token);
      return;
    }
    this.failing = false;
    if (stillHeld) this.renewedAt = Math.max(this.renewedAt, sentAt);
    else this.lose("taken");
  }

  /** Redis unreachable: keep trying every turn; the local deadline ends the lease if this goes on. */
  renewalFailed(error: unknown) {
    this.renewing = false;
    if (!this.failing && !this.over) {
      this.keeper.log?.warn("game lease renewal failed", { game: this.game, error: describeError(error) });
    }
    this.failing = true;
  }

  private lose(reason: LeaseLoss) {
    if (this.over) return;
    this.over = true;
    this.keeper.forget(this);
    this.keeper.log?.warn("game lease lost", { game: this.game, epoch: this.epoch, reason });
    try {
      this.onLost(reason);
    } catch (error) {
      this.keeper.log?.error("game lease onLost failed", { game: this.game, error: describeError(error) });
    }
  }
}

export interface LeaseKeeperOptions {
  redis: LeaseRedis;
  processId: string;
  timings?: Partial<LeaseTimings>;
  log?: Logger;
  /** Monotonic milliseconds for deadlines (performance.now by default: wall-clock jumps do not move them). */
  monotonic?: () => number;
  /** For the keeper's one timer. */
  clock?: Clock;
  /** Start of every key (the deployment's REDIS_PREFIX). */
  prefix?: string;
}

/**
 * Every lease of one process, renewed and checked by ONE timer (a quarter of `renewEveryMs`): each lease is
 * renewed about every `renewEveryMs` (all those due in one turn by one script), and a lease whose local
 * deadline has passed is lost (`onLost`) at the latest a quarter period after it.
 */
export class LeaseKeeper {
  readonly timings: LeaseTimings;
  readonly processId: string;
  readonly log?: Logger;
  readonly monotonic: () => number;
  private readonly redis: LeaseRedis;
  private readonly clock: Clock;
  readonly prefix: string;
  private readonly leases = new Set<Lease>();
  private timer: TimerHandle | null = null;
  private stopped = false;

  constructor(options: LeaseKeeperOptions) {
    this.redis = options.redis;
    this.processId = options.processId;
    this.timings = { ...DEFAULT_LEASE_TIMINGS, ...options.timings };
    this.log = options.log;
    this.monotonic = options.monotonic ?? (() => performance.now());
    this.clock = options.clock ?? systemClock;
    this.prefix = options.prefix ?? "";
    if (this.timings.safetyMarginMs <= this.timings.renewEveryMs / 4) {
      throw new RangeError("the lease's safety margin must exceed a quarter of the renewal period");
    }
    if (this.timings.ttlMs <= this.timings.safetyMarginMs + this.timings.renewEveryMs) {
      throw new RangeError("the lease's ttl must exceed the safety margin plus the renewal period");
    }
  }

  /**
   * Takes the game if nobody holds it: the new lease (with a new, higher epoch), or null when another process
   * holds it. `minEpoch` is the highest epoch storage has seen for the game (the new epoch is above it).
   */
  async acquire(
    game: string,
    options: { minEpoch?: number; onLost: (reason: LeaseLoss) => void },
  ): Promise<Lease | null> {
    if (this.stopped) return null;
    const sentAt = this.monotonic();
    const reply = await this.redis.eval(ACQUIRE, {
      keys: [leaseKey(game, this.prefix), epochKey(game, this.prefix)],
      arguments: [this.processId, String(this.timings.ttlMs), String(options.minEpoch ?? 0)],
    });
    if (reply === null || reply === undefined) return null;
    const epoch = Number(reply);
    const lease = new Lease(this, game, epoch, `${this.processId}:${epoch}`, sentAt, options.onLost);
    if (this.stopped) {
      await lease.release();
      return null;
    }
    this.leases.add(lease);
    this.arm();
    return lease;
  }

  get size() {
    return this.leases.size;
  }

  /** Releases every lease (a clean shutdown, after the games are finished and their writes done). */
  async stop() {
    this.stopped = true;
    this.disarm();
    await Promise.all([...this.leases].map((lease) => lease.release()));
  }

  /** Stops every renewal without releasing anything: a killed process (tests, and a last resort). */
  abandon() {
    this.stopped = true;
    this.disarm();
    for (const lease of [...this.leases]) lease.abandon();
  }

  // --- for the leases -----------------------------------------------------------------------------------------

  forget(lease: Lease) {
    this.leases.delete(lease);
    if (this.leases.size === 0) this.disarm();
  }

  /** Renews every lease given in one script; each learns its own answer (a failure reaches them all). */
  private async renewAll(leases: Lease[], sentAt: number) {
    try {
      const reply = await this.redis.eval(RENEW_ALL, {
        keys: leases.map((lease) => leaseKey(lease.game, this.prefix)),
        arguments: [String(this.timings.ttlMs), ...leases.map((lease) => lease.token)],
      });
      const answers = Array.isArray(reply) ? reply : [];
      for (const [i, lease] of leases.entries()) lease.renewed(sentAt, Number(answers[i]) === 1);
    } catch (error) {
      for (const lease of leases) lease.renewalFailed(error);
    }
  }

  async releaseToken(game: string, token: string): Promise<void> {
    try {
      await this.redis.eval(RELEASE, { keys: [leaseKey(game, this.prefix)], arguments: [token] });
    } catch (error) {
      // Harmless: the lease expires by itself after the ttl.
      this.log?.warn("game lease release failed", { game, error: describeError(error) });
    }
  }

  // --- the one timer ------------------------------------------------------------------------------------------

  private arm() {
    if (this.timer || this.stopped || this.leases.size === 0) return;
    this.timer = this.clock.setTimeout(() => this.turn(), this.timings.renewEveryMs / 4);
  }

  private disarm() {
    if (this.timer) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  /** A timer callback: nothing may escape it (under Bun a throw in a timer ends the process). */
  private turn() {
    this.timer = null;
    const now = this.monotonic();
    const due: Lease[] = [];
    for (const lease of [...this.leases]) {
      try {
        if (lease.tick(now)) due.push(lease);
      } catch (error) {
        this.log?.error("game lease turn failed", { game: lease.game, error: describeError(error) });
      }
    }
    if (due.length > 0) void this.renewAll(due, now);
    this.arm();
  }
}
