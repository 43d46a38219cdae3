import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestContext } from "../../db/testing";
import { accountsApi } from "../accounts";
import { countGames, lastRound, resultsOfUser } from "../games";
import type { ModuleContext } from "../kernel/define-module";
import type { GameRef } from "../kernel/game-mode";
import { finishRaceGame, recordRaceResult } from "./records";
import { computeRewards } from "./rewards";
import type { FinishedGame, RaceResult, StandingEntry } from "./sentence-race";
import { insertMember, storedResults } from "./test-support";

/** The sentence race's writes (records.ts) on a real database: idempotent, so the write queue may retry them. */
let ctx: ModuleContext;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ ctx, cleanup } = await createTestContext());
});
afterAll(() => cleanup());

let counter = 0;
const member = () => insertMember(ctx, `기록${++counter}`);

const at = Date.UTC(2026, 10, 21, 5);
const ref = (round: number): GameRef => ({
  mode: "sentence_race",
  sourceId: 77,
  sourceName: "기록 시험 방",
  round,
  startedAt: at,
});

function result(over: Partial<RaceResult>): RaceResult {
  return {
    playerId: "g:x",
    sessionId: "g_0123456789ab",
    userId: null,
    name: "guest_4321",
    sentenceId: 5,
    wpm: 300,
    accuracy: 100,
    errorCount: 0,
    completionTime: 12,
    position: 1,
    submittedAt: at + 12_000,
    verified: true,
    steps: [],
    ...over,
  };
}

/** A finished round of these results as the race hands it over (standings, rewards for members). */
function finishedGame(results: RaceResult[]): FinishedGame {
  const participants = results.length;
  const standings = results.map(
    (r): StandingEntry => ({
      ...r,
      rewards: r.userId === null ? null : computeRewards({ ...r, participants }),
      winStreak: r.position === 1 && participants >= 2 ? 1 : 0,
    }),
  );
  return {
    roomId: 77,
    ranked: true,
    sentence: { id: 5, text: "문장" },
    startedAt: at,
    finishedAt: at + 20_000,
    participants,
    standings,
  };
}

describe("the race's writes", () => {
  test("a finish written twice closes the game once, grants its medals once and pays each member once", async () => {
    const a = await member();
    const b = await member();
    const results = [
      result({ playerId: `u:${a}`, sessionId: `u_${a}`, userId: a, name: "가", position: 1 }),
      result({ position: 2 }),
      result({ playerId: `u:${b}`, sessionId: `u_${b}`, userId: b, name: "나", position: null, accuracy: 70 }),
    ];
    for (const r of results) await recordRaceResult(ctx, ref(1), r);
    const game = finishedGame(results);
    const games = await countGames(ctx);

    const first = await finishRaceGame(ctx, ref(1), game);
    const again = await finishRaceGame(ctx, ref(1), game);

    expect(again.gameId).toBe(first.gameId);
    expect(await countGames(ctx)).toBe(games + 1);
    expect(first.figures.get(a)).toMatchObject({ coins: 30, gold_medals: 1, win_streak: 1, games_played: 1 });
    expect(again.figures.get(a)).toMatchObject({ coins: 30, gold_medals: 1, games_played: 1, already_granted: true });
    const row = (id: number) => accountsApi(ctx).service.findById(id);
    expect(await row(a)).toMatchObject({ coins: 30, goldMedals: 1, gamesPlayed: 1 });
    expect(await row(b)).toMatchObject({ coins: 5, goldMedals: 0, gamesPlayed: 1 });
    const records = await resultsOfUser(ctx, a);
    expect(records).toEqual([
      expect.objectContaining({ gameId: first.gameId, mode: "sentence_race", position: 1, medal: "gold" }),
    ]);
    expect(await lastRound(ctx, "sentence_race", "77")).toBe(1);
  });

  test("a lone player's game gets no medal; the result keeps its place", async () => {
    const a = await member();
    const lone = result({ playerId: `u:${a}`, sessionId: `u_${a}`, userId: a, name: "혼자", position: 1 });
    await recordRaceResult(ctx, ref(2), lone);
    const finished = await finishRaceGame(ctx, ref(2), finishedGame([lone]));
    expect(finished.figures.get(a)).toMatchObject({ coins: 5, gold_medals: 0, win_streak: 0 });
    expect(await resultsOfUser(ctx, a)).toEqual([expect.objectContaining({ position: 1, medal: null })]);
  });

  test("a result recorded twice is stored once; an implausible attempt is kept but never counted", async () => {
    const a = await member();
    const accepted = result({ playerId: `u:${a}`, sessionId: `u_${a}`, userId: a, name: "두번" });
    expect(await recordRaceResult(ctx, ref(3), accepted)).toMatchObject({ recorded: true });
    expect(await recordRaceResult(ctx, ref(3), accepted)).toMatchObject({ recorded: false });
    const cheat = result({ sessionId: "g_cheatcheat01", wpm: 9_000, position: null });
    expect(await recordRaceResult(ctx, ref(3), cheat, true)).toMatchObject({ recorded: true });
    const stored = await storedResults(ctx, [`u_${a}`, "g_cheatcheat01"]);
    expect(stored.map(({ nickname: _, ...row }) => row)).toEqual([
      { playerKey: `u_${a}`, implausible: 0, position: 1 },
      { playerKey: "g_cheatcheat01", implausible: 1, position: null },
    ]);
  });
});
