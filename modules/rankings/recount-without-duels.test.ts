import { afterAll, describe, expect, test } from "bun:test";
import { closeContext, createContext } from "../../apps/server/context";
import { modules } from "../../apps/server/modules";
import { testConfig } from "../../db/testing";
import { recordResult } from "../games";
import { insertMember, kst, memberResult, modulesAround, race } from "../games/test-support";
import { FakeClock } from "../kernel/clock";
import { addRecordedResult, usersRanking } from "./api";
import { rankingsSettled } from "./index";
import { rankingsStoreOf } from "./store";

/**
 * A database of the release before duels stopped being typing results: a duel counted in the users ranking. After
 * games' 0002_drop_duel_results and rankings' 0002_recount_without_duels, the first boot recounts the periods and
 * the duel is gone from every period; a room's result stays. Both engines.
 */
const { before: modulesBefore, after: modulesAfter } = modulesAround(modules, {
  games: "0002_drop_duel_results",
  rankings: "0002_recount_without_duels",
});
const rankings = modules.find((m) => m.name === "rankings")!;

const config = await testConfig();
afterAll(() => config.cleanup());

describe("0002_recount_without_duels", () => {
  test("the first boot after the migrations recounts every period without the duels", async () => {
    const at = kst("2026-05-04 12:00:00");
    const clock = new FakeClock(at + 60_000);
    const old = await createContext(config, modulesBefore, { clock });
    // The rankings of then counted every recorded result (its subscription, without this release's boot step).
    const counted: Promise<void>[] = [];
    old.events.on("games.result_recorded", (event) => counted.push(addRecordedResult(old, event)));
    const id = await insertMember(old, "결투왕");
    const duel = { mode: "duel" as const, sourceId: "session-1", sourceName: "1:1 대결", round: 1, startedAt: at };
    await recordResult(old, duel, { ...memberResult(id, "결투왕", { wpm: 24_000, accuracy: 100 }), createdAt: at });
    await recordResult(old, race("1", 1, at), {
      ...memberResult(id, "결투왕", { wpm: 350, accuracy: 90 }),
      createdAt: at,
    });
    await Promise.all(counted);
    const figures = async (ctx: typeof old) =>
      Promise.all(
        (["daily", "weekly", "all"] as const).map(async (period) =>
          (await usersRanking(ctx, { period })).map((e) => [e.user_id, e.games_played, e.avg_wpm]),
        ),
      );
    expect(await figures(old)).toEqual([[[id, 2, 12_175]], [[id, 2, 12_175]], [[id, 2, 12_175]]]);
    await closeContext(old);

    const now = await createContext(config, modulesAfter, { clock });
    try {
      await rankings.onBoot!(now);
      expect(await figures(now)).toEqual([[[id, 1, 350]], [[id, 1, 350]], [[id, 1, 350]]]);
      expect(await rankingsStoreOf(now.database).pendingRecounts()).toEqual([]);
      // Done once: a later result counts as usual and a second boot recounts nothing.
      await recordResult(now, race("1", 2, at), {
        ...memberResult(id, "결투왕", { wpm: 450, accuracy: 90 }),
        createdAt: at,
      });
      await rankingsSettled(now);
      expect((await usersRanking(now, { period: "all" }))[0]).toMatchObject({ games_played: 2, avg_wpm: 400 });
    } finally {
      await rankings.onStop!(now);
      await closeContext(now);
    }
  });
});
