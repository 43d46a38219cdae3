import { afterAll, beforeAll, expect, test } from "bun:test";
import { breakAuditLog, startAdminServer, type TestUser } from "./test-helpers";

let t: Awaited<ReturnType<typeof startAdminServer>>;
let admin: TestUser;
let author: TestUser;

beforeAll(async () => {
  t = await startAdminServer();
  admin = await t.user("게시판관리자", { admin: true });
  author = await t.user("글쓴이");
});
afterAll(() => t.server.stop());

const latestLog = async () => (await t.server.api("GET", "/api/admin/logs", { token: admin.token })).body.logs[0];

test("an administrator deleting someone else's post or comment is written to the admin log", async () => {
  const post = await t.server.api("POST", "/api/board/", {
    body: { title: "지울 글", content: "광고입니다" },
    token: author.token,
  });
  expect(post.status).toBe(201);
  const comment = await t.server.api("POST", `/api/board/${post.body.id}/comments`, {
    body: { content: "광고 댓글", parent_id: null },
    token: author.token,
  });
  expect(comment.status).toBe(201);

  expect((await t.server.api("DELETE", `/api/board/comments/${comment.body.id}`, { token: admin.token })).status).toBe(
    200,
  );
  const commentLog = await latestLog();
  expect(commentLog).toMatchObject({
    action: "delete_comment",
    admin_id: admin.id,
    admin_username: "게시판관리자",
    target_user_id: author.id,
    target_username: "글쓴이",
    source: "web",
  });
  expect(JSON.parse(commentLog.details)).toMatchObject({ post_id: post.body.id, comment_id: comment.body.id });

  expect((await t.server.api("DELETE", `/api/board/${post.body.id}`, { token: admin.token })).status).toBe(200);
  const postLog = await latestLog();
  expect(postLog).toMatchObject({ action: "delete_post", target_user_id: author.id });
  expect(JSON.parse(postLog.details)).toMatchObject({ post_id: post.body.id, title: "지울 글", excerpt: "광고입니다" });
});

test("an author deleting their own post writes nothing", async () => {
  const before = (await t.server.api("GET", "/api/admin/logs", { token: admin.token })).body.total_count;
  const post = await t.server.api("POST", "/api/board/", {
    body: { title: "내 글", content: "내용" },
    token: author.token,
  });
  expect((await t.server.api("DELETE", `/api/board/${post.body.id}`, { token: author.token })).status).toBe(200);
  expect((await t.server.api("GET", "/api/admin/logs", { token: admin.token })).body.total_count).toBe(before);
});

test("the deletion and its log entry commit together: a failed log write leaves the post in place", async () => {
  const post = await t.server.api("POST", "/api/board/", {
    body: { title: "남을 글", content: "내용" },
    token: author.token,
  });
  const before = (await t.server.api("GET", "/api/admin/logs", { token: admin.token })).body.total_count;
  const repair = await breakAuditLog(t.server.ctx);
  let refused: Awaited<ReturnType<typeof t.server.api>>;
  try {
    refused = await t.server.api("DELETE", `/api/board/${post.body.id}`, { token: admin.token });
  } finally {
    await repair();
  }
  expect(refused.status).toBe(500);
  expect((await t.server.api("GET", `/api/board/${post.body.id}`)).status).toBe(200);
  expect((await t.server.api("GET", "/api/admin/logs", { token: admin.token })).body.total_count).toBe(before);
  // Repaired, the same deletion goes through with its entry.
  expect((await t.server.api("DELETE", `/api/board/${post.body.id}`, { token: admin.token })).status).toBe(200);
  expect((await t.server.api("GET", "/api/admin/logs", { token: admin.token })).body.total_count).toBe(before + 1);
});
