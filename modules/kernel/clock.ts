/** Time and randomness are injected so game loops and token expiry can be tested without sleeping. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}
export type TimerHandle = { readonly id: number } | ReturnType<typeof setTimeout>;

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** A clock that only moves when told to: `advance(ms)` fires due timers in order. */
export class FakeClock implements Clock {
  private current: number;
  private nextId = 1;
  private timers = new Map<number, { at: number; fn: () => void }>();

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.current = start;
  }
  now() {
    return this.current;
  }
  setTimeout(fn: () => void, ms: number) {
    const id = this.nextId++;
    this.timers.set(id, { at: this.current + Math.max(0, ms), fn });
    return { id };
  }
  clearTimeout(handle: TimerHandle) {
    if (handle && typeof handle === "object" && "id" in handle) this.timers.delete(handle.id as number);
  }
  /** Time passes and due timers fire at their times, in order. */
  advance(ms: number) {
    const target = this.current + ms;
    for (let due = this.earliest(target); due; due = this.earliest(target)) {
      this.timers.delete(due[0]);
      this.current = due[1].at;
      due[1].fn();
    }
    this.current = target;
  }
  /** Time passes but nothing fires (a stalled process); the next `advance` fires the overdue timers late. */
  stall(ms: number) {
    this.current += ms;
  }
  private earliest(until: number) {
    let best: [number, { at: number; fn: () => void }] | undefined;
    for (const entry of this.timers) {
      if (entry[1].at <= until && (!best || entry[1].at < best[1].at)) best = entry;
    }
    return best;
  }
  pendingTimers() {
    return this.timers.size;
  }
}

export interface Random {
  /** A float in [0, 1). */
  next(): number;
  int(minInclusive: number, maxInclusive: number): number;
  pick<T>(items: readonly T[]): T;
}

export const createRandom = (source: () => number = Math.random): Random => ({
  next: source,
  int: (min, max) => min + Math.floor(source() * (max - min + 1)),
  pick: (items) => items[Math.floor(source() * items.length)],
});

/** A deterministic generator (mulberry32) for tests. */
export const seededRandom = (seed: number): Random => {
  let state = seed >>> 0;
  return createRandom(() => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  });
};
