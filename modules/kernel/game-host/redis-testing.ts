import { createClient } from "redis";
import { startRedis } from "../../../scripts/test-services";

export type TestRedisClient = ReturnType<typeof createClient>;

/**
 * A real Redis for the ownership tests: TEST_REDIS_URL (npm test starts one) or a throwaway redis-server started
 * here. Clients made with `client()` are closed by `stop()`; keys are namespaced by the tests (a random game id),
 * so a shared Redis is fine.
 */
export async function testRedis() {
  const given = process.env.TEST_REDIS_URL;
  const service = given ? null : await startRedis();
  const url = given ?? service!.url;
  const clients = new Set<TestRedisClient>();
  const client = async (): Promise<TestRedisClient> => {
    const redis = createClient({ url });
    // A destroyed client (a "killed process") keeps failing its commands: the tests expect that.
    redis.on("error", () => {});
    await redis.connect();
    clients.add(redis);
    return redis;
  };
  const stop = async () => {
    for (const redis of clients) if (redis.isOpen) redis.destroy();
    await service?.stop();
  };
  return { url, client, stop };
}

/** A fresh name per test, so tests never see each other's keys. */
export const uniqueGame = (label: string) => `test_${label}:${crypto.randomUUID().slice(0, 8)}`;

/** Polls `done` until it holds or `limitMs` passes; the caller asserts on the answer, never on the time taken. */
export async function eventually(done: () => boolean | Promise<boolean>, limitMs = 10_000): Promise<boolean> {
  const until = performance.now() + limitMs;
  while (performance.now() < until) {
    if (await done()) return true;
    await Bun.sleep(20);
  }
  return await done();
}
