import { afterAll, beforeAll, expect, test } from "bun:test";
import { io as connect, type Socket } from "socket.io-client";
import { startTestServer, type TestServer } from "../../apps/server/testing";
import { guestNickname } from "./auth";

let server: TestServer;
const sockets: Socket[] = [];
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server.stop();
});

function open(options: { auth?: Record<string, string>; query?: Record<string, string>; origin?: string }) {
  const socket = connect(server.url, {
    path: "/socket.io/",
    transports: ["websocket"],
    reconnection: false,
    forceNew: true,
    auth: options.auth,
    query: options.query,
    extraHeaders: options.origin ? { origin: options.origin } : undefined,
  });
  sockets.push(socket);
  return new Promise<{ socket: Socket; error?: Error & { data?: { code?: string } } }>((resolve) => {
    socket.once("connect", () => resolve({ socket }));
    socket.once("connect_error", (error) => resolve({ socket, error }));
  });
}

async function identityOf(socket: Socket) {
  const all = await server.io.fetchSockets();
  return all.find((s) => s.id === socket.id)?.data.identity;
}

async function loginToken() {
  const body = { username: "소켓유저", email: "socket@example.com", password: "good-pass-42" };
  const reg = await server.api("POST", "/api/users/register", { body });
  const res = await server.api("POST", "/api/users/login", { body: { email: body.email, password: body.password } });
  return { token: res.body.access_token as string, id: reg.body.id as number };
}

test("a handshake token (auth or query) makes the socket that user", async () => {
  const { token, id } = await loginToken();
  const viaAuth = await open({ auth: { token, client_id: "client-abcdef12" } });
  expect(viaAuth.error).toBeUndefined();
  expect(await identityOf(viaAuth.socket)).toMatchObject({ kind: "user", userId: id, username: "소켓유저" });
  const viaQuery = await open({ query: { token } });
  expect(await identityOf(viaQuery.socket)).toMatchObject({ kind: "user", userId: id });
});

test("no token makes a guest with a stable guest_NNNN from the client id", async () => {
  const first = await open({ auth: { client_id: "anon-client-0001" } });
  const again = await open({ query: { client_id: "anon-client-0001" } });
  const a = await identityOf(first.socket);
  const b = await identityOf(again.socket);
  expect(a).toMatchObject({ kind: "guest", nickname: guestNickname("anon-client-0001") });
  expect(b).toEqual(a);
  expect(a?.kind === "guest" && a.nickname).toMatch(/^guest_[1-9]\d{3}$/);
});

test("a bad token is refused with auth_failed so the client can refresh", async () => {
  const { error } = await open({ auth: { token: "not.a.jwt" } });
  expect(error?.data?.code).toBe("auth_failed");
});

test("a foreign origin is refused; the server's own origin is accepted", async () => {
  const evil = await open({ origin: "https://evil.example" });
  expect(evil.error).toBeDefined();
  const own = await open({ origin: server.url });
  expect(own.error).toBeUndefined();
});

test("ping and keep_alive are answered", async () => {
  const { socket } = await open({});
  const pong = new Promise((resolve) => socket.once("pong", resolve));
  socket.emit("ping", { timestamp: 123 });
  expect(await pong).toMatchObject({ timestamp: 123 });
  const alive = new Promise((resolve) => socket.once("alive", resolve));
  socket.emit("keep_alive");
  expect(await alive).toMatchObject({ timestamp: null });
});
