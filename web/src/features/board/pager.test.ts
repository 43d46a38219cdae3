import { describe, expect, test } from "bun:test";
import { pageWindow } from "../../lib/format";
import { parseBoardSearch, withPage } from "./pager";

describe("pageWindow", () => {
  test("no pages, no numbers", () => {
    expect(pageWindow(1, 0)).toEqual([]);
  });

  test("fewer pages than the window shows them all", () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(2, 3)).toEqual([1, 2, 3]);
  });

  test("a window of 5 centred on the current page", () => {
    expect(pageWindow(6, 20)).toEqual([4, 5, 6, 7, 8]);
  });

  test("clamped at both ends", () => {
    expect(pageWindow(1, 20)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(2, 20)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(19, 20)).toEqual([16, 17, 18, 19, 20]);
    expect(pageWindow(20, 20)).toEqual([16, 17, 18, 19, 20]);
  });

  test("a page beyond the last shows the last window", () => {
    expect(pageWindow(99, 7)).toEqual([3, 4, 5, 6, 7]);
    expect(pageWindow(-3, 7)).toEqual([1, 2, 3, 4, 5]);
  });
});

describe("parseBoardSearch", () => {
  test("page 1 and blank words are left out (the plain /board address)", () => {
    expect(parseBoardSearch({})).toEqual({});
    expect(parseBoardSearch({ page: 1 })).toEqual({});
    expect(parseBoardSearch({ page: "abc", q: "  ", author: "" })).toEqual({});
    expect(parseBoardSearch({ page: 0 })).toEqual({});
    expect(parseBoardSearch({ page: 2.5 })).toEqual({});
  });

  test("keeps a positive page and trimmed words", () => {
    expect(parseBoardSearch({ page: 3, q: " 타자 ", author: "kim" })).toEqual({ page: 3, q: "타자", author: "kim" });
    expect(parseBoardSearch({ page: "4" })).toEqual({ page: 4 });
  });

  test("numbers parsed from the URL are words too", () => {
    expect(parseBoardSearch({ q: 2024 })).toEqual({ q: "2024" });
  });

  test("bounds what it passes to the server", () => {
    expect(parseBoardSearch({ page: 10 ** 9 }).page).toBe(1_000_000);
    expect(parseBoardSearch({ q: "가".repeat(300) }).q).toHaveLength(100);
    expect(parseBoardSearch({ author: { x: 1 } })).toEqual({});
  });
});

describe("withPage", () => {
  test("keeps the search words and leaves page 1 out", () => {
    expect(withPage({ page: 3, q: "타자" }, 4)).toEqual({ page: 4, q: "타자" });
    expect(withPage({ page: 3, author: "kim" }, 1)).toEqual({ author: "kim" });
    expect(withPage({}, 2)).toEqual({ page: 2 });
  });
});
