import { afterAll, beforeAll, expect, test } from "bun:test";
import { Server as Engine } from "@socket.io/bun-engine";
import { createAdapter } from "@socket.io/redis-streams-adapter";
import { Server } from "socket.io";
import { io as connect, type Socket } from "socket.io-client";
import type { AppServer } from "../socket";
import { adapterEmitter, type GameEmitter, localFirstEmitter, userChannel } from "./emitter";
import { testRedis } from "./redis-testing";

/** The events these tests send: made up, not the app's wire contract. */
type ToyEvents = Record<`toy:${string}`, (payload: unknown) => void>;

/**
 * The emitter of several processes against two real socket.io servers joined by the Redis streams adapter (the
 * adapter the server uses with REDIS_URL): a game owned on server A reaches a socket connected to server B.
 */

let redis: Awaited<ReturnType<typeof testRedis>>;
const stops: (() => void)[] = [];

beforeAll(async () => {
  redis = await testRedis();
});
afterAll(async () => {
  for (const stop of stops) stop();
  await redis.stop();
});

async function startNode(streamName: string) {
  const engine = new Engine({ path: "/socket.io/" });
  const io = new Server({ adapter: createAdapter(await redis.client(), { streamName }) }) as unknown as AppServer;
  io.bind(engine as never);
  io.on("connection", (socket) => {
    const user = Number(socket.handshake.auth.user);
    if (user) socket.join(userChannel(user));
  });
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", ...engine.handler() });
  stops.push(() => {
    io.close();
    server.stop(true);
  });
  return { io, url: `http://127.0.0.1:${server.port}` };
}

interface Client {
  socket: Socket;
  seen: string[];
  next(event: string): Promise<unknown>;
}

async function open(url: string, auth: Record<string, string>): Promise<Client> {
  const socket = connect(url, { path: "/socket.io/", transports: ["websocket"], forceNew: true, auth });
  const seen: string[] = [];
  socket.onAny((event: string, payload: unknown) => seen.push(`${event}:${JSON.stringify(payload)}`));
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", reject);
  });
  stops.push(() => socket.disconnect());
  return { socket, seen, next: (event) => new Promise((resolve) => socket.once(event, resolve)) };
}

/** Sent last: once it has arrived, everything sent before it to that socket has arrived (one ordered stream). */
async function flush(emitter: GameEmitter<ToyEvents>, clients: Client[]) {
  const markers = clients.map((c) => c.next("toy:marker"));
  emitter.toSockets(
    clients.map((c) => c.socket.id!),
    "toy:marker",
    {},
  );
  await Promise.all(markers);
}

test("the adapter emitter on A reaches sockets on B: channel, sockets by id, user channel, join and leave, in order", async () => {
  const stream = `socket.io-test-${crypto.randomUUID().slice(0, 8)}`;
  const a = await startNode(stream);
  const b = await startNode(stream);
  const owner = adapterEmitter<ToyEvents>(a.io);
  const onB = await open(b.url, { user: "7" });
  const alsoOnB = await open(b.url, {});
  const onA = await open(a.url, {});
  const [idB, idB2] = [onB.socket.id!, alsoOnB.socket.id!];
  // B reads the stream from where it was when its first read started: wait until A hears B's sockets (a round trip
  // through the adapter), or on a busy machine A's first packets could be written before B reads at all.
  for (let tries = 0; (await a.io.fetchSockets()).length < 3 && tries < 50; tries++) await Bun.sleep(100);

  owner.join(idB, "toy:1");
  owner.join(onA.socket.id!, "toy:1");
  owner.toChannel("toy:1", "toy:hello", { to: "channel" });
  owner.toSockets([idB2], "toy:hello", { to: "b2" });
  owner.toSockets([], "toy:hello", { to: "nobody" });
  owner.toUser(7, "toy:hello", { to: "user" });
  owner.leave(idB, "toy:1");
  owner.toChannel("toy:1", "toy:hello", { to: "channel again" });
  await flush(owner, [onB, alsoOnB, onA]);

  const toy = (c: Client) => c.seen.filter((e) => e.startsWith("toy:hello"));
  expect(toy(onB)).toEqual(['toy:hello:{"to":"channel"}', 'toy:hello:{"to":"user"}']);
  expect(toy(alsoOnB)).toEqual(['toy:hello:{"to":"b2"}']);
  expect(toy(onA)).toEqual(['toy:hello:{"to":"channel"}', 'toy:hello:{"to":"channel again"}']);
});

test("the local-first emitter: a channel with no socket elsewhere stays on its process; one joined elsewhere gets every broadcast until it leaves", async () => {
  const stream = `socket.io-test-${crypto.randomUUID().slice(0, 8)}`;
  const a = await startNode(stream);
  const b = await startNode(stream);
  const owner = localFirstEmitter<ToyEvents>(a.io);
  const onA = await open(a.url, {});
  const player = await open(b.url, {});
  // A socket on B in a room of the same name that the emitter never joined: it shows what crossed the stream.
  const eavesdropper = await open(b.url, {});
  for (let tries = 0; (await a.io.fetchSockets()).length < 3 && tries < 50; tries++) await Bun.sleep(100);
  b.io.of("/").sockets.get(eavesdropper.socket.id!)!.join("toy:2");

  owner.join(onA.socket.id!, "toy:2");
  owner.toChannel("toy:2", "toy:hello", { to: "only here" });
  owner.join(player.socket.id!, "toy:2");
  owner.toChannel("toy:2", "toy:hello", { to: "everywhere" });
  owner.toSockets([onA.socket.id!, player.socket.id!], "toy:hello", { to: "both by id" });
  owner.leave(player.socket.id!, "toy:2");
  owner.toChannel("toy:2", "toy:hello", { to: "here again" });
  await flush(owner, [onA, player, eavesdropper]);
  await Bun.sleep(200); // this bare test server delivers an adapter broadcast locally once Redis has it

  const toy = (c: Client) => c.seen.filter((e) => e.startsWith("toy:hello")).map((e) => JSON.parse(e.slice(10)).to);
  // Order on A is the fast broadcast's business (apps/server/fast-broadcast.ts delivers locally at once).
  expect(toy(onA).sort()).toEqual(["both by id", "everywhere", "here again", "only here"]);
  expect(toy(player)).toEqual(["everywhere", "both by id"]);
  expect(toy(eavesdropper)).toEqual(["everywhere"]);
});
