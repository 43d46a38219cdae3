import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { accountsApi } from "../accounts";
import type { AppEvents } from "../kernel/events";
import { BOARD_MSG, CONTENT_MAX, TITLE_MAX } from "./rules";
import { boardStore, startBoardServer, type TestUser } from "./test-helpers";

let t: Awaited<ReturnType<typeof startBoardServer>>;
let author: TestUser;
let other: TestUser;
let admin: TestUser;
const adminEvents: AppEvents["board.deleted_by_admin"][] = [];

beforeAll(async () => {
  t = await startBoardServer();
  other = await t.user("다른이");
  admin = await t.user("관리자", { admin: true });
  t.server.ctx.events.on("board.deleted_by_admin", (e) => adminEvents.push(e));
});
// A member writes at most 10 posts in 10 minutes (kernel write limits) and this clock stands still: each test
// writes as a member of its own.
let authors = 0;
beforeEach(async () => {
  author = await t.user(`작성자${++authors}`);
});
afterAll(() => t.server.stop());

const api = (...args: Parameters<typeof t.server.api>) => t.server.api(...args);

describe("POST /api/board/", () => {
  test("creates a post: 201, trimmed title and content, author and counters", async () => {
    const res = await api("POST", "/api/board/", {
      body: { title: "  첫 글  ", content: "\n 줄 하나\n줄 둘 \n" },
      token: author.token,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      title: "첫 글",
      content: "줄 하나\n줄 둘",
      user_id: author.id,
      user: { id: author.id, username: author.username },
      view_count: 0,
      comment_count: 0,
    });
    expect(res.body.id).toBeGreaterThan(0);
    expect(new Date(res.body.created_at).toISOString()).toBe(res.body.created_at);
    expect(res.body.updated_at).toBe(res.body.created_at);
  });

  test("anonymous and broken tokens get 401 with a Korean detail", async () => {
    const anon = await api("POST", "/api/board/", { body: { title: "a", content: "b" } });
    expect(anon.status).toBe(401);
    expect(anon.body.detail).toBe("로그인이 필요합니다.");
    const bad = await api("POST", "/api/board/", { body: { title: "a", content: "b" }, token: "not.a.jwt" });
    expect(bad.status).toBe(401);
    expect(typeof bad.body.detail).toBe("string");
  });

  test("title and content rules with the spec's messages", async () => {
    const cases: [unknown, unknown, string][] = [
      ["", "내용", BOARD_MSG.titleRequired],
      ["   \n\t", "내용", BOARD_MSG.titleRequired],
      ["가".repeat(TITLE_MAX + 1), "내용", BOARD_MSG.titleTooLong],
      ["제목", "", BOARD_MSG.contentRequired],
      ["제목", "  \n  ", BOARD_MSG.contentRequired],
      ["제목", "a".repeat(CONTENT_MAX + 1), BOARD_MSG.contentTooLong],
    ];
    for (const [title, content, detail] of cases) {
      const res = await api("POST", "/api/board/", { body: { title, content }, token: author.token });
      expect(res.status).toBe(422);
      expect(res.body.detail).toBe(detail);
    }
    const longest = await api("POST", "/api/board/", {
      body: { title: `  ${"가".repeat(TITLE_MAX)}  `, content: "나".repeat(CONTENT_MAX) },
      token: author.token,
    });
    expect(longest.status).toBe(201);
    expect(longest.body.title).toHaveLength(TITLE_MAX);
  });

  test("wrong types, missing or extra fields, huge and broken bodies are 4xx, never 500", async () => {
    const bodies: unknown[] = [
      { title: 5, content: "x" },
      { title: "x", content: null },
      { title: "x" },
      {},
      [],
      "문자열",
      { title: "x", content: "y", user_id: 99 },
      { title: "x".repeat(5000), content: "y" },
      { title: "x", content: "y".repeat(100_000) },
    ];
    for (const body of bodies) {
      const res = await api("POST", "/api/board/", { body, token: author.token });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
    const huge = await api("POST", "/api/board/", {
      body: { title: "x", content: "y".repeat(400_000) },
      token: author.token,
    });
    expect(huge.status).toBe(413);
    const broken = await api("POST", "/api/board/", { raw: '{"title": "x", "content": ', token: author.token });
    expect(broken.status).toBe(400);
  });

  test("HTML-looking text is stored and returned verbatim", async () => {
    const title = `<img src=x onerror="alert('t')">&amp;`;
    const content = `<script>alert("x")</script>\n<b>굵게</b> &lt; ' " \` \\`;
    const created = await t.post(author, title, content);
    const read = await api("GET", `/api/board/${created.id}`);
    expect(read.body.title).toBe(title);
    expect(read.body.content).toBe(content);
    const row = await boardStore(t.server.ctx).postRow(created.id);
    expect(row?.content).toBe(content);
  });
});

describe("GET /api/board/{postId}", () => {
  test("anyone reads a post", async () => {
    const created = await t.post(author, "읽을 글", "본문");
    const res = await api("GET", `/api/board/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: created.id, title: "읽을 글", content: "본문", user_id: author.id });
  });

  test("an unknown post is 404; malformed ids are 422, never 500", async () => {
    const missing = await api("GET", "/api/board/999999");
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toBe(BOARD_MSG.postNotFound);
    for (const id of ["abc", "-1", "0", "1.5", "1e3x", "99999999999999999999999", "%27%20OR%201=1"]) {
      const res = await api("GET", `/api/board/${id}`);
      expect(res.status).toBe(422);
    }
  });
});

describe("PUT /api/board/{postId}", () => {
  test("only the author edits (administrators neither); anonymous 401", async () => {
    const created = await t.post(author, "원래 제목", "원래 내용");
    const path = `/api/board/${created.id}`;
    const body = { title: "바뀐 제목", content: "바뀐 내용" };
    expect((await api("PUT", path, { body })).status).toBe(401);
    const byOther = await api("PUT", path, { body, token: other.token });
    expect(byOther.status).toBe(403);
    expect(byOther.body.detail).toBe(BOARD_MSG.postEditForbidden);
    expect((await api("PUT", path, { body, token: admin.token })).status).toBe(403);
    expect((await api("GET", path)).body.title).toBe("원래 제목");

    t.clock.advance(60_000);
    const byAuthor = await api("PUT", path, {
      body: { title: " 바뀐 제목 ", content: "바뀐 내용" },
      token: author.token,
    });
    expect(byAuthor.status).toBe(200);
    expect(byAuthor.body).toMatchObject({ id: created.id, title: "바뀐 제목", content: "바뀐 내용" });
    expect(Date.parse(byAuthor.body.updated_at)).toBeGreaterThan(Date.parse(byAuthor.body.created_at));
  });

  test("edit validates like create; unknown or deleted posts are 404", async () => {
    const created = await t.post(author);
    const path = `/api/board/${created.id}`;
    const empty = await api("PUT", path, { body: { title: " ", content: "x" }, token: author.token });
    expect(empty.body.detail).toBe(BOARD_MSG.titleRequired);
    const extra = await api("PUT", path, { body: { title: "x", content: "y", view_count: 1 }, token: author.token });
    expect(extra.status).toBe(422);
    const missing = await api("PUT", "/api/board/999999", { body: { title: "x", content: "y" }, token: author.token });
    expect(missing.status).toBe(404);
    await api("DELETE", path, { token: author.token });
    const deleted = await api("PUT", path, { body: { title: "x", content: "y" }, token: author.token });
    expect(deleted.status).toBe(404);
    expect(deleted.body.detail).toBe(BOARD_MSG.postNotFound);
  });
});

describe("DELETE /api/board/{postId}", () => {
  test("anonymous 401, another user 403, the author deletes softly (no admin event)", async () => {
    const created = await t.post(author, "지울 글");
    const path = `/api/board/${created.id}`;
    expect((await api("DELETE", path)).status).toBe(401);
    const byOther = await api("DELETE", path, { token: other.token });
    expect(byOther.status).toBe(403);
    expect(byOther.body.detail).toBe(BOARD_MSG.postDeleteForbidden);

    const before = adminEvents.length;
    const byAuthor = await api("DELETE", path, { token: author.token });
    expect(byAuthor.status).toBe(200);
    expect(byAuthor.body.detail).toBe(BOARD_MSG.postDeleted);
    expect(adminEvents.length).toBe(before);

    const row = await boardStore(t.server.ctx).postRow(created.id);
    expect(row?.title).toBe("지울 글");
    expect(row?.deletedAt).toBeInstanceOf(Date);
    expect(row?.deletedBy).toBe(author.id);

    expect((await api("GET", path)).status).toBe(404);
    expect((await api("POST", `${path}/view`)).status).toBe(404);
    expect((await api("GET", `${path}/comments`)).status).toBe(404);
    expect((await api("DELETE", path, { token: author.token })).status).toBe(404);
    const list = await api("GET", "/api/board/?size=50");
    expect(list.body.items.map((p: { id: number }) => p.id)).not.toContain(created.id);
  });

  test("an administrator deletes someone else's post and the admin log event is emitted", async () => {
    const created = await t.post(other, "규칙 위반 글", "광고 내용입니다");
    const res = await api("DELETE", `/api/board/${created.id}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(adminEvents.at(-1)).toEqual({
      adminId: admin.id,
      kind: "post",
      id: created.id,
      postId: created.id,
      title: "규칙 위반 글",
      excerpt: "광고 내용입니다",
      authorId: other.id,
    });
    const row = await boardStore(t.server.ctx).postRow(created.id);
    expect(row?.deletedBy).toBe(admin.id);
  });

  test("a post deleted twice at once by an administrator: one 200, one 404, announced once", async () => {
    const created = await t.post(other, "동시에 지울 글");
    const before = adminEvents.length;
    const answers = await Promise.all([
      api("DELETE", `/api/board/${created.id}`, { token: admin.token }),
      api("DELETE", `/api/board/${created.id}`, { token: admin.token }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 404]);
    expect(adminEvents.length - before).toBe(1);
  });

  test("a deactivated author can no longer delete", async () => {
    const quitter = await t.user();
    const created = await t.post(quitter);
    await accountsApi(t.server.ctx).service.setActive(quitter.id, false);
    const res = await api("DELETE", `/api/board/${created.id}`, { token: quitter.token });
    expect(res.status).toBe(403);
    expect((await api("GET", `/api/board/${created.id}`)).status).toBe(200);
  });
});
