import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestContext } from "../../db/testing";
import { FakeClock } from "../kernel/clock";
import type { ModuleContext } from "../kernel/define-module";
import { isAppError } from "../kernel/errors";
import { isStaleOwnerError } from "../kernel/game-host/errors";
import { claimOwner, dailyStats, finishGame, lastRound, ownerEpoch, recordResult, unfinishedLastRound } from ".";
import { collect, countRows, guestResult, kst, race } from "./test-support";

// Fencing (game-host README "Fencing in storage"): per source, the highest owner epoch that has claimed or written
// stands; a write of a lower epoch (a process that lost the game and does not know yet) is refused, nothing stored.
let ctx: ModuleContext;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ ctx, cleanup } = await createTestContext({ clock: new FakeClock(kst("2026-03-10 12:00:00")) }));
});
afterAll(() => cleanup());

const started = kst("2026-03-10 12:00:00");
const owned = (source: string, round: number, epoch?: number) => ({ ...race(source, round, started), epoch });
const finish = { endedAt: started + 60_000, participants: 1, medals: [] };

const guest = (hash: string, nickname: string) => guestResult(hash, nickname, { wpm: 300, accuracy: 95 });

async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return isStaleOwnerError(error);
  }
  return "not refused";
}

describe("owner epochs", () => {
  test("a new owner's claim makes the old owner's result and finish refused, with nothing stored", async () => {
    const old = owned("fence-1", 1, 1);
    expect((await recordResult(ctx, old, guest("old1", "손님1"))).recorded).toBe(true);
    await claimOwner(ctx, "sentence_race", "fence-1", 2);

    expect(await refusal(recordResult(ctx, old, guest("old2", "손님2")))).toBe(true);
    expect(await refusal(finishGame(ctx, old, finish))).toBe(true);
    expect(await countRows(ctx, "games_results", "player_key = 'g_old2'")).toBe(0);
    expect(await countRows(ctx, "games_games", "source_id = 'fence-1' AND ended_at IS NOT NULL")).toBe(0);

    // The new owner finishes the round it found.
    expect((await finishGame(ctx, owned("fence-1", 1, 2), finish)).finished).toBe(true);
    expect(await ownerEpoch(ctx, "sentence_race", "fence-1")).toBe(2);
  });

  test("a stale owner's NEW round is refused too (the fence is per source, not per game)", async () => {
    await claimOwner(ctx, "sentence_race", "fence-2", 5);
    expect(await refusal(recordResult(ctx, owned("fence-2", 9, 4), guest("late", "늦은손님")))).toBe(true);
    expect(await lastRound(ctx, "sentence_race", "fence-2")).toBe(0);
  });

  test("equal epochs pass, a higher one raises the stored epoch, a lower claim is refused", async () => {
    await claimOwner(ctx, "sentence_race", "fence-3", 3);
    expect((await recordResult(ctx, owned("fence-3", 1, 3), guest("a", "가"))).recorded).toBe(true);
    expect((await recordResult(ctx, owned("fence-3", 1, 7), guest("b", "나"))).recorded).toBe(true);
    expect(await ownerEpoch(ctx, "sentence_race", "fence-3")).toBe(7);
    expect(await refusal(claimOwner(ctx, "sentence_race", "fence-3", 6))).toBe(true);
  });

  test("writes without an epoch (one process) are never checked; other sources are not affected", async () => {
    await claimOwner(ctx, "sentence_race", "fence-4", 10);
    expect((await recordResult(ctx, race("fence-4", 1, started), guest("one", "하나"))).recorded).toBe(true);
    expect((await recordResult(ctx, owned("fence-5", 1, 1), guest("two", "둘"))).recorded).toBe(true);
    expect(await ownerEpoch(ctx, "sentence_race", "nobody")).toBe(0);
  });
});

describe("what a refused write leaves", () => {
  test("a stale result is not in the daily aggregates and emits no event; a stale finish emits none", async () => {
    await claimOwner(ctx, "sentence_race", "fence-6", 2);
    const recorded = collect(ctx, "games.result_recorded");
    const finished = collect(ctx, "games.game_finished");

    expect(await refusal(recordResult(ctx, owned("fence-6", 1, 1), guest("stale6", "늦음")))).toBe(true);
    expect(await refusal(finishGame(ctx, owned("fence-6", 1, 1), finish))).toBe(true);

    expect(recorded).toEqual([]);
    expect(finished).toEqual([]);
    const day = await dailyStats(ctx, { fromDay: "2026-03-10", toDay: "2026-03-10" });
    expect(day.find((row) => row.playerKey === "g_stale6")).toBeUndefined();
    expect(await countRows(ctx, "games_games", "source_id = 'fence-6'")).toBe(0);
  });

  test("a claim racing an old owner's write: the write is stored before the claim or refused after it", async () => {
    await claimOwner(ctx, "sentence_race", "fence-7", 1);
    const [write, claim] = await Promise.allSettled([
      recordResult(ctx, owned("fence-7", 1, 1), guest("race7", "경주")),
      claimOwner(ctx, "sentence_race", "fence-7", 2),
    ]);
    expect(claim.status).toBe("fulfilled");
    if (write.status === "rejected") expect(isStaleOwnerError(write.reason)).toBe(true);
    const stored = await countRows(ctx, "games_results", "player_key = 'g_race7'");
    expect(stored).toBe(write.status === "fulfilled" ? 1 : 0);
    expect(await ownerEpoch(ctx, "sentence_race", "fence-7")).toBe(2);
  });

  test("a claim with an epoch that is not a positive whole number is refused (400, Korean), nothing stored", async () => {
    for (const epoch of [0, -3, 1.5, Number.NaN]) {
      const error = await claimOwner(ctx, "sentence_race", "fence-8", epoch).catch((e: unknown) => e);
      expect(isAppError(error) && [error.status, error.detail]).toEqual([400, "게임 정보가 올바르지 않습니다."]);
    }
    expect(await ownerEpoch(ctx, "sentence_race", "fence-8")).toBe(0);
  });
});

test("the last round left unfinished by a dead owner is found with its results; a finished one is not", async () => {
  await recordResult(ctx, owned("open-1", 1, 1), guest("o1", "가"));
  await finishGame(ctx, owned("open-1", 1, 1), finish);
  await recordResult(ctx, owned("open-1", 2, 1), guest("o2", "나"));
  await recordResult(ctx, owned("open-1", 2, 1), guest("o3", "다"));
  expect(await unfinishedLastRound(ctx, "sentence_race", "open-1")).toEqual({
    round: 2,
    sourceName: "방 open-1",
    startedAt: started,
    results: 2,
  });
  await finishGame(ctx, owned("open-1", 2, 1), finish);
  expect(await unfinishedLastRound(ctx, "sentence_race", "open-1")).toBeNull();
  expect(await unfinishedLastRound(ctx, "sentence_race", "never")).toBeNull();
});
