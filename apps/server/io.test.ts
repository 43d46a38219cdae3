import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { io as connect, type Socket } from "socket.io-client";
import { FakeClock } from "../../modules/kernel/clock";
import { defineModule } from "../../modules/kernel/define-module";
import { badRequest } from "../../modules/kernel/errors";
import { HANDLER_FAILED, INVALID_PAYLOAD, RATE_LIMITED, socketEvent, untypedSocket } from "../../modules/kernel/socket";
import { keystrokes } from "../../modules/kernel/typing";
import { createRoom } from "../../modules/rooms";
import { type Client, member, openClient } from "../../modules/rooms/test-support";
import { socketEventTable } from "./io";
import { modules } from "./modules";
import { startTestServer, type TestServer } from "./testing";

/** A module with one event of each kind the shared dispatcher must handle. */
const connected: string[] = [];
const disconnected: string[] = [];
let lastHandshake: { headers: object; time: string; issued: number } | null = null;
let additions = 0;
const probeModule = defineModule({
  name: "probe",
  socketEvents: () => ({
    "probe:add": socketEvent(t.Object({ a: Type.Integer(), b: Type.Integer() }), (_socket, { a, b }) => {
      additions++;
      return { sum: a + b };
    }),
    // Free, so a test can wait for everything the server sent before without touching the socket's budget.
    "probe:sync": socketEvent(t.Unknown(), { cost: 0 }, () => ({ synced: true })),
    "probe:echo": socketEvent(t.Object({ text: t.String({ maxLength: 10 }) }), (socket, payload) => {
      untypedSocket(socket).emit("probe:echoed", payload);
    }),
    "probe:refuse": socketEvent(t.Object({}), async () => {
      await Bun.sleep(1);
      throw badRequest("거절되었습니다.", "refused");
    }),
    "probe:crash": socketEvent(t.Object({}), () => {
      throw new Error("boom");
    }),
    // Like a handler waiting for a PostgreSQL round trip.
    "probe:slow": socketEvent(t.Object({ text: t.String() }), async (socket, { text }) => {
      await Bun.sleep(20);
      untypedSocket(socket).emit("probe:handled", text);
    }),
    "probe:fast": socketEvent(t.Object({ text: t.String() }), (socket, { text }) => {
      untypedSocket(socket).emit("probe:handled", text);
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
/** Time stands still unless a test moves it: a burst of events arrives at one instant, and refills are exact. */
const clock = new FakeClock(Date.now());

beforeAll(async () => {
  server = await startTestServer({ modules: [...modules, probeModule], clock });
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

  test("a socket's events are handled in the order sent, even behind a handler that awaits", async () => {
    const handled: string[] = [];
    client.on("probe:handled", (text: string) => handled.push(text));
    client.emit("probe:slow", { text: "입장" });
    client.emit("probe:fast", { text: "채팅 1" });
    client.emit("probe:slow", { text: "채팅 2" });
    client.emit("probe:fast", { text: "채팅 3" });
    expect(await ask("probe:add", { a: 1, b: 2 })).toEqual({ sum: 3 });
    expect(handled).toEqual(["입장", "채팅 1", "채팅 2", "채팅 3"]);
    client.off("probe:handled");
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

describe("the per-socket rate limit of the dispatcher", () => {
  const opened: Client[] = [];
  afterAll(() => {
    for (const c of opened) c.close();
  });
  let guests = 0;
  async function open(auth: Record<string, string> = { client_id: `budget-guest-${++guests}` }) {
    const c = await openClient(server, auth);
    opened.push(c);
    return c;
  }
  /** Everything the server sent this client before has arrived (a free event, answered in order). */
  const barrier = (c: Client) => c.socket.timeout(3000).emitWithAck("probe:sync", {});
  const costOf = (event: string) => socketEventTable(modules, server.ctx).get(event)?.cost ?? 1;
  const refusals = (c: Client, event: string) =>
    c.all("error").filter((e) => e.code === "rate_limited" && e.event === event && e.message === RATE_LIMITED);
  const newRoom = (name: string) => createRoom(server.ctx, { name, theme: "beginner", maxUsers: 20 });

  test("a flood of get_rooms is cut at the budget: the client gets the Korean error instead of more lists", async () => {
    const flooder = await open();
    for (let i = 0; i < 100; i++) flooder.emit("get_rooms");
    await barrier(flooder);
    const served = 40 / costOf("get_rooms");
    expect(served).toBe(8);
    expect(flooder.all("room:list")).toHaveLength(served);
    expect(refusals(flooder, "get_rooms")).toHaveLength(100 - served);
    expect(flooder.all("error")[0]).toEqual({ message: RATE_LIMITED, code: "rate_limited", event: "get_rooms" });
    // Another socket has its own budget.
    const neighbour = await open();
    neighbour.emit("get_rooms");
    expect(await neighbour.next("room:list")).toHaveProperty("rooms");
  });

  test("join/leave flapping is cut: the room hears only the first few arrivals and departures", async () => {
    const room = await newRoom("들락날락 방");
    const observer = await open();
    observer.emit("join_anonymous", { room_id: room.id });
    await observer.next("room:joined:anonymous");
    const flapper = await open();
    for (let i = 0; i < 25; i++) {
      flapper.emit("join_anonymous", { room_id: room.id });
      flapper.emit("leave_room", { room_id: room.id });
    }
    await barrier(flapper);
    await barrier(observer);
    const joins = flapper.all("room:joined:anonymous").length;
    expect(joins).toBe(4); // 40 tokens, 5 a join and 5 a leave
    expect(flapper.all("room:left")).toHaveLength(4);
    expect(refusals(flapper, "join_anonymous").length + refusals(flapper, "leave_room").length).toBe(50 - 8);
    const nickname = flapper.all("room:joined:anonymous")[0].nickname;
    const lines = observer.all("chat:message").filter((m) => m.is_system && m.message.startsWith(nickname));
    expect(lines.map((m) => m.message)).toEqual(
      Array.from({ length: 4 }, () => [`${nickname}님이 입장했습니다.`, `${nickname}님이 퇴장했습니다.`]).flat(),
    );
    expect((await server.api("GET", `/api/rooms/${room.id}`)).body.total_participants).toBe(1);
  });

  test("a normal player's evening never meets the limit", async () => {
    const first = await newRoom("평범한 방 1");
    const second = await newRoom("평범한 방 2");
    const player = await member(server, "보통");
    const c = await open({ token: player.token, client_id: "normal-player-01" });
    // Home page, then a room, a few quick chat lines (chat's own limit is 5 in 3 s), both heartbeats.
    c.emit("get_rooms");
    c.emit("join_room", { room_id: first.id });
    for (let i = 1; i <= 5; i++) c.emit("chat_message", { room_id: first.id, message: `안녕하세요 ${i}` });
    c.emit("ping", { timestamp: 1 });
    c.emit("keep_alive", { timestamp: 2 });
    await barrier(c);
    // The game: waiting 5 s, countdown 3 s, the sentence, typed at about 600 타/분.
    clock.advance(5_000);
    for (let i = 0; i < 3; i++) clock.advance(1_000);
    const state = await c.next("game:state", (s) => s.status === "in_progress");
    clock.advance(Math.max(2, Math.ceil(keystrokes(state.sentence.text) / 10)) * 1000);
    // Submit, back to the home page, straight into another room and chat again, all at once.
    c.emit("game:submission", { room_id: first.id, sentence_id: state.sentence.id, typed_text: state.sentence.text });
    c.emit("leave_room", { room_id: first.id });
    c.emit("get_rooms");
    c.emit("join_room", { room_id: second.id });
    for (let i = 1; i <= 5; i++) c.emit("chat_message", { room_id: second.id, message: `또 만났네요 ${i}` });
    c.emit("ping", { timestamp: 3 });
    await barrier(c);

    expect(c.all("error")).toEqual([]);
    expect(c.all("room:joined").map((j) => j.room_id)).toEqual([first.id, second.id]);
    expect(c.all("chat:message").filter((m) => m.message_type === "chat")).toHaveLength(10);
    // Acknowledged once stored (the write is the database's pace, not the socket's): waited for, then counted.
    await c.next("game:personal_feedback");
    expect(c.all("game:personal_feedback")).toHaveLength(1);
    expect(c.all("room:list").length).toBeGreaterThanOrEqual(3);
    expect(c.all("pong")).toHaveLength(2);
    expect(c.all("alive")).toHaveLength(1);
  });

  test("the bucket refills while the client pauses, up to its capacity", async () => {
    const c = await open();
    for (let i = 0; i < 10; i++) c.emit("get_rooms");
    await barrier(c);
    expect(c.all("room:list")).toHaveLength(8);
    clock.advance(1_000); // 5 tokens: one more list
    c.emit("get_rooms");
    c.emit("get_rooms");
    await barrier(c);
    expect(c.all("room:list")).toHaveLength(9);
    clock.advance(600_000); // a long pause refills to the capacity, not beyond
    for (let i = 0; i < 10; i++) c.emit("get_rooms");
    await barrier(c);
    expect(c.all("room:list")).toHaveLength(17);
    expect(refusals(c, "get_rooms")).toHaveLength(2 + 1 + 2);
  });

  test("an acknowledgement of an event over budget gets {success:false, error}; its handler never runs", async () => {
    const c = await open();
    const ask = (payload: unknown) => c.socket.timeout(3000).emitWithAck("probe:add", payload);
    for (let i = 0; i < 40; i++) expect(await ask({ a: i, b: 1 })).toEqual({ sum: i + 1 });
    const before = additions;
    expect(await ask({ a: 1, b: 1 })).toEqual({ success: false, error: RATE_LIMITED });
    expect(additions).toBe(before);
    expect(refusals(c, "probe:add")).toHaveLength(1);
  });

  test("a payload its schema refuses costs the default 1, not the event's own cost; unknown events cost nothing", async () => {
    const c = await open();
    for (let i = 0; i < 100; i++) c.emit("no_such_event", {});
    for (let i = 0; i < 39; i++) c.emit("join_room", { room_id: "abc" });
    c.emit("get_rooms"); // 1 token left: not enough for a list
    c.emit("ping", {}); // enough for a ping
    c.emit("join_room", { room_id: "abc" }); // nothing left, even for a bad payload
    await barrier(c);
    expect(c.all("error").map((e) => `${e.event} ${e.code}`)).toEqual([
      ...Array.from({ length: 39 }, () => "join_room invalid_payload"),
      "get_rooms rate_limited",
      "join_room rate_limited",
    ]);
    expect(c.all("pong")).toHaveLength(1);
  });
});
