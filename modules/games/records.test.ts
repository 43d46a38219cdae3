import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestContext } from "../../db/testing";
import { FakeClock } from "../kernel/clock";
import type { ModuleContext } from "../kernel/define-module";
import { isAppError } from "../kernel/errors";
import { countGames, dailyStats, finishGame, lastRound, recordResult, resultsOfUser } from ".";
import {
  collect,
  countRows,
  deleteMember,
  gameRow,
  guestResult,
  insertMember,
  kst,
  memberResult,
  race,
  refuseAggregateOf,
} from "./test-support";

let ctx: ModuleContext;
let cleanup: () => Promise<void>;
const clock = new FakeClock(kst("2026-03-10 12:00:00"));

beforeAll(async () => {
  ({ ctx, cleanup } = await createTestContext({ clock }));
});
afterAll(() => cleanup());

const count = (table: string, where?: string) => countRows(ctx, table, where);

async function errorOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (isAppError(error)) return { status: error.status, detail: error.detail };
    throw error;
  }
  throw new Error("expected an AppError");
}

const day = "2026-03-10";

describe("recordResult", () => {
  test("a retried result changes nothing: same game, one row, one aggregate game, one event", async () => {
    const userId = await insertMember(ctx, "재시도");
    const game = race("retry", 1, kst("2026-03-10 12:00:00"));
    const events = collect(ctx, "games.result_recorded");
    const result = memberResult(userId, "재시도", { wpm: 300, accuracy: 98.5, position: 1, itemId: 7 });

    const first = await recordResult(ctx, game, result);
    const again = await recordResult(ctx, game, { ...result, wpm: 999 });

    expect(first.recorded).toBe(true);
    expect(again).toEqual({ recorded: false, gameId: first.gameId, late: false, replayKey: null });
    expect(await count("games_games", "source_id = 'retry'")).toBe(1);
    expect(await count("games_results", `game_id = ${first.gameId}`)).toBe(1);
    expect(events.map((e) => [e.playerKey, e.wpm, e.gameId, e.mode, e.round, e.itemId])).toEqual([
      [`u_${userId}`, 300, first.gameId, "sentence_race", 1, 7],
    ]);
    const [stats] = await dailyStats(ctx, { fromDay: day, toDay: day, mode: "sentence_race" }).then((rows) =>
      rows.filter((r) => r.userId === userId),
    );
    expect(stats).toMatchObject({ games: 1, wpmSum: 300, bestWpm: 300, accuracySum: 98.5 });
  });

  test("two players of one game share the game row; the next round is another game", async () => {
    const started = kst("2026-03-10 12:01:00");
    const a = await recordResult(
      ctx,
      race("share", 1, started),
      guestResult("aaaa", "guest_1001", { wpm: 100, accuracy: 90 }),
    );
    const b = await recordResult(
      ctx,
      race("share", 1, started),
      guestResult("bbbb", "guest_1002", { wpm: 110, accuracy: 91 }),
    );
    const c = await recordResult(
      ctx,
      race("share", 2, started + 30_000),
      guestResult("aaaa", "guest_1001", { wpm: 120, accuracy: 92 }),
    );
    expect(b.gameId).toBe(a.gameId);
    expect(c.gameId).not.toBe(a.gameId);
    expect(await lastRound(ctx, "sentence_race", "share")).toBe(2);
    expect(await lastRound(ctx, "sentence_race", "nowhere")).toBe(0);
  });

  test("writers racing on new games: one game row each, one result per player, each counted once", async () => {
    // On PostgreSQL these run at the same time on several connections: the unique indexes decide who wrote first
    // (on SQLite the transactions take turns, which must give the same answer). Several games, so that on
    // PostgreSQL some writer does lose the race for the game row.
    const rounds = [1, 2, 3, 4, 5, 6];
    const hashes = ["r1", "r2", "r3", "r4"];
    const at = kst("2026-03-10 12:02:00");
    const result = (hash: string, i: number) => guestResult(hash, `guest_${2001 + i}`, { wpm: 100 + i, accuracy: 90 });
    const outcomes = await Promise.all(
      rounds.flatMap((round) =>
        hashes.flatMap((hash, i) => [
          recordResult(ctx, race("race", round, at), result(hash, i)),
          recordResult(ctx, race("race", round, at), result(hash, i)),
        ]),
      ),
    );

    expect(outcomes.filter((o) => o.recorded)).toHaveLength(rounds.length * hashes.length);
    expect(new Set(outcomes.map((o) => o.gameId)).size).toBe(rounds.length);
    expect(await count("games_games", "source_id = 'race'")).toBe(rounds.length);
    for (const { gameId } of outcomes) expect(await count("games_results", `game_id = ${gameId}`)).toBe(hashes.length);
    const stats = await dailyStats(ctx, { fromDay: day, toDay: day });
    expect(stats.filter((r) => r.playerKey.startsWith("g_r")).map((r) => [r.playerKey, r.games])).toEqual([
      ["g_r4", rounds.length],
      ["g_r3", rounds.length],
      ["g_r2", rounds.length],
      ["g_r1", rounds.length],
    ]);

    const finish = { endedAt: kst("2026-03-10 12:02:30"), participants: 4, medals: [] };
    const finishes = await Promise.all(
      rounds.flatMap((round) => [
        finishGame(ctx, race("race", round, at), finish),
        finishGame(ctx, race("race", round, at), finish),
      ]),
    );
    expect(finishes.filter((f) => f.finished)).toHaveLength(rounds.length);
  });

  test("a result and its aggregate are one unit of work: when the aggregate fails, nothing is stored", async () => {
    const game = race("atomic", 1, kst("2026-03-10 12:03:00"));
    const result = guestResult("atomic01", "guest_3001", { wpm: 140, accuracy: 93 });
    const allow = await refuseAggregateOf(ctx, "g_atomic01");
    try {
      await expect(recordResult(ctx, game, result)).rejects.toThrow();
      expect(await count("games_results", "player_key = 'g_atomic01'")).toBe(0);
    } finally {
      await allow();
    }
    // The retry (the write queue's) stores it once, with its aggregate.
    expect(await recordResult(ctx, game, result)).toMatchObject({ recorded: true });
    expect(await count("games_results", "player_key = 'g_atomic01'")).toBe(1);
    const rows = await dailyStats(ctx, { fromDay: day, toDay: day });
    expect(rows.find((r) => r.playerKey === "g_atomic01")).toMatchObject({ games: 1, wpmSum: 140 });
  });

  test("a guest's result is stored under its guest key and counted; it is nobody's member record", async () => {
    await recordResult(
      ctx,
      race("guest", 1, clock.now()),
      guestResult("0123456789ab", "guest_4321", { wpm: 250, accuracy: 95 }),
    );
    const rows = await dailyStats(ctx, { fromDay: day, toDay: day });
    expect(rows.find((r) => r.playerKey === "g_0123456789ab")).toMatchObject({
      userId: null,
      nickname: "guest_4321",
      games: 1,
      avgWpm: 250,
      avgAccuracy: 95,
    });
    expect(await count("games_results", "player_key = 'g_0123456789ab' AND user_id IS NULL")).toBe(1);
  });

  test("an implausible result is kept for the record but counts nowhere (aggregates, records, medals)", async () => {
    const userId = await insertMember(ctx, "과속");
    const other = await insertMember(ctx, "정상");
    const game = race("cheat", 1, clock.now());
    const cheat = await recordResult(
      ctx,
      game,
      memberResult(userId, "과속", { wpm: 2400, accuracy: 100, implausible: true }),
    );
    await recordResult(ctx, game, memberResult(other, "정상", { wpm: 200, accuracy: 90, position: 1 }));
    const finish = await finishGame(ctx, game, {
      endedAt: clock.now() + 20_000,
      participants: 1,
      medals: [
        { playerKey: `u_${userId}`, medal: "gold" },
        { playerKey: `u_${other}`, medal: "silver" },
      ],
    });

    expect(cheat.recorded).toBe(true);
    expect(await count("games_results", `user_id = ${userId} AND implausible = true`)).toBe(1);
    expect(await resultsOfUser(ctx, userId)).toEqual([]);
    const rows = await dailyStats(ctx, { fromDay: day, toDay: day });
    expect(rows.find((r) => r.playerKey === `u_${userId}`)).toBeUndefined();
    // Only one counted result: below the 2 needed for medals, so nobody gets one.
    expect(finish.medals).toEqual([]);
    expect(rows.find((r) => r.playerKey === `u_${other}`)).toMatchObject({ games: 1, silverMedals: 0 });
  });

  test("a result of an unranked game (a private room) is a record like any other, never in the aggregates", async () => {
    const userId = await insertMember(ctx, "친선");
    const game = race("friends", 1, clock.now());
    const events = collect(ctx, "games.result_recorded");
    const outcome = await recordResult(
      ctx,
      game,
      memberResult(userId, "친선", { wpm: 350, accuracy: 99, position: 1, verified: true, ranked: false }),
    );

    expect(outcome.recorded).toBe(true);
    expect((await resultsOfUser(ctx, userId)).map((r) => r.wpm)).toEqual([350]);
    expect(events.map((e) => [e.playerKey, e.verified, e.ranked])).toEqual([[`u_${userId}`, true, false]]);
    const rows = await dailyStats(ctx, { fromDay: day, toDay: day });
    expect(rows.find((r) => r.playerKey === `u_${userId}`)).toBeUndefined();
  });

  test("a member deleted meanwhile keeps the result without user id (no error)", async () => {
    const outcome = await recordResult(
      ctx,
      race("ghost", 1, clock.now()),
      memberResult(999_999, "사라진", { wpm: 150, accuracy: 80 }),
    );
    expect(outcome.recorded).toBe(true);
    expect(await count("games_results", "player_key = 'u_999999' AND user_id IS NULL")).toBe(1);
  });

  test("a result whose player key does not name its member, or with broken figures, is refused (400)", async () => {
    const game = race("bad", 1, clock.now());
    expect(
      await errorOf(recordResult(ctx, game, { ...memberResult(5, "x", { wpm: 1, accuracy: 1 }), playerKey: "u_6" })),
    ).toEqual({
      status: 400,
      detail: "게임 결과가 올바르지 않습니다.",
    });
    expect((await errorOf(recordResult(ctx, game, guestResult("zz", "g", { wpm: 1, accuracy: 101 })))).status).toBe(
      400,
    );
    expect(
      (await errorOf(recordResult(ctx, { ...game, round: 0 }, guestResult("zz", "g", { wpm: 1, accuracy: 1 })))).detail,
    ).toBe("게임 정보가 올바르지 않습니다.");
    expect(await count("games_games", "source_id = 'bad'")).toBe(0);
  });
});

describe("finishGame", () => {
  test("medals go to counted results; a second finish changes nothing and emits nothing", async () => {
    const [gold, silver, bronze] = [
      await insertMember(ctx, "금"),
      await insertMember(ctx, "은"),
      await insertMember(ctx, "동"),
    ];
    const game = race("finish", 1, kst("2026-03-10 13:00:00"));
    for (const [userId, name, wpm, position] of [
      [gold, "금", 400, 1],
      [silver, "은", 300, 2],
      [bronze, "동", 200, 3],
    ] as const) {
      await recordResult(ctx, game, memberResult(userId, name, { wpm, accuracy: 99, position }));
    }
    const finished = collect(ctx, "games.game_finished");
    const finish = {
      endedAt: kst("2026-03-10 13:00:40"),
      participants: 3,
      medals: [
        { playerKey: `u_${gold}`, medal: "gold" as const },
        { playerKey: `u_${silver}`, medal: "silver" as const },
        { playerKey: `u_${bronze}`, medal: "bronze" as const },
      ],
    };
    const before = await countGames(ctx);

    const first = await finishGame(ctx, game, finish);
    const statsAfterFirst = await dailyStats(ctx, { fromDay: day, toDay: day, sort: "medals" });
    const second = await finishGame(ctx, game, { ...finish, endedAt: finish.endedAt + 1000 });

    expect(first.finished).toBe(true);
    // Every call answers the game's counted results as stored (a retried finish pays the same members).
    expect(second).toEqual({ gameId: first.gameId, finished: false, medals: [], counted: first.counted });
    expect(first.counted.map((r) => r.userId)).toEqual(expect.arrayContaining([gold, silver, bronze]));
    expect(await countGames(ctx)).toBe(before + 1);
    expect(finished).toHaveLength(1);
    expect(finished[0]).toMatchObject({ gameId: first.gameId, participants: 3, endedAt: finish.endedAt });
    expect(finished[0].medals).toEqual([
      { playerKey: `u_${gold}`, userId: gold, medal: "gold" },
      { playerKey: `u_${silver}`, userId: silver, medal: "silver" },
      { playerKey: `u_${bronze}`, userId: bronze, medal: "bronze" },
    ]);
    expect((await resultsOfUser(ctx, gold))[0]).toMatchObject({ medal: "gold", position: 1, sourceName: "방 finish" });
    const stats = await dailyStats(ctx, { fromDay: day, toDay: day, sort: "medals" });
    expect(stats).toEqual(statsAfterFirst);
    expect(stats.slice(0, 3).map((r) => [r.nickname, r.goldMedals, r.silverMedals, r.bronzeMedals])).toEqual([
      ["금", 1, 0, 0],
      ["은", 0, 1, 0],
      ["동", 0, 0, 1],
    ]);
    const ended = await gameRow(ctx, first.gameId);
    expect([ended?.endedAt?.getTime(), ended?.participants]).toEqual([finish.endedAt, 3]);
  });

  test("a game nobody finished a result in can still be finished and counted", async () => {
    const before = await countGames(ctx);
    const outcome = await finishGame(ctx, race("empty", 1, clock.now()), {
      endedAt: clock.now(),
      participants: 0,
      medals: [],
    });
    expect(outcome.finished).toBe(true);
    expect(await countGames(ctx)).toBe(before + 1);
  });

  test("a result written after the finish is still stored and counted, without a medal", async () => {
    const [first, late] = [await insertMember(ctx, "먼저"), await insertMember(ctx, "늦게")];
    const game = race("late", 1, kst("2026-03-10 14:00:00"));
    await recordResult(ctx, game, memberResult(first, "먼저", { wpm: 100, accuracy: 90, position: 1 }));
    await finishGame(ctx, game, { endedAt: kst("2026-03-10 14:00:30"), participants: 1, medals: [] });
    const outcome = await recordResult(ctx, game, memberResult(late, "늦게", { wpm: 90, accuracy: 95, position: 2 }));
    await finishGame(ctx, game, {
      endedAt: kst("2026-03-10 14:00:40"),
      participants: 2,
      medals: [{ playerKey: `u_${late}`, medal: "silver" }],
    });
    expect(outcome).toMatchObject({ recorded: true, late: true });
    expect(await resultsOfUser(ctx, late)).toEqual([expect.objectContaining({ wpm: 90, position: 2, medal: null })]);
    const rows = await dailyStats(ctx, { fromDay: day, toDay: day });
    expect(rows.find((r) => r.playerKey === `u_${late}`)).toMatchObject({ games: 1, silverMedals: 0 });
  });

  test("countGames counts finished games only, in [from, to)", async () => {
    const start = kst("2026-03-11 09:00:00");
    await recordResult(ctx, race("count", 1, start), guestResult("c1", "guest_1111", { wpm: 10, accuracy: 50 }));
    const running = await countGames(ctx, { from: start, to: start + 86_400_000 });
    await finishGame(ctx, race("count", 1, start), { endedAt: start + 10_000, participants: 1, medals: [] });
    expect(running).toBe(0);
    expect(await countGames(ctx, { from: start, to: start + 86_400_000 })).toBe(1);
    expect(await countGames(ctx, { from: start + 10_000, to: start + 10_001 })).toBe(1);
    expect(await countGames(ctx, { from: start, to: start + 10_000 })).toBe(0);
  });
});

describe("resultsOfUser", () => {
  test("newest first across games, with mode, room name, medal; limit clamps to 1–200", async () => {
    const userId = await insertMember(ctx, "기록");
    const startedAt = kst("2026-03-12 10:00:00");
    for (let round = 1; round <= 3; round++) {
      await recordResult(
        ctx,
        race("records", round, startedAt + round * 60_000, `기록 방 ${round}`),
        memberResult(userId, "기록", { wpm: 100 * round, accuracy: 90, createdAt: startedAt + round * 60_000 + 5000 }),
      );
    }
    const records = await resultsOfUser(ctx, userId);
    expect(records.map((r) => [r.sourceName, r.wpm, r.mode, r.medal])).toEqual([
      ["기록 방 3", 300, "sentence_race", null],
      ["기록 방 2", 200, "sentence_race", null],
      ["기록 방 1", 100, "sentence_race", null],
    ]);
    expect(await resultsOfUser(ctx, userId, 0)).toHaveLength(1);
    expect(await resultsOfUser(ctx, userId, 2)).toHaveLength(2);
  });

  test("a deleted member's results stay stored, without user id", async () => {
    const userId = await insertMember(ctx, "탈퇴");
    await recordResult(ctx, race("deleted", 1, clock.now()), memberResult(userId, "탈퇴", { wpm: 120, accuracy: 88 }));
    await deleteMember(ctx, userId);
    expect(await count("games_results", `player_key = 'u_${userId}' AND user_id IS NULL`)).toBe(1);
    expect(await count("games_daily_stats", `player_key = 'u_${userId}' AND user_id IS NULL`)).toBe(1);
  });
});
