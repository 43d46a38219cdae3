import { describe, expect, test } from "bun:test";
import {
  accuracyIcon,
  accuracyTone,
  awardedMedal,
  countdownLeft,
  isFull,
  listBadge,
  medalOf,
  occupancy,
  percent,
  STATUS_LABEL,
  speedIcon,
  streakLabel,
  timerTone,
} from "./figures";

describe("room figures", () => {
  test("status badges of the room screen", () => {
    expect(STATUS_LABEL).toEqual({
      waiting: "대기 중",
      countdown: "준비 중",
      in_progress: "진행 중",
      finished: "종료",
    });
  });

  test("home badge: in progress, N초 후 시작 during the countdown, waiting", () => {
    expect(listBadge({ game_status: "countdown", countdown_seconds: 2 }).text).toBe("2초 후 시작");
    // Between updates the home badge counts down on its own, never below 1.
    expect([0, 999, 1000, 1999, 2000, 5000].map((ms) => countdownLeft(3, ms))).toEqual([3, 3, 2, 2, 1, 1]);
    expect(countdownLeft(2, -50)).toBe(2);
    expect(listBadge({ game_status: "in_progress", countdown_seconds: 3 }).text).toBe("진행 중");
    expect(listBadge({ game_status: "waiting", countdown_seconds: 3 }).text).toBe("대기 중");
  });

  test("occupancy and full rooms", () => {
    expect(occupancy({ total_participants: 5, max_users: 20 })).toBe(25);
    expect(occupancy({ total_participants: 22, max_users: 20 })).toBe(100);
    expect(isFull({ total_participants: 20, max_users: 20 })).toBe(true);
    expect(isFull({ total_participants: 19, max_users: 20 })).toBe(false);
  });

  test("timer colour: green above 50 %, yellow above 25 %, red below", () => {
    expect(timerTone(5_001, 10_000)).toBe("green");
    expect(timerTone(5_000, 10_000)).toBe("yellow");
    expect(timerTone(2_501, 10_000)).toBe("yellow");
    expect(timerTone(2_500, 10_000)).toBe("red");
    expect(timerTone(0, 10_000)).toBe("red");
  });

  test("accuracy icons at 95/90/80/70 and badge colours at 90/70", () => {
    expect(accuracyIcon(95)?.tier).toBe(1);
    expect(accuracyIcon(94.99)?.tier).toBe(2);
    expect(accuracyIcon(90)?.tier).toBe(2);
    expect(accuracyIcon(80)?.tier).toBe(3);
    expect(accuracyIcon(70)?.tier).toBe(4);
    expect(accuracyIcon(69.9)).toBeNull();
    expect([accuracyTone(90), accuracyTone(89.9), accuracyTone(70), accuracyTone(69)]).toEqual([
      "good",
      "fair",
      "fair",
      "poor",
    ]);
  });

  test("speed icons at 400/300/200/100 per minute", () => {
    expect([speedIcon(400)?.tier, speedIcon(399)?.tier, speedIcon(300)?.tier, speedIcon(200)?.tier]).toEqual([
      1, 2, 2, 3,
    ]);
    expect(speedIcon(100)?.tier).toBe(4);
    expect(speedIcon(99)).toBeNull();
  });

  test("medals for the first three, win streak from 2", () => {
    expect([medalOf(1), medalOf(2), medalOf(3), medalOf(4), medalOf(null)]).toEqual([1, 2, 3, null, null]);
    expect(streakLabel(1)).toBeNull();
    expect(streakLabel(2)).toBe("2연승");
  });

  test("the medal is the server's: a member's rewards say it, a guest's needs a game of two or more", () => {
    const gold = { experience: 70, coins: 30, points: 30, medal: "gold" as const };
    const none = { ...gold, medal: null };
    expect(awardedMedal({ position: 1, rewards: gold }, 2)).toBe(1);
    expect(awardedMedal({ position: 1, rewards: none }, 1)).toBeNull(); // a game of one
    expect(awardedMedal({ position: 2, rewards: { ...gold, medal: "silver" } }, 3)).toBe(2);
    expect(awardedMedal({ position: 1, rewards: null }, 1)).toBeNull();
    expect(awardedMedal({ position: 3, rewards: null }, 2)).toBe(3);
    expect(awardedMedal({ position: null, rewards: null }, 5)).toBeNull();
  });

  test("percent drops trailing zeros", () => {
    expect(percent(100)).toBe("100%");
    expect(percent(96.55)).toBe("96.6%");
  });
});
