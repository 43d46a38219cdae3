import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { io as connect, type Socket } from "socket.io-client";
import { eventually, testRedis } from "../../modules/kernel/game-host/redis-testing";
import { untypedServer } from "../../modules/kernel/socket";
import { startTestServer, type TestServer } from "./testing";

// Two server processes of one deployment (same Redis, same REDIS_PREFIX) and a third deployment on the same Redis:
// a room broadcast reaches the room's sockets on both processes, once and in order, and never the other deployment.

let redis: Awaited<ReturnType<typeof testRedis>>;
let first: TestServer;
let second: TestServer;
let stranger: TestServer;
const clients: Socket[] = [];

beforeAll(async () => {
  redis = await testRedis();
  const prefix = `test:${crypto.randomUUID().slice(0, 8)}:`;
  first = await startTestServer({ env: { REDIS_URL: redis.url, REDIS_PREFIX: prefix } });
  second = await startTestServer({ env: { REDIS_URL: redis.url, REDIS_PREFIX: prefix } });
  stranger = await startTestServer({ env: { REDIS_URL: redis.url } });
});
afterAll(async () => {
  for (const client of clients) client.disconnect();
  await Promise.all([first?.stop(), second?.stop(), stranger?.stop()]);
  await redis.stop();
});

async function open(server: TestServer, transport: "websocket" | "polling" = "websocket") {
  const client = connect(server.url, {
    path: "/socket.io/",
    transports: [transport],
    reconnection: false,
    forceNew: true,
  });
  clients.push(client);
  await new Promise<void>((resolve, reject) => {
    client.once("connect", resolve);
    client.once("connect_error", reject);
  });
  return client;
}

function record(client: Socket) {
  const seen: number[] = [];
  client.on("probe", (value: number) => seen.push(value));
  return seen;
}

const join = (server: TestServer, client: Socket, room: string) =>
  server.io.of("/").sockets.get(client.id!)!.join(room);

describe("socket.io rooms across processes (Redis streams adapter)", () => {
  test("a broadcast reaches the room on both processes, once, in order, and no other deployment", async () => {
    const here = await open(first);
    const there = await open(second);
    const polling = await open(second, "polling");
    const elsewhere = await open(stranger);
    const room = `room-${crypto.randomUUID()}`;
    for (const [server, client] of [
      [first, here],
      [second, there],
      [second, polling],
      [stranger, elsewhere],
    ] as const)
      join(server, client, room);
    const seen = [here, there, polling, elsewhere].map(record);
    const sent = Array.from({ length: 50 }, (_, i) => i);
    for (const n of sent)
      untypedServer((n % 2 === 0 ? first : second).io)
        .to(room)
        .emit("probe", n);

    expect(await eventually(() => seen.slice(0, 3).every((list) => list.length >= sent.length))).toBe(true);
    await Bun.sleep(100); // a duplicate would arrive within this
    // Each process's own broadcasts keep their order everywhere; every message arrives exactly once.
    for (const list of seen.slice(0, 3)) {
      expect([...list].sort((a, b) => a - b)).toEqual(sent);
      expect(list.filter((n) => n % 2 === 0)).toEqual(sent.filter((n) => n % 2 === 0));
      expect(list.filter((n) => n % 2 === 1)).toEqual(sent.filter((n) => n % 2 === 1));
    }
    expect(seen[3]).toEqual([]);
  });

  test("'all but this socket' and io.local stay what they say across processes", async () => {
    const sender = await open(first);
    const there = await open(second);
    const room = `room-${crypto.randomUUID()}`;
    join(first, sender, room);
    join(second, there, room);
    const [senderSeen, thereSeen] = [sender, there].map(record);
    untypedServer(first.io).of("/").sockets.get(sender.id!)!.to(room).emit("probe", 1);
    untypedServer(first.io).local.to(room).emit("probe", 2);
    untypedServer(second.io).to(room).emit("probe", 3);

    expect(await eventually(() => thereSeen.includes(3) && senderSeen.includes(3))).toBe(true);
    await Bun.sleep(100);
    // Two processes' broadcasts have no order between them (each keeps its own): compare as sets.
    expect(thereSeen.sort()).toEqual([1, 3]);
    expect(senderSeen.sort()).toEqual([2, 3]);
  });
});
