import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../modules/kernel/config";
import { testRedis } from "../../modules/kernel/game-host/redis-testing";
import { recordingLogger } from "../../modules/kernel/game-host/test-support";
import type { Logger } from "../../modules/kernel/logger";
import { ROUTING_EVENT } from "../../modules/kernel/routing";
import { type Client, openClient } from "../../modules/rooms/test-support";
import { startTestServer, type TestServer } from "./testing";

// Room affinity (README "Several processes"): with ROOM_AFFINITY=1 and REDIS_URL every new connection hears the
// query parameters the proxy routes by; otherwise nothing, so the web client never reconnects for routing.

let redis: Awaited<ReturnType<typeof testRedis>>;
const servers: TestServer[] = [];
const clients: Client[] = [];

beforeAll(async () => {
  redis = await testRedis();
});
afterAll(async () => {
  for (const client of clients) client.close();
  await Promise.all(servers.map((server) => server.stop()));
  await redis.stop();
});

async function serverWith(env: Record<string, string>, log?: Logger) {
  const server = await startTestServer({ env, seed: false, log });
  servers.push(server);
  return server;
}

/** A fresh connection, once everything the server sent on connecting has arrived (a ping round trip after it). */
async function connected(server: TestServer) {
  const client = await openClient(server, {});
  clients.push(client);
  await client.sync();
  return client;
}

describe("server:routing", () => {
  test("ROOM_AFFINITY=1 with REDIS_URL: every new connection is told the parameters the proxy routes by", async () => {
    const server = await serverWith({ REDIS_URL: redis.url, ROOM_AFFINITY: "1" });
    const first = await connected(server);
    const second = await connected(server);
    expect(first.all(ROUTING_EVENT)).toEqual([{ params: ["room", "guild"] }]);
    expect(second.all(ROUTING_EVENT)).toEqual([{ params: ["room", "guild"] }]);
  });

  test("the default (no ROOM_AFFINITY), even with REDIS_URL: no announcement", async () => {
    const server = await serverWith({ REDIS_URL: redis.url });
    const client = await connected(server);
    expect(client.all(ROUTING_EVENT)).toEqual([]);
  });

  test("ROOM_AFFINITY=0 with REDIS_URL: no announcement", async () => {
    const server = await serverWith({ REDIS_URL: redis.url, ROOM_AFFINITY: "0" });
    const client = await connected(server);
    expect(client.all(ROUTING_EVENT)).toEqual([]);
  });

  test("ROOM_AFFINITY=1 without REDIS_URL (one process): a warning at start, no announcement", async () => {
    const log = recordingLogger();
    const server = await serverWith({ ROOM_AFFINITY: "1" }, log);
    const client = await connected(server);
    expect(client.all(ROUTING_EVENT)).toEqual([]);
    const ignored = log.lines.filter(
      (line) => line.level === "warn" && line.message.startsWith("ROOM_AFFINITY is ignored without REDIS_URL"),
    );
    expect(ignored).toHaveLength(1);
  });

  test("a value other than 1 or 0 stops the server at start", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "tajamadang-test-"));
    try {
      expect(() => loadConfig({ DATA_DIR: dataDir, ROOM_AFFINITY: "yes" })).toThrow(
        "ROOM_AFFINITY must be 1 or 0: yes",
      );
      expect(loadConfig({ DATA_DIR: dataDir, ROOM_AFFINITY: "true" }).roomAffinity).toBe(true);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
