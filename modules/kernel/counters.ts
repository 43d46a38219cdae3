/**
 * Sliding-window attempt counters, shared by every limit of the server: accounts' throttles (login, registration,
 * password resets) and the HTTP write limits (write-limits.ts). Attempts are counted per key (an e-mail, an
 * address, an account) by an `AttemptCounter`; limits are asynchronous so that the counter may live outside the
 * process without touching its users: `memoryCounters` on one process, `redisCounters` (counters-redis.ts) shared by
 * every process when REDIS_URL is set.
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
