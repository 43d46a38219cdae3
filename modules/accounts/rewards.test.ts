import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import * as coreSqlite from "../../db/core/schema";
import * as corePg from "../../db/core/schema.pg";
import type { SqlDatabase } from "../../db/database";
import { storeDb, tablesFor } from "../../db/store";
import { createTestContext } from "../../db/testing";
import { applyGameRewards, type GameRewardDelta } from ".";
import { accountsStore } from "./store";

/** applyGameRewards: a game's rewards are paid once per member, however often its finish is written. */
let database: SqlDatabase;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const env = await createTestContext();
  database = env.ctx.database;
  cleanup = env.cleanup;
});
afterAll(() => cleanup());

const store = () => accountsStore(database);
let counter = 0;
async function member() {
  counter++;
  const outcome = await store().createUser({
    username: `보상${counter}`,
    usernameKey: `보상${counter}`,
    email: `reward-${counter}@example.com`,
    passwordHash: "not-a-hash",
    at: new Date(),
  });
  if (!("row" in outcome)) throw new Error(`member ${counter}: ${outcome.taken} taken`);
  return outcome.row.id;
}

const gold: GameRewardDelta = {
  experience: 130,
  coins: 30,
  points: 90,
  medal: "gold",
  won: true,
  wpm: 300,
  accuracy: 98,
};
const plain: GameRewardDelta = { experience: 15, coins: 5, points: 5, medal: null, won: false, wpm: 100, accuracy: 50 };
const at = Date.UTC(2026, 10, 20, 3);
const figuresOf = async (userId: number) => (await store().findUser(userId))!;

describe("applyGameRewards", () => {
  test("pays each member of a game once: a repeated call pays nothing and answers the current figures", async () => {
    const a = await member();
    const b = await member();
    const grants = [
      { userId: a, delta: gold },
      { userId: b, delta: plain },
    ];
    const first = await applyGameRewards(database, { key: "games:1", at }, grants);
    expect(first.get(a)).toMatchObject({ coins: 30, gold_medals: 1, win_streak: 1, games_played: 1, level: 2 });
    expect(first.get(a)).toMatchObject({ leveled_up: true, already_granted: false });
    expect(first.get(b)).toMatchObject({ coins: 5, games_played: 1, already_granted: false });

    const again = await applyGameRewards(database, { key: "games:1", at: at + 1_000 }, grants);
    expect(again.get(a)).toMatchObject({ coins: 30, gold_medals: 1, games_played: 1, already_granted: true });
    expect(again.get(a)?.leveled_up).toBe(false);
    expect(await figuresOf(a)).toMatchObject({ coins: 30, goldMedals: 1, winStreak: 1, gamesPlayed: 1 });
    expect(await figuresOf(b)).toMatchObject({ coins: 5, gamesPlayed: 1 });

    // Another game pays again.
    const next = await applyGameRewards(database, { key: "games:2", at: at + 60_000 }, [{ userId: a, delta: gold }]);
    expect(next.get(a)).toMatchObject({ coins: 60, gold_medals: 2, win_streak: 2, games_played: 2 });
  });

  test("a member added to a repeated call is paid; the others are not paid again", async () => {
    const a = await member();
    const b = await member();
    await applyGameRewards(database, { key: "games:10", at }, [{ userId: a, delta: plain }]);
    const both = await applyGameRewards(database, { key: "games:10", at }, [
      { userId: a, delta: plain },
      { userId: b, delta: plain },
    ]);
    expect(both.get(a)?.already_granted).toBe(true);
    expect(both.get(b)?.already_granted).toBe(false);
    expect([(await figuresOf(a)).coins, (await figuresOf(b)).coins]).toEqual([5, 5]);
  });

  test("a member deleted meanwhile is skipped; the others are paid", async () => {
    const gone = await member();
    const stays = await member();
    const { users } = tablesFor(database, coreSqlite, corePg);
    await storeDb(database).delete(users).where(eq(users.id, gone));
    const paid = await applyGameRewards(database, { key: "games:20", at }, [
      { userId: gone, delta: gold },
      { userId: stays, delta: gold },
    ]);
    expect([...paid.keys()]).toEqual([stays]);
    expect((await figuresOf(stays)).coins).toBe(30);
  });

  test("grant rows older than a day are pruned as games finish", async () => {
    const a = await member();
    await applyGameRewards(database, { key: "games:30", at }, [{ userId: a, delta: plain }]);
    const keys = async () => (await store().rewardGrantsOf(a)).map((r) => r.gameKey);
    expect(await keys()).toEqual(["games:30"]);
    await applyGameRewards(database, { key: "games:31", at: at + 86_400_001 }, [{ userId: a, delta: plain }]);
    expect(await keys()).toEqual(["games:31"]);
  });

  test("two games of one member paid at the same time both count (no lost update)", async () => {
    const a = await member();
    const games = Array.from({ length: 6 }, (_, i) =>
      applyGameRewards(database, { key: `games:4${i}`, at }, [{ userId: a, delta: plain }]),
    );
    await Promise.all(games);
    expect(await figuresOf(a)).toMatchObject({ coins: 30, gamesPlayed: 6, wpmSum: 600 });
  });

  test("the same game's finish written twice at the same time pays once", async () => {
    const a = await member();
    const b = await member();
    const grants = [
      { userId: b, delta: plain },
      { userId: a, delta: plain },
    ];
    const [first, second] = await Promise.all([
      applyGameRewards(database, { key: "games:50", at }, grants),
      applyGameRewards(database, { key: "games:50", at }, [...grants].reverse()),
    ]);
    expect([first.get(a)?.already_granted, second.get(a)?.already_granted].sort()).toEqual([false, true]);
    expect([(await figuresOf(a)).coins, (await figuresOf(b)).coins]).toEqual([5, 5]);
  });
});
