/**
 * A value read from the database and kept for `ttlMs`: one read at a time, and what was read last stays at hand
 * synchronously (`current`) for code that cannot wait (a game step, a timer). `forget()` makes the next read a new
 * one: a read that was already running when it was called is not kept, since it may have missed the change.
 */
export class CachedRead<T> {
  private kept: { at: number; value: T } | null = null;
  private running: { generation: number; read: Promise<T> } | null = null;
  private generation = 0;

  constructor(
    private readonly read: () => Promise<T>,
    private readonly now: () => number,
    private readonly ttlMs: number,
  ) {}

  /** What was read last (undefined before the first read). */
  get current(): T | undefined {
    return this.kept?.value;
  }

  get fresh(): boolean {
    return this.kept !== null && this.now() - this.kept.at < this.ttlMs;
  }

  /** The kept value while fresh, else a read. */
  value(): Promise<T> {
    return this.fresh ? Promise.resolve(this.kept!.value) : this.load();
  }

  /** A read now (or the one running, when it started after the last `forget`). */
  load(): Promise<T> {
    if (this.running?.generation === this.generation) return this.running.read;
    const generation = this.generation;
    const read = this.read().then((value) => {
      if (generation === this.generation) this.kept = { at: this.now(), value };
      return value;
    });
    const running = { generation, read };
    this.running = running;
    const done = () => {
      if (this.running === running) this.running = null;
    };
    read.then(done, done);
    return read;
  }

  /** Resolves once no read is running (the one running now has ended, kept or not). */
  async settled(): Promise<void> {
    while (this.running) await this.running.read.catch(() => {});
  }

  /** The next `value()` reads again; the kept value stays at hand until then. */
  forget() {
    this.generation++;
    this.kept = this.kept && { at: Number.NEGATIVE_INFINITY, value: this.kept.value };
  }
}
