import { createLock } from "../../db/database";
import { addressLimitKey } from "../kernel/request-info";

/**
 * Request throttling: attempts are counted per key (an e-mail, an address) in a sliding window, by an
 * `AttemptCounter`. The limiters (`LoginThrottle`, `AddressThrottle`) are asynchronous so that the counter may live
 * outside the process (Redis, shared by several servers) without touching the service: give them another
 * `CounterFactory`: `memoryCounters` on one process, `redisCounters` (throttle-redis.ts) shared by every process when
 * REDIS_URL is set.
 */
export interface WindowLimit {
  windowMs: number;
  /** Attempts allowed per key within the window. */
  limit: number;
}

/**
 * Keys kept at most per limiter. Random keys (a new e-mail per attempt) would otherwise grow the map without end;
 * the least recently used key goes first, so a key under attack (used again and again) stays.
 */
export const DEFAULT_MAX_KEYS = 100_000;

/**
 * Attempt times per key within a sliding window, at most `limit` per key (the newest) and at most `maxKeys` keys,
 * least recently used evicted first (a Map keeps insertion order; a key is moved to the end when used). Every
 * operation touches one key: no sweep over the whole map.
 */
export class SlidingWindowCounter {
  private readonly attempts = new Map<string, number[]>();

  constructor(
    private readonly window: WindowLimit,
    private readonly now: () => number,
    private readonly maxKeys = DEFAULT_MAX_KEYS,
  ) {}

  get size() {
    return this.attempts.size;
  }

  has(key: string) {
    return this.attempts.has(key);
  }

  /** Seconds until one more attempt for `key` is allowed, or 0 when it is allowed now. */
  retryAfter(key: string): number {
    const recent = this.recent(key);
    if (recent.length < this.window.limit) return 0;
    const freesUp = recent[recent.length - this.window.limit] + this.window.windowMs;
    return Math.max(1, Math.ceil((freesUp - this.now()) / 1000));
  }

  /** Counts one attempt now; returns its time (to forgive it later). */
  record(key: string): number {
    const at = this.now();
    const list = this.recent(key);
    list.push(at);
    if (list.length > this.window.limit) list.splice(0, list.length - this.window.limit);
    this.attempts.delete(key);
    this.attempts.set(key, list);
    while (this.attempts.size > this.maxKeys) {
      const oldest = this.attempts.keys().next().value as string;
      this.attempts.delete(oldest);
    }
    return at;
  }

  /** Takes back one attempt recorded at `at` (it turned out fine). */
  forgive(key: string, at: number) {
    const list = this.attempts.get(key);
    const index = list?.lastIndexOf(at) ?? -1;
    if (!list || index < 0) return;
    list.splice(index, 1);
    if (list.length === 0) this.attempts.delete(key);
  }

  clear(key: string) {
    this.attempts.delete(key);
  }

  /** The attempts still inside the window (expired ones are dropped, and a key left empty is removed). */
  private recent(key: string): number[] {
    const list = this.attempts.get(key);
    if (!list) return [];
    const since = this.now() - this.window.windowMs;
    let expired = 0;
    while (expired < list.length && list[expired] <= since) expired++;
    if (expired > 0) list.splice(0, expired);
    if (list.length === 0) this.attempts.delete(key);
    return list;
  }
}

/**
 * A sliding-window attempt counter, the interface a shared implementation (Redis) provides: each method on its own
 * is atomic; the limiters below serialize their check-then-count sequences within the process.
 */
export interface AttemptCounter {
  /**
   * Check and count in one step (atomic in a shared store, so several processes cannot all pass one check):
   * `retryAfter` 0 and the attempt's time `at` when allowed and counted, else the seconds to wait (nothing counted).
   */
  take(key: string): Promise<{ retryAfter: number; at: number }>;
  /** Seconds until one more attempt for `key` is allowed, or 0 when it is allowed now. */
  retryAfter(key: string): Promise<number>;
  /** Counts one attempt now; answers its time, to `forgive` it later. */
  record(key: string): Promise<number>;
  /** Takes back one attempt recorded at `at` (it turned out fine). */
  forgive(key: string, at: number): Promise<void>;
  clear(key: string): Promise<void>;
}

/** Makes the counter of one limiter; `name` keeps limiters apart in a shared store (a Redis key prefix, say). */
export type CounterFactory = (name: string, limit: WindowLimit) => AttemptCounter;

/** Counters in process memory (one `SlidingWindowCounter` each, at most `maxKeys` keys). */
export const memoryCounters =
  (now: () => number, maxKeys = DEFAULT_MAX_KEYS): CounterFactory =>
  (_name, limit) => {
    const counter = new SlidingWindowCounter(limit, now, maxKeys);
    return {
      take: async (key) => {
        const retryAfter = counter.retryAfter(key);
        return { retryAfter, at: retryAfter === 0 ? counter.record(key) : 0 };
      },
      retryAfter: async (key) => counter.retryAfter(key),
      record: async (key) => counter.record(key),
      forgive: async (key, at) => counter.forgive(key, at),
      clear: async (key) => counter.clear(key),
    };
  };

/** Registrations and password resets: one limit per address. */
export interface AddressLimiter {
  /** Counts the attempt when allowed and answers 0; otherwise the seconds to wait (nothing counted). */
  take(ip: string): Promise<number>;
}

/** One limit per address (IPv6 by its /64): registrations and password resets, each costing a password hash. */
export class AddressThrottle implements AddressLimiter {
  private readonly counter: AttemptCounter;
  // Check and count are two calls: attempts of this process go one at a time, so a burst cannot all pass the check.
  private readonly serial = createLock();

  constructor(name: string, limit: WindowLimit, counters: CounterFactory) {
    this.counter = counters(name, limit);
  }

  take(ip: string): Promise<number> {
    const key = addressLimitKey(ip);
    return this.serial(async () => (await this.counter.take(key)).retryAfter);
  }
}

export interface LoginLimits {
  windowMs: number;
  perEmail: number;
  perIp: number;
}

export const DEFAULT_LOGIN_LIMITS: LoginLimits = { windowMs: 15 * 60 * 1000, perEmail: 5, perIp: 30 };
/** About 40 registrations of a classroom behind one address fit; a script hashing passwords for hours does not. */
export const REGISTER_LIMIT: WindowLimit = { windowMs: 60 * 60 * 1000, limit: 50 };
export const RESET_PASSWORD_LIMIT: WindowLimit = { windowMs: 15 * 60 * 1000, limit: 60 };
/** "비밀번호 찾기": each request may send a mail. 20 per address and 3 per e-mail an hour. */
export const FORGOT_PASSWORD_LIMIT: WindowLimit = { windowMs: 60 * 60 * 1000, limit: 20 };
export const FORGOT_PASSWORD_EMAIL_LIMIT: WindowLimit = { windowMs: 60 * 60 * 1000, limit: 3 };

/** A login attempt counted before its password is checked; `retryAfter` > 0 means it was refused (not counted). */
export interface LoginAttempt {
  retryAfter: number;
  emailKey: string;
  ipKey: string;
  /** When the address's attempt was recorded (what `succeeded` takes back). */
  at: number;
}

/** Logins: limits per e-mail and per address, counted before the password is checked. */
export interface LoginLimiter {
  /** Counts an attempt for this e-mail and address, unless one of them is already at its limit. */
  begin(email: string, ip: string): Promise<LoginAttempt>;
  /** The password was right: the attempt does not count, and the e-mail's earlier failures are forgotten. */
  succeeded(attempt: LoginAttempt): Promise<void>;
}

/**
 * Login throttling: every attempt is counted per e-mail and per address before the password is checked (checking
 * takes ~20 ms, and parallel attempts must not all pass a check made before any of them failed). A success takes
 * its own attempt back and clears the e-mail's failures. The same answer is given for known and unknown e-mails, so
 * the throttle reveals nothing about which accounts exist.
 */
export class LoginThrottle implements LoginLimiter {
  private readonly byEmail: AttemptCounter;
  private readonly byIp: AttemptCounter;
  // Check and count are several calls: attempts of this process go one at a time, so a burst of parallel attempts
  // cannot all pass a check made before any of them was counted.
  private readonly serial = createLock();

  constructor(limits: LoginLimits, counters: CounterFactory) {
    this.byEmail = counters("login_email", { windowMs: limits.windowMs, limit: limits.perEmail });
    this.byIp = counters("login_ip", { windowMs: limits.windowMs, limit: limits.perIp });
  }

  begin(email: string, ip: string): Promise<LoginAttempt> {
    const emailKey = email;
    const ipKey = addressLimitKey(ip);
    return this.serial(async () => {
      const byEmail = await this.byEmail.take(emailKey);
      if (byEmail.retryAfter > 0) return { retryAfter: byEmail.retryAfter, emailKey, ipKey, at: 0 };
      const byIp = await this.byIp.take(ipKey);
      if (byIp.retryAfter > 0) {
        // Refused by the address: the e-mail's attempt, counted a moment ago, did not happen either.
        await this.byEmail.forgive(emailKey, byEmail.at);
        return { retryAfter: byIp.retryAfter, emailKey, ipKey, at: 0 };
      }
      // The address's own record time: a success forgives exactly that attempt (the e-mail's are cleared).
      return { retryAfter: 0, emailKey, ipKey, at: byIp.at };
    });
  }

  async succeeded(attempt: LoginAttempt) {
    await Promise.all([this.byEmail.clear(attempt.emailKey), this.byIp.forgive(attempt.ipKey, attempt.at)]);
  }
}
