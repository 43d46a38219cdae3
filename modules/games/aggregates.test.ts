import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestContext } from "../../db/testing";
import type { ModuleContext } from "../kernel/define-module";
import type { GameModeId } from "../kernel/game-mode";
import { dailyStats, finishGame, recordResult } from ".";
import { guestResult, insertMember, kst, memberResult, race } from "./test-support";

/**
 * The daily aggregates against figures computed by hand. Two rounds of one room straddle a Seoul midnight:
 * 23:59:30 and 00:00:30 KST are two calendar days, and the first round's medals (granted after midnight) count
 * on the day the results were played.
 */
let ctx: ModuleContext;
let cleanup: () => Promise<void>;
let a: number;
let b: number;
const guest = "g_feed01";
const day1 = "2026-03-01";
const day2 = "2026-03-02";
// GameModeId has only "sentence_race" until the guild module adds its id; the records store any mode.
const guildGame = "guild_game" as GameModeId;

beforeAll(async () => {
  ({ ctx, cleanup } = await createTestContext());
  a = await insertMember(ctx, "하늘");
  b = await insertMember(ctx, "바다");

  const round1 = race("1", 1, kst("2026-03-01 23:59:00"));
  await recordResult(
    ctx,
    round1,
    memberResult(a, "하늘", { wpm: 300, accuracy: 96, position: 1, createdAt: kst("2026-03-01 23:59:30") }),
  );
  await recordResult(
    ctx,
    round1,
    memberResult(b, "바다", { wpm: 200, accuracy: 90, position: 2, createdAt: kst("2026-03-01 23:59:45") }),
  );
  await recordResult(
    ctx,
    round1,
    guestResult("feed01", "guest_2001", { wpm: 100, accuracy: 80, createdAt: kst("2026-03-01 23:59:50") }),
  );
  await finishGame(ctx, round1, {
    endedAt: kst("2026-03-02 00:00:10"),
    participants: 3,
    medals: [
      { playerKey: `u_${a}`, medal: "gold" },
      { playerKey: `u_${b}`, medal: "silver" },
    ],
  });

  const round2 = race("1", 2, kst("2026-03-02 00:00:20"));
  await recordResult(
    ctx,
    round2,
    guestResult("feed01", "guest_2001", { wpm: 140, accuracy: 85, position: 1, createdAt: kst("2026-03-02 00:00:25") }),
  );
  await recordResult(
    ctx,
    round2,
    memberResult(b, "바다", { wpm: 2000, accuracy: 100, implausible: true, createdAt: kst("2026-03-02 00:00:28") }),
  );
  // The member renamed themself between the two rounds: the latest name wins.
  await recordResult(
    ctx,
    round2,
    memberResult(a, "하늘2", { wpm: 360, accuracy: 100, position: 2, createdAt: kst("2026-03-02 00:00:30") }),
  );
  await finishGame(ctx, round2, {
    endedAt: kst("2026-03-02 00:01:00"),
    participants: 2,
    medals: [
      { playerKey: guest, medal: "gold" },
      { playerKey: `u_${a}`, medal: "silver" },
      { playerKey: `u_${b}`, medal: "bronze" }, // implausible: not granted
    ],
  });

  const guildRound = { ...race("길드7", 1, kst("2026-03-02 10:00:00"), "타자길드"), mode: guildGame };
  await recordResult(
    ctx,
    guildRound,
    memberResult(a, "하늘2", { wpm: 500, accuracy: 100, createdAt: kst("2026-03-02 10:00:20") }),
  );
});
afterAll(() => cleanup());

const figures = (rows: Awaited<ReturnType<typeof dailyStats>>) =>
  rows.map((r) => ({
    key: r.playerKey,
    nickname: r.nickname,
    games: r.games,
    wpmSum: r.wpmSum,
    accuracySum: r.accuracySum,
    avgWpm: r.avgWpm,
    avgAccuracy: r.avgAccuracy,
    bestWpm: r.bestWpm,
    medals: [r.goldMedals, r.silverMedals, r.bronzeMedals],
  }));

describe("daily aggregates across a Seoul midnight", () => {
  test("the first day holds the three results before midnight, with the medals granted after it", async () => {
    expect(figures(await dailyStats(ctx, { fromDay: day1, toDay: day1, mode: "sentence_race" }))).toEqual([
      {
        key: `u_${a}`,
        nickname: "하늘",
        games: 1,
        wpmSum: 300,
        accuracySum: 96,
        avgWpm: 300,
        avgAccuracy: 96,
        bestWpm: 300,
        medals: [1, 0, 0],
      },
      {
        key: `u_${b}`,
        nickname: "바다",
        games: 1,
        wpmSum: 200,
        accuracySum: 90,
        avgWpm: 200,
        avgAccuracy: 90,
        bestWpm: 200,
        medals: [0, 1, 0],
      },
      {
        key: guest,
        nickname: "guest_2001",
        games: 1,
        wpmSum: 100,
        accuracySum: 80,
        avgWpm: 100,
        avgAccuracy: 80,
        bestWpm: 100,
        medals: [0, 0, 0],
      },
    ]);
  });

  test("the second day holds the results after midnight; the implausible one is not there", async () => {
    expect(figures(await dailyStats(ctx, { fromDay: day2, toDay: day2, mode: "sentence_race" }))).toEqual([
      {
        key: `u_${a}`,
        nickname: "하늘2",
        games: 1,
        wpmSum: 360,
        accuracySum: 100,
        avgWpm: 360,
        avgAccuracy: 100,
        bestWpm: 360,
        medals: [0, 1, 0],
      },
      {
        key: guest,
        nickname: "guest_2001",
        games: 1,
        wpmSum: 140,
        accuracySum: 85,
        avgWpm: 140,
        avgAccuracy: 85,
        bestWpm: 140,
        medals: [1, 0, 0],
      },
    ]);
  });

  test("a two-day period sums the days per player; sorts by speed, games or medal score", async () => {
    const period = { fromDay: day1, toDay: day2, mode: "sentence_race" as const };
    const bySpeed = figures(await dailyStats(ctx, period));
    expect(bySpeed).toEqual([
      {
        key: `u_${a}`,
        nickname: "하늘2",
        games: 2,
        wpmSum: 660,
        accuracySum: 196,
        avgWpm: 330,
        avgAccuracy: 98,
        bestWpm: 360,
        medals: [1, 1, 0],
      },
      {
        key: `u_${b}`,
        nickname: "바다",
        games: 1,
        wpmSum: 200,
        accuracySum: 90,
        avgWpm: 200,
        avgAccuracy: 90,
        bestWpm: 200,
        medals: [0, 1, 0],
      },
      {
        key: guest,
        nickname: "guest_2001",
        games: 2,
        wpmSum: 240,
        accuracySum: 165,
        avgWpm: 120,
        avgAccuracy: 82.5,
        bestWpm: 140,
        medals: [1, 0, 0],
      },
    ]);
    const byGames = await dailyStats(ctx, { ...period, sort: "games" });
    expect(byGames.map((r) => r.playerKey)).toEqual([`u_${a}`, guest, `u_${b}`]);
    // Medal score: 하늘 gold + silver = 5, the guest gold = 3, 바다 silver = 2.
    const byMedals = await dailyStats(ctx, { ...period, sort: "medals" });
    expect(byMedals.map((r) => r.playerKey)).toEqual([`u_${a}`, guest, `u_${b}`]);
    const top = await dailyStats(ctx, { ...period, sort: "games", limit: 1 });
    expect(figures(top)).toEqual([bySpeed[0]]);
    expect(top[0]).toMatchObject({ userId: a, lastPlayedAt: kst("2026-03-02 00:00:30") });
  });

  test("modes are kept apart; without a mode the period sums every mode", async () => {
    const guild = await dailyStats(ctx, { fromDay: day2, toDay: day2, mode: guildGame });
    expect(figures(guild)).toEqual([
      {
        key: `u_${a}`,
        nickname: "하늘2",
        games: 1,
        wpmSum: 500,
        accuracySum: 100,
        avgWpm: 500,
        avgAccuracy: 100,
        bestWpm: 500,
        medals: [0, 0, 0],
      },
    ]);
    const all = await dailyStats(ctx, { fromDay: day2, toDay: day2 });
    expect(all.find((r) => r.playerKey === `u_${a}`)).toMatchObject({
      games: 2,
      wpmSum: 860,
      avgWpm: 430,
      bestWpm: 500,
    });
  });

  test("UTC midnight (09:00 KST) does not split a Seoul day; the latest result's nickname wins", async () => {
    const c = await insertMember(ctx, "구름");
    const at = (time: string) => kst(`2026-03-03 ${time}`);
    await recordResult(
      ctx,
      race("2", 1, at("08:59:00")),
      memberResult(c, "구름", { wpm: 100, accuracy: 90, createdAt: at("08:59:30") }),
    );
    await recordResult(
      ctx,
      race("2", 2, at("09:00:00")),
      memberResult(c, "새구름", { wpm: 300, accuracy: 70, createdAt: at("09:00:30") }),
    );
    // A late write of an earlier result (a retried queue) adds its figures but not its older name.
    await recordResult(
      ctx,
      race("3", 1, at("08:00:00")),
      memberResult(c, "옛구름", { wpm: 50, accuracy: 50, createdAt: at("08:00:30") }),
    );
    const [row] = await dailyStats(ctx, { fromDay: "2026-03-03", toDay: "2026-03-03" });
    expect(row).toMatchObject({
      playerKey: `u_${c}`,
      nickname: "새구름",
      games: 3,
      wpmSum: 450,
      avgWpm: 150,
      avgAccuracy: 70,
      bestWpm: 300,
      lastPlayedAt: at("09:00:30"),
    });
  });

  test("a period with no games is empty; a malformed period is refused (400)", async () => {
    expect(await dailyStats(ctx, { fromDay: "2025-01-01", toDay: "2025-01-31" })).toEqual([]);
    await expect(dailyStats(ctx, { fromDay: day2, toDay: day1 })).rejects.toMatchObject({
      status: 400,
      detail: "조회 기간이 올바르지 않습니다.",
    });
  });
});
