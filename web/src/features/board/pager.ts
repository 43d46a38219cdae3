/** Pure helpers of the list page (unit-tested without a browser). */
import type { BoardSearch } from "./types";

/** The server's highest accepted page (modules/board/model.ts MAX_PAGE; that file pulls in the server schemas). */
const MAX_PAGE = 1_000_000;

// The router parses search values as JSON, so ?q=2024 arrives as a number.
const text = (value: unknown, max: number) =>
  typeof value === "string" || typeof value === "number" ? String(value).trim().slice(0, max) : "";

/**
 * The list's URL search params, cleaned: a page above 1 and the search words, each only when present, so the
 * plain /board link stays /board.
 */
export function parseBoardSearch(search: Record<string, unknown>): BoardSearch {
  const n = Number(search.page);
  const page = Number.isInteger(n) && n > 1 ? Math.min(n, MAX_PAGE) : undefined;
  const q = text(search.q, 100);
  const author = text(search.author, 50);
  return { ...(page ? { page } : {}), ...(q ? { q } : {}), ...(author ? { author } : {}) };
}

/** The search of list page `page` (page 1 is the address without a page). */
export function withPage(search: BoardSearch, page: number): BoardSearch {
  const { page: _, ...rest } = search;
  return page > 1 ? { ...rest, page } : rest;
}
