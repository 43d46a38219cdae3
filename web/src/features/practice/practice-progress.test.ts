import { describe, expect, test } from "bun:test";
import type { ResultInput } from "./practice-api";
import { dailySeries, guestDays, guestProgress, type KindDay } from "./practice-progress";

// 12:00 in Seoul on 2026-05-10.
const NOW = Date.UTC(2026, 4, 10, 3);
const HOUR = 3_600_000;

function result(at: number, overrides: Partial<ResultInput> = {}): ResultInput {
  return {
    client_id: `r-${at}-${Math.random().toString(36).slice(2, 8)}`,
    kind: "words",
    text_id: "words",
    layout: "dubeolsik",
    wpm: 200,
    accuracy: 90,
    keystrokes: 100,
    error_count: 10,
    duration_ms: 60_000,
    finished_at: new Date(at).toISOString(),
    summary: {
      layout: "dubeolsik",
      jamo: [{ jamo: "ㅃ", hits: 10, errors: 2, time_ms: 2_000, timed: 8 }],
      transitions: [{ kind: "shift", hits: 10, errors: 2, time_ms: 2_000, timed: 8 }],
      corrections: 2,
    },
    ...overrides,
  };
}

describe("a guest's progress, as the server gives a member's", () => {
  test("per Seoul day and kind: results, mean speed and accuracy, minutes; outside the window left out", () => {
    const results = [
      // 23:30 in Seoul on 05-09 is 14:30 UTC: that day, not the UTC one.
      result(Date.UTC(2026, 4, 9, 14, 30), { wpm: 200, accuracy: 90 }),
      result(Date.UTC(2026, 4, 9, 14, 40), { wpm: 300, accuracy: 95 }),
      result(NOW, { kind: "long", text_id: "long:x", wpm: 250, duration_ms: 90_000 }),
      result(NOW - 40 * 24 * HOUR),
    ];
    const progress = guestProgress(results, NOW, 30);
    expect(progress.from).toBe("2026-04-11");
    expect(progress.to).toBe("2026-05-10");
    expect(progress.days).toEqual([
      { day: "2026-05-09", kind: "words", results: 2, wpm: 250, accuracy: 92.5, minutes: 2 },
      { day: "2026-05-10", kind: "long", results: 1, wpm: 250, accuracy: 90, minutes: 1.5 },
    ]);
    expect(progress.unit).toBeNull();
  });

  test("one unit's days: its tallies added per day, as figures", () => {
    const better = {
      layout: "dubeolsik" as const,
      jamo: [{ jamo: "ㅃ" as const, hits: 10, errors: 0, time_ms: 1_000, timed: 10 }],
      transitions: [],
      corrections: 0,
    };
    const results = [result(NOW - 24 * HOUR), result(NOW - 24 * HOUR), result(NOW, { summary: better })];
    const { unit } = guestProgress(results, NOW, 30, "ㅃ");
    expect(unit?.days.map((d) => [d.day, d.hits, d.errors, d.error_rate, d.speed])).toEqual([
      ["2026-05-09", 20, 4, 0.2, 240],
      ["2026-05-10", 10, 0, 0, 600],
    ]);
    expect(guestProgress(results, NOW, 30, "shift").unit?.days).toHaveLength(1);
  });

  test("연속 연습 and practice days from the kept results", () => {
    const days = [0, 1, 2, 4].map((n) => result(NOW - n * 24 * HOUR));
    expect(guestDays(days, NOW)).toEqual({ practice_days: 4, streak: 3 });
    expect(guestDays([], NOW)).toEqual({ practice_days: 0, streak: 0 });
  });
});

describe("the chart's series", () => {
  const days: KindDay[] = [
    { day: "2026-05-09", kind: "words", results: 1, wpm: 200, accuracy: 90, minutes: 1 },
    { day: "2026-05-09", kind: "long", results: 3, wpm: 300, accuracy: 98, minutes: 9 },
    { day: "2026-05-08", kind: "words", results: 2, wpm: 180, accuracy: 92, minutes: 2 },
  ];

  test("one kind's days, oldest first", () => {
    expect(dailySeries(days, "words")).toEqual([
      { day: "2026-05-08", results: 2, wpm: 180, accuracy: 92 },
      { day: "2026-05-09", results: 1, wpm: 200, accuracy: 90 },
    ]);
  });

  test("all kinds: each day's kinds weighted by their results", () => {
    expect(dailySeries(days, "all")).toEqual([
      { day: "2026-05-08", results: 2, wpm: 180, accuracy: 92 },
      { day: "2026-05-09", results: 4, wpm: 275, accuracy: 96 },
    ]);
  });
});
