import type { GameScheduler, ScheduledJob } from "./scheduler";

export interface FrameOptions {
  /** At most one frame per this many milliseconds. */
  everyMs: number;
  /** Whether the frame has anything to send when it is due; a frame not sent does not count as the last one. */
  ready(): boolean;
  /** Sends the frame (a broadcast). */
  send(): void;
  /** The send threw: the frame still counts as sent, and nothing escapes the scheduler's job. */
  failed(error: unknown): void;
}

/**
 * A game's live broadcast (the rooms' lanes, the guild game's state), coalesced into frames: every change asks for
 * a frame, and ONE job on the process's shared scheduler sends it at most once per `everyMs` — at once when the
 * last frame is older than that. A burst of keystrokes within one frame is one frame, and no game owns a timer.
 * Both presenters had this code, line for line.
 */
export class CoalescedFrame {
  private readonly job: ScheduledJob;
  private lastAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly scheduler: GameScheduler,
    private readonly options: FrameOptions,
  ) {
    this.job = scheduler.job(() => this.run());
  }

  /** Something changed: a frame is queued, unless one is already (it will carry this change too). */
  request() {
    if (this.job.queued) return;
    this.scheduler.schedule(this.job, Math.max(this.scheduler.clock.now(), this.lastAt + this.options.everyMs));
  }

  /**
   * The queued frame, if any, goes now: what it carries must reach the players before what comes next (the round's
   * last lanes, with their places, before its results).
   */
  flush() {
    if (!this.job.queued) return;
    this.scheduler.cancel(this.job);
    this.run();
  }

  /** No frame is due any more (a new round, or the game stopped here). */
  cancel() {
    this.scheduler.cancel(this.job);
  }

  /** A scheduler job: nothing may escape it. */
  private run() {
    if (!this.options.ready()) return;
    this.lastAt = this.scheduler.clock.now();
    try {
      this.options.send();
    } catch (error) {
      this.options.failed(error);
    }
  }
}
