import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startBoardServer, type TestUser } from "./test-helpers";

type Item = { id: number; title: string; view_count: number; comment_count: number; user: { username: string } };

let t: Awaited<ReturnType<typeof startBoardServer>>;
let alice: TestUser;
let bob: TestUser;
const ids: number[] = [];

// 23 posts, half a clock minute apart (a member writes at most 10 posts in 10 minutes, and the access tokens
// outlive the 11.5 minutes): alternate authors, titles that sort differently from their age.
beforeAll(async () => {
  // On PostgreSQL a database with a real locale: order and case folding must still be SQLite's.
  t = await startBoardServer();
  alice = await t.user("Alice");
  bob = await t.user("밥돌이");
  for (let i = 1; i <= 23; i++) {
    const who = i % 2 ? alice : bob;
    const title = `글 ${String(24 - i).padStart(2, "0")}${i === 7 ? " 100%_할인" : ""}`;
    ids.push((await t.post(who, title, i === 5 ? "바늘 찾기 needle" : `본문 ${i}`)).id);
    t.clock.advance(30_000);
  }
});
afterAll(() => t.server.stop());

const list = async (query = "") => {
  const res = await t.server.api("GET", `/api/board/${query}`);
  expect(res.status).toBe(200);
  return res.body as { items: Item[]; total: number; total_pages: number; page: number; size: number };
};

describe("GET /api/board/", () => {
  test("defaults: newest first, 10 a page, totals", async () => {
    const page = await list();
    expect(page).toMatchObject({ total: 23, total_pages: 3, page: 1, size: 10 });
    expect(page.items.map((p) => p.id)).toEqual(ids.slice(-10).reverse());
    const noSlash = await t.server.api("GET", "/api/board?page=2");
    expect(noSlash.status).toBe(200);
    expect(noSlash.body.items.map((p: Item) => p.id)).toEqual(ids.slice(3, 13).reverse());
  });

  test("pagination edges: last partial page, out-of-range page empty, size bounds", async () => {
    expect((await list("?page=3")).items).toHaveLength(3);
    const beyond = await list("?page=4");
    expect(beyond).toMatchObject({ items: [], total: 23, total_pages: 3, page: 4 });
    expect((await list("?page=1000000")).items).toEqual([]);
    expect((await list("?size=50")).items).toHaveLength(23);
    expect((await list("?size=1&page=23")).items.map((p) => p.id)).toEqual([ids[0]]);
    for (const bad of ["page=0", "page=-1", "page=abc", "page=1.5", "page=1000001", "size=0", "size=51", "size=x"]) {
      const res = await t.server.api("GET", `/api/board/?${bad}`);
      expect(res.status).toBe(422);
    }
  });

  test("sort_by accepts only known columns, in both orders", async () => {
    const asc = await list("?sort_by=created_at&order=asc");
    expect(asc.items.map((p) => p.id)).toEqual(ids.slice(0, 10));
    const byTitle = await list("?sort_by=title&order=asc&size=3");
    expect(byTitle.items.map((p) => p.title)).toEqual(["글 01", "글 02", "글 03"]);
    const byId = await list("?sort_by=id&order=desc&size=1");
    expect(byId.items[0].id).toBe(ids.at(-1)!);

    await t.server.api("POST", `/api/board/${ids[4]}/view`);
    await t.comment(bob, ids[8]);
    await t.comment(alice, ids[8]);
    const byViews = await list("?sort_by=view_count&order=desc&size=1");
    expect(byViews.items[0]).toMatchObject({ id: ids[4], view_count: 1 });
    const byComments = await list("?sort_by=comment_count&size=1");
    expect(byComments.items[0]).toMatchObject({ id: ids[8], comment_count: 2 });

    for (const bad of ["password_hash", "user_id", "title;drop table board_posts", ""]) {
      const res = await t.server.api("GET", `/api/board/?sort_by=${encodeURIComponent(bad)}`);
      expect(res.status).toBe(422);
    }
    expect((await t.server.api("GET", "/api/board/?order=sideways")).status).toBe(422);
  });

  test("q searches title and content, author searches the username; wildcards are literal", async () => {
    const byContent = await list(`?q=${encodeURIComponent("needle")}`);
    expect(byContent.items.map((p) => p.id)).toEqual([ids[4]]);
    const byTitle = await list(`?q=${encodeURIComponent("글 2")}`);
    expect(byTitle.total).toBe(4); // 글 20 … 글 23
    const percent = await list(`?q=${encodeURIComponent("%_")}`);
    expect(percent.items.map((p) => p.id)).toEqual([ids[6]]);
    expect((await list(`?q=${encodeURIComponent("%")}`)).total).toBe(1);

    const byAuthor = await list(`?author=${encodeURIComponent("밥")}&size=50`);
    expect(byAuthor.total).toBe(11);
    expect(byAuthor.items.every((p) => p.user.username === "밥돌이")).toBe(true);
    expect((await list("?author=alice")).total).toBe(12); // case-insensitive
    expect((await list(`?author=${encodeURIComponent("밥")}&q=needle`)).total).toBe(0);
    expect((await list("?q=%20%20")).total).toBe(23); // blank search = no filter
    expect((await t.server.api("GET", `/api/board/?q=${"x".repeat(101)}`)).status).toBe(422);
  });

  test("deleted posts leave the list and the totals", async () => {
    // Alice and Bob spent their write budgets above.
    const carol = await t.user("캐롤");
    const extra = await t.post(carol, "곧 사라질 글");
    expect((await list()).total).toBe(24);
    await t.server.api("DELETE", `/api/board/${extra.id}`, { token: carol.token });
    const after = await list();
    expect(after.total).toBe(23);
    expect(after.items.map((p) => p.id)).not.toContain(extra.id);
  });

  test("title order and case folding are the same on every engine: code point order, ASCII letters only", async () => {
    const dave = await t.user("데이브");
    for (const title of ["éclair 정렬", "Zeta 정렬", "Éclair 정렬", "alpha 정렬"]) await t.post(dave, title);
    const sorted = await list(`?q=${encodeURIComponent("정렬")}&sort_by=title&order=asc`);
    expect(sorted.items.map((p) => p.title)).toEqual(["Zeta 정렬", "alpha 정렬", "Éclair 정렬", "éclair 정렬"]);
    const titles = async (q: string) => (await list(`?q=${encodeURIComponent(q)}`)).items.map((p) => p.title);
    expect(await titles("ZETA 정")).toEqual(["Zeta 정렬"]);
    expect(await titles("ALPHA")).toEqual(["alpha 정렬"]);
    // Only A–Z fold: É and é are different letters to the search, as they are to the order above.
    expect(await titles("éclair")).toEqual(["éclair 정렬"]);
    expect(await titles("ÉCLAIR")).toEqual(["Éclair 정렬"]);
  });
});
