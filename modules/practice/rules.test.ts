import { describe, expect, test } from "bun:test";
import { practiceStreak } from "./rules";

describe("연속 연습 (practiceStreak)", () => {
  test("the run of days ending today, or yesterday while today has none yet", () => {
    expect(practiceStreak([], "2026-05-10")).toBe(0);
    expect(practiceStreak(["2026-05-10"], "2026-05-10")).toBe(1);
    expect(practiceStreak(["2026-05-08", "2026-05-09", "2026-05-10"], "2026-05-10")).toBe(3);
    expect(practiceStreak(["2026-05-08", "2026-05-09"], "2026-05-10")).toBe(2);
    expect(practiceStreak(["2026-05-07", "2026-05-08"], "2026-05-10")).toBe(0);
  });

  test("a day missed ends the run; order and repeats do not matter", () => {
    expect(practiceStreak(["2026-05-10", "2026-05-07", "2026-05-09", "2026-05-10"], "2026-05-10")).toBe(2);
  });

  test("across months and years, and 29 February", () => {
    expect(practiceStreak(["2025-12-31", "2026-01-01"], "2026-01-01")).toBe(2);
    expect(practiceStreak(["2028-02-28", "2028-02-29", "2028-03-01"], "2028-03-01")).toBe(3);
    expect(practiceStreak(["2026-02-28", "2026-03-01"], "2026-03-01")).toBe(2);
  });
});
