import { describe, expect, test } from "bun:test";
import { formatDateTime, INVALID_DATE, pageWindow, resultRange, shortDate, truncate } from "./format";

describe("pageWindow", () => {
  test("up to five pages around the current one, clamped to the ends", () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(1, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(1, 10)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(5, 10)).toEqual([3, 4, 5, 6, 7]);
    expect(pageWindow(9, 10)).toEqual([6, 7, 8, 9, 10]);
    expect(pageWindow(10, 10)).toEqual([6, 7, 8, 9, 10]);
    expect(pageWindow(99, 10)).toEqual([6, 7, 8, 9, 10]);
    expect(pageWindow(1, 0)).toEqual([]);
  });
});

describe("formatDateTime", () => {
  test("Seoul time as YYYY-MM-DD HH:mm; missing and invalid values", () => {
    expect(formatDateTime("2026-03-10T15:30:00.000Z")).toBe("2026-03-11 00:30");
    expect(formatDateTime(null)).toBe("없음");
    expect(formatDateTime(undefined, "-")).toBe("-");
    expect(formatDateTime("not a date")).toBe(INVALID_DATE);
  });
});

test("resultRange, shortDate and truncate", () => {
  expect(resultRange(45, 3, 20, 5)).toBe("전체 45명 중 41–45");
  expect(resultRange(0, 1, 20, 0)).toBe("전체 0명");
  expect(resultRange(1200, 2, 20, 20, "건")).toBe("전체 1,200건 중 21–40");
  expect(shortDate("2026-03-05")).toBe("3/5");
  expect(truncate("가나다라마", 5)).toBe("가나다라마");
  expect(truncate("가나다라마바", 5)).toBe("가나다라…");
});
