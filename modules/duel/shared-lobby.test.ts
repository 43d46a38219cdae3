import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type TestRedisClient, testRedis } from "../kernel/game-host/redis-testing";
import type { DuelPlayer } from "./duel-mode";
import { SharedDuelLobby, type SharedWaiting } from "./shared-lobby";

// The duel's shared state on a real Redis (TEST_REDIS_URL or a throwaway redis-server). Two lobbies with their own
// connections stand for two processes; every test has its own prefix.
let redis: Awaited<ReturnType<typeof testRedis>>;
let clients: TestRedisClient[];

beforeAll(async () => {
  redis = await testRedis();
  clients = [await redis.client(), await redis.client()];
});
afterAll(() => redis.stop());

/** Two processes of one deployment (one prefix). */
function processes() {
  const prefix = `test:${crypto.randomUUID().slice(0, 8)}:`;
  return clients.map((client, index) => new SharedDuelLobby({ redis: client, processId: `p${index}`, prefix }));
}

let n = 0;
const player = (): DuelPlayer => {
  n++;
  return { id: `u:${n}`, name: `결투자${n}`, userId: n, key: `u_${n}` };
};

async function queued(lobby: SharedDuelLobby, id: string): Promise<SharedWaiting> {
  const entry = (await lobby.waiting()).find((w) => w.playerId === id);
  if (!entry) throw new Error(`${id} is not waiting`);
  return entry;
}

describe("the shared queue", () => {
  test("a player waits once, with rating, time, process and socket; cancel only by the searching socket", async () => {
    const [a, b] = processes();
    const p = player();
    expect(await a.enqueue(p, 1600, 1000, "s1")).toBe("queued");
    expect(await b.enqueue(p, 1600, 2000, "s2")).toBe("already_waiting");
    expect(await queued(b, p.id)).toMatchObject({
      rating: 1600,
      since: 1000,
      process: "p0",
      socketId: "s1",
      player: p,
    });
    expect(await b.waitingCount()).toBe(1);
    expect(await b.cancel(p.id, "s2")).toBe(false);
    expect(await b.cancel(p.id, "s1")).toBe(true);
    expect(await a.waitingCount()).toBe(0);
    expect(await a.cancel(p.id)).toBe(false);
  });

  test("a pair is taken by one process only; its players are in the duel and cannot queue again", async () => {
    const [a, b] = processes();
    const [p, q, r] = [player(), player(), player()];
    await a.enqueue(p, 1500, 0, "sp");
    await b.enqueue(q, 1510, 0, "sq");
    await b.enqueue(r, 1520, 0, "sr");
    const [wp, wq, wr] = [await queued(a, p.id), await queued(a, q.id), await queued(a, r.id)];
    // Two matchers race for overlapping pairs: q can be in one duel only.
    const taken = await Promise.all([a.take("duel-1", wp, wq), b.take("duel-2", wq, wr)]);
    expect(taken.filter(Boolean)).toHaveLength(1);
    const sessionId = taken[0] ? "duel-1" : "duel-2";
    expect(await a.gameOf(q.id)).toBe(sessionId);
    expect(await b.enqueue(q, 1510, 0, "sq")).toBe("in_game");
    expect(await a.waitingCount()).toBe(1);
    const duel = await b.duel(sessionId);
    expect(duel).toMatchObject({ over: false });
    expect([duel?.red.id, duel?.blue.id]).toContain(q.id);
  });

  test("the first opening is the duel's; a later one is a takeover; release frees only that duel's players", async () => {
    const [a, b] = processes();
    const [p, q] = [player(), player()];
    await a.enqueue(p, 1500, 0, "sp");
    await a.enqueue(q, 1500, 0, "sq");
    expect(await a.take("duel-x", await queued(a, p.id), await queued(a, q.id))).toBe(true);
    expect(await a.open("duel-x", 1, p, q)).toBe(true);
    expect(await b.open("duel-x", 2, p, q)).toBe(false);
    await b.release(p.id, "another-duel");
    expect(await a.gameOf(p.id)).toBe("duel-x");
    await b.release(p.id, "duel-x");
    expect(await a.gameOf(p.id)).toBeNull();
    await b.markOver("duel-x");
    expect(await a.duel("duel-x")).toMatchObject({ over: true });
    expect(await a.enqueue(p, 1500, 0, "sp")).toBe("queued");
  });

  test("one matching pass at a time", async () => {
    const [a, b] = processes();
    expect(await a.claimMatcher(2_000)).toBe(true);
    expect(await b.claimMatcher(2_000)).toBe(false);
    await b.releaseMatcher(); // not b's: changes nothing
    expect(await b.claimMatcher(2_000)).toBe(false);
    await a.releaseMatcher();
    expect(await b.claimMatcher(2_000)).toBe(true);
  });
});

describe("the shared online list", () => {
  test("players of both processes, stale ones pruned, each with their status", async () => {
    const [a, b] = processes();
    const [idle, waiting, playing, stale] = [player(), player(), player(), player()];
    await a.list(idle, 10_000);
    await b.list(waiting, 10_000);
    await a.list(playing, 10_000);
    await b.list(stale, 1_000);
    await b.enqueue(waiting, 1500, 0, "s1");
    const other = player();
    await a.enqueue(playing, 1500, 0, "s2");
    await a.enqueue(other, 1500, 0, "s3");
    await a.take("duel-y", await queued(a, playing.id), await queued(a, other.id));
    const list = await a.online(5_000);
    const status = Object.fromEntries(list.map((e) => [e.player.name, e.status]));
    expect(status).toEqual({ [idle.name]: "idle", [waiting.name]: "waiting", [playing.name]: "in_game" });
    expect(list.find((e) => e.player.id === idle.id)?.player).toEqual(idle);
    await b.unlist(idle.id);
    expect((await a.online(5_000)).map((e) => e.player.id).sort()).toEqual([playing.id, waiting.id].sort());
  });

  test("one coalesced list update per window across processes", async () => {
    const [a, b] = processes();
    expect(await a.claimListUpdate(5_000)).toBe(true);
    expect(await b.claimListUpdate(5_000)).toBe(false);
  });
});

describe("shared challenges", () => {
  const challengeOf = (from: DuelPlayer, to: DuelPlayer, expiresAt: number) => ({
    id: crypto.randomUUID(),
    from: { player: { ...from, rating: 1510 }, process: "p0", socketId: "s-from" },
    to: { ...to, rating: 1490 },
    expiresAt,
  });

  test("one pending per pair; read from any process until it expires; dropped once", async () => {
    const [a, b] = processes();
    const [p, q, r] = [player(), player(), player()];
    const first = challengeOf(p, q, 15_000);
    expect(await a.createChallenge(first, 0)).toBe(true);
    expect(await b.createChallenge(challengeOf(p, q, 15_000), 0)).toBe(false);
    // Other pairs are free: the other way round, and p to someone else.
    expect(await b.createChallenge(challengeOf(q, p, 15_000), 0)).toBe(true);
    expect(await b.createChallenge(challengeOf(p, r, 15_000), 0)).toBe(true);
    expect(await b.challenge(first.id, 14_999)).toEqual(first);
    expect(await b.challenge(first.id, 15_000)).toBeNull();
    expect(await b.dropChallenge(first)).toBe(true);
    expect(await a.dropChallenge(first)).toBe(false);
    expect(await a.createChallenge(challengeOf(p, q, 30_000), 15_000)).toBe(true);
  });

  test("accepted once, on any process: both out of the queue and in the new duel with their ratings", async () => {
    const [a, b] = processes();
    const [p, q] = [player(), player()];
    await a.enqueue(p, 1500, 0, "sp");
    const challenge = challengeOf(p, q, 15_000);
    await a.createChallenge(challenge, 0);
    expect(await b.acceptChallenge(challenge, "duel-c1", 1_000)).toBe("accepted");
    expect(await a.acceptChallenge(challenge, "duel-c2", 1_000)).toBe("gone");
    expect(await a.gameOf(p.id)).toBe("duel-c1");
    expect(await a.gameOf(q.id)).toBe("duel-c1");
    expect(await a.waitingCount()).toBe(0);
    const duel = await b.duel("duel-c1");
    expect([duel?.red.rating, duel?.blue.rating, duel?.blue.name]).toEqual([1510, 1490, q.name]);
    expect(await b.presence(q.id, 0)).toEqual({ listed: null, status: "in_game" });
  });

  test("too late or busy: refused, and a busy challenge is gone for good", async () => {
    const [a, b] = processes();
    const [p, q, r] = [player(), player(), player()];
    const late = challengeOf(p, q, 15_000);
    await a.createChallenge(late, 0);
    expect(await b.acceptChallenge(late, "duel-late", 15_000)).toBe("gone");
    // The challenger's process still finds it to tell both sides it expired.
    expect(await a.dropChallenge(late)).toBe(true);

    const busy = challengeOf(p, q, 30_000);
    await a.createChallenge(busy, 15_000);
    await a.enqueue(p, 1500, 0, "sp");
    await a.enqueue(r, 1500, 0, "sr");
    expect((await a.matchPass(16_000))?.pairs).toHaveLength(1);
    expect(await b.acceptChallenge(busy, "duel-busy", 17_000)).toBe("challenger_in_game");
    expect(await b.challenge(busy.id, 17_000)).toBeNull();
    expect(await b.gameOf(q.id)).toBeNull();

    const toBusy = challengeOf(q, r, 30_000);
    await a.createChallenge(toBusy, 17_000);
    expect(await b.acceptChallenge(toBusy, "duel-x", 17_000)).toBe("accepter_in_game");
  });

  test("presence: listed with a fresh heartbeat, with the name the list shows", async () => {
    const [a, b] = processes();
    const p = player();
    expect(await b.presence(p.id, 0)).toEqual({ listed: null, status: "idle" });
    await a.list(p, 10_000);
    expect(await b.presence(p.id, 5_000)).toEqual({ listed: p, status: "idle" });
    expect((await b.presence(p.id, 10_001)).listed).toBeNull();
  });
});
