import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { modules as defaultModules } from "../../apps/server/modules";
import { startTestServer, type TestServer } from "../../apps/server/testing";
import { testEngine } from "../../db/testing";
import { createPgTestDatabase } from "../../db/testing-pg";
import { FakeClock } from "../kernel/clock";
import { eventually, type TestRedisClient, testRedis } from "../kernel/game-host/redis-testing";
import { roundProgress } from "../kernel/race-steps";
import { keystrokes } from "../kernel/typing";
import { createRoom, createRoomsModule, importSentences } from ".";
import { type Client, closeAndWait, member, openClient, storedGames, storedResults } from "./test-support";

/**
 * Two servers of one deployment in this test process, on one PostgreSQL database and one Redis (what two
 * processes share; the cross-process test with real processes is apps/server/cluster.integration.test.ts): a
 * player on B plays in a room owned by A, then A shuts down cleanly (`stop()`), B takes the room over and plays
 * on. Every result is stored exactly once. PostgreSQL only: two servers on one SQLite file is no deployment.
 */
const onPostgres = testEngine() === "postgres";
const SENTENCE = "가는 말이 고와야 오는 말이 곱다";
const typingMs = Math.ceil(keystrokes(SENTENCE) / 10) * 1000;

let redis: Awaited<ReturnType<typeof testRedis>>;
let looker: TestRedisClient;
let database: Awaited<ReturnType<typeof createPgTestDatabase>>;
let a: TestServer;
let b: TestServer;
const clock = new FakeClock(Date.now());
const clients: Client[] = [];
const prefix = `test:${crypto.randomUUID().slice(0, 8)}:`;

beforeAll(async () => {
  if (!onPostgres) return;
  redis = await testRedis();
  looker = await redis.client();
  database = await createPgTestDatabase();
  const env = { DATABASE_URL: database.url, REDIS_URL: redis.url, REDIS_PREFIX: prefix };
  // A process whose lobby empties stops listening to the others' room changes after 300 ms (30 s in production).
  const modules = defaultModules.map((m) => (m.name === "rooms" ? createRoomsModule({ lobbyLingerMs: 300 }) : m));
  a = await startTestServer({ clock, env, modules });
  b = await startTestServer({ clock, env, modules, seed: false });
}, 60_000);
afterAll(async () => {
  for (const client of clients) client.close();
  await Promise.all([a?.stop(), b?.stop()]);
  await database?.drop();
  await redis?.stop();
});

/** A player's socket on that server (a guest without a token). */
async function open(server: TestServer, token?: string) {
  const client = await openClient(server, token ? { token } : {});
  clients.push(client);
  await client.sync();
  return client;
}

/** The process id of the room's owner: the lease `<prefix>lease:sentence_race:<room>` = `<processId>:<epoch>`. */
async function ownerOf(roomId: number): Promise<string | null> {
  const token = await looker.get(`${prefix}lease:sentence_race:${roomId}`);
  return token ? token.slice(0, token.lastIndexOf(":")) : null;
}

/** Moves the shared clock by `ms`, then waits until every player has seen the room in that status. */
async function advanceTo(players: Client[], ms: number, status: string) {
  const from = players.map((p) => p.log.length);
  clock.advance(ms);
  const reached = () =>
    players.every((p, i) => p.log.slice(from[i]).some((r) => r.event === "game:state" && r.payload.status === status));
  expect(await eventually(reached, 15_000)).toBe(true);
  const state = players[0].log.slice(from[0]).find((r) => r.event === "game:state" && r.payload.status === status);
  return state!.payload;
}

/** From a waiting room to the sentence in play (the room's default wait of 5 s and countdown of 3 s). */
async function nextSentence(players: Client[]) {
  await advanceTo(players, 5_000, "countdown");
  return (await advanceTo(players, 3_000, "in_progress")).sentence.id as number;
}

/** From the results to a waiting room (the results stay 5 s). */
const afterResults = (players: Client[]) => advanceTo(players, 5_000, "waiting");

const submission = (roomId: number, sentenceId: number) => ({
  room_id: roomId,
  sentence_id: sentenceId,
  typed_text: SENTENCE,
});

/** Every PUBLISH on the room views channel of this test's deployment, as Redis saw them (MONITOR). */
async function watchViewsChannel() {
  const monitor = await redis.client();
  const sent: string[] = [];
  await monitor.monitor((line) => {
    if (line.includes(`"PUBLISH" "${prefix}rooms:views"`)) sent.push(line);
  });
  return sent;
}

/**
 * How many of the lines are a process's room changes (`kind: "change"`): hellos and their answers are the list's
 * own traffic while some process shows it (A does too, once a guest's socket opened its home page).
 */
const changesIn = (lines: string[]) => lines.filter((line) => line.includes('\\"kind\\":\\"change\\"')).length;

/** Resolves once no new line has come for `forMs` (a MONITOR stream settled). */
async function quiet(lines: string[], forMs = 300) {
  for (let seen = -1; seen !== lines.length; ) {
    seen = lines.length;
    await Bun.sleep(forMs);
  }
}

/** The room as a list shows it. */
const listed = (rooms: { id: number; user_count: number }[], roomId: number) => rooms.find((r) => r.id === roomId);

describe.skipIf(!onPostgres)("a room owned by one of two servers", () => {
  test("B's lobby sees A's room live; with nobody watching A sends nothing; a new watcher gets the room at once", async () => {
    const room = await createRoom(a.ctx, { name: "로비에서 보는 방", theme: "owned" });
    const sent = await watchViewsChannel();
    // A guest on B's home page: B listens, and its first list waits for A's answer.
    const watcher = await open(b);
    watcher.emit("get_rooms");
    expect(listed((await watcher.next("room:list")).rooms, room.id)).toMatchObject({ user_count: 0 });

    // Alice enters A's room on A: the change reaches B's lobby through the feed, and B's API answers with it.
    const alice = await member(a, "로비");
    const onA = await open(a, alice.token);
    onA.emit("join_room", { room_id: room.id });
    await onA.next("room:joined");
    clock.advance(1_000); // the list update's coalescing window
    const update = await watcher.next("room:list_update", (u) => listed(u.rooms, room.id)?.user_count === 1);
    expect(listed(update.rooms, room.id)).toMatchObject({ user_count: 1, name: "로비에서 보는 방" });
    expect((await b.api("GET", `/api/rooms/${room.id}`)).body).toMatchObject({ user_count: 1 });

    // The watcher leaves: B stops listening after its linger; A finds out at its next send (it reaches nobody)
    // and from then on sends nothing, however the room changes.
    await closeAndWait(b, watcher);
    const listeners = async () => (await looker.pubSubNumSub(`${prefix}rooms:views`))[`${prefix}rooms:views`];
    expect(await eventually(async () => (await listeners()) === 0)).toBe(true);
    const beforeJoin = sent.length;
    const guest = await open(a);
    guest.emit("join_room", { room_id: room.id });
    await guest.next("room:joined:anonymous");
    clock.advance(1_000);
    // That send (the one that reaches nobody) is seen through MONITOR, which may lag under load: wait for it and
    // for the channel to go quiet before counting.
    expect(await eventually(async () => sent.length > beforeJoin)).toBe(true);
    await quiet(sent);
    // The guest's socket opened A's home page too, so A listens as well: a change A sends while its own subscription
    // is still being made counts A among the receivers, and the flow stays open one change longer. The round's
    // countdown starting is one more change, sent (or not) once A's subscription is in place.
    clock.advance(5_000);
    await quiet(sent);
    const silentFrom = changesIn(sent);
    const silentCount = sent.length;
    guest.emit("leave_room");
    await guest.next("room:left");
    clock.advance(1_000);
    await Bun.sleep(500);
    expect(changesIn(sent)).toBe(silentFrom);

    // A new watcher on B: B listens again, A answers its hello, and the first list already shows Alice.
    const again = await open(b);
    again.emit("get_rooms");
    expect(listed((await again.next("room:list")).rooms, room.id)).toMatchObject({ user_count: 1 });
    expect(sent.length).toBeGreaterThan(silentCount);
    onA.emit("leave_room");
    await onA.next("room:left");
  }, 30_000);

  test("a player on B types in A's room: the players on A and a spectator on B see the lane move", async () => {
    await importSentences(a.ctx, "owned-lanes", [SENTENCE]);
    const room = await createRoom(a.ctx, { name: "두 서버의 경주", theme: "owned-lanes" });
    const onA = await open(a);
    onA.emit("join_room", { room_id: room.id });
    await onA.next("room:joined:anonymous");
    const onB = await open(b);
    onB.emit("join_room", { room_id: room.id });
    const typist = await onB.next("room:joined:anonymous", () => true, 10_000);
    const watcher = await open(b);
    watcher.emit("join_room", { room_id: room.id, spectate: true });
    expect(await watcher.next("room:joined:anonymous", () => true, 10_000)).toMatchObject({
      spectating: true,
      room: { total_participants: 2, spectators: 1 },
    });
    expect(await ownerOf(room.id)).toBe(a.ctx.cluster!.processId);

    await nextSentence([onA, onB, watcher]);
    clock.advance(1_000);
    onB.emit("game:progress", { room_id: room.id, typed_text: "가는" });
    const laneOf = (client: Client) =>
      client.log
        .filter((r) => r.event === "game:progress_update")
        .flatMap((r) => r.payload.participants)
        .find((lane: { key: string }) => lane.key === typist.session_id);
    // The step is forwarded to the owner A, whose frame (on its clock) goes to the room on both processes.
    const seen = () => {
      clock.advance(0);
      return laneOf(onA) !== undefined && laneOf(watcher) !== undefined;
    };
    expect(await eventually(seen, 10_000)).toBe(true);
    expect(laneOf(watcher)).toMatchObject({
      progress: roundProgress(2 / Array.from(SENTENCE).length),
      completed: false,
    });

    // The owner refuses the spectator's step (forwarded from B) in Korean.
    watcher.emit("game:progress", { room_id: room.id, typed_text: "가" });
    expect(await watcher.next("error", () => true, 10_000)).toMatchObject({ code: "spectating" });
    for (const client of [onA, onB, watcher]) client.emit("leave_room");
    await Promise.all([onA, onB, watcher].map((client) => client.next("room:left", () => true, 10_000)));
  }, 60_000);

  test("a player on B plays in A's room; A stops, B takes the room over; every result stored once", async () => {
    await importSentences(a.ctx, "owned", [SENTENCE]);
    const room = await createRoom(a.ctx, { name: "두 서버의 방", theme: "owned" });
    const alice = await member(a, "에이");
    const bob = await member(b, "비");
    const onA = await open(a, alice.token);
    const onB = await open(b, bob.token);

    onA.emit("join_room", { room_id: room.id });
    await onA.next("room:joined");
    expect(await ownerOf(room.id)).toBe(a.ctx.cluster!.processId);
    onB.emit("join_room", { room_id: room.id });
    await onB.next("room:joined", () => true, 10_000);
    expect(await ownerOf(room.id)).toBe(a.ctx.cluster!.processId);

    // Round 1: Bob's answer is forwarded from B to the owner A and ranked first, before Alice's.
    let sentenceId = await nextSentence([onA, onB]);
    clock.advance(typingMs);
    // A chat line Bob sends as the answer is chat on the owner too: posted to the room, his attempt kept.
    onB.emit("game:submission", { ...submission(room.id, sentenceId), typed_text: "ㅋㅋ 어렵다" });
    const chat = await onA.next("chat:message", (m) => m.message_type === "chat", 10_000);
    expect(chat).toMatchObject({ username: bob.username, message: "ㅋㅋ 어렵다" });
    onB.emit("game:submission", submission(room.id, sentenceId));
    expect(await onB.next("game:personal_feedback", () => true, 10_000)).toMatchObject({ position: 1 });
    onA.emit("game:submission", submission(room.id, sentenceId));
    expect(await onA.next("game:personal_feedback", () => true, 10_000)).toMatchObject({ position: 2 });
    const results = await onB.next("game:results", () => true, 10_000);
    expect(results.results.map((r: { username: string }) => r.username)).toEqual([bob.username, alice.username]);

    // Round 2: Bob answers, then A shuts down mid-round; its shutdown finishes the round and gives the room back.
    await afterResults([onA, onB]);
    sentenceId = await nextSentence([onA, onB]);
    clock.advance(typingMs);
    onB.emit("game:submission", submission(room.id, sentenceId));
    expect(await onB.next("game:personal_feedback", () => true, 10_000)).toMatchObject({ position: 1 });
    await closeAndWait(a, onA);
    await a.stop();

    // B, which has Bob's seat, takes the room within the lease's look (about a second) and plays round 3.
    expect(await eventually(async () => (await ownerOf(room.id)) === b.ctx.cluster!.processId)).toBe(true);
    await onB.next("room:joined", () => true, 10_000);
    sentenceId = await nextSentence([onB]);
    clock.advance(typingMs);
    onB.emit("game:submission", submission(room.id, sentenceId));
    expect(await onB.next("game:personal_feedback", () => true, 10_000)).toMatchObject({ position: 1 });

    // Stored once each, on the shared database: rounds 1 and 2 ended (2 by A's shutdown), round 3 played on B.
    const keys = [`u_${alice.id}`, `u_${bob.id}`];
    expect(await eventually(async () => (await storedResults(b.ctx, keys)).length === 4, 10_000)).toBe(true);
    const stored = await storedResults(b.ctx, keys);
    // In the order stored: round 1 (Bob, Alice), round 2 (Bob), round 3 (Bob).
    expect(stored.map((r) => [r.playerKey, r.position])).toEqual([
      [`u_${bob.id}`, 1],
      [`u_${alice.id}`, 2],
      [`u_${bob.id}`, 1],
      [`u_${bob.id}`, 1],
    ]);
    const games = await storedGames(b.ctx, room.id);
    expect(games.slice(0, 2).map((g) => [g.round, g.ended])).toEqual([
      [1, 1],
      [2, 1],
    ]);
    expect(games[2]?.round).toBe(3);
  }, 60_000);
});
