import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { io as connect, type Socket } from "socket.io-client";
import { defineModule } from "../../modules/kernel/define-module";
import { badRequest } from "../../modules/kernel/errors";
import { HANDLER_FAILED, INVALID_PAYLOAD, socketEvent } from "../../modules/kernel/socket";
import { socketEventTable } from "./io";
import { modules } from "./modules";
import { startTestServer, type TestServer } from "./testing";

/** A module with one event of each kind the shared dispatcher must handle. */
const connected: string[] = [];
const disconnected: string[] = [];
let lastHandshake: { headers: object; time: string; issued: number } | null = null;
const probeModule = defineModule({
  name: "probe",
  socketEvents: () => ({
    "probe:add": socketEvent(t.Object({ a: Type.Integer(), b: Type.Integer() }), (_socket, { a, b }) => ({
      sum: a + b,
    })),
    "probe:echo": socketEvent(t.Object({ text: t.String({ maxLength: 10 }) }), (socket, payload) => {
      socket.emit("probe:echoed", payload);
    }),
    "probe:refuse": socketEvent(t.Object({}), async () => {
      await Bun.sleep(1);
      throw badRequest("거절되었습니다.", "refused");
    }),
    "probe:crash": socketEvent(t.Object({}), () => {
      throw new Error("boom");
    }),
  }),
  onConnect: (socket) => {
    connected.push(socket.id);
    lastHandshake = socket.handshake;
  },
  onDisconnect: (socket, reason) => disconnected.push(`${socket.id} ${reason}`),
});

let server: TestServer;
let client: Socket;
const errors: unknown[] = [];

beforeAll(async () => {
  server = await startTestServer({ modules: [...modules, probeModule] });
  client = connect(server.url, { path: "/socket.io/", transports: ["websocket"], forceNew: true, reconnection: false });
  client.on("error", (payload: unknown) => errors.push(payload));
  await new Promise<void>((resolve) => client.once("connect", () => resolve()));
});
afterAll(async () => {
  client.disconnect();
  await server.stop();
});

const ask = (event: string, payload: unknown) => client.timeout(2000).emitWithAck(event, payload);

describe("the shared socket event dispatcher", () => {
  test("a valid payload reaches the handler and its result answers the acknowledgement", async () => {
    expect(await ask("probe:add", { a: 2, b: 40 })).toEqual({ sum: 42 });
    expect(connected).toContain(client.id ?? "");
  });

  test("undeclared fields are dropped before the handler sees the payload", async () => {
    const echoed = new Promise((resolve) => client.once("probe:echoed", resolve));
    client.emit("probe:echo", { text: "안녕", user_id: 7 });
    expect(await echoed).toEqual({ text: "안녕" });
  });

  test("a bad payload answers an error event in Korean and never reaches the handler", async () => {
    errors.length = 0;
    expect(await ask("probe:add", { a: "2", b: 40 })).toEqual({ success: false, error: INVALID_PAYLOAD });
    expect(await ask("probe:echo", { text: "가".repeat(11) })).toEqual({ success: false, error: INVALID_PAYLOAD });
    expect(errors).toEqual([
      { message: INVALID_PAYLOAD, code: "invalid_payload", event: "probe:add" },
      { message: INVALID_PAYLOAD, code: "invalid_payload", event: "probe:echo" },
    ]);
  });

  test("a refusal (AppError, also from an async handler) and a crash both become error events", async () => {
    errors.length = 0;
    expect(await ask("probe:refuse", {})).toEqual({ success: false, error: "거절되었습니다." });
    expect(await ask("probe:crash", {})).toEqual({ success: false, error: HANDLER_FAILED });
    expect(errors).toEqual([
      { message: "거절되었습니다.", code: "refused", event: "probe:refuse" },
      { message: HANDLER_FAILED, code: "internal", event: "probe:crash" },
    ]);
    // The server is still answering.
    expect(await ask("probe:add", { a: 1, b: 1 })).toEqual({ sum: 2 });
  });

  test("unknown events are ignored without an error", async () => {
    errors.length = 0;
    client.emit("probe:nothing", { a: 1 });
    expect(await ask("probe:add", { a: 0, b: 0 })).toEqual({ sum: 0 });
    expect(errors).toEqual([]);
  });

  test("every module hears the disconnect with socket.io's reason", async () => {
    const other = connect(server.url, { path: "/socket.io/", transports: ["websocket"], forceNew: true });
    await new Promise<void>((resolve) => other.once("connect", () => resolve()));
    const id = other.id;
    other.disconnect();
    for (let i = 0; i < 200 && !disconnected.some((d) => d.startsWith(`${id} `)); i++) await Bun.sleep(5);
    expect(disconnected).toContain(`${id} client namespace disconnect`);
  });

  test("a socket keeps only the listed request headers; the handshake still tells its time", async () => {
    const other = connect(server.url, {
      path: "/socket.io/",
      transports: ["websocket"],
      forceNew: true,
      extraHeaders: { "user-agent": "tajamadang-test/1.0", cookie: "big=secret", "accept-language": "ko-KR" },
    });
    await new Promise<void>((resolve) => other.once("connect", () => resolve()));
    other.disconnect();
    expect(lastHandshake?.headers).toEqual({ "user-agent": "tajamadang-test/1.0", "accept-language": "ko-KR" });
    expect(lastHandshake?.time).toBe(new Date(lastHandshake?.issued ?? 0).toString());
    expect(Date.now() - (lastHandshake?.issued ?? 0)).toBeLessThan(60_000);
  });

  test("two modules answering one event is a boot error", () => {
    const twin = defineModule({
      name: "twin",
      socketEvents: () => ({ "probe:add": socketEvent(t.Object({}), () => {}) }),
    });
    expect(() => socketEventTable([probeModule, twin], server.ctx)).toThrow(
      "socket event probe:add is registered by both probe and twin",
    );
  });
});
