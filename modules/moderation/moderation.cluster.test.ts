import { beforeAll, expect, test } from "bun:test";
import { twoProcessSuite } from "../../apps/server/cluster-suite";
import {
  type ClusterProcess,
  clusterUser,
  expectStatus as ok,
  type TestCluster,
} from "../../apps/server/cluster-testing";
import { openTestClient, type TestClient } from "../kernel/socket-testing";

// Two real server processes on one PostgreSQL and one Redis (README "Enforcement"): a line said through B is reported
// through A (the chat history is Redis's, the same on both), an administrator mutes its author through A, and the
// author's socket on B learns it at once and is refused; then a suspension through A closes that socket. Runs in the
// PostgreSQL pass of `npm test`.
const suite = twoProcessSuite<TestClient>();
const { onPostgres, clients } = suite;

let cluster: TestCluster;
let a: ClusterProcess;
let b: ClusterProcess;
beforeAll(() => {
  if (!suite.cluster) return;
  cluster = suite.cluster;
  [a, b] = suite.processes;
});

async function socketOn(process: ClusterProcess, auth: Record<string, string>) {
  const client = await openTestClient(process, auth);
  clients.push(client);
  await client.sync();
  return client;
}

test.skipIf(!onPostgres)(
  "a line said on B is reported on A; a mute made on A reaches the author's socket on B at once, then a suspension",
  async () => {
    const admin = await clusterUser(a, "두서버관리자");
    await cluster.sql`UPDATE users SET is_admin = true WHERE id = ${admin.id}`;
    const reporter = await clusterUser(a, "두서버신고자");
    const offender = await clusterUser(b, "두서버말썽");
    const [room] = (await a.api("GET", "/api/rooms/")).body;

    const onA = await socketOn(a, { token: reporter.token, client_id: "cluster-moderation-reporter" });
    const onB = await socketOn(b, { token: offender.token, client_id: "cluster-moderation-offender" });
    for (const client of [onA, onB]) {
      client.emit("join_room", { room_id: room.id });
      await client.next("room:joined", () => true, 10_000);
    }
    onB.emit("chat_message", { room_id: room.id, message: "신고당할 말" });
    const line = await onA.next("chat:message", (l) => l.message === "신고당할 말", 10_000);

    const report = await ok(a, 201, "POST", "/api/reports", reporter.token, {
      kind: "room_chat",
      room_id: room.id,
      line_id: line.line_id,
      reason: "욕설/비방",
    });
    const muted = await ok(a, 200, "POST", `/api/moderation/reports/${report.id}/resolve`, admin.token, {
      action: "mute",
      duration: "24h",
    });
    expect(muted.reports[0].evidence.lines.at(-1)).toMatchObject({ message: "신고당할 말", user_id: offender.id });

    // No poll waited for: Redis tells B at once (its poll would take up to 2 s; this waits 1 s at most).
    const told = await onB.next("moderation:muted", () => true, 1_000);
    expect(told.detail).toMatch(/까지 채팅이 제한되었습니다\. \(사유: 욕설\/비방\)$/);
    onB.emit("chat_message", { room_id: room.id, message: "또 말하기" });
    expect((await onB.next("error", (e) => e.code === "muted", 5_000)).message).toBe(told.detail);
    const post = await b.api("POST", "/api/board/", { token: offender.token, body: { title: "글", content: "내용" } });
    expect(post.status).toBe(403);

    const player = await ok(a, 201, "POST", "/api/reports", reporter.token, {
      kind: "player",
      user_id: offender.id,
      reason: "부적절한 닉네임",
    });
    await ok(a, 200, "POST", `/api/moderation/reports/${player.id}/resolve`, admin.token, {
      action: "suspend",
      duration: "permanent",
    });
    expect((await onB.next("user:session_closed", () => true, 5_000)).reason).toBe("suspended");
    const login = await b.api("POST", "/api/users/login", {
      body: { email: offender.email, password: offender.password },
    });
    expect(login.status).toBe(403);
    expect(login.body.detail).toContain("관리자가 해제할 때까지 로그인할 수 없습니다.");
  },
  60_000,
);

test.skipIf(!onPostgres)(
  "a word an administrator adds on A is masked in chat on B and refuses posts there",
  async () => {
    const admin = await clusterUser(a, "금칙어관리자");
    await cluster.sql`UPDATE users SET is_admin = true WHERE id = ${admin.id}`;
    const speaker = await clusterUser(b, "금칙어길드장");
    // Guild chat is masked by the process holding the speaker's socket: B.
    const guild = await ok(b, 201, "POST", "/api/guilds", speaker.token, { name: "두서버금칙어" });
    const onB = await socketOn(b, { token: speaker.token });
    onB.emit("guild:join", { guild_id: guild.id });
    await onB.next("guild:joined", () => true, 10_000);

    await ok(a, 201, "POST", "/api/moderation/profanity", admin.token, { word: "두서버욕" });
    // The change rides the mutes' channel (Redis, else B's 2-s poll): B reads it again; asked until then.
    let refused = false;
    for (let i = 0; i < 50 && !refused; i++) {
      const post = await b.api("POST", "/api/board/", {
        token: speaker.token,
        body: { title: "글", content: "두서버욕 쓰기" },
      });
      refused = post.status === 400 && post.body.detail === "부적절한 표현이 포함되어 있습니다.";
      if (!refused) await Bun.sleep(100);
    }
    expect(refused).toBe(true);
    onB.emit("guild:message", { guild_id: guild.id, message: "두서버욕 하지 마" });
    expect((await onB.next("guild:message", () => true, 5_000)).message).toBe("*** 하지 마");
    await ok(a, 200, "DELETE", `/api/moderation/profanity/${encodeURIComponent("두서버욕")}`, admin.token);
  },
  60_000,
);
