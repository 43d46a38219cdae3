import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { io as connect, type Socket } from "socket.io-client";
import { eventually, testRedis } from "../../modules/kernel/game-host/redis-testing";
import { TOO_MANY_CONNECTIONS } from "./connection-limit";
import { startTestServer, type TestServer } from "./testing";

// Two processes of one deployment behind a proxy (the test client on 127.0.0.1 is one): an address's socket.io
// connections are counted across both, and a process that died gives its places back.
const CAP = 3;
let redis: Awaited<ReturnType<typeof testRedis>>;
let first: TestServer;
let second: TestServer;
const prefix = `test:${crypto.randomUUID().slice(0, 8)}:`;
const opened: Socket[] = [];

beforeAll(async () => {
  redis = await testRedis();
  const env = { REDIS_URL: redis.url, REDIS_PREFIX: prefix, TRUST_PROXY: "1", MAX_CONNECTIONS_PER_IP: String(CAP) };
  [first, second] = await Promise.all([startTestServer({ env }), startTestServer({ env })]);
});
afterAll(async () => {
  for (const socket of opened) socket.disconnect();
  await Promise.all([first?.stop(), second?.stop()]);
  await redis.stop();
});

function open(server: TestServer, forwardedFor: string) {
  const socket = connect(server.url, {
    path: "/socket.io/",
    transports: ["websocket"],
    reconnection: false,
    forceNew: true,
    extraHeaders: { "x-forwarded-for": forwardedFor },
  });
  opened.push(socket);
  return new Promise<{ socket: Socket; error?: Error }>((resolve) => {
    socket.once("connect", () => resolve({ socket }));
    socket.once("connect_error", (error) => resolve({ socket, error }));
  });
}

describe("connections per address across processes (Redis)", () => {
  test("the cap counts both processes; a place freed on one can be taken on the other", async () => {
    const ip = "203.0.113.10";
    const held = [await open(first, ip), await open(first, ip), await open(second, ip)];
    expect(held.map((r) => r.error)).toEqual([undefined, undefined, undefined]);
    expect((await open(second, ip)).error?.message).toBe(TOO_MANY_CONNECTIONS);
    expect((await open(first, ip)).error?.message).toBe(TOO_MANY_CONNECTIONS);
    expect((await open(second, "203.0.113.11")).error).toBeUndefined();

    held[0].socket.disconnect();
    expect(await eventually(async () => !(await open(second, ip)).error)).toBe(true);
  });

  test("a burst spread over both processes is cut exactly at the cap", async () => {
    const ip = "203.0.113.12";
    const burst = await Promise.all(Array.from({ length: 4 * CAP }, (_, i) => open(i % 2 ? first : second, ip)));
    expect(burst.filter((r) => !r.error)).toHaveLength(CAP);
  });

  test("the places of a process that died (no alive key) are given back", async () => {
    const ip = "203.0.113.13";
    const client = await redis.client();
    // A crashed process left the address at its cap and never released it.
    await client.hSet(`${prefix}connections:${ip}`, "crashed-process", String(CAP));
    expect((await open(first, ip)).error?.message).toBeUndefined();
    expect(await client.hExists(`${prefix}connections:${ip}`, "crashed-process")).toBeFalsy();
  });
});
