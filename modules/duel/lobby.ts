import type { Clock } from "../kernel/clock";
import type { DuelPlayer } from "./duel-mode";
import {
  DEFAULT_MATCH_RULES,
  type EnqueueResult,
  Matchmaker,
  type MatchRules,
  type PlayerStatus,
  type Waiting,
} from "./matchmaker";

/**
 * What the duel's players share besides the duels themselves (README "One runtime"): the queue, who is in which
 * duel, the online list, and the announcements of matches and closed duels. One interface, two implementations:
 * `MemoryDuelLobby` (one process, below) and `SharedDuelLobby` (several processes, Redis: shared-lobby.ts). The
 * runtime (runtime.ts) is written once against it; every method may answer at once or with a promise.
 */
export interface DuelLobby {
  /** This process as the queue names it: a match is seated by the process that queued each socket. */
  readonly processId: string;
  /** Listens for matches and closed duels, wherever they were made. */
  start(listeners: LobbyListeners): Promise<void>;
  stop(): Promise<void>;

  // The queue: a player is in at most one queue or duel.
  enqueue(player: DuelPlayer, rating: number, since: number, socketId: string): Awaitable<EnqueueResult>;
  /** True when the player was waiting (and, with `socketId`, had searched from that socket). */
  cancel(playerId: string, socketId?: string): Awaitable<boolean>;
  status(playerId: string): Awaitable<PlayerStatus>;
  waitingCount(): Awaitable<number>;
  /**
   * One matching pass (the pure `Matchmaker`'s rule on the whole queue): each pair is out of the queue and in its
   * new duel (`gameOf`), not yet announced; `nextAt`: when an accepted gap widens next. Null: another process is
   * matching right now (look again shortly).
   */
  matchPass(now: number): Awaitable<{ pairs: MatchAnnouncement[]; nextAt: number | null } | null>;
  /** The processes of the pair's sockets seat them (`LobbyListeners.matched`). */
  announce(match: MatchAnnouncement): Awaitable<void>;

  // Who is in which duel.
  gameOf(playerId: string): Awaitable<string | null>;
  /** Frees a player of this duel only (a newer duel stays). */
  release(playerId: string, sessionId: string): Awaitable<void>;
  /** The duel's players as the matcher stored them, and whether it is over; null when unknown (or long gone). */
  duel(sessionId: string): Awaitable<{ red: DuelPlayer; blue: DuelPlayer; over: boolean } | null>;
  /** True for the duel's first opening; false when it was opened before (this opening is a takeover). */
  open(sessionId: string, epoch: number, red: DuelPlayer, blue: DuelPlayer): Awaitable<boolean>;
  /** The duel is over: a later opener (a stray input after its close) must not play it again. */
  markOver(sessionId: string): Awaitable<void>;
  /** The owner closed the duel: the processes holding these sockets let them go (`LobbyListeners.closed`). */
  announceClosed(closed: ClosedAnnouncement): Awaitable<void>;

  // The online list (players, by their last heartbeat).
  list(player: DuelPlayer, now: number): Awaitable<void>;
  unlist(playerId: string): Awaitable<void>;
  /** The list in list order; see `OnlineQuery` for how old it may be. */
  onlineList(query: OnlineQuery): Awaitable<OnlineList>;
  /** One coalesced list update per window (across processes): true when this process sends the next one. */
  claimListUpdate(windowMs: number): Awaitable<boolean>;

  // Direct challenges (README "Direct challenges").
  /** A player as a challenge sees them: as listed (null unless a heartbeat since `staleBefore`), and their status. */
  presence(playerId: string, staleBefore: number): Awaitable<Presence>;
  /** Records a pending challenge; false when the challenger has one pending to the same member already. */
  createChallenge(challenge: Challenge, now: number): Awaitable<boolean>;
  /** A pending challenge; null once it expired, was answered or cancelled. */
  challenge(id: string, now: number): Awaitable<Challenge | null>;
  /** Takes a challenge out (declined, cancelled, expired): true for the one call that did. */
  dropChallenge(challenge: Challenge): Awaitable<boolean>;
  /**
   * Accepts a pending challenge, all or nothing: the challenge out, both players out of the queue and in the new
   * duel `sessionId` (`gameOf`, `duel`), not yet announced. A player already in a duel refuses it (and the
   * challenge is gone: it can never be accepted).
   */
  acceptChallenge(challenge: Challenge, sessionId: string, now: number): Awaitable<ChallengeAcceptance>;
}

/** A pending direct challenge. */
export interface Challenge {
  id: string;
  /** The challenger, with the socket that challenged: that socket is seated when the challenge is accepted. */
  from: Seated;
  /** The challenged member (with their rating, for the duel's watchers). */
  to: DuelPlayer;
  /** Server time after which it cannot be accepted. */
  expiresAt: number;
}

export interface Presence {
  listed: DuelPlayer | null;
  status: PlayerStatus;
}

export type ChallengeAcceptance = "accepted" | "gone" | "accepter_in_game" | "challenger_in_game";

/** A socket of a player on a process: what a match announcement seats. */
export interface Seated {
  player: DuelPlayer;
  process: string;
  socketId: string;
}

export type Awaitable<T> = T | Promise<T>;

export interface LobbyListeners {
  matched(match: MatchAnnouncement): void;
  closed(closed: ClosedAnnouncement): void;
  /** An announcement that could not be read (several processes). */
  unreadable(what: string): void;
}

/** A queued player as the queue keeps it. */
export interface SharedWaiting extends Seated {
  playerId: string;
  rating: number;
  since: number;
  seq: number;
}

/** A pair as announced (matched, or an accepted challenge): the process of each socket seats it. */
export interface MatchAnnouncement {
  sessionId: string;
  red: Seated;
  blue: Seated;
}

/** A duel closed on its owner, with the sockets that were still in it. */
export interface ClosedAnnouncement {
  sessionId: string;
  sockets: { socketId: string; playerId: string }[];
}

export interface OnlineQuery {
  now: number;
  /** Players whose last heartbeat is older are not listed (and are pruned). */
  staleBefore: number;
  /** A push: as of now. An answer may use a list up to `LIST_REBUILD_MS` old when it is longer than `limit`. */
  fresh: boolean;
  limit: number;
}

export interface OnlineEntry {
  player: DuelPlayer;
  status: PlayerStatus;
  /** The duel the player is in (watchers use it), null when not in one. */
  sessionId: string | null;
}

export interface OnlineList {
  ordered: OnlineEntry[];
  byId: Map<string, OnlineEntry>;
  waitingCount: number;
  /** A player's status as of the list, or newer where the lobby knows it at no cost (one process). */
  statusOf(playerId: string): PlayerStatus;
}

export const STATUS_ORDER: Record<PlayerStatus, number> = { waiting: 0, idle: 1, in_game: 2 };
export const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** A list longer than the shown window is rebuilt at most this often (README "The online list"). */
export const LIST_REBUILD_MS = 250;

/**
 * List order: waiting, idle, in game, then by name. Names compare by code unit: Hangul syllables are in 가나다
 * order there, and it costs a fraction of a collator.
 */
export function listOrder(entries: OnlineEntry[]): OnlineEntry[] {
  return entries.sort(
    (a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status] || byName(a.player.name, b.player.name),
  );
}

/** Matched players' duel record lives this long (longer than any duel: ready, countdown, game, linger). */
export const DUEL_TTL_MS = 10 * 60_000;

interface QueuedHere {
  player: DuelPlayer;
  socketId: string;
}

interface DuelRecord {
  red: DuelPlayer;
  blue: DuelPlayer;
  opened: boolean;
  over: boolean;
}

/**
 * The lobby of one process, in memory: the pure `Matchmaker` keeps the queue and who is in which duel, a map the
 * online list. Announcements go straight to the listeners. The duel records (players, opened, over) are kept as
 * long as Redis keeps them (`DUEL_TTL_MS`), so a stray input after a close is refused the same way.
 *
 * The online list is rebuilt only when it changed (every change goes through here) or when its oldest heartbeat
 * may have gone stale, and a list longer than `limit` at most every `LIST_REBUILD_MS` for answers: every finished
 * duel asks for the list twice per player (spec part 2 §4 step 7), a few hundred answers a second at 10,000
 * players, and sorting the whole menu for each was a third of the duel's CPU (bench/README "1:1 duel").
 */
export class MemoryDuelLobby implements DuelLobby {
  readonly processId = "local";
  private readonly matchmaker: Matchmaker<QueuedHere>;
  private readonly duels = new Map<string, DuelRecord>();
  /** Duel records in the order they expire (one TTL, so in the order they were made). */
  private readonly expiries: { at: number; sessionId: string }[] = [];
  private readonly online = new Map<string, { player: DuelPlayer; beatAt: number }>();
  private readonly challenges = new Map<string, Challenge>();
  /** challenger>challenged → the pending challenge's id. */
  private readonly pendingPairs = new Map<string, string>();
  private listeners: LobbyListeners | null = null;
  private listed: { ordered: OnlineEntry[]; byId: Map<string, OnlineEntry>; builtAt: number; oldestBeat: number } = {
    ordered: [],
    byId: new Map(),
    builtAt: Number.NEGATIVE_INFINITY,
    oldestBeat: Number.POSITIVE_INFINITY,
  };
  private dirty = true;

  constructor(
    private readonly clock: Clock,
    rules: MatchRules = DEFAULT_MATCH_RULES,
  ) {
    this.matchmaker = new Matchmaker(rules);
  }

  async start(listeners: LobbyListeners) {
    this.listeners = listeners;
  }

  async stop() {
    this.listeners = null;
  }

  // --- the queue -------------------------------------------------------------------------------------------------

  enqueue(player: DuelPlayer, rating: number, since: number, socketId: string): EnqueueResult {
    const queued = this.matchmaker.enqueue(player.id, rating, since, { player, socketId });
    if (queued === "queued") this.dirty = true;
    return queued;
  }

  cancel(playerId: string, socketId?: string): boolean {
    if (socketId !== undefined && this.matchmaker.waiting(playerId)?.data.socketId !== socketId) return false;
    const cancelled = this.matchmaker.cancel(playerId);
    if (cancelled) this.dirty = true;
    return cancelled;
  }

  status(playerId: string): PlayerStatus {
    return this.matchmaker.status(playerId);
  }

  waitingCount(): number {
    return this.matchmaker.waitingCount;
  }

  matchPass(now: number) {
    this.expire();
    const pairs: MatchAnnouncement[] = [];
    for (const { red, blue } of this.matchmaker.match(now)) {
      const sessionId = crypto.randomUUID();
      this.startDuel(sessionId, red.data.player, blue.data.player);
      pairs.push({ sessionId, red: this.shared(red), blue: this.shared(blue) });
    }
    return { pairs, nextAt: this.matchmaker.nextWideningAt(now) };
  }

  /** Both players in a new duel (matched, or a challenge accepted). */
  private startDuel(sessionId: string, red: DuelPlayer, blue: DuelPlayer) {
    this.matchmaker.assign(sessionId, red.id, blue.id);
    this.duels.set(sessionId, { red, blue, opened: false, over: false });
    this.expiries.push({ at: this.clock.now() + DUEL_TTL_MS, sessionId });
    this.dirty = true;
  }

  private shared({ playerId, rating, since, seq, data }: Waiting<QueuedHere>): SharedWaiting {
    return { playerId, rating, since, seq, process: this.processId, socketId: data.socketId, player: data.player };
  }

  announce(match: MatchAnnouncement) {
    this.listeners?.matched(match);
  }

  private expire() {
    const now = this.clock.now();
    while (this.expiries.length > 0 && this.expiries[0].at <= now) {
      this.duels.delete(this.expiries.shift()!.sessionId);
    }
  }

  // --- duels -----------------------------------------------------------------------------------------------------

  gameOf(playerId: string): string | null {
    return this.matchmaker.gameOf(playerId) ?? null;
  }

  release(playerId: string, sessionId: string) {
    if (this.matchmaker.gameOf(playerId) !== sessionId) return;
    this.matchmaker.release(playerId);
    this.dirty = true;
  }

  duel(sessionId: string) {
    const record = this.duels.get(sessionId);
    return record ? { red: record.red, blue: record.blue, over: record.over } : null;
  }

  open(sessionId: string): boolean {
    const record = this.duels.get(sessionId);
    if (!record || record.opened) return false;
    record.opened = true;
    return true;
  }

  markOver(sessionId: string) {
    const record = this.duels.get(sessionId);
    if (record) record.over = true;
  }

  announceClosed(closed: ClosedAnnouncement) {
    this.listeners?.closed(closed);
  }

  // --- the online list -------------------------------------------------------------------------------------------

  list(player: DuelPlayer, now: number) {
    const entry = this.online.get(player.id);
    if (entry) {
      entry.beatAt = now;
      return;
    }
    this.online.set(player.id, { player, beatAt: now });
    this.dirty = true;
  }

  unlist(playerId: string) {
    if (this.online.delete(playerId)) this.dirty = true;
  }

  onlineList({ now, staleBefore, fresh, limit }: OnlineQuery): OnlineList {
    const current = this.listed;
    const unchanged = !this.dirty && current.oldestBeat >= staleBefore;
    const recent = !fresh && current.ordered.length > limit && now < current.builtAt + LIST_REBUILD_MS;
    if (!unchanged && !recent) this.rebuild(now, staleBefore);
    const { ordered, byId } = this.listed;
    const matchmaker = this.matchmaker;
    return {
      ordered,
      byId,
      waitingCount: matchmaker.waitingCount,
      statusOf: (playerId) => matchmaker.status(playerId),
    };
  }

  private rebuild(now: number, staleBefore: number) {
    const byId = new Map<string, OnlineEntry>();
    let oldestBeat = Number.POSITIVE_INFINITY;
    for (const [playerId, entry] of this.online) {
      if (entry.beatAt < staleBefore) {
        this.online.delete(playerId);
        continue;
      }
      if (entry.beatAt < oldestBeat) oldestBeat = entry.beatAt;
      const sessionId = this.matchmaker.gameOf(playerId) ?? null;
      byId.set(playerId, { player: entry.player, status: this.matchmaker.status(playerId), sessionId });
    }
    this.listed = { ordered: listOrder([...byId.values()]), byId, builtAt: now, oldestBeat };
    this.dirty = false;
  }

  claimListUpdate(): boolean {
    return true;
  }

  // --- direct challenges -----------------------------------------------------------------------------------------

  presence(playerId: string, staleBefore: number): Presence {
    const entry = this.online.get(playerId);
    const listed = entry && entry.beatAt >= staleBefore ? entry.player : null;
    return { listed, status: this.matchmaker.status(playerId) };
  }

  createChallenge(challenge: Challenge, now: number): boolean {
    const pair = pairKey(challenge);
    const pending = this.pendingPairs.get(pair);
    if (pending && this.challenge(pending, now)) return false;
    this.challenges.set(challenge.id, challenge);
    this.pendingPairs.set(pair, challenge.id);
    return true;
  }

  challenge(id: string, now: number): Challenge | null {
    const challenge = this.challenges.get(id);
    return challenge && challenge.expiresAt > now ? challenge : null;
  }

  /** Expired ones too: the challenger's process drops each one when its time is up, and tells both sides. */
  dropChallenge(challenge: Challenge): boolean {
    if (!this.challenges.delete(challenge.id)) return false;
    const pair = pairKey(challenge);
    if (this.pendingPairs.get(pair) === challenge.id) this.pendingPairs.delete(pair);
    return true;
  }

  acceptChallenge(challenge: Challenge, sessionId: string, now: number): ChallengeAcceptance {
    if (!this.challenge(challenge.id, now)) return "gone";
    this.dropChallenge(challenge);
    const from = challenge.from.player;
    const to = challenge.to;
    if (this.matchmaker.gameOf(to.id)) return "accepter_in_game";
    if (this.matchmaker.gameOf(from.id)) return "challenger_in_game";
    this.matchmaker.cancel(from.id);
    this.matchmaker.cancel(to.id);
    this.startDuel(sessionId, from, to);
    return "accepted";
  }
}

/** One pending challenge per challenger and challenged member. */
const pairKey = (challenge: Challenge) => `${challenge.from.player.id}>${challenge.to.id}`;
