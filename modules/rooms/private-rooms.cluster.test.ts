import { beforeAll, expect, test } from "bun:test";
import { twoProcessSuite } from "../../apps/server/cluster-suite";
import {
  type ClusterProcess,
  clusterUser,
  expectStatus as ok,
  type TestCluster,
} from "../../apps/server/cluster-testing";
import { PRIVATE_MSG } from "./private-rules";
import { type Client, openClient } from "./test-support";

// Two real server processes on one PostgreSQL and one Redis (README "Private rooms"): a private room created on A
// is joined through its code on B, started by its owner through B's HTTP (the action travels to the process running
// the room), raced across both, and its owner's removal and close made on one process reach the sockets on the
// other. Runs in the PostgreSQL pass of `npm test`.
const suite = twoProcessSuite<Client>();
const { onPostgres, clients } = suite;
const SENTENCE = "가는 말이 고와야 오는 말이 곱다";

let cluster: TestCluster;
let a: ClusterProcess;
let b: ClusterProcess;
beforeAll(() => {
  if (!suite.cluster) return;
  cluster = suite.cluster;
  [a, b] = suite.processes;
});

async function socketOn(process: ClusterProcess, auth: Record<string, string>) {
  const client = await openClient(process, auth);
  clients.push(client);
  await client.sync();
  return client;
}

/** A character every 350 ms (about 450 타/분): steps a person could type, stamped by the room's owner process. */
async function typeOut(client: Client, roomId: number, sentenceId: number) {
  const chars = Array.from(SENTENCE);
  for (let i = 1; i <= chars.length; i++) {
    client.emit("game:progress", { room_id: roomId, typed_text: chars.slice(0, i).join("") });
    await Bun.sleep(350);
  }
  client.emit("game:submission", { room_id: roomId, sentence_id: sentenceId, typed_text: SENTENCE });
}

test.skipIf(!onPostgres)(
  "created on A, joined by its code on B, started through B, raced across both; a removal and the close reach the other process",
  async () => {
    const owner = await clusterUser(a, "두서버방장");
    const created = await ok(a, 201, "POST", "/api/rooms/private", owner.token, {
      name: "두 서버 비공개 방",
      max_users: 4,
      texts: [SENTENCE],
    });
    const roomId = created.room.id as number;
    const code = created.private.code as string;

    const onA = await socketOn(a, { token: owner.token, client_id: "cluster-private-owner-01" });
    onA.emit("join_room", { room_id: roomId, code });
    expect(await onA.next("room:joined", () => true, 10_000)).toMatchObject({ private: { code } });

    // A guest with the link, on the other process.
    expect(await ok(b, 200, "GET", `/api/rooms/invite/${code}`)).toMatchObject({ room: { id: roomId } });
    const onB = await socketOn(b, { client_id: "cluster-private-guest-01" });
    onB.emit("join_anonymous", { room_id: roomId, code });
    const guest = await onB.next("room:joined:anonymous", () => true, 10_000);
    await onA.next("room:anonymous_joined", () => true, 10_000);

    // The owner starts the round through B: the action reaches the room wherever it runs.
    const stranger = await clusterUser(b, "두서버남");
    await ok(b, 403, "POST", `/api/rooms/private/${roomId}/start`, stranger.token);
    await ok(b, 200, "POST", `/api/rooms/private/${roomId}/start`, owner.token);
    const started = await onB.next("game:state", (s) => s.status === "in_progress", 15_000);
    expect(started.sentence.text).toBe(SENTENCE);
    await Promise.all([typeOut(onA, roomId, started.sentence.id), typeOut(onB, roomId, started.sentence.id)]);
    const results = await onB.next("game:results", () => true, 15_000);
    expect(results.results).toHaveLength(2);
    expect(results.results.find((r: { user_id: number }) => r.user_id === owner.id).rewards).toMatchObject({
      coins: 5,
      medal: null,
    });
    const stored = await cluster.sql`
      SELECT r.player_key, r.medal FROM games_results r JOIN games_games g ON g.id = r.game_id
      WHERE g.mode = 'sentence_race' AND g.source_id = ${String(roomId)} ORDER BY r.player_key`;
    expect(stored.map((row) => [row.player_key, row.medal])).toEqual(
      [
        [guest.session_id, null],
        [`u_${owner.id}`, null],
      ].sort(),
    );
    const ranked = await cluster.sql`SELECT count(*)::int AS n FROM games_daily_stats WHERE user_id = ${owner.id}`;
    expect(ranked[0]!.n).toBe(0);

    // 다시 하기 from B reaches the owner on A.
    onB.emit("room:rematch", { room_id: roomId });
    expect(await onA.next("room:rematch", () => true, 10_000)).toMatchObject({ ready: [guest.session_id] });

    // The owner removes the guest through A: the socket on B is told and out; its link no longer lets it in.
    await ok(a, 200, "POST", `/api/rooms/private/${roomId}/remove`, owner.token, { session_id: guest.session_id });
    expect(await onB.next("room:removed", () => true, 10_000)).toMatchObject({ message: PRIVATE_MSG.removed });
    onB.emit("join_anonymous", { room_id: roomId, code });
    expect(await onB.next("error", (e) => e.event === "join_anonymous", 10_000)).toMatchObject({ code: "removed" });

    // Closed through B: the owner's socket on A is told.
    await ok(b, 200, "DELETE", `/api/rooms/private/${roomId}`, owner.token);
    expect(await onA.next("room:closed", () => true, 10_000)).toMatchObject({ message: PRIVATE_MSG.closed });
    await ok(a, 404, "GET", `/api/rooms/invite/${code}`);
  },
  90_000,
);
