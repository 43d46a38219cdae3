import { beforeAll, expect, test } from "bun:test";
import { TOO_MANY_WRITES } from "../../modules/kernel/write-limits";
import { twoProcessSuite } from "./cluster-suite";
import { type ClusterProcess, clusterUser } from "./cluster-testing";

// Two real server processes on one PostgreSQL and one Redis: a member's writes are counted once, whichever process
// each one reaches (the counts live in Redis). Runs in the PostgreSQL pass of `npm test`.
const suite = twoProcessSuite<{ close(): void }>();

let a: ClusterProcess;
let b: ClusterProcess;
beforeAll(() => {
  if (suite.cluster) [a, b] = suite.processes;
});

test.skipIf(!suite.onPostgres)(
  "a member's 21st comment is refused on both processes, however they were spread",
  async () => {
    const member = await clusterUser(a, "댓글왕");
    const post = await a.api("POST", "/api/board/", { token: member.token, body: { title: "글", content: "내용" } });
    expect(post.status).toBe(201);
    const comment = (process: ClusterProcess) =>
      process.api("POST", `/api/board/${post.body.id}/comments`, { token: member.token, body: { content: "댓글" } });
    // 20 in 10 minutes: 10 on each process. Counted per process, each would still allow 10 more.
    for (let i = 0; i < 20; i++) expect((await comment(i % 2 ? a : b)).status).toBe(201);
    for (const process of [a, b]) {
      const refused = await comment(process);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ detail: TOO_MANY_WRITES });
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    // Another member from the same address is still served: the address's count (300) is far from reached.
    const other = await clusterUser(b, "이웃");
    const answer = await b.api("POST", `/api/board/${post.body.id}/comments`, {
      token: other.token,
      body: { content: "댓글" },
    });
    expect(answer.status).toBe(201);
  },
);
