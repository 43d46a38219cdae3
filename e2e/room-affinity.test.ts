/**
 * Room affinity in the browser (README "Several processes"): with ROOM_AFFINITY=1 (and REDIS_URL) the socket used
 * in a room was opened with `room=<id>` in its URL, so a proxy hashing by it puts a room's players on one process;
 * the lobby keeps whatever connection it has. With the default setting, entering a room opens no second
 * websocket. One process on SQLite with a real Redis (TEST_REDIS_URL, or a throwaway redis-server started here).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { modules } from "../apps/server/modules";
import { startTestServer, type TestServer } from "../apps/server/testing";
import { testRedis } from "../modules/kernel/game-host/redis-testing";
import { createRoomsModule } from "../modules/rooms";
import { type E2E, signIn, startE2E, type TestUser, uniqueUser } from "./helpers";

let redis: Awaited<ReturnType<typeof testRedis>>;
let e2e: E2E;
/** The same deployment as `e2e.server` but with the default setting (no ROOM_AFFINITY), on the same Redis. */
let plain: TestServer;
let rooms: number[];
let member: TestUser;

/** Rooms stay in their waiting phase for the whole test, so the input is always the chat's. */
const waitingRooms = createRoomsModule({ race: { waitMs: 600_000 } });
const testModules = modules.map((m) => (m.name === "rooms" ? waitingRooms : m));

beforeAll(async () => {
  redis = await testRedis();
  e2e = await startE2E({ modules: testModules, env: { REDIS_URL: redis.url, ROOM_AFFINITY: "1" } });
  plain = await startTestServer({ modules: testModules, env: { REDIS_URL: redis.url } });
  const listed = await e2e.server.api("GET", "/api/rooms");
  rooms = (listed.body as { id: number }[]).map((room) => room.id).slice(0, 2);
  member = await e2e.createUser(uniqueUser("길잡이"));
});

afterAll(async () => {
  await e2e?.stop();
  await plain?.stop();
  await redis?.stop();
});

interface OpenedSocket {
  url: string;
  /** The socket.io events the page sent on this websocket, in order. */
  sent: string[];
}

/** Every socket.io websocket the page opens, in order, with the events sent on each. */
function websockets(page: Page): OpenedSocket[] {
  const opened: OpenedSocket[] = [];
  page.on("websocket", (socket) => {
    if (!socket.url().includes("/socket.io/")) return;
    const entry: OpenedSocket = { url: socket.url(), sent: [] };
    opened.push(entry);
    socket.on("framesent", ({ payload }) => {
      // A socket.io event is the engine.io message "4" + the packet "2", an optional ack id, then ["name", …].
      const event = /^42\d*(\[.*)$/s.exec(String(payload));
      if (event) entry.sent.push(JSON.parse(event[1]!)[0]);
    });
  });
  return opened;
}

const routeOf = ({ url }: OpenedSocket) => {
  const query = new URL(url).searchParams;
  return query.get("room") ? `room=${query.get("room")}` : query.get("guild") ? `guild=${query.get("guild")}` : "";
};

/** Enters a room from the lobby's list, as a player does. */
async function enterFromLobby(page: Page, roomId: number) {
  await page.locator(`.room-card[data-room-id="${roomId}"]`).click();
  await page.waitForURL(`**/rooms/${roomId}`);
}

/** The guest's own name, once the room lists them (`guest_NNNN`). */
async function guestName(page: Page): Promise<string> {
  const row = page.locator(".participants .participant-guest", { hasText: /guest_\d{4}/ });
  await row.waitFor();
  return /guest_\d{4}/.exec((await row.textContent()) ?? "")![0];
}

/** The player is listed in the room, and a chat line goes round through the server. */
async function playsIn(page: Page, name: string, line: string) {
  await page.locator(".participants .participant", { hasText: name }).waitFor();
  const chat = page.getByRole("textbox", { name: "메시지 입력" });
  await chat.fill(line);
  await chat.press("Enter");
  await page.locator(".msg-chat", { hasText: line }).waitFor();
}

describe("room affinity", () => {
  test("ROOM_AFFINITY=1: the room's socket carries room=<id>; the lobby keeps it; another room moves", async () => {
    const page = await e2e.newPage();
    const opened = websockets(page);
    await signIn(page, e2e.url, member);
    const [first, second] = rooms as [number, number];
    await page.locator(`.room-card[data-room-id="${first}"]`).waitFor();
    const lobby = opened.at(-1)!;
    expect(routeOf(lobby)).toBe("");

    await enterFromLobby(page, first);
    await playsIn(page, member.username, "첫 번째 방입니다");
    expect(opened.at(-2)).toBe(lobby);
    const inFirst = opened.at(-1)!;
    expect(routeOf(inFirst)).toBe(`room=${first}`);
    // The join went out on the room's connection only, never on the one being dropped.
    expect(lobby.sent).not.toContain("join_room");
    expect(inFirst.sent.filter((event) => event === "join_room")).toHaveLength(1);

    // Back to the lobby: any process will do, so the connection stays.
    await page.getByRole("link", { name: "방 목록으로" }).click();
    await page.waitForURL(`${e2e.url}/`);
    await page.locator(`.room-card[data-room-id="${second}"]`).waitFor();
    expect(opened.at(-1)).toBe(inFirst);
    expect(inFirst.sent).toContain("leave_room");

    await enterFromLobby(page, second);
    await playsIn(page, member.username, "두 번째 방입니다");
    expect(opened.at(-2)).toBe(inFirst);
    expect(routeOf(opened.at(-1)!)).toBe(`room=${second}`);
    expect(opened.at(-1)!.sent.filter((event) => event === "join_room")).toHaveLength(1);
    expect(inFirst.sent.filter((event) => event === "join_room")).toHaveLength(1);
  });

  test("ROOM_AFFINITY=1: a page opened at a room connects with its route at once (one websocket)", async () => {
    const page = await e2e.newPage();
    const opened = websockets(page);
    const [first] = rooms as [number];
    await page.goto(`${e2e.url}/rooms/${first}`);
    await playsIn(page, await guestName(page), "바로 들어왔습니다");
    expect(opened.map(routeOf)).toEqual([`room=${first}`]);
  });

  test("the default setting (no ROOM_AFFINITY, even with REDIS_URL): entering a room opens no second websocket", async () => {
    const page = await e2e.newPage();
    const opened = websockets(page);
    const listed = await plain.api("GET", "/api/rooms");
    const roomId = (listed.body as { id: number }[])[0]!.id;
    await page.goto(`${plain.url}/`);
    await page.locator(`.room-card[data-room-id="${roomId}"]`).waitFor();
    await enterFromLobby(page, roomId);
    await playsIn(page, await guestName(page), "기본 설정입니다");
    expect(opened.map(routeOf)).toEqual([""]);
  });
});
