import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../../apps/server/testing";
import { testEngine } from "../../db/testing";
import { createPgTestDatabase } from "../../db/testing-pg";
import { FakeClock } from "../kernel/clock";
import { eventually, type TestRedisClient, testRedis } from "../kernel/game-host/redis-testing";
import { keystrokes } from "../kernel/typing";
import { createRoom, importSentences } from ".";
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
  a = await startTestServer({ clock, env });
  b = await startTestServer({ clock, env, seed: false });
}, 60_000);
afterAll(async () => {
  for (const client of clients) client.close();
  await Promise.all([a?.stop(), b?.stop()]);
  await database?.drop();
  await redis?.stop();
});

async function open(server: TestServer, token: string) {
  const client = await openClient(server, { token });
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

describe.skipIf(!onPostgres)("a room owned by one of two servers", () => {
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
