import { afterAll, beforeAll, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { io as connect } from "socket.io-client";
import { defineModule } from "../../modules/kernel/define-module";
import { modules } from "./modules";
import { startTestServer, type TestServer } from "./testing";

// A module with an Elysia websocket route: socket.io and Elysia's own websockets must share one Bun server.
const echoModule = defineModule({
  name: "echo",
  routes: () =>
    new Elysia({ name: "echo.routes" }).ws("/echo", {
      message(ws, message) {
        ws.send(`echo:${typeof message === "string" ? message : JSON.stringify(message)}`);
      },
    }),
});

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ modules: [...modules, echoModule], env: { CORS_ORIGINS: "https://app.example" } });
});
afterAll(() => server.stop());

test("Elysia websocket routes keep working next to socket.io", async () => {
  const ws = new WebSocket(`${server.url.replace("http", "ws")}/api/echo`);
  const reply = await new Promise<string>((resolve, reject) => {
    ws.onopen = () => ws.send("안녕");
    ws.onmessage = (event) => resolve(String(event.data));
    ws.onerror = () => reject(new Error("websocket failed"));
  });
  ws.close();
  expect(reply).toBe("echo:안녕");

  const socket = connect(server.url, { path: "/socket.io/", transports: ["websocket"], reconnection: false });
  const pong = await new Promise((resolve) => {
    socket.on("connect", () => socket.emit("ping", { timestamp: 1 }));
    socket.on("pong", resolve);
  });
  socket.disconnect();
  expect(pong).toMatchObject({ timestamp: 1 });
});

test("socket.io also works over long-polling on the same port", async () => {
  const socket = connect(server.url, { path: "/socket.io/", transports: ["polling"], reconnection: false });
  const alive = await new Promise((resolve) => {
    socket.on("connect", () => socket.emit("keep_alive", { timestamp: 2 }));
    socket.on("alive", resolve);
  });
  socket.disconnect();
  expect(alive).toMatchObject({ timestamp: 2 });
});

test("CORS answers only the configured origins", async () => {
  const allowed = await fetch(`${server.url}/api/health`, { headers: { origin: "https://app.example" } });
  expect(allowed.headers.get("access-control-allow-origin")).toBe("https://app.example");
  const other = await fetch(`${server.url}/api/health`, { headers: { origin: "https://evil.example" } });
  expect(other.headers.get("access-control-allow-origin")).not.toBe("https://evil.example");
});

test("client routes get the SPA shell, files with extensions that do not exist are 404", async () => {
  for (const path of ["/", "/rooms/1", "/board/3", "/admin/users/2"]) {
    const res = await fetch(`${server.url}${path}`);
    expect(res.headers.get("content-type") ?? "").toContain("text/html");
  }
  expect((await fetch(`${server.url}/missing-file.js`)).status).toBe(404);
  expect((await fetch(`${server.url}/../../etc/passwd`)).status).not.toBe(500);
});

test("a test server stopped twice (a test's own stop, then its afterAll) stops once and fails nothing", async () => {
  const extra = await startTestServer();
  await Promise.all([extra.stop(), extra.stop()]);
  await extra.stop();
  expect((await fetch(`${extra.url}/api/health`).catch(() => null))?.status).toBeUndefined();
});
