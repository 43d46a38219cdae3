import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { modules as defaultModules } from "../../apps/server/modules";
import { startTestServer, type TestServer } from "../../apps/server/testing";
import { FakeClock } from "../kernel/clock";
import { defineModule } from "../kernel/define-module";
import { createRoom, createRoomsModule } from ".";
import { type Client, closeAndWait, member, openClient } from "./test-support";

/**
 * Every connection may make a fresh guest, so one machine could fill every room: a room takes at most
 * `guestsPerAddress` guests from one address (2 here). All test clients connect from 127.0.0.1; this test-only
 * module, after accounts' handshake, lets a client say which address to stand for (`auth.test_ip`).
 */
const testAddresses = defineModule({
  name: "testaddress",
  dependsOn: ["accounts"],
  attachIo(io) {
    io.use((socket, next) => {
      const ip = socket.handshake.auth?.test_ip;
      socket.data.ip = typeof ip === "string" ? ip : socket.data.ip || "127.0.0.1";
      next();
    });
  },
});

const TOO_MANY = "같은 주소에서 이 방에 들어온 손님이 너무 많습니다. 로그인 후 이용해주세요.";

let server: TestServer;
const clock = new FakeClock(Date.now());
const clients: Client[] = [];
let rooms = 0;

beforeAll(async () => {
  const modules = [
    ...defaultModules.map((m) => (m.name === "rooms" ? createRoomsModule({ guestsPerAddress: 2 }) : m)),
    testAddresses,
  ];
  server = await startTestServer({ clock, modules });
});
afterAll(async () => {
  await server.stop();
});
afterEach(async () => {
  for (const c of clients.splice(0)) await closeAndWait(server, c);
  clock.advance(10_000);
});

async function open(auth: Record<string, string>) {
  const client = await openClient(server, auth);
  clients.push(client);
  await client.sync();
  return client;
}

async function newRoom() {
  rooms++;
  return createRoom(server.ctx, { name: `주소 제한 방 ${rooms}`, theme: "beginner", maxUsers: 20 });
}

const roomInfo = async (id: number) => (await server.api("GET", `/api/rooms/${id}`)).body;

async function enter(client: Client, roomId: number, event = "join_anonymous") {
  client.emit(event, { room_id: roomId });
  return client.next(event === "join_room" ? "room:joined" : "room:joined:anonymous");
}

describe("guests per address in one room", () => {
  test("the guest over the cap is refused with a Korean error; members, other tabs and other addresses fit", async () => {
    const room = await newRoom();
    const school = { test_ip: "203.0.113.7" };
    await enter(await open({ ...school, client_id: "classroom-guest-1" }), room.id);
    await enter(await open({ ...school, client_id: "classroom-guest-2" }), room.id);

    const third = await open({ ...school, client_id: "classroom-guest-3" });
    third.emit("join_anonymous", { room_id: room.id });
    expect(await third.next("error")).toEqual({ message: TOO_MANY, code: "too_many_guests", event: "join_anonymous" });
    expect(await roomInfo(room.id)).toMatchObject({ anonymous_count: 2, total_participants: 2 });
    expect(third.all("room:joined:anonymous")).toEqual([]);

    // A member behind the same address is not a guest: not counted, not refused.
    const teacher = await member(server, "선생님");
    await enter(await open({ ...school, token: teacher.token }), room.id, "join_room");
    // Another tab of a guest already inside is the same guest.
    await enter(await open({ ...school, client_id: "classroom-guest-1" }), room.id);
    // A guest from elsewhere fits, and the refused guest fits in another room.
    await enter(await open({ test_ip: "198.51.100.20", client_id: "home-guest-00001" }), room.id);
    await enter(third, (await newRoom()).id);
    expect(await roomInfo(room.id)).toMatchObject({ user_count: 1, anonymous_count: 3 });
  });

  test("a place freed by a guest who left can be taken by another guest from the same address", async () => {
    const room = await newRoom();
    const school = { test_ip: "203.0.113.8" };
    const first = await open({ ...school, client_id: "leaving-guest-01" });
    await enter(first, room.id);
    await enter(await open({ ...school, client_id: "staying-guest-01" }), room.id);
    const waiting = await open({ ...school, client_id: "waiting-guest-01" });
    waiting.emit("join_anonymous", { room_id: room.id });
    expect(await waiting.next("error")).toMatchObject({ code: "too_many_guests" });
    first.emit("leave_room");
    await first.next("room:left");
    await enter(waiting, room.id);
    expect((await roomInfo(room.id)).anonymous_count).toBe(2);
  });
});
