import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { FakeClock } from "../kernel/clock";
import { type CounterFactory, memoryCounters, SlidingWindowCounter } from "../kernel/counters";
import { redisCounters } from "../kernel/counters-redis";
import { testRedis } from "../kernel/game-host/redis-testing";
import { AddressThrottle, LoginThrottle } from "./throttle";

const limits = { windowMs: 60_000, perPair: 3, perIp: 5, perEmail: 30, knownForMs: 3_600_000 };

let redis: Awaited<ReturnType<typeof testRedis>>;
let redisClient: Awaited<ReturnType<typeof redis.client>>;
beforeAll(async () => {
  redis = await testRedis();
  redisClient = await redis.client();
});
afterAll(async () => {
  await redis.stop();
});

/** The same limits in process memory and in Redis (a fresh deployment prefix per call: tests never share counts). */
const stores: Record<string, (clock: FakeClock, prefix?: string) => CounterFactory> = {
  memory: (clock) => memoryCounters(() => clock.now()),
  redis: (clock, prefix = `test:${crypto.randomUUID().slice(0, 8)}:`) =>
    redisCounters({ redis: redisClient, prefix }, () => clock.now()),
};

describe.each(Object.keys(stores))("counters in %s", (store) => {
  const counters = stores[store];

  /** An attempt's wait (0: counted); an attempt never marked `succeeded` is a failure that stays counted. */
  const waitOf = async (throttle: LoginThrottle, email: string, ip: string) =>
    (await throttle.begin(email, ip)).retryAfter;
  const fail = waitOf;
  const loginThrottle = (clock: FakeClock) => new LoginThrottle(limits, counters(clock));

  describe("LoginThrottle", () => {
    test("blocks an (e-mail, address) pair after repeated failures until the window passes", async () => {
      const clock = new FakeClock();
      const throttle = loginThrottle(clock);
      for (let i = 0; i < 3; i++) expect(await fail(throttle, "a@x.com", "1.1.1.1")).toBe(0);
      expect(await waitOf(throttle, "a@x.com", "1.1.1.1")).toBe(60);
      clock.advance(60_001);
      expect(await waitOf(throttle, "a@x.com", "1.1.1.1")).toBe(0);
    });

    test("a stranger's failures never lock the owner out: the same e-mail from another address still tries", async () => {
      const clock = new FakeClock();
      const throttle = loginThrottle(clock);
      for (let i = 0; i < 3; i++) await fail(throttle, "a@x.com", "6.6.6.6");
      expect(await waitOf(throttle, "a@x.com", "6.6.6.6")).toBeGreaterThan(0);
      const owner = await throttle.begin("a@x.com", "1.1.1.1");
      expect(owner.retryAfter).toBe(0);
      await throttle.succeeded(owner);
    });

    test("a guesser spread over many addresses is slowed at the e-mail-wide count; the owner's known address is not", async () => {
      const clock = new FakeClock();
      const throttle = loginThrottle(clock);
      await throttle.succeeded(await throttle.begin("a@x.com", "1.1.1.1"));
      for (let n = 0; n < 10; n++) {
        for (let i = 0; i < 3; i++) expect(await fail(throttle, "a@x.com", `7.7.7.${n}`)).toBe(0);
      }
      // 30 failures from 10 addresses: an eleventh address waits, for this e-mail only.
      expect(await waitOf(throttle, "a@x.com", "7.7.8.1")).toBe(60);
      expect(await waitOf(throttle, "b@x.com", "7.7.8.1")).toBe(0);
      // The owner, where they logged in before, is not slowed (nor do their logins wipe the guesser's count).
      for (let i = 0; i < 3; i++) {
        const owner = await throttle.begin("a@x.com", "1.1.1.1");
        expect(owner.retryAfter).toBe(0);
        await throttle.succeeded(owner);
      }
      expect(await waitOf(throttle, "a@x.com", "7.7.8.2")).toBeGreaterThan(0);
      clock.advance(60_001);
      expect(await waitOf(throttle, "a@x.com", "7.7.8.2")).toBe(0);
    });

    test("blocks an IP that tries many e-mails", async () => {
      const clock = new FakeClock();
      const throttle = loginThrottle(clock);
      for (let i = 0; i < 5; i++) await fail(throttle, `u${i}@x.com`, "9.9.9.9");
      expect(await waitOf(throttle, "fresh@x.com", "9.9.9.9")).toBeGreaterThan(0);
      expect(await waitOf(throttle, "fresh@x.com", "8.8.8.8")).toBe(0);
    });

    test("attempts count before they are checked: a burst never passes the limit", async () => {
      const clock = new FakeClock();
      const throttle = loginThrottle(clock);
      const burst = await Promise.all(Array.from({ length: 10 }, () => throttle.begin("a@x.com", "1.1.1.1")));
      expect(burst.filter((a) => a.retryAfter === 0)).toHaveLength(3);
    });

    test("a success takes its attempt back and clears the pair's failures", async () => {
      const clock = new FakeClock();
      const throttle = loginThrottle(clock);
      await fail(throttle, "a@x.com", "1.1.1.1");
      await fail(throttle, "a@x.com", "1.1.1.1");
      await throttle.succeeded(await throttle.begin("a@x.com", "1.1.1.1"));
      for (let i = 0; i < 2; i++) await fail(throttle, "a@x.com", "1.1.1.1");
      expect(await waitOf(throttle, "a@x.com", "1.1.1.1")).toBe(0);
      // The address saw 2 + 3 failures and one success: one attempt left before its limit of 5.
      expect(await waitOf(throttle, "b@x.com", "1.1.1.1")).toBeGreaterThan(0);
    });

    test("successful logins of a classroom behind one address do not use up its failures", async () => {
      const clock = new FakeClock();
      const throttle = loginThrottle(clock);
      for (let i = 0; i < 40; i++) {
        const attempt = await throttle.begin(`student${i}@x.com`, "203.0.113.1");
        expect(attempt.retryAfter).toBe(0);
        await throttle.succeeded(attempt);
      }
    });

    test("IPv6 addresses of one /64 share a limit", async () => {
      const clock = new FakeClock();
      const throttle = loginThrottle(clock);
      for (let i = 0; i < 5; i++) await fail(throttle, `u${i}@x.com`, `2001:db8:1:2::${i + 1}`);
      expect(await waitOf(throttle, "fresh@x.com", "2001:db8:1:2:ffff::9")).toBeGreaterThan(0);
      expect(await waitOf(throttle, "fresh@x.com", "2001:db8:1:3::1")).toBe(0);
    });
  });

  test("AddressThrottle counts allowed attempts only and answers the wait once at the limit", async () => {
    const clock = new FakeClock();
    const throttle = new AddressThrottle("test", { windowMs: 60_000, limit: 2 }, counters(clock));
    expect(await throttle.take("203.0.113.1")).toBe(0);
    clock.advance(10_000);
    expect(await throttle.take("203.0.113.1")).toBe(0);
    expect(await throttle.take("203.0.113.1")).toBe(50);
    expect(await throttle.take("203.0.113.2")).toBe(0);
    clock.advance(50_001);
    expect(await throttle.take("203.0.113.1")).toBe(0);
  });

  test("AddressThrottle: a burst of parallel attempts from one address is cut at the limit", async () => {
    const clock = new FakeClock();
    const throttle = new AddressThrottle("test", { windowMs: 60_000, limit: 4 }, counters(clock));
    const waits = await Promise.all(Array.from({ length: 10 }, () => throttle.take("203.0.113.9")));
    expect(waits.filter((wait) => wait === 0)).toHaveLength(4);
  });
});

test("Redis counters are one limit for every process: a burst spread over two processes is cut at the limit", async () => {
  const clock = new FakeClock();
  const prefix = `test:${crypto.randomUUID().slice(0, 8)}:`;
  const processes = [0, 1].map(() => new LoginThrottle(limits, stores.redis(clock, prefix)));
  const burst = await Promise.all(Array.from({ length: 12 }, (_, i) => processes[i % 2].begin("a@x.com", "1.1.1.1")));
  expect(burst.filter((a) => a.retryAfter === 0)).toHaveLength(3);
});

test("Redis counters: the e-mail-wide count and the owner's known address hold across processes", async () => {
  const clock = new FakeClock();
  const prefix = `test:${crypto.randomUUID().slice(0, 8)}:`;
  const [one, two] = [0, 1].map(() => new LoginThrottle(limits, stores.redis(clock, prefix)));
  await one.succeeded(await one.begin("a@x.com", "1.1.1.1"));
  const burst = await Promise.all(
    Array.from({ length: 36 }, (_, i) => (i % 2 ? one : two).begin("a@x.com", `7.7.7.${i % 12}`)),
  );
  expect(burst.filter((a) => a.retryAfter === 0)).toHaveLength(limits.perEmail);
  expect((await two.begin("a@x.com", "7.7.9.9")).retryAfter).toBeGreaterThan(0);
  expect((await two.begin("a@x.com", "1.1.1.1")).retryAfter).toBe(0);
});

describe("SlidingWindowCounter", () => {
  test("many distinct keys keep the map at its bound; the least recently used go first", () => {
    const clock = new FakeClock();
    const counter = new SlidingWindowCounter({ windowMs: 60_000, limit: 2 }, () => clock.now(), 100);
    for (let i = 0; i < 100; i++) counter.record(`k${i}`);
    counter.record("k0"); // used again: now the most recent
    for (let i = 100; i < 1_000; i++) counter.record(`k${i}`);
    expect(counter.size).toBe(100);
    expect(counter.has("k1")).toBe(false);
    expect(counter.has("k899")).toBe(false);
    expect(counter.has("k900")).toBe(true);
    expect(counter.has("k999")).toBe(true);
    counter.record("k1000");
    expect(counter.has("k900")).toBe(false);
  });

  test("a blocked key stays blocked while fresh keys pour in, as long as it keeps being tried", () => {
    const clock = new FakeClock();
    const counter = new SlidingWindowCounter({ windowMs: 60_000, limit: 2 }, () => clock.now(), 10);
    counter.record("victim");
    counter.record("victim");
    for (let i = 0; i < 100; i++) {
      counter.record(`random${i}`);
      if (i % 5 === 0) expect(counter.retryAfter("victim")).toBeGreaterThan(0);
      if (i % 5 === 0) counter.record("victim");
    }
    expect(counter.size).toBe(10);
  });

  test("a key keeps only its newest `limit` attempts, and expired ones are dropped with their key", () => {
    const clock = new FakeClock();
    const counter = new SlidingWindowCounter({ windowMs: 10_000, limit: 3 }, () => clock.now());
    for (let i = 0; i < 1_000; i++) counter.record("busy");
    clock.advance(5_000);
    expect(counter.retryAfter("busy")).toBe(5);
    clock.advance(5_001);
    expect(counter.retryAfter("busy")).toBe(0);
    expect(counter.has("busy")).toBe(false);
  });
});
