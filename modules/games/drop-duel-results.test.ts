import { afterAll, describe, expect, test } from "bun:test";
import { closeContext, createContext } from "../../apps/server/context";
import { modules } from "../../apps/server/modules";
import { testConfig } from "../../db/testing";
import { countGames, dailyStats, finishGame, recordResult, resultsOfUser } from "./api";
import { resultDay } from "./rules";
import { insertMember, kst, memberResult, modulesAround, race } from "./test-support";

/**
 * Migration 0002_drop_duel_results on a database written by the code of before it (duels stored here as games of
 * the mode "duel"): the duels' results, aggregates and games go, every other mode's stay. Both engines.
 */
const { before: modulesBefore, after: modulesAfter } = modulesAround(modules, { games: "0002_drop_duel_results" });

const config = await testConfig();
afterAll(() => config.cleanup());

describe("0002_drop_duel_results", () => {
  test("a duel's results, daily aggregates and game go; a room's stay", async () => {
    const at = kst("2026-05-04 12:00:00");
    const before = await createContext(config, modulesBefore);
    const id = await insertMember(before, "결투왕");
    const other = await insertMember(before, "상대");
    // A duel as the duel module wrote it before (one word, then the opponent left: 24,000 타/분).
    const duel = { mode: "duel" as const, sourceId: "session-1", sourceName: "1:1 대결", round: 1, startedAt: at };
    await recordResult(before, duel, {
      ...memberResult(id, "결투왕", { wpm: 24_000, accuracy: 100 }),
      position: 1,
      createdAt: at,
    });
    await recordResult(before, duel, {
      ...memberResult(other, "상대", { wpm: 0, accuracy: 0 }),
      position: 2,
      createdAt: at,
    });
    await finishGame(before, duel, { endedAt: at + 300, participants: 2, medals: [] });
    const room = race("1", 1, at);
    await recordResult(before, room, { ...memberResult(id, "결투왕", { wpm: 350, accuracy: 97 }), createdAt: at });
    await finishGame(before, room, { endedAt: at + 20_000, participants: 1, medals: [] });
    const day = resultDay(at);
    expect((await dailyStats(before, { fromDay: day, toDay: day })).find((s) => s.userId === id)?.games).toBe(2);
    await closeContext(before);

    const after = await createContext(config, modulesAfter);
    try {
      const records = await resultsOfUser(after, id, 200);
      expect(records.map((r) => [r.mode, r.wpm])).toEqual([["sentence_race", 350]]);
      expect(await resultsOfUser(after, other, 200)).toEqual([]);
      const stats = await dailyStats(after, { fromDay: day, toDay: day });
      expect(stats.map((s) => [s.userId, s.games, s.avgWpm, s.bestWpm])).toEqual([[id, 1, 350, 350]]);
      expect(await dailyStats(after, { fromDay: day, toDay: day, mode: "duel" })).toEqual([]);
      expect(await countGames(after)).toBe(1);
    } finally {
      await closeContext(after);
    }
  });
});
