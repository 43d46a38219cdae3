import { describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../../apps/server/testing";
import {
  countGames,
  finishGame,
  type GameFinishedEvent as GamesFinishedEvent,
  recordResult,
  resultsOfUser,
} from "../games";
import { FakeClock } from "../kernel/clock";
import { sharedScheduler } from "../kernel/game-host";
import { keystrokes } from "../kernel/typing";
import { createRoom, type GameFinishedEvent, importSentences } from ".";
import {
  type Client,
  member,
  openClient,
  refuseFinishes,
  roomsTestServer,
  storedGames,
  storedResults,
} from "./test-support";

/**
 * Results on the game platform, through a real server, real SQLite and real socket.io clients on a FakeClock:
 * every accepted result is stored when it is accepted (not only when the game ends), an implausible attempt is
 * kept for the record, rounds continue the games module's numbering, and the results go out without rewards
 * when the finish cannot be stored. "Stored" is read after `sharedScheduler(ctx).drain()`: every write the
 * rooms queued has been performed.
 */
let server: TestServer;
const { clock, open } = roomsTestServer((started) => {
  server = started;
});
let roomCounter = 0;
const SENTENCE = "가는 말이 고와야 오는 말이 곱다";

/** A fresh room whose only sentence is SENTENCE. */
async function newRoom() {
  roomCounter++;
  await importSentences(server.ctx, `persist${roomCounter}`, [SENTENCE]);
  return createRoom(server.ctx, { name: `저장 시험 방 ${roomCounter}`, theme: `persist${roomCounter}` });
}

async function join(client: Client, roomId: number) {
  client.emit("join_room", { room_id: roomId });
  return client.next("room:joined");
}

async function runToSentence(players: Client[]) {
  clock.advance(5_000);
  for (const p of players) await p.next("game:state", (s) => s.status === "countdown");
  clock.advance(3_000);
  const states = await Promise.all(players.map((p) => p.next("game:state", (s) => s.status === "in_progress")));
  return states[0];
}

/** Time to type SENTENCE at about 600 타/분: plausible. */
const typingMs = Math.ceil(keystrokes(SENTENCE) / 10) * 1000;
const submission = (roomId: number, sentenceId: number, text = SENTENCE) => ({
  room_id: roomId,
  sentence_id: sentenceId,
  typed_text: text,
});
const drained = () => sharedScheduler(server.ctx).drain();
const gameRows = (roomId: number) => storedGames(server.ctx, roomId);

describe("results are stored as they are accepted", () => {
  test("an acknowledged result is in the games module before the game ends; the finish adds medals", async () => {
    const room = await newRoom();
    const alice = await member(server, "먼저");
    const bob = await member(server, "나중");
    const a = await open({ token: alice.token });
    const b = await open({ token: bob.token });
    await join(a, room.id);
    await join(b, room.id);
    const state = await runToSentence([a, b]);
    const games = await countGames(server.ctx);

    clock.advance(typingMs);
    a.emit("game:submission", submission(room.id, state.sentence.id));
    expect(await a.next("game:personal_feedback")).toMatchObject({ position: 1 });
    await drained();
    // Stored, while the game still runs (bob has not answered): a stop now would not lose it.
    expect(await resultsOfUser(server.ctx, alice.id)).toEqual([
      expect.objectContaining({ mode: "sentence_race", sourceName: room.name, position: 1, medal: null }),
    ]);
    expect(await gameRows(room.id)).toEqual([{ round: 1, ended: 0, participants: 0 }]);
    expect(await countGames(server.ctx)).toBe(games);
    const own = await server.api("GET", `/api/games/results/user/${alice.id}`, { token: alice.token });
    expect(own.body).toEqual([expect.objectContaining({ room_name: room.name, mode: "sentence_race", medal: null })]);

    const finished: GameFinishedEvent[] = [];
    const stored: GamesFinishedEvent[] = [];
    const offRooms = server.ctx.events.on("rooms.game_finished", (e) => finished.push(e));
    const offGames = server.ctx.events.on("games.game_finished", (e) => stored.push(e));
    clock.advance(1_000);
    b.emit("game:submission", submission(room.id, state.sentence.id));
    const results = await a.next("game:results");
    offRooms();
    offGames();
    expect(results.results.map((r: { rewards: { medal: string } }) => r.rewards.medal)).toEqual(["gold", "silver"]);
    expect(await gameRows(room.id)).toEqual([{ round: 1, ended: 1, participants: 2 }]);
    expect(await countGames(server.ctx)).toBe(games + 1);
    expect(await resultsOfUser(server.ctx, bob.id)).toEqual([
      expect.objectContaining({ position: 2, medal: "silver" }),
    ]);
    // rooms.game_finished carries the games module's id of the game.
    expect(stored).toHaveLength(1);
    expect(finished).toEqual([expect.objectContaining({ gameId: stored[0].gameId, roomId: room.id, participants: 2 })]);
  });

  test("an implausible attempt is kept for the record, flagged, and never counted", async () => {
    const room = await newRoom();
    const cheat = await member(server, "빠름");
    const c = await open({ token: cheat.token });
    await join(c, room.id);
    const state = await runToSentence([c]);
    clock.advance(100);
    c.emit("game:submission", submission(room.id, state.sentence.id));
    expect(await c.next("error")).toMatchObject({ code: "implausible" });
    expect((await c.next("game:results")).results).toEqual([]);
    await drained();
    expect(await storedResults(server.ctx, [`u_${cheat.id}`])).toEqual([
      { playerKey: `u_${cheat.id}`, nickname: cheat.username, implausible: 1, position: null },
    ]);
    expect(await resultsOfUser(server.ctx, cheat.id)).toEqual([]);
    expect(await gameRows(room.id)).toEqual([{ round: 1, ended: 1, participants: 0 }]);
  });

  test("a game nobody answered is not stored", async () => {
    const room = await newRoom();
    const g = await open({ client_id: "persist-idle-guest" });
    g.emit("join_anonymous", { room_id: room.id });
    await g.next("room:joined:anonymous");
    const state = await runToSentence([g]);
    clock.advance(state.game_duration * 1000);
    expect((await g.next("game:results")).results).toEqual([]);
    await drained();
    expect(await gameRows(room.id)).toEqual([]);
  });

  test("a room continues the round numbering stored for it (a restart never reuses a round)", async () => {
    const room = await newRoom();
    const earlier = { mode: "sentence_race" as const, sourceId: String(room.id), sourceName: room.name };
    const startedAt = clock.now() - 60_000;
    for (const round of [1, 2, 3]) {
      const ref = { ...earlier, round, startedAt: startedAt + round };
      await recordResult(server.ctx, ref, {
        userId: null,
        playerKey: "g_earlier00001",
        nickname: "guest_1111",
        wpm: 100,
        accuracy: 90,
        completionTime: 20,
        position: 1,
        errorCount: 2,
      });
      await finishGame(server.ctx, ref, { endedAt: startedAt + 30_000, participants: 1, medals: [] });
    }
    const u = await member(server, "다음판");
    const a = await open({ token: u.token });
    await join(a, room.id);
    const state = await runToSentence([a]);
    clock.advance(typingMs);
    a.emit("game:submission", submission(room.id, state.sentence.id));
    await a.next("game:results");
    await drained();
    expect((await gameRows(room.id)).map((g) => g.round)).toEqual([1, 2, 3, 4]);
    expect(await resultsOfUser(server.ctx, u.id)).toEqual([expect.objectContaining({ position: 1 })]);
  });
});

describe("when the finish cannot be stored", () => {
  test("the results still go out, without rewards; nobody is paid and no stats update is sent", async () => {
    const room = await newRoom();
    const alice = await member(server, "실패");
    const a = await open({ token: alice.token });
    await join(a, room.id);
    const allowFinishes = await refuseFinishes(server.ctx, room.id);
    try {
      const state = await runToSentence([a]);
      clock.advance(typingMs);
      a.emit("game:submission", submission(room.id, state.sentence.id));
      await a.next("game:personal_feedback");
      // The finish write is retried with backoff on the server's clock, then given up. Each try is a real write
      // (a round trip to PostgreSQL takes a while): time moves on only once the queue has had its turn.
      for (let i = 0; i < 200 && a.all("game:results").length === 0; i++) {
        await letQueuedWritesRun();
        clock.advance(1_000);
      }
      const results = await a.next("game:results");
      expect(results.results).toEqual([expect.objectContaining({ user_id: alice.id, position: 1, rewards: null })]);
      await a.sync();
      expect(a.all("user:stats_update")).toEqual([]);
      const me = (await server.api("GET", "/api/users/me", { token: alice.token })).body;
      expect(me).toMatchObject({ games_played: 0, coins: 0 });
      // The acknowledged result itself was stored before the finish failed.
      expect(await resultsOfUser(server.ctx, alice.id)).toEqual([expect.objectContaining({ position: 1 })]);
    } finally {
      await allowFinishes();
    }
  });
});

describe("stopping a server (tests stop theirs the same way)", () => {
  test("stop() finishes the game in play and stores it before the modules stop", async () => {
    const own = await startTestServer({ clock: new FakeClock(Date.now()) });
    const ownClock = own.ctx.clock as FakeClock;
    let stopped = false;
    try {
      await importSentences(own.ctx, "stopping", [SENTENCE]);
      const room = await createRoom(own.ctx, { name: "멈춤 시험 방", theme: "stopping" });
      const { token, id } = await own.createUser("멈춤선수", { email: "stopping@example.com" });
      const a = await openClient(own, { token });
      const g = await openClient(own, { client_id: "stopping-guest-01" });
      a.emit("join_room", { room_id: room.id });
      await a.next("room:joined");
      g.emit("join_anonymous", { room_id: room.id });
      await g.next("room:joined:anonymous");
      ownClock.advance(8_000);
      const state = await a.next("game:state", (s) => s.status === "in_progress");
      ownClock.advance(typingMs);
      a.emit("game:submission", submission(room.id, state.sentence.id));
      await a.next("game:personal_feedback");

      const stored: GamesFinishedEvent[] = [];
      own.ctx.events.on("games.game_finished", (e) => stored.push(e));
      const announced: GameFinishedEvent[] = [];
      own.ctx.events.on("rooms.game_finished", (e) => announced.push(e));
      await own.stop();
      stopped = true;
      expect(stored).toEqual([
        expect.objectContaining({ mode: "sentence_race", sourceId: String(room.id), participants: 1 }),
      ]);
      expect(announced).toEqual([expect.objectContaining({ gameId: stored[0].gameId, participants: 1 })]);
      // Sent before the sockets were closed.
      const results = await a.next("game:results");
      expect(results.results).toEqual([expect.objectContaining({ user_id: id, position: 1 })]);
      a.close();
      g.close();
    } finally {
      // Once only: stopping a test server also drops its database.
      if (!stopped) await own.stop();
    }
  });
});

/**
 * Lets the write queue run what it can without waiting for a retry delay (those wait on the FakeClock): a few turns
 * of the event loop, and a short real pause for a database on the other side of a socket.
 */
async function letQueuedWritesRun() {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  await Bun.sleep(10);
}
