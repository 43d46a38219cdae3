/**
 * Our patch of @socket.io/bun-engine (patches/, applied by `bun install`): shared listeners and timer callbacks
 * instead of per-socket closures, a synchronous request path, and sockets that leave the engine's registry when
 * they close. These check that the engine still behaves as upstream's does, on a bare engine with short timers.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Server as Engine } from "@socket.io/bun-engine";
import { Server } from "socket.io";
import { io as connect } from "socket.io-client";

const PING_INTERVAL = 60;
const PING_TIMEOUT = 60;
let engine: Engine;
let io: Server;
let http: ReturnType<typeof Bun.serve>;
let url: string;
let refuseNext: "sync" | "async" | null = null;

beforeAll(() => {
  engine = new Engine({
    path: "/socket.io/",
    pingInterval: PING_INTERVAL,
    pingTimeout: PING_TIMEOUT,
    // The type says a promise; the patched engine also takes a synchronous answer (io.ts relies on it).
    allowRequest: (() => {
      const mode = refuseNext;
      refuseNext = null;
      if (mode === "sync") throw "막힘";
      if (mode === "async") return Promise.reject("나중에 막힘");
    }) as never,
  });
  io = new Server();
  io.bind(engine as never);
  io.on("connection", (socket) => socket.on("echo", (text: string, ack: (t: string) => void) => ack(text)));
  const handler = engine.handler();
  http = Bun.serve({ port: 0, hostname: "127.0.0.1", ...handler });
  url = `http://127.0.0.1:${http.port}`;
});
afterAll(() => {
  engine.close();
  http.stop(true);
});

const clients = () => (engine as unknown as { clients: Map<string, unknown> }).clients;
const open = async (transports: string[]) => {
  const socket = connect(url, { path: "/socket.io/", transports, forceNew: true, reconnection: false });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", reject);
  });
  return socket;
};
const waitFor = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await Bun.sleep(10);
  return check();
};

test("a quiet connection survives many heartbeats and still answers", async () => {
  const socket = await open(["websocket"]);
  await Bun.sleep(PING_INTERVAL * 6);
  expect(socket.connected).toBe(true);
  expect(await socket.timeout(1000).emitWithAck("echo", "안녕")).toBe("안녕");
  socket.disconnect();
});

test("a client that stops answering pings is dropped, and leaves the registry", async () => {
  const ws = new WebSocket(`${url.replace("http", "ws")}/socket.io/?EIO=4&transport=websocket`);
  const closed = new Promise<number>((resolve) => {
    ws.onclose = (event) => resolve(event.code);
  });
  // Open the socket.io session, then never answer the engine's "2" pings.
  ws.onmessage = (event) => {
    if (String(event.data).startsWith("0")) ws.send("40");
  };
  expect(await waitFor(() => clients().size === 1)).toBe(true);
  await closed;
  expect(await waitFor(() => clients().size === 0)).toBe(true);
});

test("a disconnect removes the socket from the registry", async () => {
  const sockets = await Promise.all([open(["websocket"]), open(["polling"])]);
  expect(clients().size).toBe(2);
  for (const socket of sockets) socket.disconnect();
  expect(await waitFor(() => clients().size === 0)).toBe(true);
});

test("a polling connection upgrades to websocket and keeps its session", async () => {
  const socket = await open(["polling", "websocket"]);
  const sid = socket.io.engine.id;
  expect(await waitFor(() => socket.io.engine.transport.name === "websocket")).toBe(true);
  expect(socket.io.engine.id).toBe(sid);
  expect(await socket.timeout(1000).emitWithAck("echo", "업그레이드")).toBe("업그레이드");
  socket.disconnect();
});

test("allowRequest may refuse synchronously or with a promise: 403 with the reason", async () => {
  for (const [mode, reason] of [
    ["sync", "막힘"],
    ["async", "나중에 막힘"],
  ] as const) {
    refuseNext = mode;
    const response = await fetch(`${url}/socket.io/?EIO=4&transport=polling`);
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ code: 4, message: reason });
  }
});

test("bad handshakes get upstream's 400 answers", async () => {
  const unknown = await fetch(`${url}/socket.io/?EIO=4&transport=carrier-pigeon`);
  expect(unknown.status).toBe(400);
  expect(await unknown.json()).toEqual({ code: 0, message: "Transport unknown" });
  const old = await fetch(`${url}/socket.io/?EIO=3&transport=polling`);
  expect(await old.json()).toEqual({ code: 5, message: "Unsupported protocol version" });
  const sid = await fetch(`${url}/socket.io/?EIO=4&transport=polling&sid=nope`);
  expect(await sid.json()).toEqual({ code: 1, message: "Session ID unknown" });
});
