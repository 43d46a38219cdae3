import { RACE_STEP_RULES } from "../../../modules/kernel/race-steps";

/**
 * Sends what the answer box holds while a round is in play (`game:progress`, `guild_game:progress`; product-rules
 * "Live race and replays"): at most one step per `intervalMs` (10 a second), the last change always sent, never
 * the same text twice. `flush()` before the answer sends a change still waiting, so the server's last step is the
 * answer (a result whose answer differs from its last step is refused). The server counts on this pace: it reads
 * steps arriving closer together as held up on the way, not typed that fast (kernel race-steps `sendingTimes`).
 */
export class ProgressSender {
  private lastSent: string | null = null;
  private pending: string | null = null;
  private lastAt = Number.NEGATIVE_INFINITY;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly send: (typedText: string) => void,
    private readonly intervalMs: number = RACE_STEP_RULES.clientStepIntervalMs,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The box changed. */
  update(typedText: string) {
    if (typedText === this.lastSent && this.pending === null) return;
    this.pending = typedText;
    const wait = this.lastAt + this.intervalMs - this.now();
    if (wait <= 0) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), wait);
  }

  /** Sends the waiting change now (before the answer, or when the round ends). */
  flush() {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const text = this.pending;
    this.pending = null;
    if (text === null || text === this.lastSent) return;
    this.lastSent = text;
    this.lastAt = this.now();
    this.send(text);
  }

  /** A new round: nothing sent yet, nothing waiting. */
  reset() {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.pending = null;
    this.lastSent = null;
    this.lastAt = Number.NEGATIVE_INFINITY;
  }
}
