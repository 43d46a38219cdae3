import { describe, expect, test } from "bun:test";
import type { TestServer } from "../../apps/server/testing";
import { WATCHER_FRAME_MS } from "../kernel/game-host";
import { progressAt } from "../kernel/race-steps";
import { createRoom } from ".";
import { LANES_FRAME_MS } from "./room-presenter";
import { ROOM_MESSAGES } from "./settings";
import { type Client, member, roomsTestServer } from "./test-support";

/**
 * The live race (README "Lanes" and "Spectators"): real server, real SQLite, real socket.io clients, on a FakeClock
 * so a lane frame goes out exactly when the test moves time.
 */
let server: TestServer;
const { clock, open } = roomsTestServer((started) => {
  server = started;
});
let roomCounter = 0;

const guest = (name: string) => open({ client_id: `${name}-lanes-client-0001` });

async function newRoom(maxUsers = 20) {
  roomCounter++;
  return createRoom(server.ctx, { name: `경주 방 ${roomCounter}`, theme: "beginner", maxUsers });
}

async function join(client: Client, roomId: number, spectate?: boolean) {
  client.emit("join_anonymous", spectate === undefined ? { room_id: roomId } : { room_id: roomId, spectate });
  return client.next("room:joined:anonymous");
}

/** Game time to the sentence; every client sees it in play. */
async function runToSentence(watchers: Client[]) {
  clock.advance(5_000);
  clock.advance(1_000);
  clock.advance(1_000);
  clock.advance(1_000);
  const states = await Promise.all(watchers.map((p) => p.next("game:state", (s) => s.status === "in_progress")));
  return states[0].sentence as { id: number; text: string };
}

/** The answer box after `count` characters of the sentence, sent as one step each; the server has them all after. */
async function type(client: Client, roomId: number, text: string, counts: number[]) {
  const chars = Array.from(text);
  for (const count of counts)
    client.emit("game:progress", { room_id: roomId, typed_text: chars.slice(0, count).join("") });
  await client.sync();
}

const updates = (client: Client) => client.log.filter((r) => r.event === "game:progress_update").map((r) => r.payload);

/** Sends the lane frame due now and waits until `client` has seen `count` updates in all. */
async function frame(client: Client, count: number) {
  clock.advance(0);
  await client.next("game:progress_update", () => updates(client).length >= count);
  return updates(client)[count - 1];
}

describe("lanes: game:progress_update", () => {
  test("many steps in one frame are one update with the last figures; the next carries only the changed lane", async () => {
    const room = await newRoom();
    const a = await guest("lane-a");
    const b = await guest("lane-b");
    const joinedA = await join(a, room.id);
    const joinedB = await join(b, room.id);
    const sentence = await runToSentence([a, b]);
    const startedAt = clock.now();

    clock.advance(2_000);
    await type(a, room.id, sentence.text, [1, 2, 3, 4]);
    const first = await frame(b, 1);
    const expected = progressAt(
      { t: clock.now() - startedAt, text: Array.from(sentence.text).slice(0, 4).join("") },
      sentence.text,
    );
    expect(first).toEqual({
      room_id: room.id,
      participants: [{ key: joinedA.session_id, name: joinedA.nickname, completed: false, ...expected }],
    });
    expect(updates(a)).toHaveLength(1); // everyone in the room gets it, the typist too

    // Within the 200 ms after a frame nothing goes out; then only B's lane (A's did not change).
    clock.advance(50);
    await type(b, room.id, sentence.text, [1]);
    clock.advance(100);
    await b.sync();
    expect(updates(b)).toHaveLength(1);
    clock.advance(LANES_FRAME_MS - 150);
    const second = await frame(b, 2);
    expect(second.participants.map((lane: { key: string }) => lane.key)).toEqual([joinedB.session_id]);
  });

  test("a finished attempt's lane carries its place; a member's key is the user id", async () => {
    const room = await newRoom();
    const alice = await member(server, "레인");
    const a = await open({ token: alice.token, client_id: "alice-lanes-client-01" });
    const g = await guest("lane-watch");
    a.emit("join_room", { room_id: room.id });
    await a.next("room:joined");
    await join(g, room.id);
    const sentence = await runToSentence([a, g]);
    const chars = Array.from(sentence.text);
    for (let i = 1; i <= chars.length; i++) {
      clock.advance(400);
      await type(a, room.id, sentence.text, [i]);
    }
    a.emit("game:submission", { room_id: room.id, sentence_id: sentence.id, typed_text: sentence.text });
    await g.next("game:submission_complete");
    clock.advance(LANES_FRAME_MS);
    await g.next("game:progress_update", (u) => u.participants.some((lane: { completed: boolean }) => lane.completed));
    const lane = updates(g).at(-1).participants[0];
    expect(lane).toMatchObject({ key: alice.id, name: alice.username, completed: true, position: 1, progress: 1 });
  });

  test("a socket that joins mid-round gets every lane at once", async () => {
    const room = await newRoom();
    const a = await guest("mid-a");
    const b = await guest("mid-b");
    const joinedA = await join(a, room.id);
    const joinedB = await join(b, room.id);
    const sentence = await runToSentence([a, b]);
    clock.advance(1_000);
    await type(a, room.id, sentence.text, [2]);
    await type(b, room.id, sentence.text, [1]);
    await frame(a, 1);

    const late = await guest("mid-late");
    await join(late, room.id);
    const all = await late.next("game:progress_update");
    expect(all.participants.map((lane: { key: string }) => lane.key).sort()).toEqual(
      [joinedA.session_id, joinedB.session_id].sort(),
    );
    // A spectator entering now draws the race the same way.
    const watcher = await guest("mid-watch");
    await join(watcher, room.id, true);
    expect((await watcher.next("game:progress_update")).participants).toHaveLength(2);
  });

  test("a step outside the room is refused; a bad step is a bad payload", async () => {
    const room = await newRoom();
    const a = await guest("bad-step");
    a.emit("game:progress", { room_id: room.id, typed_text: "가" });
    expect(await a.next("error")).toMatchObject({ code: "not_in_room", event: "game:progress" });
    await join(a, room.id);
    a.emit("game:progress", { room_id: room.id, typed_text: "가".repeat(1_001) });
    expect(await a.next("error")).toMatchObject({ code: "invalid_payload", event: "game:progress" });
  });
});

describe("spectators", () => {
  test("listed apart, never in max_users nor holding the round; their answers and steps are refused", async () => {
    const room = await newRoom(2);
    const a = await guest("full-a");
    const b = await guest("full-b");
    await join(a, room.id);
    await join(b, room.id);
    const watcher = await guest("full-watch");
    const joined = await join(watcher, room.id, true);
    expect(joined).toMatchObject({ spectating: true, room: { total_participants: 2, spectators: 1, is_full: true } });
    const update = await a.next("room:users_update", (u) => u.spectators === 1);
    expect(update).toMatchObject({ total_participants: 2, anonymous_count: 2 });
    expect(update.anonymous_users.map((u: { session_id: string }) => u.session_id)).not.toContain(joined.session_id);
    expect(a.log.some((r) => r.event === "room:anonymous_joined" && r.payload.session_id === joined.session_id)).toBe(
      false,
    );
    const info = (await server.api("GET", `/api/rooms/${room.id}`)).body;
    expect(info).toMatchObject({ total_participants: 2, spectators: 1 });

    const sentence = await runToSentence([a, b, watcher]);
    clock.advance(3_000);
    watcher.emit("game:progress", { room_id: room.id, typed_text: "가" });
    expect(await watcher.next("error")).toMatchObject({ code: "spectating", message: ROOM_MESSAGES.spectating });
    watcher.emit("game:submission", { room_id: room.id, sentence_id: sentence.id, typed_text: sentence.text });
    expect(await watcher.next("error", (e) => e.event === "game:submission")).toMatchObject({
      code: "spectating",
      message: ROOM_MESSAGES.spectating,
    });

    // Nobody sent a step: every player holds the round, and the two players' answers end it (the spectator does not).
    a.emit("game:submission", { room_id: room.id, sentence_id: sentence.id, typed_text: sentence.text });
    b.emit("game:submission", { room_id: room.id, sentence_id: sentence.id, typed_text: sentence.text });
    await a.next("game:results");
    clock.advance(WATCHER_FRAME_MS); // the spectators' next frame (kernel game-host README "Watchers")
    const results = await watcher.next("game:results");
    expect(results.participants).toBe(2);
  });

  test("a spectator gets every chat line, result and the round's end in the players' order, and the lanes, within a frame", async () => {
    const room = await newRoom();
    const a = await guest("order-a");
    const b = await guest("order-b");
    await join(a, room.id);
    await join(b, room.id);
    const watcher = await guest("order-watch");
    await join(watcher, room.id, true);
    const sentence = await runToSentence([a, b, watcher]);
    const from = { a: a.log.length, watcher: watcher.log.length };
    const oneOffs = (client: Client, start: number) =>
      client.log
        .slice(start)
        .filter((r) => ONE_OFF.includes(r.event))
        .map((r) => `${r.event} ${r.payload.message ?? r.payload.username ?? r.payload.participants ?? ""}`);
    const ONE_OFF = ["chat:message", "game:submission_complete", "game:results"];
    /** Time passes by at most one watchers' frame; then the spectator has seen every one-off a player has. */
    const caughtUp = async () => {
      clock.advance(WATCHER_FRAME_MS);
      await a.sync();
      await watcher.sync();
      expect(oneOffs(watcher, from.watcher)).toEqual(oneOffs(a, from.a));
    };

    // Both type a character every 400 ms (a person's pace); the first four steps come with a line from each.
    const chars = Array.from(sentence.text);
    for (let i = 1; i <= chars.length; i++) {
      clock.advance(400 - WATCHER_FRAME_MS);
      await type(a, room.id, sentence.text, [i]);
      await type(b, room.id, sentence.text, [i]);
      if (i <= 4) {
        b.emit("chat_message", { room_id: room.id, message: `응원 ${i}` });
        watcher.emit("chat_message", { room_id: room.id, message: `관전 ${i}` });
        a.emit("chat_message", { room_id: room.id, message: `힘내요 ${i}` });
        await Promise.all([a.sync(), b.sync(), watcher.sync()]);
      }
      await caughtUp();
    }
    const lanesAt = (client: Client) => {
      const lanes = new Map<string, unknown>();
      for (const update of updates(client)) for (const lane of update.participants) lanes.set(String(lane.key), lane);
      return lanes;
    };
    expect(lanesAt(watcher)).toEqual(lanesAt(a));
    expect([...lanesAt(watcher).values()]).toContainEqual(expect.objectContaining({ progress: expect.any(Number) }));

    a.emit("game:submission", { room_id: room.id, sentence_id: sentence.id, typed_text: sentence.text });
    await a.next("game:submission_complete");
    await caughtUp();
    b.emit("game:submission", { room_id: room.id, sentence_id: sentence.id, typed_text: sentence.text });
    await a.next("game:results");
    await caughtUp();
    expect(oneOffs(watcher, from.watcher)).toContainEqual(expect.stringMatching(/^game:results/));
    expect(oneOffs(watcher, from.watcher).filter((line) => line.startsWith("chat:message 관전"))).toHaveLength(4);
    // The whole round's lanes, merged frame by frame, are the players' lanes.
    expect(lanesAt(watcher)).toEqual(lanesAt(a));
  });

  test("a spectator alone starts no game; a spectator may then play (the room's limit applies again)", async () => {
    const room = await newRoom(2);
    const watcher = await guest("alone-watch");
    const joined = await join(watcher, room.id, true);
    expect(joined.game_state).toMatchObject({ status: "waiting", next_game_at: null });
    const player = await guest("alone-play");
    await join(player, room.id);
    await join(await guest("alone-other"), room.id);
    // The room is full now: the spectator cannot take a place, and keeps watching.
    watcher.emit("join_anonymous", { room_id: room.id });
    expect(await watcher.next("error")).toMatchObject({ code: "room_full" });
    expect((await server.api("GET", `/api/rooms/${room.id}`)).body).toMatchObject({
      total_participants: 2,
      spectators: 1,
    });
    player.emit("leave_room", { room_id: room.id });
    await player.next("room:left");
    watcher.emit("join_anonymous", { room_id: room.id, spectate: false });
    expect(await watcher.next("room:joined:anonymous", (j) => !j.spectating)).toMatchObject({
      room: { total_participants: 2, spectators: 0 },
    });
  });
});

describe("room:list_update", () => {
  test("carries each changed room without its users; the list and the HTTP answers keep them", async () => {
    const room = await newRoom();
    const lobby = await guest("lobby-watch");
    const a = await guest("lobby-a");
    await join(a, room.id);
    clock.advance(1_000);
    const update = await lobby.next("room:list_update", (u) => u.rooms.some((r: { id: number }) => r.id === room.id));
    const changed = update.rooms.find((r: { id: number }) => r.id === room.id);
    expect(changed).toMatchObject({ total_participants: 1, spectators: 0, game_status: "waiting" });
    expect(changed.next_game_at).toEqual(expect.any(String));
    expect(changed).not.toHaveProperty("users");
    expect(changed).not.toHaveProperty("anonymous_users");

    lobby.emit("get_rooms");
    const listed = (await lobby.next("room:list")).rooms.find((r: { id: number }) => r.id === room.id);
    expect(listed.anonymous_users).toHaveLength(1);
    expect(
      (await server.api("GET", "/api/rooms")).body.find((r: { id: number }) => r.id === room.id).anonymous_users,
    ).toHaveLength(1);
    expect((await server.api("GET", `/api/rooms/${room.id}`)).body.anonymous_users).toHaveLength(1);
  });
});
