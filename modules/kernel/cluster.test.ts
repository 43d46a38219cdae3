import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { freePort } from "../../scripts/test-services";
import { openCluster } from "./cluster";
import { eventually, testRedis } from "./game-host/redis-testing";
import { createLogger } from "./logger";

const log = createLogger("error");
let redis: Awaited<ReturnType<typeof testRedis>>;

beforeAll(async () => {
  redis = await testRedis();
});
afterAll(async () => {
  await redis.stop();
});

describe("openCluster", () => {
  test("two processes get different ids and reach each other through the subscriber", async () => {
    const a = await openCluster(redis.url, log);
    const b = await openCluster(redis.url, log);
    try {
      expect(a.processId).not.toBe(b.processId);
      const heard: string[] = [];
      const channel = `test:cluster:${crypto.randomUUID()}`;
      await b.subscriber.subscribe(channel, (message) => heard.push(message));
      await a.redis.publish(channel, "안녕");
      expect(await eventually(() => heard.length === 1)).toBe(true);
      expect(heard).toEqual(["안녕"]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  test("close is safe to call twice and closes both connections", async () => {
    const cluster = await openCluster(redis.url, log);
    await Promise.all([cluster.close(), cluster.close()]);
    expect(cluster.redis.isOpen).toBe(false);
    expect(cluster.subscriber.isOpen).toBe(false);
  });

  test("a Redis that is not there stops the boot with a clear error instead of waiting forever", async () => {
    const port = await freePort();
    await expect(openCluster(`redis://127.0.0.1:${port}`, log)).rejects.toThrow("REDIS_URL에 연결할 수 없습니다");
  });
});
