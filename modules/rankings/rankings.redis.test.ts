import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer, type TestUser } from "../../apps/server/testing";
import { accountsModule } from "../accounts";
import { createGamesModule } from "../games";
import { FakeClock } from "../kernel/clock";
import { type TestRedisClient, testRedis } from "../kernel/game-host/redis-testing";
import { systemModule } from "../system";
import { boardRebuildsSettled, createRankingsModule, rebuildRankings } from ".";
import { rankingsRuntime } from "./api";
import { periodEnd, periodKey } from "./rules";
import { guest, kst, member, playResult } from "./test-support";

/**
 * The day and week boards in Redis (a real Redis: TEST_REDIS_URL or one started here), on either SQL engine:
 * reads come from a ready board, a board equals the SQL one after a rebuild and after more results, keys expire.
 */
let redisService: Awaited<ReturnType<typeof testRedis>>;
let redis: TestRedisClient;
let server: TestServer;
let clock: FakeClock;
let alice: TestUser;
let bob: TestUser;
const prefix = `test:${crypto.randomUUID().slice(0, 8)}:`;
/** The boards' keys: the deployment's prefix, then the module's name. */
const namespace = `${prefix}rankings`;
const today = () => periodKey("daily", clock.now());
const thisWeek = () => periodKey("weekly", clock.now());

/** The Redis board and the SQL rows of a period, side by side, in both orders. */
async function bothBoards(key: string) {
  const { store, boards } = rankingsRuntime(server.ctx);
  const out = [];
  for (const sort of ["wpm", "games"] as const) {
    out.push({ sort, redis: await boards!.top(key, sort, 100), sql: await store.top(key, sort, 100) });
  }
  return out;
}

beforeAll(async () => {
  redisService = await testRedis();
  redis = await redisService.client();
  clock = new FakeClock(kst("2026-03-09 12:00:00"));
  server = await startTestServer({
    clock,
    env: { REDIS_URL: redisService.url, REDIS_PREFIX: prefix },
    modules: [accountsModule, systemModule, createGamesModule({ serveRoutes: true }), createRankingsModule()],
  });
  alice = await server.createUser("앨리스");
  bob = await server.createUser("밥");
  const ctx = server.ctx;
  await playResult(ctx, member(alice), { wpm: 300, accuracy: 99, at: kst("2026-03-08 23:59:30") });
  await playResult(ctx, member(bob), { wpm: 200, accuracy: 90, at: kst("2026-03-08 10:00:00") });
  await playResult(ctx, member(alice), { wpm: 100, accuracy: 80, at: kst("2026-03-09 00:00:30") });
  await playResult(ctx, member(bob), { wpm: 250, accuracy: 91, at: kst("2026-03-09 09:00:00") });
});
afterAll(async () => {
  await server?.stop();
  await redisService?.stop();
});

describe("Redis boards", () => {
  test("a board that was never built is not read: the first read answers from SQL and builds it", async () => {
    expect(await redis.exists(`${namespace}:${today()}:ready`)).toBe(0);
    const res = await server.api("GET", "/api/rankings/users?limit=5");
    expect(res.body.map((e: { username: string }) => e.username)).toEqual(["밥", "앨리스"]);
    await boardRebuildsSettled(server.ctx);
    expect(await redis.exists(`${namespace}:${today()}:ready`)).toBe(1);
  });

  test("after `rebuild`, each day and week board equals the SQL one, in both orders", async () => {
    await rebuildRankings(server.ctx, 3);
    for (const key of [today(), thisWeek(), "d:2026-03-08", "w:2026-03-02"]) {
      for (const { redis: fromRedis, sql } of await bothBoards(key)) {
        expect(sql.length).toBeGreaterThan(0);
        expect(fromRedis).toEqual(sql);
      }
    }
  });

  test("results recorded afterwards go into both through one script; ties come in player key order", async () => {
    const ctx = server.ctx;
    await playResult(ctx, guest("zz9", "손님9"), { wpm: 250, accuracy: 93.25, at: kst("2026-03-09 10:00:00") });
    await playResult(ctx, guest("aa1", "손님1"), { wpm: 250, accuracy: 70.5, at: kst("2026-03-09 10:01:00") });
    await playResult(ctx, member(alice), { wpm: 431, accuracy: 97.75, at: kst("2026-03-09 10:02:00") });
    // A guest renamed later in the day: the board shows the latest nickname.
    await playResult(ctx, guest("aa1", "새이름"), { wpm: 250, accuracy: 80, at: kst("2026-03-09 10:03:00") });
    for (const key of [today(), thisWeek()]) {
      for (const { redis: fromRedis, sql } of await bothBoards(key)) expect(fromRedis).toEqual(sql);
    }
    const res = await server.api("GET", "/api/rankings/users?limit=10");
    expect(res.body.map((e: { player_key: string; avg_wpm: number }) => [e.player_key, e.avg_wpm])).toEqual([
      [`u_${alice.id}`, 265.5],
      ["g_aa1", 250], // 250 in 2 games
      ["g_zz9", 250], // 250 in 1 game: "g_zz9" < "u_…" in code point order
      [`u_${bob.id}`, 250],
    ]);
    expect(res.body[1]).toMatchObject({ anonymous_nickname: "새이름", games_played: 2, avg_accuracy: 75.25 });
  });

  test("reads come from the ready board", async () => {
    await redis.hSet(`${namespace}:${today()}:players`, "g_zz9|n", "레디스에서");
    const res = await server.api("GET", "/api/rankings/users?limit=10");
    expect(res.body.find((e: { player_key: string }) => e.player_key === "g_zz9").anonymous_nickname).toBe(
      "레디스에서",
    );
    // All time is kept in SQL only.
    expect(await redis.exists(`${namespace}:all:wpm`)).toBe(0);
  });

  test("a board's keys expire a day after its period ends", async () => {
    for (const key of [today(), thisWeek()]) {
      // By the server's clock: a day after the period ends (a TTL, so less the moments this test has run).
      const keep = periodEnd(key) + 86_400_000 - clock.now();
      for (const board of ["wpm", "games", "players", "ready"]) {
        const ttl = await redis.pTTL(`${namespace}:${key}:${board}`);
        expect(ttl).toBeLessThanOrEqual(keep);
        expect(ttl).toBeGreaterThan(keep - 60_000);
      }
    }
  });

  test("the SQL figures rebuilt from games equal the ones kept result by result", async () => {
    const { store } = rankingsRuntime(server.ctx);
    const kept = await Promise.all([today(), thisWeek(), "all"].map((key) => store.allOf(key)));
    await rebuildRankings(server.ctx, 2);
    const rebuilt = await Promise.all([today(), thisWeek(), "all"].map((key) => store.allOf(key)));
    expect(rebuilt).toEqual(kept);
  });

  test("a board Redis cannot read is answered from SQL, never a 500", async () => {
    const { store } = rankingsRuntime(server.ctx);
    const board = `${namespace}:${today()}:wpm`;
    await redis.del(board);
    await redis.set(board, "not a sorted set"); // ZRANGE now fails with WRONGTYPE
    const res = await server.api("GET", "/api/rankings/users?limit=10");
    expect(res.status).toBe(200);
    const sqlKeys = (await store.top(today(), "wpm", 10)).map((r) => r.playerKey);
    expect(res.body.map((e: { player_key: string }) => e.player_key)).toEqual(sqlKeys);
  });
});
