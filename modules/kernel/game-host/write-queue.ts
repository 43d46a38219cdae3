import type { Logger } from "../logger";
import { describeError, isStaleOwnerError } from "./errors";

/**
 * A durable write a presenter asks for ("record this accepted result", "finish this game"). It runs after the
 * transition that asked for it, never inside it, and is retried: `run` must be idempotent (the games module keys
 * every write by its `GameRef` and player).
 */
export interface WriteRequest<R = unknown> {
  /** Names the write in logs (`record_result`). */
  name: string;
  run(): R | Promise<R>;
  /** After success, guarded like every game callback (e.g. tell the players their new figures). */
  done?(result: R): void;
  /** After the last try failed (also guarded): what players must see anyway (e.g. results without rewards). */
  failed?(error: unknown): void;
}

export interface RetryPolicy {
  /** Tries in all, the first included. */
  attempts: number;
  /** Wait before the second try; doubled before each further one, up to `maxDelayMs`. */
  firstDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, firstDelayMs: 200, maxDelayMs: 5_000 };

export interface WriteQueueEnv {
  /** Waits on the scheduler's clock. */
  wait(ms: number): Promise<void>;
  log: Logger;
  /** Fields that name the game in log lines. */
  logFields(): Record<string, unknown>;
  /** Runs `request.done(result)` guarded. */
  completed(request: WriteRequest, result: unknown): void;
  /** Runs `request.failed(error)` guarded. */
  gaveUp(request: WriteRequest, error: unknown): void;
  /** Storage refused a write as stale (`StaleOwnerError`): a newer owner has the game; the rest was dropped. */
  fenced(request: WriteRequest, error: unknown): void;
  /** The queue has emptied. */
  idle(): void;
}

/**
 * One game's writes, performed one at a time in the order requested: a result is stored before the finish that
 * follows it, even when the first try of the result failed. A write that still fails after its last try is logged
 * (error) and dropped, and the queue goes on. A write refused as stale (a newer owner of the game has written) is
 * not retried: it and every write queued after it (all of the same, replaced owner) are dropped, and `fenced` runs.
 */
export class WriteQueue {
  // biome-ignore lint/suspicious/noExplicitAny: each request keeps its own result type
  private readonly queue: WriteRequest<any>[] = [];
  private running = false;
  private waiters: (() => void)[] = [];

  constructor(
    private readonly env: WriteQueueEnv,
    private readonly policy: RetryPolicy = DEFAULT_RETRY,
  ) {}

  /** Writes requested and not yet finished (the one running included). */
  get pending() {
    return this.queue.length;
  }

  push<R>(request: WriteRequest<R>) {
    this.queue.push(request);
    if (!this.running) void this.pump();
  }

  /** Resolves when the queue is empty. */
  drain(): Promise<void> {
    if (!this.running && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private async pump() {
    this.running = true;
    // Start after the transition that asked for the write has finished (a synchronous store would run inside it).
    await Promise.resolve();
    while (this.queue.length > 0) {
      const outcome = await this.perform(this.queue[0]);
      if (outcome === "fenced") this.queue.length = 0;
      else this.queue.shift();
    }
    this.running = false;
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
    this.env.idle();
  }

  private async perform(request: WriteRequest): Promise<"done" | "fenced"> {
    for (let attempt = 1; ; attempt++) {
      let result: unknown;
      try {
        result = await request.run();
      } catch (error) {
        const fields = { ...this.env.logFields(), write: request.name, attempt, error: describeError(error) };
        if (isStaleOwnerError(error)) {
          const dropped = this.queue.length - 1;
          this.env.log.warn("game write refused: a newer owner has the game; its writes are dropped", {
            ...fields,
            dropped,
          });
          this.env.fenced(request, error);
          return "fenced";
        }
        if (attempt >= this.policy.attempts) {
          this.env.log.error("game write failed for good; dropped", fields);
          this.env.gaveUp(request, error);
          return "done";
        }
        this.env.log.warn("game write failed; retrying", fields);
        await this.env.wait(this.delayAfter(attempt));
        continue;
      }
      this.env.completed(request, result);
      return "done";
    }
  }

  private delayAfter(attempt: number) {
    return Math.min(this.policy.maxDelayMs, this.policy.firstDelayMs * 2 ** (attempt - 1));
  }
}
