import { describe, expect, test } from "bun:test";
import {
  analysis,
  clickHeader,
  type GameRecord,
  pageWindow,
  roomChoices,
  SORT_CHOICES,
  seoulTime,
  sortRecords,
  streakTone,
  wpmTone,
} from "./records";

let id = 0;
const record = (at: string, fields: Partial<GameRecord> = {}): GameRecord => ({
  id: ++id,
  room_name: "초보방",
  wpm: 200,
  accuracy: 95,
  completion_time: 12.34,
  position: 1,
  created_at: new Date(`${at}+09:00`).toISOString(),
  ...fields,
});

describe("profile figures from the records", () => {
  const records = [
    record("2026-11-20T23:30:00", { wpm: 300, position: 1 }),
    record("2026-11-21T00:10:00", { wpm: 100, accuracy: 90, position: 2, room_name: "고수방" }),
    record("2026-11-22T09:00:00", { position: null, room_name: "" }),
    record("2026-11-23T10:00:00", { position: 1 }),
  ];
  const now = Date.parse("2026-11-23T12:00:00+09:00");

  test("analysis: first places, rates over placed games, Seoul-day streaks, rooms", () => {
    const a = analysis(records, now);
    expect([a.firstPlaces, a.winRate, a.top3Rate, a.averagePosition, a.top3Count]).toEqual([2, 66.67, 100, 1.33, 3]);
    // 23:30 and 00:10 KST are two days: 20, 21, 22, 23 November in a row.
    expect([a.currentDays, a.longestDays]).toEqual([4, 4]);
    // The player's figures (games, averages, best speed, win streaks) are the server's, not the records'.
    expect(a).not.toHaveProperty("bestWpm");
    expect(a).not.toHaveProperty("firstPlaceStreak");
    expect(a.trend.map((d) => d.day)).toEqual(["11-20", "11-21", "11-22", "11-23"]);
    expect(a.hours[23].games).toBe(1);
    expect(a.rooms.map((r) => [r.room, r.games])).toEqual([
      ["초보방", 2],
      ["고수방", 1],
      ["알 수 없음", 1],
    ]);
    expect(analysis([], now).winRate).toBe(0);
  });

  test("records: eight sorts, header clicks, the room filter without the unknown room, paging and Seoul time", () => {
    expect(SORT_CHOICES).toHaveLength(8);
    expect(clickHeader({ field: "created_at", direction: "desc" }, "created_at")).toEqual({
      field: "created_at",
      direction: "asc",
    });
    expect(clickHeader({ field: "created_at", direction: "asc" }, "wpm")).toEqual({ field: "wpm", direction: "desc" });
    expect(sortRecords(records, { field: "wpm", direction: "desc" }, null).map((r) => r.wpm)).toEqual([
      300, 200, 200, 100,
    ]);
    expect(sortRecords(records, { field: "position", direction: "asc" }, null).map((r) => r.position)).toEqual([
      1,
      1,
      2,
      null,
    ]);
    expect(sortRecords(records, SORT_CHOICES[0].sort, "고수방")).toHaveLength(1);
    expect(roomChoices(records)).toEqual(["고수방", "초보방"]);
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(6, 12)).toEqual([1, "…", 4, 5, 6, 7, 8, "…", 12]);
    expect(pageWindow(2, 10)).toEqual([1, 2, 3, 4, "…", 10]);
    expect(seoulTime("2026-11-22T15:05:00.000Z")).toBe("2026-11-23 00:05");
    expect(seoulTime("nope")).toBe("날짜 정보 없음");
    expect([wpmTone(200), wpmTone(150), wpmTone(50)]).toEqual(["good", "fair", "plain"]);
    expect([streakTone(10), streakTone(5), streakTone(1), streakTone(0)]).toEqual(["hot", "warm", "good", "plain"]);
  });
});
