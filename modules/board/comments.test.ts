import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import type { AppEvents } from "../kernel/events";
import { BOARD_MSG, COMMENT_MAX } from "./rules";
import { boardStore, startBoardServer, type TestUser } from "./test-helpers";

type Comment = {
  id: number;
  content: string;
  user_id: number;
  parent_id: number | null;
  is_deleted: boolean;
  replies: Comment[];
};

let t: Awaited<ReturnType<typeof startBoardServer>>;
let author: TestUser;
let other: TestUser;
let admin: TestUser;
const adminEvents: AppEvents["board.deleted_by_admin"][] = [];

beforeAll(async () => {
  t = await startBoardServer();
  admin = await t.user("운영자", { admin: true });
  t.server.ctx.events.on("board.deleted_by_admin", (e) => adminEvents.push(e));
});
// A member writes at most 10 posts and 20 comments in 10 minutes (kernel write limits) and this clock stands
// still: each test writes as members of its own.
let members = 0;
beforeEach(async () => {
  members++;
  author = await t.user(`글쓴이${members}`);
  other = await t.user(`댓글러${members}`);
});
afterAll(() => t.server.stop());

const api = (...args: Parameters<typeof t.server.api>) => t.server.api(...args);
const thread = async (postId: number) => {
  const res = await api("GET", `/api/board/${postId}/comments`);
  expect(res.status).toBe(200);
  return res.body as Comment[];
};
const commentCount = async (postId: number) => (await api("GET", `/api/board/${postId}`)).body.comment_count;
/** The comment as stored, deleted or not. */
const row = (id: number) => boardStore(t.server.ctx).findComment(id);

describe("comments and replies", () => {
  test("top-level comments in order with replies nested one level; counts follow", async () => {
    const post = await t.post(author);
    const first = await t.comment(other, post.id, "  첫 댓글  ");
    t.clock.advance(1000);
    const second = await t.comment(author, post.id, "둘째 댓글");
    t.clock.advance(1000);
    const reply = await t.comment(author, post.id, "첫 댓글에 답글", first.id);
    expect(first.content).toBe("첫 댓글");
    expect(reply).toMatchObject({ parent_id: first.id, user_id: author.id, is_deleted: false, replies: [] });

    const list = await thread(post.id);
    expect(list.map((c) => c.id)).toEqual([first.id, second.id]);
    expect(list[0].replies.map((r) => r.id)).toEqual([reply.id]);
    expect(list[0]).toMatchObject({ user_id: other.id, parent_id: null, is_deleted: false });
    expect(list[0]).toHaveProperty("user.username", other.username);
    expect(list[0]).toHaveProperty("created_at");
    expect(list[0]).toHaveProperty("updated_at");
    expect(await commentCount(post.id)).toBe(3);
  });

  test("a reply to a reply is refused with 400; the parent must be a live comment of the same post", async () => {
    const post = await t.post(author);
    const elsewhere = await t.post(author);
    const top = await t.comment(other, post.id);
    const reply = await t.comment(author, post.id, "답글", top.id);
    const foreign = await t.comment(other, elsewhere.id);

    const path = `/api/board/${post.id}/comments`;
    const nested = await api("POST", path, { body: { content: "답답글", parent_id: reply.id }, token: other.token });
    expect(nested.status).toBe(400);
    expect(nested.body.detail).toBe(BOARD_MSG.replyToReply);
    const cross = await api("POST", path, { body: { content: "x", parent_id: foreign.id }, token: other.token });
    expect(cross.status).toBe(400);
    expect(cross.body.detail).toBe(BOARD_MSG.parentNotFound);
    const missing = await api("POST", path, { body: { content: "x", parent_id: 999999 }, token: other.token });
    expect(missing.status).toBe(400);

    await api("DELETE", `/api/board/comments/${top.id}`, { token: other.token });
    const toDeleted = await api("POST", path, { body: { content: "x", parent_id: top.id }, token: author.token });
    expect(toDeleted.status).toBe(400);
    expect(toDeleted.body.detail).toBe(BOARD_MSG.parentDeleted);
    expect(await commentCount(post.id)).toBe(1); // only the reply is live
  });

  test("comment validation: trimmed, non-empty, at most 2,000 characters; bad types never 500", async () => {
    const post = await t.post(author);
    const path = `/api/board/${post.id}/comments`;
    for (const content of ["", "   \n "]) {
      const res = await api("POST", path, { body: { content }, token: other.token });
      expect(res.status).toBe(422);
      expect(res.body.detail).toBe(BOARD_MSG.commentRequired);
    }
    const long = await api("POST", path, { body: { content: "가".repeat(COMMENT_MAX + 1) }, token: other.token });
    expect(long.body.detail).toBe(BOARD_MSG.commentTooLong);
    const max = await api("POST", path, { body: { content: "가".repeat(COMMENT_MAX) }, token: other.token });
    expect(max.status).toBe(201);
    const bodies: unknown[] = [
      { content: 1 },
      { content: "x", parent_id: "abc" },
      { content: "x", parent_id: -1 },
      { content: "x", parent_id: 1.5 },
      { content: "x", post_id: 3 },
      { content: "x".repeat(50_000) },
      {},
      null,
    ];
    for (const body of bodies) {
      const res = await api("POST", path, { body, token: other.token });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
    for (const id of ["abc", "-1", "0"]) {
      expect(
        (await api("POST", `/api/board/${id}/comments`, { body: { content: "x" }, token: other.token })).status,
      ).toBe(422);
      expect((await api("GET", `/api/board/${id}/comments`)).status).toBe(422);
      expect(
        (await api("PUT", `/api/board/comments/${id}`, { body: { content: "x" }, token: other.token })).status,
      ).toBe(422);
      expect((await api("DELETE", `/api/board/comments/${id}`, { token: other.token })).status).toBe(422);
    }
    const unknownPost = await api("POST", "/api/board/999999/comments", { body: { content: "x" }, token: other.token });
    expect(unknownPost.status).toBe(404);
    expect(unknownPost.body.detail).toBe(BOARD_MSG.postNotFound);
    expect((await api("GET", "/api/board/999999/comments")).status).toBe(404);
  });

  test("writing needs login: anonymous 401 on create, edit and delete", async () => {
    const post = await t.post(author);
    const c = await t.comment(other, post.id);
    const create = await api("POST", `/api/board/${post.id}/comments`, { body: { content: "익명" } });
    expect(create.status).toBe(401);
    expect(create.body.detail).toBe("로그인이 필요합니다.");
    expect((await api("PUT", `/api/board/comments/${c.id}`, { body: { content: "x" } })).status).toBe(401);
    expect((await api("DELETE", `/api/board/comments/${c.id}`)).status).toBe(401);
  });

  test("edit: only the comment's author (not the post's author, not an administrator)", async () => {
    const post = await t.post(author);
    const c = await t.comment(other, post.id, "원래 댓글");
    const path = `/api/board/comments/${c.id}`;
    for (const who of [author, admin]) {
      const res = await api("PUT", path, { body: { content: "남의 수정" }, token: who.token });
      expect(res.status).toBe(403);
      expect(res.body.detail).toBe(BOARD_MSG.commentEditForbidden);
    }
    const empty = await api("PUT", path, { body: { content: "  " }, token: other.token });
    expect(empty.status).toBe(422);
    expect(empty.body.detail).toBe(BOARD_MSG.commentRequired);
    t.clock.advance(5000);
    const ok = await api("PUT", path, { body: { content: " 고친 댓글 " }, token: other.token });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ id: c.id, content: "고친 댓글", is_deleted: false });
    expect(Date.parse(ok.body.updated_at)).toBeGreaterThan(Date.parse(ok.body.created_at));
    expect((await thread(post.id))[0].content).toBe("고친 댓글");
    const missing = await api("PUT", "/api/board/comments/999999", { body: { content: "x" }, token: other.token });
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toBe(BOARD_MSG.commentNotFound);
  });

  test("delete: another user 403; the author and administrators delete softly; admin deletion is announced", async () => {
    const post = await t.post(author, "댓글 지우기 글");
    const mine = await t.comment(other, post.id, "내가 지울 댓글");
    const bad = await t.comment(other, post.id, "운영자가 지울 댓글");
    const third = await t.comment(author, post.id, "남을 댓글");

    const denied = await api("DELETE", `/api/board/comments/${mine.id}`, { token: author.token });
    expect(denied.status).toBe(403);
    expect(denied.body.detail).toBe(BOARD_MSG.commentDeleteForbidden);

    const before = adminEvents.length;
    const byAuthor = await api("DELETE", `/api/board/comments/${mine.id}`, { token: other.token });
    expect(byAuthor.status).toBe(200);
    expect(byAuthor.body.detail).toBe(BOARD_MSG.commentDeleted);
    expect(adminEvents.length).toBe(before);

    const byAdmin = await api("DELETE", `/api/board/comments/${bad.id}`, { token: admin.token });
    expect(byAdmin.status).toBe(200);
    expect(adminEvents.at(-1)).toEqual({
      adminId: admin.id,
      kind: "comment",
      id: bad.id,
      postId: post.id,
      title: "댓글 지우기 글",
      excerpt: "운영자가 지울 댓글",
      authorId: other.id,
    });

    // The rows stay (audit), marked deleted, with their text.
    expect(await row(mine.id)).toMatchObject({ content: "내가 지울 댓글", deletedBy: other.id });
    expect(await row(bad.id)).toMatchObject({ content: "운영자가 지울 댓글", deletedBy: admin.id });
    expect((await row(bad.id))?.deletedAt).toBeInstanceOf(Date);

    expect((await thread(post.id)).map((c) => c.id)).toEqual([third.id]);
    expect(await commentCount(post.id)).toBe(1);
    const again = await api("DELETE", `/api/board/comments/${mine.id}`, { token: other.token });
    expect(again.status).toBe(404);
    const editDeleted = await api("PUT", `/api/board/comments/${mine.id}`, {
      body: { content: "x" },
      token: other.token,
    });
    expect(editDeleted.status).toBe(404);
  });

  test("the same comment deleted twice at once: one answer 200, the other 404, counted and announced once", async () => {
    const post = await t.post(author, "동시 삭제 글");
    const target = await t.comment(other, post.id, "두 번 지워질 댓글");
    await t.comment(other, post.id, "남을 댓글");
    const before = adminEvents.length;
    const answers = await Promise.all([
      api("DELETE", `/api/board/comments/${target.id}`, { token: admin.token }),
      api("DELETE", `/api/board/comments/${target.id}`, { token: admin.token }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 404]);
    expect(await commentCount(post.id)).toBe(1);
    expect(adminEvents.length - before).toBe(1);
  });

  test("a deleted comment with replies shows 삭제된 댓글입니다. and keeps them; without live replies it is hidden", async () => {
    const post = await t.post(author);
    const parent = await t.comment(other, post.id, "비밀 원문");
    const reply1 = await t.comment(author, post.id, "답글 1", parent.id);
    const reply2 = await t.comment(other, post.id, "답글 2", parent.id);
    await api("DELETE", `/api/board/comments/${parent.id}`, { token: other.token });

    let list = await thread(post.id);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ id: parent.id, content: "삭제된 댓글입니다.", is_deleted: true });
    expect(JSON.stringify(list)).not.toContain("비밀 원문");
    expect(list[0].replies.map((r) => r.id)).toEqual([reply1.id, reply2.id]);
    expect(await commentCount(post.id)).toBe(2);

    await api("DELETE", `/api/board/comments/${reply1.id}`, { token: author.token });
    list = await thread(post.id);
    expect(list[0].replies.map((r) => r.id)).toEqual([reply2.id]);
    await api("DELETE", `/api/board/comments/${reply2.id}`, { token: admin.token });
    expect(await thread(post.id)).toEqual([]);
    expect(await commentCount(post.id)).toBe(0);
    expect((await row(parent.id))?.content).toBe("비밀 원문");
  });

  test("comments of a deleted post can be neither read, written, edited nor deleted", async () => {
    const post = await t.post(author);
    const c = await t.comment(other, post.id);
    await api("DELETE", `/api/board/${post.id}`, { token: author.token });
    expect((await api("GET", `/api/board/${post.id}/comments`)).status).toBe(404);
    const add = await api("POST", `/api/board/${post.id}/comments`, { body: { content: "x" }, token: other.token });
    expect(add.status).toBe(404);
    expect(
      (await api("PUT", `/api/board/comments/${c.id}`, { body: { content: "x" }, token: other.token })).status,
    ).toBe(404);
    expect((await api("DELETE", `/api/board/comments/${c.id}`, { token: other.token })).status).toBe(404);
    expect((await row(c.id))?.deletedAt).toBeNull();
  });

  test("HTML-looking comments are stored and returned verbatim", async () => {
    const post = await t.post(author);
    const text = `<iframe src="javascript:alert(1)"></iframe>\n&lt;b&gt;`;
    const c = await t.comment(other, post.id, text);
    expect(c.content).toBe(text);
    expect((await thread(post.id))[0].content).toBe(text);
    expect((await row(c.id))?.content).toBe(text);
  });
});
