import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { FakeClock } from "../clock";
import { epochKey, LeaseKeeper, type LeaseLoss, leaseHolder, leaseKey } from "./lease";
import { eventually, type TestRedisClient, testRedis, uniqueGame } from "./redis-testing";
import { recordingLogger } from "./test-support";

/** Short leases so the tests do not wait seconds; the rules are the same at 5 s. */
const TIMINGS = { ttlMs: 800, renewEveryMs: 200, safetyMarginMs: 300 };

let redis: Awaited<ReturnType<typeof testRedis>>;
let observer: TestRedisClient;
const keepers: LeaseKeeper[] = [];

beforeAll(async () => {
  redis = await testRedis();
  observer = await redis.client();
});
afterAll(async () => {
  for (const keeper of keepers) keeper.abandon();
  await redis.stop();
});

async function keeper(processId: string, options: { monotonic?: () => number; clock?: FakeClock } = {}) {
  const made = new LeaseKeeper({
    redis: await redis.client(),
    processId,
    timings: TIMINGS,
    log: recordingLogger(),
    ...options,
  });
  keepers.push(made);
  return made;
}

const losses = () => {
  const seen: LeaseLoss[] = [];
  return { seen, onLost: (reason: LeaseLoss) => seen.push(reason) };
};

describe("acquire", () => {
  test("one process gets the game; another gets null while it is held; the holder and epoch are in Redis", async () => {
    const game = uniqueGame("acquire");
    const a = await keeper("proc-a");
    const b = await keeper("proc-b");
    const lease = await a.acquire(game, losses());
    expect(lease?.epoch).toBe(1);
    expect(await b.acquire(game, losses())).toBeNull();
    expect(await leaseHolder(observer, game)).toEqual({ processId: "proc-a", epoch: 1 });
    expect(await observer.get(leaseKey(game))).toBe("proc-a:1");
    // Redis expires it by itself if nobody renews it.
    expect(await observer.pTTL(leaseKey(game))).toBeGreaterThan(0);
    await lease?.release();
  });

  test("every new holder gets a higher epoch (the fencing token); a refused acquire does not use one up", async () => {
    const game = uniqueGame("epochs");
    const a = await keeper("proc-a");
    const b = await keeper("proc-b");
    const first = await a.acquire(game, losses());
    expect(await b.acquire(game, losses())).toBeNull();
    await first?.release();
    const second = await b.acquire(game, losses());
    await second?.release();
    const third = await a.acquire(game, losses());
    expect([first?.epoch, second?.epoch, third?.epoch]).toEqual([1, 2, 3]);
    await third?.release();
  });

  test("minEpoch: a Redis that lost its counter still hands out an epoch above what storage has seen", async () => {
    const game = uniqueGame("floor");
    const a = await keeper("proc-a");
    await observer.del(epochKey(game));
    const lease = await a.acquire(game, { minEpoch: 41, onLost: () => {} });
    expect(lease?.epoch).toBe(42);
    await lease?.release();
    const next = await a.acquire(game, { minEpoch: 41, onLost: () => {} });
    expect(next?.epoch).toBe(43);
    await next?.release();
  });
});

describe("renew and release", () => {
  test("a held lease is renewed: it outlives its ttl many times over and stays the holder's", async () => {
    const game = uniqueGame("renew");
    const a = await keeper("proc-a");
    const lost = losses();
    const lease = (await a.acquire(game, lost))!;
    await Bun.sleep(TIMINGS.ttlMs * 4);
    expect(lost.seen).toEqual([]);
    expect(lease.check()).toBe(true);
    expect(await observer.get(leaseKey(game))).toBe(lease.token);
    await lease.release();
  });

  test("release deletes only the holder's own token (compare-and-delete)", async () => {
    const game = uniqueGame("release");
    const a = await keeper("proc-a");
    const lease = (await a.acquire(game, losses()))!;
    await lease.release();
    expect(await observer.get(leaseKey(game))).toBeNull();

    const again = (await a.acquire(game, losses()))!;
    await observer.set(leaseKey(game), "proc-z:99"); // as if it had expired and been taken meanwhile
    await again.release();
    expect(await observer.get(leaseKey(game))).toBe("proc-z:99");
  });

  test("a lease taken over in Redis is lost at the next renewal: onLost('taken'), and the other token stays", async () => {
    const game = uniqueGame("taken");
    const a = await keeper("proc-a");
    const lost = losses();
    const lease = (await a.acquire(game, lost))!;
    await observer.set(leaseKey(game), "proc-z:99", { expiration: { type: "PX", value: 60_000 } });
    expect(await eventually(() => lost.seen.length > 0)).toBe(true);
    expect(lost.seen).toEqual(["taken"]);
    expect(lease.check()).toBe(false);
    expect(await observer.get(leaseKey(game))).toBe("proc-z:99");
  });
});

describe("one process's leases together", () => {
  test("every lease due in a turn is renewed by one script: calls per turn, not per game", async () => {
    const client = await redis.client();
    let scripts = 0;
    const counting = {
      eval: (script: string, options: { keys: string[]; arguments: string[] }) => {
        scripts++;
        return client.eval(script, options);
      },
      get: (key: string) => client.get(key),
    };
    const a = new LeaseKeeper({ redis: counting, processId: "proc-a", timings: TIMINGS, log: recordingLogger() });
    keepers.push(a);
    const games = Array.from({ length: 20 }, (_, i) => uniqueGame(`many${i}`));
    const leases = await Promise.all(games.map((game) => a.acquire(game, losses())));
    scripts = 0;
    await Bun.sleep(TIMINGS.ttlMs * 3);
    // 20 games over 12 renewal periods: 240 calls one per game; one per turn is at most 4 a period.
    expect(scripts).toBeGreaterThan(0);
    expect(scripts).toBeLessThanOrEqual((4 * TIMINGS.ttlMs * 3) / TIMINGS.renewEveryMs + 1);
    for (const [i, lease] of leases.entries()) {
      expect(lease?.check()).toBe(true);
      expect(await observer.get(leaseKey(games[i]))).toBe(lease!.token);
    }
    await a.stop();
  });

  test("renewed together, a lease taken over is lost alone: the others stay held", async () => {
    const a = await keeper("proc-a");
    const games = [uniqueGame("kept1"), uniqueGame("stolen"), uniqueGame("kept2")];
    const lost = games.map(() => losses());
    const leases = await Promise.all(games.map((game, i) => a.acquire(game, lost[i])));
    await observer.set(leaseKey(games[1]), "proc-z:99", { expiration: { type: "PX", value: 60_000 } });
    expect(await eventually(() => lost[1].seen.length > 0)).toBe(true);
    await Bun.sleep(TIMINGS.ttlMs * 2);
    expect(lost.map((l) => l.seen)).toEqual([[], ["taken"], []]);
    expect(leases.map((lease) => lease?.check())).toEqual([true, false, true]);
    expect(await observer.get(leaseKey(games[0]))).toBe(leases[0]!.token);
    expect(await observer.get(leaseKey(games[2]))).toBe(leases[2]!.token);
  });
});

describe("losing the lease", () => {
  test("renewals failing: the owner gives the game up BEFORE Redis lets the lease expire", async () => {
    const game = uniqueGame("partition");
    const client = await redis.client();
    const a = new LeaseKeeper({ redis: client, processId: "proc-a", timings: TIMINGS, log: recordingLogger() });
    keepers.push(a);
    let tokenInRedisWhenLost: string | null | undefined;
    const lost = losses();
    const lease = (await a.acquire(game, {
      onLost: (reason) => {
        lost.onLost(reason);
        // Read synchronously-after: what Redis holds at the moment the owner stops.
        void observer.get(leaseKey(game)).then((token) => {
          tokenInRedisWhenLost = token;
        });
      },
    }))!;
    client.destroy(); // the owner can no longer reach Redis: every renewal fails from now on

    expect(await eventually(() => tokenInRedisWhenLost !== undefined)).toBe(true);
    expect(lost.seen).toEqual(["expired"]);
    expect(tokenInRedisWhenLost).toBe(lease.token); // still its own: the loop stopped before the expiry
    // Then Redis expires it, and another process takes the game with a higher epoch.
    const b = await keeper("proc-b");
    let next: Awaited<ReturnType<LeaseKeeper["acquire"]>> = null;
    expect(
      await eventually(async () => {
        next = await b.acquire(game, losses());
        return next !== null;
      }),
    ).toBe(true);
    expect(next!.epoch).toBeGreaterThan(lease.epoch);
    await next!.release();
  });

  test("check() past the local deadline (a stalled process) loses the lease at once, synchronously", async () => {
    const game = uniqueGame("stall");
    let now = 1_000;
    const a = await keeper("proc-a", { monotonic: () => now, clock: new FakeClock() });
    const lost = losses();
    const lease = (await a.acquire(game, lost))!;
    now += TIMINGS.ttlMs - TIMINGS.safetyMarginMs - 1;
    expect(lease.check()).toBe(true);
    now += 1; // the deadline: acquire sent + ttl − margin
    expect(lease.check()).toBe(false);
    expect(lost.seen).toEqual(["expired"]);
    await observer.del(leaseKey(game));
  });

  test("abandon (a killed process): no release; the game is free only when Redis expires the lease", async () => {
    const game = uniqueGame("abandon");
    const a = await keeper("proc-a");
    const b = await keeper("proc-b");
    const lease = (await a.acquire(game, losses()))!;
    a.abandon();
    expect(await observer.get(leaseKey(game))).toBe(lease.token);
    expect(await b.acquire(game, losses())).toBeNull();
    expect(await eventually(async () => (await observer.get(leaseKey(game))) === null)).toBe(true);
    const next = await b.acquire(game, losses());
    expect(next?.epoch).toBe(lease.epoch + 1);
    await next?.release();
  });

  test("timings that could let the lease expire before the owner notices are refused", () => {
    const make = (timings: object) => () =>
      new LeaseKeeper({ redis: observer, processId: "p", timings: { ...TIMINGS, ...timings } });
    expect(make({ safetyMarginMs: 10 })).toThrow(RangeError);
    expect(make({ ttlMs: 400 })).toThrow(RangeError);
  });
});
