import type { Cluster } from "../kernel/cluster";
import type { DuelPlayer } from "./duel-mode";
import {
  type Challenge,
  type ChallengeAcceptance,
  type ClosedAnnouncement,
  DUEL_TTL_MS,
  type DuelLobby,
  LIST_REBUILD_MS,
  type LobbyListeners,
  listOrder,
  type MatchAnnouncement,
  type OnlineEntry,
  type OnlineList,
  type OnlineQuery,
  type Presence,
  type SharedWaiting,
} from "./lobby";
import { DEFAULT_MATCH_RULES, type EnqueueResult, Matchmaker, type MatchRules, type PlayerStatus } from "./matchmaker";

export type { ClosedAnnouncement, MatchAnnouncement, SharedWaiting } from "./lobby";

/**
 * What the duel shares between processes through Redis (README "Several processes"). Every key and channel starts
 * with the deployment's prefix then `duel:`:
 *
 * - `queue` (sorted set: player id → rating) and `waiting:<player>` (hash: seq, since, process, socket, player);
 * - `playing:<player>` (string: the session id; a TTL, so a lost duel never locks a player out for ever);
 * - `game:<session>` (hash: `players` JSON, `opened` epoch, `over`): what an opener needs, and whether a duel was
 *   already opened (a later opener is a takeover) or is over (a late input must not revive it);
 * - `online` (sorted set: player id → last heartbeat) and `names` (hash: player id → {name, key});
 * - `matcher` (a short lease: one matching pass at a time), `list` (one coalesced list update per window);
 * - `challenge:<id>` (hash: the pending challenge's `record` JSON and `expires`; lives 5 s past its expiry so its
 *   challenger's process can still drop it and tell both sides) and `challenged:<from>:<to>` (the id, until the
 *   expiry: one pending challenge per pair);
 * - channel `match`: a pair, announced to the players' processes; channel `closed`: a duel closed on its owner, so
 *   the processes of its sockets forget it.
 *
 * Enqueue, cancel, take and a challenge's creation, drop and acceptance are Lua scripts: two processes never take the same player, and a player is in at most
 * one queue or game. The duel's lobby on several processes (`DuelLobby`, lobby.ts; the one-process lobby is
 * `MemoryDuelLobby` there).
 */

/** Players matched but not yet in an opened duel keep their `playing` key this long (a lost announcement). */
const UNOPENED_TTL_MS = 60_000;
/** A matching pass holds the shared matcher lease at most this long. */
const MATCHER_TTL_MS = 2_000;

const ENQUEUE = `
if redis.call('EXISTS', KEYS[3]) == 1 then return 'in_game' end
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 'already_waiting' end
local seq = redis.call('INCR', KEYS[4])
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[2], 'seq', seq, 'since', ARGV[3], 'process', ARGV[4], 'socket', ARGV[5], 'player', ARGV[6])
return 'queued'`;

/** Cancels a search; with a socket id (ARGV[2] not empty), only the search that socket made. */
const CANCEL = `
if ARGV[2] ~= '' and redis.call('HGET', KEYS[2], 'socket') ~= ARGV[2] then return 0 end
redis.call('DEL', KEYS[2])
return redis.call('ZREM', KEYS[1], ARGV[1])`;

/**
 * Both players of a new duel out of the queue and playing its session, and the duel's record written: the end of TAKE
 * and of ACCEPT_CHALLENGE. Its keys and arguments (`startKeys`, `startArguments`) start at KEYS[k] and ARGV[a].
 */
const startDuel = (k: number, a: number) => `
redis.call('ZREM', KEYS[${k}], ARGV[${a}], ARGV[${a + 1}])
redis.call('DEL', KEYS[${k + 1}], KEYS[${k + 2}])
redis.call('SET', KEYS[${k + 3}], ARGV[${a + 2}], 'PX', ARGV[${a + 3}])
redis.call('SET', KEYS[${k + 4}], ARGV[${a + 2}], 'PX', ARGV[${a + 3}])
redis.call('HSET', KEYS[${k + 5}], 'players', ARGV[${a + 4}])
redis.call('PEXPIRE', KEYS[${k + 5}], ARGV[${a + 5}])`;

/** Takes a pair out of the queue, both or neither; marks both as playing the new session. */
const TAKE = `
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) or not redis.call('ZSCORE', KEYS[1], ARGV[2]) then return 0 end
${startDuel(1, 1)}
return 1`;

/** The first opening of a duel: 1 (and the players' keys last as long as a duel); 0 for a takeover. */
const OPEN = `
if redis.call('HSETNX', KEYS[1], 'opened', ARGV[1]) == 0 then return 0 end
for i = 2, #KEYS do
  if redis.call('GET', KEYS[i]) == ARGV[2] then redis.call('PEXPIRE', KEYS[i], ARGV[3]) end
end
return 1`;

/** Frees a player of this session only (a newer duel's key stays). */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/** A pending challenge, unless the challenger has one pending to the same member (then 0). */
const CREATE_CHALLENGE = `
if not redis.call('SET', KEYS[2], ARGV[1], 'NX', 'PX', ARGV[2]) then return 0 end
redis.call('HSET', KEYS[1], 'record', ARGV[3], 'expires', ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`;

/** Takes a challenge out: 1 for the one call that did. */
const DROP_CHALLENGE = `
if redis.call('DEL', KEYS[1]) == 0 then return 0 end
if redis.call('GET', KEYS[2]) == ARGV[1] then redis.call('DEL', KEYS[2]) end
return 1`;

/**
 * Accepts a challenge, all or nothing: gone when expired or taken; otherwise it is taken out, and unless either
 * player is in a duel, both leave the queue and are playing the new session (as TAKE does for a matched pair).
 */
const ACCEPT_CHALLENGE = `
local expires = redis.call('HGET', KEYS[1], 'expires')
if not expires or tonumber(expires) <= tonumber(ARGV[1]) then return 'gone' end
redis.call('DEL', KEYS[1])
if redis.call('GET', KEYS[2]) == ARGV[2] then redis.call('DEL', KEYS[2]) end
if redis.call('EXISTS', KEYS[7]) == 1 then return 'accepter_in_game' end
if redis.call('EXISTS', KEYS[6]) == 1 then return 'challenger_in_game' end
${startDuel(3, 3)}
return 'accepted'`;

/**
 * A challenge's record outlives its expiry by this much, so the challenger's process, dropping it when its time is
 * up, still finds it and tells both sides; it cannot be accepted meanwhile (the scripts compare `expires`).
 */
const CHALLENGE_GRACE_MS = 5_000;

const DROP_LEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/** The arguments of `startDuel`: the players (red first), the session, how long it stays unopened, the record. */
const startArguments = (sessionId: string, red: DuelPlayer, blue: DuelPlayer) => [
  red.id,
  blue.id,
  sessionId,
  String(UNOPENED_TTL_MS),
  JSON.stringify({ red, blue }),
  String(DUEL_TTL_MS),
];

export class SharedDuelLobby implements DuelLobby {
  private readonly base: string;
  private listeners: LobbyListeners | null = null;
  private readonly onMatch = (message: string) => this.heard("match", message);
  private readonly onClosed = (message: string) => this.heard("closed", message);
  /** The last read of the online list (a long list is read at most every `LIST_REBUILD_MS` for answers). */
  private lastOnline: (OnlineList & { at: number }) | null = null;

  /** `subscriber`: for the announcements (`start`); the tests of the queue alone go without. */
  constructor(
    private readonly cluster: Pick<Cluster, "redis" | "processId" | "prefix"> & Partial<Pick<Cluster, "subscriber">>,
    private readonly rules: MatchRules = DEFAULT_MATCH_RULES,
  ) {
    this.base = `${cluster.prefix}duel:`;
  }

  get processId() {
    return this.cluster.processId;
  }

  async start(listeners: LobbyListeners) {
    this.listeners = listeners;
    const { subscriber } = this.cluster;
    if (!subscriber) throw new Error("SharedDuelLobby.start needs a subscriber connection");
    await Promise.all([
      subscriber.subscribe(this.matchChannel, this.onMatch),
      subscriber.subscribe(this.closedChannel, this.onClosed),
    ]);
  }

  async stop() {
    this.listeners = null;
    const { subscriber } = this.cluster;
    await Promise.all([
      subscriber?.unsubscribe(this.matchChannel, this.onMatch),
      subscriber?.unsubscribe(this.closedChannel, this.onClosed),
    ]).catch(() => undefined);
  }

  /** A subscription callback: never throws (an unreadable message is reported and dropped). */
  private heard(channel: "match" | "closed", message: string) {
    const listeners = this.listeners;
    if (!listeners) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(message);
    } catch {
      listeners.unreadable(`duel ${channel} announcement`);
      return;
    }
    if (channel === "match") listeners.matched(parsed as MatchAnnouncement);
    else listeners.closed(parsed as ClosedAnnouncement);
  }

  private get redis() {
    return this.cluster.redis;
  }

  readonly key = {
    queue: () => `${this.base}queue`,
    seq: () => `${this.base}seq`,
    waiting: (playerId: string) => `${this.base}waiting:${playerId}`,
    playing: (playerId: string) => `${this.base}playing:${playerId}`,
    game: (sessionId: string) => `${this.base}game:${sessionId}`,
    online: () => `${this.base}online`,
    names: () => `${this.base}names`,
    matcher: () => `${this.base}matcher`,
    list: () => `${this.base}list`,
    challenge: (id: string) => `${this.base}challenge:${id}`,
    challenged: (fromId: string, toId: string) => `${this.base}challenged:${fromId}:${toId}`,
  };

  get matchChannel() {
    return `${this.base}match`;
  }

  get closedChannel() {
    return `${this.base}closed`;
  }

  // --- the queue -------------------------------------------------------------------------------------------------

  async enqueue(player: DuelPlayer, rating: number, since: number, socketId: string): Promise<EnqueueResult> {
    const { key } = this;
    const reply = await this.redis.eval(ENQUEUE, {
      keys: [key.queue(), key.waiting(player.id), key.playing(player.id), key.seq()],
      arguments: [player.id, String(rating), String(since), this.cluster.processId, socketId, JSON.stringify(player)],
    });
    return reply as EnqueueResult;
  }

  /** True when the player was waiting (and, with `socketId`, had searched from that socket). */
  async cancel(playerId: string, socketId = ""): Promise<boolean> {
    const reply = await this.redis.eval(CANCEL, {
      keys: [this.key.queue(), this.key.waiting(playerId)],
      arguments: [playerId, socketId],
    });
    return reply === 1;
  }

  /** Everyone waiting, with what the pure matchmaker needs. */
  async waiting(): Promise<SharedWaiting[]> {
    const entries = await this.redis.zRangeWithScores(this.key.queue(), 0, -1);
    if (entries.length === 0) return [];
    const multi = this.redis.multi();
    for (const { value } of entries) multi.hGetAll(this.key.waiting(value));
    const hashes = (await multi.exec()) as unknown as Record<string, string>[];
    const result: SharedWaiting[] = [];
    for (const [index, { value, score }] of entries.entries()) {
      const hash = hashes[index];
      if (!hash?.player) continue;
      result.push({
        playerId: value,
        rating: score,
        since: Number(hash.since),
        seq: Number(hash.seq),
        process: hash.process,
        socketId: hash.socket,
        player: JSON.parse(hash.player) as DuelPlayer,
      });
    }
    return result;
  }

  waitingCount(): Promise<number> {
    return this.redis.zCard(this.key.queue());
  }

  async status(playerId: string): Promise<PlayerStatus> {
    const [playing, score] = await Promise.all([
      this.redis.get(this.key.playing(playerId)),
      this.redis.zScore(this.key.queue(), playerId),
    ]);
    return playing ? "in_game" : score !== null ? "waiting" : "idle";
  }

  /**
   * A matching pass under the shared matcher lease (null when another process holds it): the pure `Matchmaker`'s
   * rule on the shared queue in queue order; each pair is taken atomically (a player another pass took meanwhile
   * fails the take).
   */
  async matchPass(now: number): Promise<{ pairs: MatchAnnouncement[]; nextAt: number | null } | null> {
    if (!(await this.claimMatcher(MATCHER_TTL_MS))) return null;
    try {
      const matchmaker = new Matchmaker<SharedWaiting>(this.rules);
      const waiting = (await this.waiting()).sort((a, b) => a.seq - b.seq);
      for (const entry of waiting) matchmaker.enqueue(entry.playerId, entry.rating, entry.since, entry);
      const pairs: MatchAnnouncement[] = [];
      for (const { red, blue } of matchmaker.match(now)) {
        const sessionId = crypto.randomUUID();
        if (await this.take(sessionId, red.data, blue.data)) pairs.push({ sessionId, red: red.data, blue: blue.data });
      }
      return { pairs, nextAt: matchmaker.nextWideningAt(now) };
    } finally {
      await this.releaseMatcher();
    }
  }

  /** Takes the pair out of the queue (both or neither) into a new session; false when one of them is gone. */
  async take(sessionId: string, red: SharedWaiting, blue: SharedWaiting): Promise<boolean> {
    const reply = await this.redis.eval(TAKE, {
      keys: this.startKeys(sessionId, red.player, blue.player),
      arguments: startArguments(sessionId, red.player, blue.player),
    });
    return reply === 1;
  }

  /** The keys of `startDuel`: the queue, both players' waiting and playing keys, the duel's record. */
  private startKeys(sessionId: string, red: DuelPlayer, blue: DuelPlayer) {
    const { key } = this;
    return [
      key.queue(),
      key.waiting(red.id),
      key.waiting(blue.id),
      key.playing(red.id),
      key.playing(blue.id),
      key.game(sessionId),
    ];
  }

  async announce(match: MatchAnnouncement) {
    await this.redis.publish(this.matchChannel, JSON.stringify(match));
  }

  /** The owner closed the duel: the processes holding these sockets let them go. */
  async announceClosed(closed: ClosedAnnouncement) {
    await this.redis.publish(this.closedChannel, JSON.stringify(closed));
  }

  /** One matching pass at a time across processes: true when this process may run one now. */
  async claimMatcher(ttlMs: number): Promise<boolean> {
    const reply = await this.redis.set(this.key.matcher(), this.cluster.processId, { NX: true, PX: ttlMs });
    return reply === "OK";
  }

  async releaseMatcher() {
    await this.redis.eval(DROP_LEASE, { keys: [this.key.matcher()], arguments: [this.cluster.processId] });
  }

  // --- duels -----------------------------------------------------------------------------------------------------

  gameOf(playerId: string): Promise<string | null> {
    return this.redis.get(this.key.playing(playerId));
  }

  async release(playerId: string, sessionId: string) {
    await this.redis.eval(RELEASE, { keys: [this.key.playing(playerId)], arguments: [sessionId] });
  }

  /** The duel's players as the matcher stored them, whether it is over; null when unknown (or long gone). */
  async duel(sessionId: string): Promise<{ red: DuelPlayer; blue: DuelPlayer; over: boolean } | null> {
    const hash = await this.redis.hGetAll(this.key.game(sessionId));
    if (!hash?.players) return null;
    return { ...(JSON.parse(hash.players) as { red: DuelPlayer; blue: DuelPlayer }), over: hash.over === "1" };
  }

  /** True for the duel's first opening; false when it was opened before (this opening is a takeover). */
  async open(sessionId: string, epoch: number, red: DuelPlayer, blue: DuelPlayer): Promise<boolean> {
    const { key } = this;
    const reply = await this.redis.eval(OPEN, {
      keys: [key.game(sessionId), key.playing(red.id), key.playing(blue.id)],
      arguments: [String(epoch), sessionId, String(DUEL_TTL_MS)],
    });
    return reply === 1;
  }

  /** The duel is over: a later opener (a stray input after its close) must not play it again. */
  async markOver(sessionId: string) {
    await this.redis.hSet(this.key.game(sessionId), "over", "1");
  }

  // --- the online list -------------------------------------------------------------------------------------------

  async list(player: DuelPlayer, now: number) {
    await this.redis
      .multi()
      .zAdd(this.key.online(), { score: now, value: player.id })
      .hSet(this.key.names(), player.id, JSON.stringify({ name: player.name, key: player.key }))
      .exec();
  }

  async unlist(playerId: string) {
    await this.redis.multi().zRem(this.key.online(), playerId).hDel(this.key.names(), playerId).exec();
  }

  /** The players listed since `staleBefore` (older ones are pruned), each with their status. */
  async online(staleBefore: number): Promise<OnlineEntry[]> {
    const { key } = this;
    await this.redis.zRemRangeByScore(key.online(), "-inf", `(${staleBefore}`);
    const ids = await this.redis.zRange(key.online(), 0, -1);
    if (ids.length === 0) return [];
    const [names, waiting, playing] = await Promise.all([
      this.redis.hmGet(key.names(), ids),
      this.redis.zmScore(key.queue(), ids),
      this.redis.mGet(ids.map((id) => key.playing(id))),
    ]);
    const result: OnlineEntry[] = [];
    for (const [index, id] of ids.entries()) {
      const shown = names[index];
      if (!shown) continue;
      const sessionId = playing[index] ?? null;
      const status: PlayerStatus = sessionId ? "in_game" : waiting[index] !== null ? "waiting" : "idle";
      result.push({ player: this.listedPlayer(id, shown), status, sessionId });
    }
    return result;
  }

  /** A listed player from its entry in `names`. */
  private listedPlayer(id: string, shown: string): DuelPlayer {
    const { name, key: publicKey } = JSON.parse(shown) as { name: string; key: string };
    return { id, name, key: publicKey, userId: id.startsWith("u:") ? Number(id.slice(2)) : null };
  }

  /**
   * The shared online list in list order. As on one process (lobby.ts), a list longer than its window is read and
   * sorted at most every `LIST_REBUILD_MS` for the answers every finished duel asks for; changes come from every
   * process, so the rule is by time alone.
   */
  async onlineList({ now, staleBefore, fresh, limit }: OnlineQuery): Promise<OnlineList> {
    const last = this.lastOnline;
    if (!fresh && last && last.ordered.length > limit && now < last.at + LIST_REBUILD_MS) return last;
    const [online, waitingCount] = await Promise.all([this.online(staleBefore), this.waitingCount()]);
    const ordered = listOrder(online);
    const byId = new Map<string, OnlineEntry>(ordered.map((entry) => [entry.player.id, entry]));
    const statusOf = (playerId: string) => byId.get(playerId)?.status ?? "idle";
    this.lastOnline = { at: now, ordered, byId, waitingCount, statusOf };
    return this.lastOnline;
  }

  /** One coalesced list update per window across processes: true when this process sends the next one. */
  async claimListUpdate(windowMs: number): Promise<boolean> {
    return (await this.redis.set(this.key.list(), this.cluster.processId, { NX: true, PX: windowMs })) === "OK";
  }

  // --- direct challenges -----------------------------------------------------------------------------------------

  async presence(playerId: string, staleBefore: number): Promise<Presence> {
    const { key } = this;
    const [beatAt, shown, playing, waiting] = await Promise.all([
      this.redis.zScore(key.online(), playerId),
      this.redis.hGet(key.names(), playerId),
      this.redis.exists(key.playing(playerId)),
      this.redis.zScore(key.queue(), playerId),
    ]);
    const status: PlayerStatus = playing ? "in_game" : waiting !== null ? "waiting" : "idle";
    if (beatAt === null || beatAt < staleBefore || !shown) return { listed: null, status };
    return { listed: this.listedPlayer(playerId, shown), status };
  }

  async createChallenge(challenge: Challenge, now: number): Promise<boolean> {
    const ttl = Math.max(1, challenge.expiresAt - now);
    const reply = await this.redis.eval(CREATE_CHALLENGE, {
      keys: [this.key.challenge(challenge.id), this.challengedKey(challenge)],
      arguments: [
        challenge.id,
        String(ttl),
        JSON.stringify(challenge),
        String(challenge.expiresAt),
        String(ttl + CHALLENGE_GRACE_MS),
      ],
    });
    return reply === 1;
  }

  async challenge(id: string, now: number): Promise<Challenge | null> {
    const stored = await this.redis.hmGet(this.key.challenge(id), ["record", "expires"]);
    const [record, expires] = stored;
    if (!record || Number(expires) <= now) return null;
    return JSON.parse(record) as Challenge;
  }

  async dropChallenge(challenge: Challenge): Promise<boolean> {
    const reply = await this.redis.eval(DROP_CHALLENGE, {
      keys: [this.key.challenge(challenge.id), this.challengedKey(challenge)],
      arguments: [challenge.id],
    });
    return reply === 1;
  }

  async acceptChallenge(challenge: Challenge, sessionId: string, now: number): Promise<ChallengeAcceptance> {
    const from = challenge.from.player;
    const reply = await this.redis.eval(ACCEPT_CHALLENGE, {
      keys: [
        this.key.challenge(challenge.id),
        this.challengedKey(challenge),
        ...this.startKeys(sessionId, from, challenge.to),
      ],
      arguments: [String(now), challenge.id, ...startArguments(sessionId, from, challenge.to)],
    });
    return reply as ChallengeAcceptance;
  }

  private challengedKey(challenge: Challenge) {
    return this.key.challenged(challenge.from.player.id, challenge.to.id);
  }
}
