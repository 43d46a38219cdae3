import type { Clock, TimerHandle } from "../clock";
import type { Logger } from "../logger";
import { describeError } from "./errors";

/**
 * Something to run once at a due time. A host keeps one job for its ticks and re-schedules it after every change;
 * a grace period is a job of its own. Fields are the scheduler's bookkeeping: leave them alone.
 */
export class ScheduledJob {
  /** Due time (clock milliseconds) while queued. */
  at = 0;
  /** Queue order: jobs due at the same time run in the order they were scheduled. */
  seq = 0;
  /** Position in the heap; -1 while not queued. */
  index = -1;

  constructor(readonly run: () => void) {}

  get queued() {
    return this.index >= 0;
  }
}

/** What the scheduler finishes and flushes at shutdown; every GameHost registers itself. */
export interface ScheduledGame {
  /** Ends the round in play (players told, results requested) and stops the game's timers. */
  finish(): void;
  /** Resolves when every write the game requested has been performed (or has finally failed). */
  drain(): Promise<void>;
}

/** setTimeout keeps 32-bit delays; a later due time re-arms when this one fires. */
const MAX_DELAY_MS = 2_147_000_000;

/**
 * ONE timer for every game of the process: a min-heap of jobs ordered by due time, with a single clock timer
 * armed for the earliest. A thousand rooms cost one pending timer, not a thousand (plus one per grace period).
 *
 * A turn (the timer firing) runs due jobs in due-time order and stops at the first job queued during the turn:
 * a late game queues the next step it owes for a time already past, and that step runs on the next turn (a 0 ms
 * timer later), still in due-time order with every other game's steps. A turn never spins on one game, and late
 * steps are never skipped or reordered.
 */
export class GameScheduler {
  private readonly heap: ScheduledJob[] = [];
  private nextSeq = 0;
  private timer: TimerHandle | null = null;
  private armedAt = 0;
  private firing = false;
  private readonly games = new Set<ScheduledGame>();

  constructor(
    readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  /** A new, unqueued job. */
  job(run: () => void): ScheduledJob {
    return new ScheduledJob(run);
  }

  /** Queues the job for `at`, or moves it there when it is queued already. */
  schedule(job: ScheduledJob, at: number) {
    if (!Number.isFinite(at)) throw new RangeError(`a job cannot be due at ${at}`);
    if (job.queued && job.at === at) return;
    if (job.queued) this.removeAt(job.index);
    job.at = at;
    job.seq = this.nextSeq++;
    job.index = this.heap.length;
    this.heap.push(job);
    this.siftUp(job.index);
    this.arm();
  }

  cancel(job: ScheduledJob) {
    if (!job.queued) return;
    this.removeAt(job.index);
    this.arm();
  }

  /** Resolves at `now + ms` on the scheduler's clock (write retries wait with it, so tests can drive them). */
  wait(ms: number): Promise<void> {
    return new Promise((resolve) => this.schedule(this.job(resolve), this.clock.now() + Math.max(0, ms)));
  }

  /** Jobs queued (for tests and diagnostics). */
  get size() {
    return this.heap.length;
  }

  /** When the earliest job is due, or null. */
  get nextDueAt(): number | null {
    return this.heap[0]?.at ?? null;
  }

  // --- the games of the process (shutdown) --------------------------------------------------------------------

  register(game: ScheduledGame) {
    this.games.add(game);
  }

  unregister(game: ScheduledGame) {
    this.games.delete(game);
  }

  get gameCount() {
    return this.games.size;
  }

  /** Flushes every game's queued writes (retries included). */
  async drain() {
    await Promise.all([...this.games].map((game) => game.drain()));
  }

  /**
   * For SIGTERM: every game ends its round in play (players told, results requested) and stops, then every queued
   * write is flushed. The scheduler keeps running meanwhile: write retries wait on it.
   */
  async finishAll() {
    for (const game of [...this.games]) {
      try {
        game.finish();
      } catch (error) {
        this.log.error("finishing a game failed", { error: describeError(error) });
      }
    }
    await this.drain();
  }

  // --- the one timer ------------------------------------------------------------------------------------------

  private arm() {
    if (this.firing) return; // the turn re-arms once when it ends
    const next = this.heap[0];
    if (!next) {
      this.disarm();
      return;
    }
    // Armed no later than needed: keep it (an early fire finds nothing due and re-arms).
    if (this.timer && this.armedAt <= next.at) return;
    this.disarm();
    this.armedAt = next.at;
    const delay = Math.min(MAX_DELAY_MS, Math.max(0, next.at - this.clock.now()));
    this.timer = this.clock.setTimeout(() => this.fire(), delay);
  }

  private disarm() {
    if (this.timer) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private fire() {
    this.timer = null;
    const now = this.clock.now();
    const turn = this.nextSeq; // jobs queued from here on wait for the next turn
    this.firing = true;
    try {
      for (let next = this.heap[0]; next && next.at <= now && next.seq < turn; next = this.heap[0]) {
        this.removeAt(0);
        this.runJob(next);
      }
    } finally {
      this.firing = false;
    }
    this.arm();
  }

  /** Hosts guard their own callbacks; this is the last line of defence for the timer itself. */
  private runJob(job: ScheduledJob) {
    try {
      job.run();
    } catch (error) {
      this.log.error("scheduled job failed", { error: describeError(error) });
    }
  }

  // --- binary min-heap on (at, seq) ---------------------------------------------------------------------------

  private before(a: ScheduledJob, b: ScheduledJob) {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }

  private place(job: ScheduledJob, index: number) {
    this.heap[index] = job;
    job.index = index;
  }

  private siftUp(index: number) {
    const job = this.heap[index];
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!this.before(job, this.heap[parent])) break;
      this.place(this.heap[parent], index);
      index = parent;
    }
    this.place(job, index);
  }

  private siftDown(index: number) {
    const job = this.heap[index];
    const count = this.heap.length;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= count) break;
      const right = left + 1;
      const child = right < count && this.before(this.heap[right], this.heap[left]) ? right : left;
      if (!this.before(this.heap[child], job)) break;
      this.place(this.heap[child], index);
      index = child;
    }
    this.place(job, index);
  }

  private removeAt(index: number) {
    const job = this.heap[index];
    const last = this.heap.pop()!;
    job.index = -1;
    if (last === job) return;
    this.place(last, index);
    this.siftDown(index);
    this.siftUp(last.index);
  }
}

const schedulers = new WeakMap<object, GameScheduler>();

/**
 * The process's one scheduler, shared by every module that hosts games: one per module context (a test server
 * has its own context, so its own scheduler). Shutdown calls `sharedScheduler(ctx).finishAll()`.
 */
export function sharedScheduler(ctx: { clock: Clock; log: Logger }): GameScheduler {
  let scheduler = schedulers.get(ctx);
  if (!scheduler) {
    scheduler = new GameScheduler(ctx.clock, ctx.log.child("games"));
    schedulers.set(ctx, scheduler);
  }
  return scheduler;
}
