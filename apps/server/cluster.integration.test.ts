import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { testEngine } from "../../db/testing";
import { eventually } from "../../modules/kernel/game-host/redis-testing";
import { type Client, openClient } from "../../modules/rooms/test-support";
import { type ClusterProcess, clusterUser, startCluster, type TestCluster } from "./cluster-testing";

// Two real server processes (as `npm start` runs them) on one PostgreSQL and one Redis: what a player does on one
// is seen by players on the other. Runs in the PostgreSQL pass of `npm test` (several processes need PostgreSQL).
const onPostgres = testEngine() === "postgres";

let cluster: TestCluster;
let a: ClusterProcess;
let b: ClusterProcess;
const clients: Client[] = [];

beforeAll(async () => {
  if (!onPostgres) return;
  cluster = await startCluster(2);
  [a, b] = cluster.processes;
}, 60_000);
afterAll(async () => {
  for (const client of clients) client.close();
  await cluster?.stop();
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

  test("a process killed with SIGKILL leaves the other serving, and a new process joins", async () => {
    const third = await cluster.start();
    await cluster.kill(third, "SIGKILL");
    expect((await a.api("GET", "/api/health")).status).toBe(200);
    const late = await clusterUser(b);
    expect(
      await eventually(async () => (await a.api("GET", "/api/users/me", { token: late.token })).status === 200),
    ).toBe(true);
  });
});
