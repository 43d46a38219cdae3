import { describe, expect, test } from "bun:test";
import type { TestServer } from "../../apps/server/testing";
import { dailyStats } from "../games";
import { seoulDate } from "../kernel/seoul-time";
import { roomsRuntime } from "./api";
import { OPEN_PRIVATE_ROOMS_MAX, PRIVATE_MSG } from "./private-rules";
import { ROOM_MESSAGES } from "./settings";
import { type Client, member, roomsTestServer, storedGames } from "./test-support";

/**
 * Private rooms end to end (README "Private rooms"): real HTTP, real socket.io clients, the real database of this
 * run's engine, on a FakeClock so the test moves every round.
 */
let server: TestServer;
const { clock, open } = roomsTestServer((started) => {
  server = started;
});

const TEXTS = ["가는 말이 고와야 오는 말이 곱다", "낮말은 새가 듣고 밤말은 쥐가 듣는다"];
let made = 0;

async function createPrivate(token: string, body: Record<string, unknown> = {}) {
  made++;
  const res = await server.api("POST", "/api/rooms/private", {
    token,
    body: { name: `우리 반 ${made}`, max_users: 4, texts: TEXTS, ...body },
  });
  if (res.status !== 201) throw new Error(`create: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { room: { id: number; is_private: boolean }; private: { code: string; invite_path: string } };
}

/** A member and their socket (a test's own client id). */
async function memberIn(prefix: string) {
  const user = await member(server, prefix);
  const client = await open({ token: user.token, client_id: `${prefix}-private-client-${made}` });
  return { ...user, client };
}

const guests = new WeakSet<Client>();
async function guestSocket(name: string) {
  const client = await open({ client_id: `${name}-private-guest-${made}` });
  guests.add(client);
  return client;
}

const joinEvent = (client: Client) => (guests.has(client) ? "join_anonymous" : "join_room");

/** Joins through the link's code (a guest with join_anonymous); answers the room:joined payload. */
async function enter(client: Client, roomId: number, code: string | undefined, options: { spectate?: boolean } = {}) {
  client.emit(joinEvent(client), { room_id: roomId, code, ...options });
  return client.next(guests.has(client) ? "room:joined:anonymous" : "room:joined");
}

/** Joins through the code and answers the refusal (the socket's `error`). */
async function refusedEntry(client: Client, roomId: number, code: string | undefined) {
  const event = joinEvent(client);
  client.emit(event, { room_id: roomId, code });
  return client.next("error", (e) => e.event === event);
}

const owner = (token: string, method: string, path: string, body?: unknown) =>
  server.api(method, `/api/rooms/private/${path}`, { token, body });

/** The countdown (3 s) to the sentence; every client sees it in play. */
async function toSentence(players: Client[]) {
  for (const p of players) await p.next("game:state", (s) => s.status === "countdown");
  clock.advance(1_000);
  clock.advance(1_000);
  clock.advance(1_000);
  const states = await Promise.all(players.map((p) => p.next("game:state", (s) => s.status === "in_progress")));
  return states[0].sentence as { id: number; text: string };
}

/**
 * The racers type the sentence side by side, a character every 300 ms (about 400 타/분), then send it in the order
 * given; answers each one's feedback.
 */
async function race(racers: Client[], roomId: number, sentence: { id: number; text: string }) {
  const chars = Array.from(sentence.text);
  for (let i = 1; i <= chars.length; i++) {
    clock.advance(300);
    for (const client of racers) {
      client.emit("game:progress", { room_id: roomId, typed_text: chars.slice(0, i).join("") });
      await client.sync(); // stamped by the server at this time, as a person's keystrokes would be
    }
  }
  const feedback = [];
  for (const client of racers) {
    client.emit("game:submission", { room_id: roomId, sentence_id: sentence.id, typed_text: sentence.text });
    feedback.push(await client.next("game:personal_feedback"));
  }
  return feedback;
}

describe("creating a private room", () => {
  test("a member's room with their own sentences: not listed, found by its link only", async () => {
    const alice = await member(server, "방장");
    const created = await createPrivate(alice.token, { name: "  3학년   2반  " });
    expect(created.room).toMatchObject({ name: "3학년 2반", max_users: 4, is_private: true, total_participants: 0 });
    expect(created.private).toMatchObject({
      owner: { id: alice.id, username: alice.username },
      auto_start: false,
      texts: { kind: "own", count: 2 },
    });
    expect(created.private.code).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(created.private.invite_path).toBe(`/r/${created.private.code}`);

    const list = await server.api("GET", "/api/rooms");
    expect(list.body.map((r: { id: number }) => r.id)).not.toContain(created.room.id);
    expect((await server.api("GET", `/api/rooms/${created.room.id}`)).status).toBe(404);
    const byLink = await server.api("GET", `/api/rooms/invite/${created.private.code}`);
    expect(byLink.status).toBe(200);
    expect(byLink.body).toMatchObject({ room: { id: created.room.id }, private: { code: created.private.code } });
    expect((await server.api("GET", "/api/rooms/invite/AAAAAAAAAAAAAAAAAAAAAA")).status).toBe(404);
    expect((await server.api("GET", "/api/rooms/invite/..%2F")).status).toBe(404);

    const mine = await server.api("GET", "/api/rooms/private/mine", { token: alice.token });
    expect(mine.body.rooms.map((r: { room: { id: number } }) => r.room.id)).toEqual([created.room.id]);
    expect((await owner(alice.token, "GET", `${created.room.id}/texts`)).body).toEqual({ texts: TEXTS });

    // The home page's socket never hears of it either.
    const lobby = await guestSocket("lobby");
    lobby.emit("get_rooms");
    const rooms = (await lobby.next("room:list")).rooms as { id: number }[];
    expect(rooms.map((r) => r.id)).not.toContain(created.room.id);
  });

  test("a room playing a theme of the product's; the form's mistakes are refused in words", async () => {
    const bob = await member(server, "주제");
    const themed = await createPrivate(bob.token, { texts: undefined, theme: "proverbs", auto_start: true });
    expect(themed.private).toMatchObject({ auto_start: true, texts: { kind: "theme", theme: "proverbs" } });

    // Each refusal counts toward the creator's budget (10 an hour): a few creators share the mistakes.
    const creators = [bob, await member(server, "실수"), await member(server, "실수")];
    let tries = 0;
    const refused = async (body: Record<string, unknown>) => {
      const res = await server.api("POST", "/api/rooms/private", {
        token: creators[Math.floor(tries++ / 5)]!.token,
        body: { name: "방", max_users: 4, ...body },
      });
      return [res.status, res.body.detail];
    };
    expect(await refused({ texts: ["다섯 글자 이상", "짧아"] })).toEqual([422, `2번째 줄: ${PRIVATE_MSG.tooShort}`]);
    expect(await refused({ texts: ["가".repeat(301)] })).toEqual([422, `1번째 줄: ${PRIVATE_MSG.tooLong}`]);
    expect(await refused({ texts: Array.from({ length: 201 }, (_, i) => `문장 번호 ${i}`) })).toEqual([
      422,
      PRIVATE_MSG.tooMany,
    ]);
    expect(await refused({ texts: ["", "  "] })).toEqual([422, PRIVATE_MSG.textsRequired]);
    expect(await refused({ theme: "beginner", texts: TEXTS })).toEqual([422, PRIVATE_MSG.textsOrTheme]);
    expect(await refused({})).toEqual([422, PRIVATE_MSG.textsOrTheme]);
    expect(await refused({ theme: "private" })).toEqual([422, PRIVATE_MSG.themeUnknown]);
    expect(await refused({ name: "   ", texts: TEXTS })).toEqual([422, PRIVATE_MSG.nameRequired]);
    expect(await refused({ max_users: 21, texts: TEXTS })).toEqual([422, PRIVATE_MSG.sizeRange]);
    expect(await refused({ max_users: 1, texts: TEXTS })).toEqual([422, PRIVATE_MSG.sizeRange]);
  });

  test("a guest cannot create one; a member keeps at most five open", async () => {
    const guest = await server.api("POST", "/api/rooms/private", {
      body: { name: "손님 방", max_users: 4, texts: TEXTS },
    });
    expect(guest.status).toBe(401);
    const busy = await member(server, "많이");
    for (let i = 0; i < OPEN_PRIVATE_ROOMS_MAX; i++) await createPrivate(busy.token);
    const sixth = await server.api("POST", "/api/rooms/private", {
      token: busy.token,
      body: { name: "여섯째", max_users: 4, texts: TEXTS },
    });
    expect(sixth).toMatchObject({ status: 409, body: { detail: PRIVATE_MSG.tooManyOpen } });
  });
});

describe("playing in a private room", () => {
  test("the owner starts the round; a guest from the link races; results are records that pay participation only", async () => {
    const alice = await memberIn("경주방장");
    const { room, private: link } = await createPrivate(alice.token);
    const guest = await guestSocket("경주손님");

    expect(await refusedEntry(guest, room.id, undefined)).toMatchObject({
      code: "room_not_found",
      message: ROOM_MESSAGES.notFound,
    });
    expect(await refusedEntry(guest, room.id, "AAAAAAAAAAAAAAAAAAAAAA")).toMatchObject({
      code: "invalid_code",
      message: PRIVATE_MSG.invalidCode,
    });
    const joinedA = await enter(alice.client, room.id, link.code);
    expect(joinedA).toMatchObject({ room: { id: room.id, is_private: true }, private: { code: link.code } });
    expect(joinedA.game_state).toMatchObject({ status: "waiting", next_game_at: null });
    const joinedG = await enter(guest, room.id, link.code);
    expect(joinedG.private).toMatchObject({ owner: { id: alice.id }, texts: { kind: "own", count: 2 } });

    // Nothing starts by itself while the owner is here; only the owner starts it.
    clock.advance(60_000);
    await guest.sync();
    expect(guest.log.some((r) => r.event === "game:state" && r.payload.status === "countdown")).toBe(false);
    const stranger = await member(server, "남");
    expect(await owner(stranger.token, "POST", `${room.id}/start`)).toMatchObject({
      status: 403,
      body: { detail: PRIVATE_MSG.ownerOnly },
    });
    expect((await server.api("POST", `/api/rooms/private/${room.id}/start`)).status).toBe(401);
    expect((await owner(alice.token, "POST", `${room.id}/start`)).status).toBe(200);
    const sentence = await toSentence([alice.client, guest]);
    expect(TEXTS).toContain(sentence.text);
    expect((await owner(alice.token, "POST", `${room.id}/start`)).status).toBe(409);

    const [first] = await race([alice.client, guest], room.id, sentence);
    expect(first).toMatchObject({ position: 1 });
    const results = await guest.next("game:results");
    expect(results.results.map((r: { position: number; rewards: unknown }) => [r.position, r.rewards])).toEqual([
      [1, { experience: expect.any(Number), coins: 5, points: expect.any(Number), medal: null }],
      [2, null],
    ]);
    const stats = await alice.client.next("user:stats_update");
    expect(stats).toMatchObject({ gold_medals: 0, win_streak: 0, games_played: 1 });

    // In the records like any room's game (with its replay), never in the rankings.
    const records = await server.api("GET", `/api/games/results/user/${alice.id}`, { token: alice.token });
    expect(records.body[0]).toMatchObject({ room_name: expect.stringContaining("우리 반"), position: 1, medal: null });
    expect(records.body[0].replay_key).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const today = seoulDate(clock.now());
    const aggregates = await dailyStats(server.ctx, { fromDay: today, toDay: today });
    expect(aggregates.find((row) => row.userId === alice.id)).toBeUndefined();
    expect(await storedGames(server.ctx, room.id)).toEqual([{ round: 1, ended: 1, participants: 2 }]);
  });

  test("다시 하기: the players' marks reach everyone; the owner's 다음 라운드 starts the next round at once", async () => {
    const alice = await memberIn("재경기방장");
    const { room, private: link } = await createPrivate(alice.token);
    const guest = await guestSocket("재경기손님");
    await enter(alice.client, room.id, link.code);
    const joinedG = await enter(guest, room.id, link.code);
    await owner(alice.token, "POST", `${room.id}/start`);
    const sentence = await toSentence([alice.client, guest]);
    await race([alice.client, guest], room.id, sentence);
    await guest.next("game:results");

    guest.emit("room:rematch", { room_id: room.id });
    expect(await alice.client.next("room:rematch")).toEqual({
      room_id: room.id,
      ready: [joinedG.session_id],
      players: 2,
    });
    clock.advance(5_000); // the results' time: the room waits for its owner
    await alice.client.next("game:state", (s) => s.status === "waiting");
    expect((await owner(alice.token, "POST", `${room.id}/start`)).status).toBe(200);
    await toSentence([alice.client, guest]);
    // The marks are cleared by the new round; a mark during a round is refused.
    expect(await alice.client.next("room:rematch", (r) => r.ready.length === 0)).toMatchObject({ ready: [] });
    guest.emit("room:rematch", { room_id: room.id });
    expect(await guest.next("error")).toMatchObject({ code: "round_in_play", event: "room:rematch" });
  });

  test("a full room refuses the link; a spectator still watches through it", async () => {
    const alice = await memberIn("만석방장");
    const { room, private: link } = await createPrivate(alice.token, { max_users: 2 });
    await enter(alice.client, room.id, link.code);
    await enter(await guestSocket("만석1"), room.id, link.code);
    const late = await guestSocket("만석2");
    expect(await refusedEntry(late, room.id, link.code)).toMatchObject({
      code: "room_full",
      message: ROOM_MESSAGES.full,
    });
    const watching = await enter(late, room.id, link.code, { spectate: true });
    expect(watching).toMatchObject({ spectating: true, private: { code: link.code } });
  });

  test("automatic rounds: turned on, the room plays by itself after the usual wait", async () => {
    const alice = await memberIn("자동방장");
    const { room, private: link } = await createPrivate(alice.token);
    await enter(alice.client, room.id, link.code);
    const patched = await owner(alice.token, "PATCH", `${room.id}`, { auto_start: true });
    expect(patched.body.private.auto_start).toBe(true);
    expect(await alice.client.next("room:private_update")).toMatchObject({ auto_start: true });
    const state = await alice.client.next("game:state", (s) => s.next_game_at !== null);
    expect(state.next_game_at).toBe(new Date(clock.now() + 5_000).toISOString());
    clock.advance(5_000);
    await toSentence([alice.client]);
  });

  test("new texts between rounds play from the next round; only the owner may change them", async () => {
    const alice = await memberIn("문장방장");
    const { room, private: link } = await createPrivate(alice.token);
    const guest = await guestSocket("문장손님");
    await enter(alice.client, room.id, link.code);
    await enter(guest, room.id, link.code);
    const other = await member(server, "끼어들기");
    expect((await owner(other.token, "PATCH", `${room.id}`, { texts: ["남의 방 문장 바꾸기"] })).status).toBe(403);
    expect(await owner(alice.token, "PATCH", `${room.id}`, { texts: ["짧"] })).toMatchObject({
      status: 422,
      body: { detail: `1번째 줄: ${PRIVATE_MSG.tooShort}` },
    });
    const fresh = "새로 넣은 문장 하나뿐입니다";
    const changed = await owner(alice.token, "PATCH", `${room.id}`, { texts: [fresh] });
    expect(changed.body.private.texts).toEqual({ kind: "own", count: 1 });
    expect(await guest.next("room:private_update")).toMatchObject({ texts: { kind: "own", count: 1 } });
    await owner(alice.token, "POST", `${room.id}/start`);
    expect((await toSentence([alice.client, guest])).text).toBe(fresh);
    const themed = await owner(alice.token, "PATCH", `${room.id}`, { theme: "beginner" });
    expect(themed.body.private.texts).toMatchObject({ kind: "theme", theme: "beginner" });
    expect((await owner(alice.token, "GET", `${room.id}/texts`)).body).toEqual({ texts: [] });
  });
});

describe("the owner's hand on the room", () => {
  test("a removed player is out at once and refused through the same link until the owner makes a new one", async () => {
    const alice = await memberIn("내보내기방장");
    const bob = await memberIn("내보내기친구");
    const { room, private: link } = await createPrivate(alice.token);
    await enter(alice.client, room.id, link.code);
    await enter(bob.client, room.id, link.code);
    const guest = await guestSocket("내보내기손님");
    const joinedG = await enter(guest, room.id, link.code);

    expect(await owner(bob.token, "POST", `${room.id}/remove`, { session_id: joinedG.session_id })).toMatchObject({
      status: 403,
      body: { detail: PRIVATE_MSG.ownerOnly },
    });
    expect(await owner(alice.token, "POST", `${room.id}/remove`, { session_id: `u_${alice.id}` })).toMatchObject({
      status: 400,
      body: { detail: PRIVATE_MSG.removeSelf },
    });
    const removed = await owner(alice.token, "POST", `${room.id}/remove`, { session_id: joinedG.session_id });
    expect(removed.status).toBe(200);
    expect(await guest.next("room:removed")).toEqual({ room_id: room.id, message: PRIVATE_MSG.removed });
    expect(await alice.client.next("room:users_update", (u) => u.total_participants === 2)).toBeTruthy();
    expect(await refusedEntry(guest, room.id, link.code)).toMatchObject({
      code: "removed",
      message: PRIVATE_MSG.removed,
    });
    expect(await refusedEntry(guest, room.id, link.code)).toMatchObject({ code: "removed" });

    // A new link: the old one is void for everyone, the removed guest may come back through the new one.
    const renewed = await owner(alice.token, "POST", `${room.id}/code`);
    const code = renewed.body.private.code as string;
    expect(code).not.toBe(link.code);
    expect(await bob.client.next("room:private_update")).toMatchObject({ code, invite_path: `/r/${code}` });
    expect((await server.api("GET", `/api/rooms/invite/${link.code}`)).status).toBe(404);
    expect(await refusedEntry(guest, room.id, link.code)).toMatchObject({ code: "invalid_code" });
    expect(await enter(guest, room.id, code)).toMatchObject({ session_id: joinedG.session_id });
  });

  test("handed over to a member present: the new owner runs the room, the old one no longer can", async () => {
    const alice = await memberIn("넘기는방장");
    const bob = await memberIn("받는방장");
    const { room, private: link } = await createPrivate(alice.token);
    await enter(alice.client, room.id, link.code);
    const absent = await member(server, "없는회원");
    expect(await owner(alice.token, "POST", `${room.id}/owner`, { user_id: absent.id })).toMatchObject({
      status: 409,
      body: { detail: PRIVATE_MSG.notHere },
    });
    await enter(bob.client, room.id, link.code);
    expect((await owner(bob.token, "POST", `${room.id}/owner`, { user_id: bob.id })).status).toBe(403);
    const handed = await owner(alice.token, "POST", `${room.id}/owner`, { user_id: bob.id });
    expect(handed.body.private.owner).toEqual({ id: bob.id, username: bob.username });
    expect(await alice.client.next("room:private_update")).toMatchObject({ owner: { id: bob.id } });
    expect((await owner(alice.token, "POST", `${room.id}/start`)).status).toBe(403);
    expect((await owner(bob.token, "POST", `${room.id}/start`)).status).toBe(200);
    await toSentence([alice.client, bob.client]);
  });

  test("closed by its owner: everyone is told and out, the link opens nothing any more", async () => {
    const alice = await memberIn("닫는방장");
    const { room, private: link } = await createPrivate(alice.token);
    const guest = await guestSocket("닫는손님");
    await enter(alice.client, room.id, link.code);
    await enter(guest, room.id, link.code);
    const other = await member(server, "남의방");
    expect((await owner(other.token, "DELETE", `${room.id}`)).status).toBe(403);
    expect((await owner(alice.token, "DELETE", `${room.id}`)).status).toBe(200);
    expect(await guest.next("room:closed")).toEqual({ room_id: room.id, message: PRIVATE_MSG.closed });
    expect((await server.api("GET", `/api/rooms/invite/${link.code}`)).status).toBe(404);
    expect(await refusedEntry(await guestSocket("늦은손님"), room.id, link.code)).toMatchObject({
      code: "room_closed",
      message: PRIVATE_MSG.closed,
    });
    expect((await owner(alice.token, "DELETE", `${room.id}`)).status).toBe(404);
  });

  test("nobody in it for 30 minutes: the room closes by itself", async () => {
    const alice = await memberIn("빈방방장");
    const { room, private: link } = await createPrivate(alice.token);
    await enter(alice.client, room.id, link.code);
    const minutes = async (count: number) => {
      for (let minute = 0; minute < count; minute++) {
        clock.advance(60_000);
        await roomsRuntime(server.ctx)!.settled(); // the sweep the minute started writes to the database
      }
    };
    const isOpen = async () => (await server.api("GET", `/api/rooms/invite/${link.code}`)).status === 200;
    // Someone is in it: the minutes pass and it stays open.
    await minutes(35);
    expect(await isOpen()).toBe(true);
    alice.client.emit("leave_room", { room_id: room.id });
    await alice.client.next("room:left");
    await minutes(25);
    expect(await isOpen()).toBe(true);
    await minutes(7);
    expect(await isOpen()).toBe(false);
  });
});
