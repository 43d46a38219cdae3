import { beforeAll, describe, expect, test } from "bun:test";
import { eventually } from "../../modules/kernel/game-host/redis-testing";
import { keystrokes } from "../../modules/kernel/typing";
import { type Client, openClient } from "../../modules/rooms/test-support";
import { twoProcessSuite } from "./cluster-suite";
import { type ClusterProcess, clusterUser, type TestCluster } from "./cluster-testing";

// Two real server processes (as `npm start` runs them) on one PostgreSQL and one Redis: what a player does on one
// is seen by players on the other. Runs in the PostgreSQL pass of `npm test` (several processes need PostgreSQL).
const suite = twoProcessSuite<Client>();
const { onPostgres, clients } = suite;

let cluster: TestCluster;
let a: ClusterProcess;
let b: ClusterProcess;
beforeAll(() => {
  if (!suite.cluster) return;
  cluster = suite.cluster;
  [a, b] = suite.processes;
});

async function player(process: ClusterProcess, token?: string) {
  const client = await openClient(process, token ? { token } : {});
  clients.push(client);
  return client;
}

async function firstRoomId(process: ClusterProcess): Promise<number> {
  const rooms = await process.api("GET", "/api/rooms");
  expect(rooms.status).toBe(200);
  return rooms.body[0].id;
}

/** The sentence of the next round in play, as every given player sees it. */
async function inProgress(...players: Client[]): Promise<{ id: number; text: string }> {
  const states = await Promise.all(players.map((p) => p.next("game:state", (s) => s.status === "in_progress", 30_000)));
  return states[0].sentence;
}

/** The pid of the process that holds the room's lease (its process id is host:pid:random). */
async function ownerOf(roomId: number): Promise<number | null> {
  const client = await import("redis").then(({ createClient }) => createClient({ url: cluster.redisUrl }));
  await client.connect();
  try {
    const token = await client.get(`${cluster.redisPrefix}lease:sentence_race:${roomId}`);
    return token ? Number(token.split(":")[1]) : null;
  } finally {
    client.destroy();
  }
}

async function latestRound(roomId: number): Promise<number> {
  const [row] = await cluster.sql`SELECT max(round) AS round FROM games_games WHERE source_id = ${String(roomId)}`;
  return Number(row.round);
}

describe.skipIf(!onPostgres)("two server processes", () => {
  test("an account made on one process logs in and plays on the other", async () => {
    const user = await clusterUser(a);
    const login = await b.api("POST", "/api/users/login", { body: { email: user.email, password: user.password } });
    expect(login.status).toBe(200);
    const me = await b.api("GET", "/api/users/me", { token: user.token });
    expect(me.body.username).toBe(user.username);
  });

  test("chat in a room reaches the players of both processes, both ways", async () => {
    const roomId = await firstRoomId(a);
    const [alice, bob] = [await clusterUser(a), await clusterUser(b)];
    const onA = await player(a, alice.token);
    const onB = await player(b, bob.token);
    onA.emit("join_room", { room_id: roomId });
    await onA.next("room:joined");
    onB.emit("join_room", { room_id: roomId });
    await onB.next("room:joined");

    onA.emit("chat_message", { room_id: roomId, message: "안녕하세요 B!" });
    expect(await onB.next("chat:message", (m) => m.message === "안녕하세요 B!", 5000)).toMatchObject({
      username: alice.username,
    });
    onB.emit("chat_message", { room_id: roomId, message: "반가워요 A!" });
    expect(await onA.next("chat:message", (m) => m.message === "반가워요 A!", 5000)).toMatchObject({
      username: bob.username,
    });
  });

  test("login failures are counted across processes: the sixth try is refused wherever it lands", async () => {
    const user = await clusterUser(a);
    const wrong = { email: user.email, password: "wrong-pass-2026" };
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await (i % 2 ? b : a).api("POST", "/api/users/login", { body: wrong })).status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses[5]).toBe(429);
  });

  test("an account deactivated through one process is disconnected on the other", async () => {
    const admin = await clusterUser(a);
    await cluster.sql`UPDATE users SET is_admin = true WHERE id = ${admin.id}`;
    const target = await clusterUser(b);
    const onB = await player(b, target.token);
    const closed = new Promise<string>((resolve) => onB.socket.once("disconnect", resolve));
    const answer = await a.api("POST", `/api/admin/users/${target.id}/deactivate`, { token: admin.token, body: {} });
    expect(answer.status).toBe(200);
    expect(await closed).toBe("io server disconnect");
    const me = await b.api("GET", "/api/users/me", { token: target.token });
    expect(me.status).toBe(403);
  });

  test("one room, players on both processes: one list, one game with positions across processes, and the owner's SIGKILL", async () => {
    const rooms = await a.api("GET", "/api/rooms");
    const roomId: number = rooms.body[1].id;
    const [alice, bob] = [await clusterUser(a, "앨리스"), await clusterUser(b, "밥")];
    const onA = await player(a, alice.token);
    onA.emit("join_room", { room_id: roomId });
    await onA.next("room:joined", () => true, 10_000);
    const onB = await player(b, bob.token);
    onB.emit("join_room", { room_id: roomId });
    await onB.next("room:joined", () => true, 10_000);

    // The list is the same on both processes (the owner's view, shared through Redis).
    for (const process of [a, b]) {
      const listed = async () => (await process.api("GET", `/api/rooms/${roomId}`)).body.user_count === 2;
      expect(await eventually(listed, 10_000)).toBe(true);
    }

    // A whole game: Alice (on the owner) second, Bob (on the other process) first.
    const sentence = await inProgress(onA, onB);
    const seconds = Math.max(2, Math.ceil(keystrokes(sentence.text) / 20)); // about 1,200 타/분: plausible
    await Bun.sleep(seconds * 1000);
    onB.emit("game:submission", {
      room_id: roomId,
      sentence_id: sentence.id,
      typed_text: sentence.text,
      elapsed_time: seconds,
    });
    expect(await onB.next("game:personal_feedback", () => true, 10_000)).toMatchObject({ position: 1 });
    onA.emit("game:submission", {
      room_id: roomId,
      sentence_id: sentence.id,
      typed_text: sentence.text,
      elapsed_time: seconds + 1,
    });
    expect(await onA.next("game:personal_feedback", () => true, 10_000)).toMatchObject({ position: 2 });
    const results = await onB.next("game:results", () => true, 15_000);
    expect(results.results.map((r: { username: string }) => r.username)).toEqual([bob.username, alice.username]);

    // The next round: Bob's answer is acknowledged, then the owner (Alice's process, the first to join) dies.
    const owner = await ownerOf(roomId);
    expect(owner).toBe(a.process.pid);
    const next = await inProgress(onB);
    await Bun.sleep(seconds * 1000);
    onB.emit("game:submission", {
      room_id: roomId,
      sentence_id: next.id,
      typed_text: next.text,
      elapsed_time: seconds,
    });
    await onB.next("game:personal_feedback", (feedback) => feedback.sentence_id === next.id, 10_000);
    const interrupted = await latestRound(roomId);
    await cluster.kill(a, "SIGKILL");

    // The survivor takes the room over and plays on: a new round reaches Bob.
    const resumed = await onB.next("game:state", (state) => state.status === "in_progress", 40_000);
    expect(resumed.sentence.text.length).toBeGreaterThan(0);
    expect(await ownerOf(roomId)).toBe(b.process.pid);
    // Every acknowledged result stored exactly once; the interrupted round closed by the new owner.
    const stored = await cluster.sql`
      SELECT r.player_key, g.round, g.ended_at FROM games_results r JOIN games_games g ON g.id = r.game_id
      WHERE g.source_id = ${String(roomId)} ORDER BY g.round, r.player_key`;
    expect(stored.map((row) => [row.round, row.player_key])).toEqual([
      [interrupted - 1, `u_${alice.id}`],
      [interrupted - 1, `u_${bob.id}`],
      [interrupted, `u_${bob.id}`],
    ]);
    expect(stored.every((row) => row.ended_at !== null)).toBe(true);
  }, 150_000);

  test("after the crash the survivor serves, and a new process joins the deployment", async () => {
    expect((await b.api("GET", "/api/health")).status).toBe(200);
    const late = await clusterUser(b);
    const joined = await cluster.start();
    expect((await joined.api("GET", "/api/users/me", { token: late.token })).status).toBe(200);
    // The newcomer lists the rooms as their owners show them.
    expect((await joined.api("GET", "/api/rooms")).status).toBe(200);
  });
});
