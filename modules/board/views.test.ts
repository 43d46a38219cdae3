import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { VIEW_WINDOW_MS } from "../kernel/viewers";
import { boardStore, startBoardServer, type TestUser } from "./test-helpers";

let t: Awaited<ReturnType<typeof startBoardServer>>;
let author: TestUser;
let reader: TestUser;

beforeAll(async () => {
  t = await startBoardServer();
  author = await t.user("글쓴이");
  reader = await t.user("독자");
});
afterAll(() => t.server.stop());

const view = (postId: number, init: { token?: string; agent?: string } = {}) =>
  t.server.api("POST", `/api/board/${postId}/view`, {
    token: init.token,
    headers: { "user-agent": init.agent ?? "Mozilla/5.0 test" },
  });

describe("POST /api/board/{postId}/view", () => {
  test("a reload storm counts once per viewer per window; a later visit counts again", async () => {
    const post = await t.post(author);
    const first = await view(post.id);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ id: post.id, view_count: 1, counted: true });
    for (let i = 0; i < 20; i++) expect((await view(post.id)).body.counted).toBe(false);
    expect((await t.server.api("GET", `/api/board/${post.id}`)).body.view_count).toBe(1);

    t.clock.advance(VIEW_WINDOW_MS - 1000);
    expect((await view(post.id)).body.counted).toBe(false);
    t.clock.advance(2000);
    expect((await view(post.id)).body).toMatchObject({ view_count: 2, counted: true });
    // One row per viewer and post, however many visits.
    const rows = await boardStore(t.server.ctx).viewRows(post.id);
    expect(rows).toHaveLength(1);
  });

  test("simultaneous visits of one viewer count once", async () => {
    const post = await t.post(author);
    const answers = await Promise.all(Array.from({ length: 10 }, () => view(post.id, { agent: "double click" })));
    expect(answers.filter((a) => a.body.counted)).toHaveLength(1);
    expect((await t.server.api("GET", `/api/board/${post.id}`)).body.view_count).toBe(1);
    expect(await boardStore(t.server.ctx).viewRows(post.id)).toHaveLength(1);
  });

  test("different viewers count separately: other browsers, logged-in users by account", async () => {
    const post = await t.post(author);
    await view(post.id, { agent: "browser A" });
    await view(post.id, { agent: "browser B" });
    await view(post.id, { token: reader.token, agent: "phone" });
    // The same account from another browser is the same viewer.
    expect((await view(post.id, { token: reader.token, agent: "laptop" })).body.counted).toBe(false);
    expect((await view(post.id, { token: author.token })).body.counted).toBe(true);
    expect((await t.server.api("GET", `/api/board/${post.id}`)).body.view_count).toBe(4);
  });

  test("a broken token is treated as anonymous; unknown or malformed posts are 404/422", async () => {
    const post = await t.post(author);
    expect((await view(post.id, { token: "garbage" })).body.counted).toBe(true);
    const missing = await view(999999);
    expect(missing.status).toBe(404);
    expect((await view(-1 as number)).status).toBe(422);
    expect((await t.server.api("POST", "/api/board/abc/view")).status).toBe(422);
  });
});
