import { afterAll, beforeAll, expect, test } from "bun:test";
import { io as connect, type Socket } from "socket.io-client";
import { untypedServer } from "../../modules/kernel/socket";
import { fastTopic } from "./fast-broadcast";
import { startTestServer, type TestServer } from "./testing";

// Room broadcasts take Bun's pub/sub for websocket clients and socket.io's own loop for polling ones; what every
// client receives must be the same as without the fast path: once, in order, only in its rooms.

let server: TestServer;
const clients: Socket[] = [];
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  for (const c of clients) c.disconnect();
  await server.stop();
});

type Transport = "websocket" | "polling" | "upgrade";

async function open(transport: Transport, namespace = "/") {
  const client = connect(`${server.url}${namespace === "/" ? "" : namespace}`, {
    path: "/socket.io/",
    transports: transport === "websocket" ? ["websocket"] : ["polling", "websocket"],
    upgrade: transport === "upgrade",
    reconnection: false,
    forceNew: true,
  });
  clients.push(client);
  await new Promise<void>((resolve, reject) => {
    client.once("connect", resolve);
    client.once("connect_error", reject);
  });
  if (transport === "upgrade") await serverUpgraded(client);
  return client;
}

/** The server switches transports when the client's "upgrade" packet arrives, a moment after the client did. */
async function serverUpgraded(client: Socket) {
  for (let i = 0; i < 200 && serverSocket(client).conn.transport.name !== "websocket"; i++) await Bun.sleep(10);
}

/** Every `probe` payload a client receives, in order. */
function record(client: Socket) {
  const seen: string[] = [];
  client.on("probe", (value: string) => seen.push(value));
  return seen;
}

const serverSocket = (client: Socket, namespace = "/") => {
  const socket = untypedServer(server.io).of(namespace).sockets.get(client.id!);
  if (!socket) throw new Error("no server socket");
  return socket;
};

/** Resolves once everything sent to the client before it has arrived (each connection keeps its order). */
async function settle(...all: Socket[]) {
  await Promise.all(
    all.map(
      (client) =>
        new Promise<void>((resolve) => {
          client.once("settled", () => resolve());
          serverSocket(client).emit("settled");
        }),
    ),
  );
}

const subscribers = (room: string, namespace = "/") => server.app.server!.subscriberCount(fastTopic(namespace, room));

test("a room broadcast reaches websocket and polling members once, and no one outside the room", async () => {
  const [ws1, ws2, poll, upgraded, outsider] = await Promise.all([
    open("websocket"),
    open("websocket"),
    open("polling"),
    open("upgrade"),
    open("websocket"),
  ]);
  const seen = [ws1, ws2, poll, upgraded, outsider].map(record);
  for (const client of [ws1, ws2, poll, upgraded]) serverSocket(client).join("fb-room-a");
  serverSocket(outsider).join("fb-room-b");
  expect(subscribers("fb-room-a")).toBe(3);

  untypedServer(server.io).to("fb-room-a").emit("probe", "one");
  untypedServer(server.io).to("fb-room-a").emit("probe", "two");
  await settle(ws1, ws2, poll, upgraded, outsider);

  expect(seen.slice(0, 4)).toEqual([
    ["one", "two"],
    ["one", "two"],
    ["one", "two"],
    ["one", "two"],
  ]);
  expect(seen[4]).toEqual([]);
});

test("socket.to(room) skips the sender, on websocket and on polling", async () => {
  const [wsSender, pollSender, member] = await Promise.all([open("websocket"), open("polling"), open("websocket")]);
  const seen = [wsSender, pollSender, member].map(record);
  for (const client of [wsSender, pollSender, member]) serverSocket(client).join("fb-room-c");

  serverSocket(wsSender).to("fb-room-c").emit("probe", "from-ws");
  serverSocket(pollSender).to("fb-room-c").emit("probe", "from-polling");
  await settle(wsSender, pollSender, member);

  expect(seen).toEqual([["from-polling"], ["from-ws"], ["from-ws", "from-polling"]]);
});

test("broadcasts and direct emits arrive in the order they were sent", async () => {
  const [ws, poll] = await Promise.all([open("websocket"), open("polling")]);
  const seen = [ws, poll].map(record);
  for (const client of [ws, poll]) serverSocket(client).join("fb-room-d");

  untypedServer(server.io).to("fb-room-d").emit("probe", "1");
  for (const client of [ws, poll]) serverSocket(client).emit("probe", "2");
  untypedServer(server.io).to("fb-room-d").emit("probe", "3");
  untypedServer(server.io).emit("probe", "4"); // whole namespace: everyone connected, this file's other clients too
  await settle(ws, poll);

  expect(seen).toEqual([
    ["1", "2", "3", "4"],
    ["1", "2", "3", "4"],
  ]);
});

test("a polling client that upgrades later keeps getting each broadcast once", async () => {
  const client = connect(server.url, { path: "/socket.io/", reconnection: false, forceNew: true });
  clients.push(client);
  const seen = record(client);
  await new Promise<void>((resolve) => client.once("connect", () => resolve()));
  serverSocket(client).join("fb-room-e");
  untypedServer(server.io).to("fb-room-e").emit("probe", "before");
  await serverUpgraded(client);
  untypedServer(server.io).to("fb-room-e").emit("probe", "after");
  await settle(client);

  expect(seen).toEqual(["before", "after"]);
  expect(subscribers("fb-room-e")).toBe(1);
});

test("leaving a room and disconnecting unsubscribe", async () => {
  const [leaver, stayer] = await Promise.all([open("websocket"), open("websocket")]);
  const seen = [leaver, stayer].map(record);
  for (const client of [leaver, stayer]) serverSocket(client).join("fb-room-f");
  expect(subscribers("fb-room-f")).toBe(2);

  serverSocket(leaver).leave("fb-room-f");
  expect(subscribers("fb-room-f")).toBe(1);
  untypedServer(server.io).to("fb-room-f").emit("probe", "after-leave");
  await settle(leaver, stayer);
  expect(seen).toEqual([[], ["after-leave"]]);

  const gone = new Promise((resolve) => serverSocket(stayer).once("disconnect", resolve));
  stayer.disconnect();
  await gone;
  expect(subscribers("fb-room-f")).toBe(0);
});

test("a namespace disconnect that keeps the connection open stops the room's frames", async () => {
  untypedServer(server.io).of("/fb-other"); // a second namespace keeps the engine connection open
  const main = await open("websocket");
  const other = main.io.socket("/fb-other"); // the manager connects it (autoConnect)
  clients.push(other);
  await new Promise<void>((resolve) => other.once("connect", () => resolve()));
  const frames: string[] = [];
  main.io.engine.on("packet", (packet: { type: string; data?: unknown }) => {
    if (packet.type === "message") frames.push(String(packet.data));
  });

  serverSocket(main).join("fb-room-g");
  expect(subscribers("fb-room-g")).toBe(1);
  serverSocket(main).disconnect(); // namespace only
  expect(subscribers("fb-room-g")).toBe(0);
  untypedServer(server.io).to("fb-room-g").emit("probe", "after-disconnect");
  untypedServer(server.io).emit("probe", "namespace-after-disconnect");
  await new Promise<void>((resolve) => {
    other.once("settled", () => resolve());
    untypedServer(server.io).of("/fb-other").sockets.get(other.id!)?.emit("settled");
  });

  expect(frames.some((frame) => frame.includes("after-disconnect"))).toBe(false);
});

test("every member on websocket: no per-socket walk, each gets a broadcast once; outgoing listeners still hear it", async () => {
  // A server of its own: the other tests' polling clients would keep the per-socket walk on.
  const own = await startTestServer();
  try {
    const connectWs = async () => {
      const client = connect(own.url, { path: "/socket.io/", transports: ["websocket"], forceNew: true });
      await new Promise<void>((resolve, reject) => {
        client.once("connect", resolve);
        client.once("connect_error", reject);
      });
      return client;
    };
    const [a, b] = [await connectWs(), await connectWs()];
    const seen = [a, b].map(record);
    const socketOf = (client: Socket) => untypedServer(own.io).of("/").sockets.get(client.id!)!;
    for (const client of [a, b]) socketOf(client).join("fb-own");
    untypedServer(own.io).to("fb-own").emit("probe", "one");
    const heard: unknown[][] = [];
    socketOf(a).onAnyOutgoing((...args: unknown[]) => heard.push(args));
    untypedServer(own.io).to("fb-own").emit("probe", "two");
    await Promise.all(
      [a, b].map((client) => new Promise<void>((resolve) => client.on("probe", (v) => v === "two" && resolve()))),
    );
    await Bun.sleep(50);
    expect(seen).toEqual([
      ["one", "two"],
      ["one", "two"],
    ]);
    expect(heard).toEqual([["probe", "two"]]);
    a.disconnect();
    b.disconnect();
  } finally {
    await own.stop();
  }
});
