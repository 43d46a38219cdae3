import { describe, expect, test } from "bun:test";
import { gamesBoardScore, periodDays, periodEnd, periodKey, seoulWeekStart, wpmBoardScore, wpmCenti } from "./rules";
import { kst } from "./test-support";

describe("periods in Asia/Seoul", () => {
  test("a day ends at Seoul midnight, not UTC midnight", () => {
    expect(periodKey("daily", kst("2026-03-08 23:59:30"))).toBe("d:2026-03-08");
    expect(periodKey("daily", kst("2026-03-09 00:00:30"))).toBe("d:2026-03-09");
    // 08:59 and 09:00 KST straddle UTC midnight and are one Seoul day.
    expect(periodKey("daily", kst("2026-03-09 08:59:00"))).toBe(periodKey("daily", kst("2026-03-09 09:00:00")));
  });

  test("weeks start on Monday (Seoul)", () => {
    expect(seoulWeekStart(kst("2026-03-08 23:59:59"))).toBe("2026-03-02"); // Sunday
    expect(seoulWeekStart(kst("2026-03-09 00:00:00"))).toBe("2026-03-09"); // Monday
    expect(seoulWeekStart(kst("2026-03-13 12:00:00"))).toBe("2026-03-09"); // Friday
    expect(periodKey("weekly", kst("2026-03-01 08:00:00"))).toBe("w:2026-02-23");
    expect(periodKey("all", 0)).toBe("all");
  });

  test("the days of a period and when it stops being current", () => {
    expect(periodDays("d:2026-03-08")).toEqual({ fromDay: "2026-03-08", toDay: "2026-03-08" });
    expect(periodDays("w:2026-02-23")).toEqual({ fromDay: "2026-02-23", toDay: "2026-03-01" });
    expect(periodEnd("d:2026-03-08")).toBe(kst("2026-03-09 00:00:00"));
    expect(periodEnd("w:2026-03-02")).toBe(kst("2026-03-09 00:00:00"));
  });
});

describe("ranking order", () => {
  test("average speed in hundredths, rounded half up", () => {
    expect(wpmCenti(721, 3)).toBe(24033); // 240.333…
    expect(wpmCenti(1, 8)).toBe(13); // 0.125 → 0.13
    expect(wpmCenti(2, 3)).toBe(67); // 0.666… → 0.67
    expect(wpmCenti(0, 0)).toBe(0);
  });

  test("composite scores: the first key decides, the second breaks its ties, equal figures tie", () => {
    // Lower score = better (the board is read ascending).
    expect(wpmBoardScore(30000, 1)).toBeLessThan(wpmBoardScore(29999, 500));
    expect(wpmBoardScore(30000, 2)).toBeLessThan(wpmBoardScore(30000, 1));
    expect(gamesBoardScore(100, 5)).toBeLessThan(gamesBoardScore(99_999, 4));
    expect(gamesBoardScore(101, 5)).toBeLessThan(gamesBoardScore(100, 5));
    expect(wpmBoardScore(12345, 7)).toBe(wpmBoardScore(12345, 7));
    expect(Number.isSafeInteger(wpmBoardScore(9_999_999, 2 ** 20))).toBe(true);
    expect(Number.isSafeInteger(gamesBoardScore(2 ** 24, 2 ** 29 - 1))).toBe(true);
  });
});
