/**
 * Duel matchmaking as a pure unit (product-rules "1:1 duel"): no clock, no I/O — times come in as arguments.
 *
 * - A player is in at most one queue or game: `enqueue` refuses a player already waiting or playing.
 * - Each waiting player accepts a rating gap of `baseGap` at once, `gapStep` more for every `stepMs` waited.
 *   Two players are paired only when their gap is within BOTH players' accepted gaps (neither gets an opponent
 *   far off because the other waited long); since both windows keep widening, two waiting players always meet.
 * - `match(now)` pairs the closest ratings first: among the acceptable pairs, the smallest gap; ties go to the
 *   pair that has waited longest. The player who queued first plays red. It costs O(n log n) per pass, not an
 *   all-pairs scan (10,000 waiting players are paired in a few passes).
 */
export interface MatchRules {
  baseGap: number;
  gapStep: number;
  stepMs: number;
}

export const DEFAULT_MATCH_RULES: MatchRules = { baseGap: 100, gapStep: 50, stepMs: 5_000 };

export interface Waiting<P = unknown> {
  playerId: string;
  rating: number;
  since: number;
  /** Queue order: who queued first. */
  seq: number;
  /** What the caller needs back with a pair (the player's name, sockets…). */
  data: P;
}

export interface Pairing<P = unknown> {
  red: Waiting<P>;
  blue: Waiting<P>;
  gap: number;
}

export type PlayerStatus = "idle" | "waiting" | "in_game";

export type EnqueueResult = "queued" | "already_waiting" | "in_game";

/** How many players above each one (in rating order) a pass considers: see `match`. */
const NEIGHBOURS = 8;

export class Matchmaker<P = unknown> {
  private readonly queue = new Map<string, Waiting<P>>();
  /** Players in a game (matched and not yet released) → the game's id. */
  private readonly playing = new Map<string, string>();
  private nextSeq = 0;

  constructor(readonly rules: MatchRules = DEFAULT_MATCH_RULES) {}

  enqueue(playerId: string, rating: number, now: number, data: P): EnqueueResult {
    if (this.playing.has(playerId)) return "in_game";
    if (this.queue.has(playerId)) return "already_waiting";
    this.queue.set(playerId, { playerId, rating, since: now, seq: this.nextSeq++, data });
    return "queued";
  }

  /** True when the player was waiting. */
  cancel(playerId: string): boolean {
    return this.queue.delete(playerId);
  }

  /** The player's game is over (or was never started): free to queue again. */
  release(playerId: string) {
    this.playing.delete(playerId);
  }

  /** Marks two players as being in a game (the caller opened it with this id). */
  assign(gameId: string, ...playerIds: string[]) {
    for (const id of playerIds) this.playing.set(id, gameId);
  }

  gameOf(playerId: string): string | undefined {
    return this.playing.get(playerId);
  }

  status(playerId: string): PlayerStatus {
    if (this.playing.has(playerId)) return "in_game";
    return this.queue.has(playerId) ? "waiting" : "idle";
  }

  waiting(playerId: string): Waiting<P> | undefined {
    return this.queue.get(playerId);
  }

  get waitingCount() {
    return this.queue.size;
  }

  /** The rating gap a waiting player accepts at `now`. */
  acceptedGap(entry: Pick<Waiting, "since">, now: number): number {
    const steps = Math.floor(Math.max(0, now - entry.since) / this.rules.stepMs);
    return this.rules.baseGap + steps * this.rules.gapStep;
  }

  /**
   * Pairs whoever can be paired at `now`, closest ratings first, and takes them out of the queue. The caller
   * opens a game per pair and calls `assign` (or `release` when it could not).
   */
  match(now: number): Pairing<P>[] {
    const pairs: Pairing<P>[] = [];
    // Each pass looks only at the next NEIGHBOURS players in rating order; what it pairs takes players out from
    // between the others, so the next pass sees new neighbours. Passes stop when one pairs nobody.
    for (let found = this.pass(now, pairs); found > 0; found = this.pass(now, pairs));
    return pairs;
  }

  private pass(now: number, pairs: Pairing<P>[]): number {
    if (this.queue.size < 2) return 0;
    const byRating = [...this.queue.values()].sort((a, b) => a.rating - b.rating || a.seq - b.seq);
    const gaps = byRating.map((entry) => this.acceptedGap(entry, now));
    const candidates: { a: number; b: number; gap: number; firstSeq: number }[] = [];
    for (let i = 0; i < byRating.length; i++) {
      for (let j = i + 1; j < byRating.length && j <= i + NEIGHBOURS; j++) {
        const gap = byRating[j].rating - byRating[i].rating;
        // Sorted by rating: a later player is farther still.
        if (gap > gaps[i]) break;
        if (gap <= gaps[j]) candidates.push({ a: i, b: j, gap, firstSeq: Math.min(byRating[i].seq, byRating[j].seq) });
      }
    }
    candidates.sort((x, y) => x.gap - y.gap || x.firstSeq - y.firstSeq);
    const taken = new Set<number>();
    for (const c of candidates) {
      if (taken.has(c.a) || taken.has(c.b)) continue;
      taken.add(c.a).add(c.b);
      const [red, blue] = [byRating[c.a], byRating[c.b]].sort((x, y) => x.seq - y.seq);
      this.queue.delete(red.playerId);
      this.queue.delete(blue.playerId);
      pairs.push({ red, blue, gap: c.gap });
    }
    return taken.size / 2;
  }

  /**
   * When a `match` could pair someone who cannot be paired now: the next moment an accepted gap widens, while at
   * least two players wait; null otherwise. (A new player queuing is another such moment: the caller matches then.)
   */
  nextWideningAt(now: number): number | null {
    if (this.queue.size < 2) return null;
    let next = Number.POSITIVE_INFINITY;
    for (const entry of this.queue.values()) {
      const waited = Math.max(0, now - entry.since);
      const at = entry.since + (Math.floor(waited / this.rules.stepMs) + 1) * this.rules.stepMs;
      if (at < next) next = at;
    }
    return next;
  }
}
