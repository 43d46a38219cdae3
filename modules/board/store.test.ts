import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createContext } from "../../apps/server/context";
import { users as sqliteUsers } from "../../db/core/schema";
import { users as pgUsers } from "../../db/core/schema.pg";
import { storeDb, tablesFor } from "../../db/store";
import { testConfig } from "../../db/testing";
import { VIEW_WINDOW_MS } from "../kernel/viewers";
import { boardModule } from "./index";
import { type BoardStore, createBoardStore } from "./store";

// The store's own guarantees under concurrent callers, on this run's engine (TEST_DATABASE=postgres for
// PostgreSQL, whose pool really runs the two calls at once; its test databases have a real locale, see db/testing-pg.ts).
// Only the board's tables are migrated; the author is a bare row of the core users table.
let store: BoardStore;
let authorId: number;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const config = await testConfig();
  const ctx = await createContext(config, [{ ...boardModule, dependsOn: [] }]);
  cleanup = async () => {
    await ctx.database.close();
    await config.cleanup();
  };
  store = createBoardStore(ctx.database);
  const users = tablesFor(ctx.database, { users: sqliteUsers }, { users: pgUsers }).users;
  const [row] = await storeDb(ctx.database)
    .insert(users)
    .values({ username: "작성자", usernameKey: "작성자", email: "a@example.com", passwordHash: "-" })
    .returning({ id: users.id });
  authorId = row!.id;
});
afterAll(() => cleanup());

const at = new Date(Date.UTC(2026, 2, 1, 3, 0, 0));
const newPost = () => store.insertPost({ userId: authorId, title: "글", content: "내용", at });

describe("board store", () => {
  test("a comment deleted twice at once is deleted once and lowers the count once", async () => {
    const postId = await newPost();
    const comment = () => store.insertComment({ postId, userId: authorId, parentId: null, content: "댓글", at });
    const [target] = [await comment(), await comment()];
    const results = await Promise.all([
      store.deleteComment(target, postId, authorId, at),
      store.deleteComment(target, postId, authorId, at),
    ]);
    expect(results.sort()).toEqual([false, true]);
    expect((await store.findLivePost(postId))?.post.commentCount).toBe(1);
  });

  test("a post deleted twice at once is deleted once", async () => {
    const postId = await newPost();
    const results = await Promise.all([store.deletePost(postId, authorId, at), store.deletePost(postId, authorId, at)]);
    expect(results.sort()).toEqual([false, true]);
    expect(await store.findLivePost(postId)).toBeUndefined();
  });

  test("search and title order answer alike on every engine (code point order, only A–Z fold)", async () => {
    for (const title of ["éclair 정렬", "Zeta 정렬", "Éclair 정렬", "alpha 정렬", "b1 정렬", "b_1 정렬"]) {
      await store.insertPost({ userId: authorId, title, content: "내용", at });
    }
    const titles = async (q: string, order: "asc" | "desc" = "asc") =>
      (await store.listPosts({ q, sortBy: "title", order, limit: 10, offset: 0 })).rows.map((r) => r.post.title);
    const byCodePoint = ["Zeta 정렬", "alpha 정렬", "b1 정렬", "b_1 정렬", "Éclair 정렬", "éclair 정렬"];
    expect(await titles("정렬")).toEqual(byCodePoint);
    expect(await titles("정렬", "desc")).toEqual([...byCodePoint].reverse());
    expect(await titles("ZETA")).toEqual(["Zeta 정렬"]);
    expect(await titles("ÉCLAIR")).toEqual(["Éclair 정렬"]);
    expect(await titles("b_")).toEqual(["b_1 정렬"]);
    const byAuthor = await store.listPosts({
      author: "작성",
      q: "ALPHA",
      sortBy: "id",
      order: "asc",
      limit: 10,
      offset: 0,
    });
    expect(byAuthor.total).toBe(1);
  });

  test("simultaneous visits of one viewer count once per window", async () => {
    const postId = await newPost();
    const since = new Date(at.getTime() - VIEW_WINDOW_MS);
    const visits = await Promise.all(Array.from({ length: 10 }, () => store.countView(postId, "u:1", at, since)));
    expect(visits.filter((v) => v.counted)).toHaveLength(1);
    expect((await store.findLivePost(postId))?.post.viewCount).toBe(1);
    const later = new Date(at.getTime() + VIEW_WINDOW_MS);
    expect(await store.countView(postId, "u:1", later, at)).toEqual({ counted: true, viewCount: 2 });
    expect(await store.viewRows(postId)).toHaveLength(1);
  });
});
