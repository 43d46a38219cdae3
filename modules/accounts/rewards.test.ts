import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { users } from "../../db/core/schema";
import { createTestContext } from "../../db/testing";
import type { ModuleContext } from "../kernel/define-module";
import { applyGameRewards, type GameRewardDelta } from ".";
import { rewardGrants } from "./schema";

/** applyGameRewards: a game's rewards are paid once per member, however often its finish is written. */
let ctx: ModuleContext;
let cleanup: () => void;

beforeAll(async () => {
  ({ ctx, cleanup } = await createTestContext());
});
afterAll(() => cleanup());

let counter = 0;
function member() {
  counter++;
  return ctx.db
    .insert(users)
    .values({
      username: `보상${counter}`,
      usernameKey: `보상${counter}`,
      email: `reward-${counter}@example.com`,
      passwordHash: "not-a-hash",
    })
    .returning({ id: users.id })
    .get().id;
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
const figuresOf = (userId: number) => ctx.db.select().from(users).where(eq(users.id, userId)).get()!;

describe("applyGameRewards", () => {
  test("pays each member of a game once: a repeated call pays nothing and answers the current figures", async () => {
    const a = member();
    const b = member();
    const grants = [
      { userId: a, delta: gold },
      { userId: b, delta: plain },
    ];
    const first = await applyGameRewards(ctx.db, { key: "games:1", at }, grants);
    expect(first.get(a)).toMatchObject({ coins: 30, gold_medals: 1, win_streak: 1, games_played: 1, level: 2 });
    expect(first.get(a)).toMatchObject({ leveled_up: true, already_granted: false });
    expect(first.get(b)).toMatchObject({ coins: 5, games_played: 1, already_granted: false });

    const again = await applyGameRewards(ctx.db, { key: "games:1", at: at + 1_000 }, grants);
    expect(again.get(a)).toMatchObject({ coins: 30, gold_medals: 1, games_played: 1, already_granted: true });
    expect(again.get(a)?.leveled_up).toBe(false);
    expect(figuresOf(a)).toMatchObject({ coins: 30, goldMedals: 1, winStreak: 1, gamesPlayed: 1 });
    expect(figuresOf(b)).toMatchObject({ coins: 5, gamesPlayed: 1 });

    // Another game pays again.
    const next = await applyGameRewards(ctx.db, { key: "games:2", at: at + 60_000 }, [{ userId: a, delta: gold }]);
    expect(next.get(a)).toMatchObject({ coins: 60, gold_medals: 2, win_streak: 2, games_played: 2 });
  });

  test("a member added to a repeated call is paid; the others are not paid again", async () => {
    const a = member();
    const b = member();
    await applyGameRewards(ctx.db, { key: "games:10", at }, [{ userId: a, delta: plain }]);
    const both = await applyGameRewards(ctx.db, { key: "games:10", at }, [
      { userId: a, delta: plain },
      { userId: b, delta: plain },
    ]);
    expect(both.get(a)?.already_granted).toBe(true);
    expect(both.get(b)?.already_granted).toBe(false);
    expect([figuresOf(a).coins, figuresOf(b).coins]).toEqual([5, 5]);
  });

  test("a member deleted meanwhile is skipped; the others are paid", async () => {
    const gone = member();
    const stays = member();
    ctx.db.delete(users).where(eq(users.id, gone)).run();
    const paid = await applyGameRewards(ctx.db, { key: "games:20", at }, [
      { userId: gone, delta: gold },
      { userId: stays, delta: gold },
    ]);
    expect([...paid.keys()]).toEqual([stays]);
    expect(figuresOf(stays).coins).toBe(30);
  });

  test("grant rows older than a day are pruned as games finish", async () => {
    const a = member();
    await applyGameRewards(ctx.db, { key: "games:30", at }, [{ userId: a, delta: plain }]);
    const keys = () =>
      ctx.db
        .select({ key: rewardGrants.gameKey })
        .from(rewardGrants)
        .where(eq(rewardGrants.userId, a))
        .all()
        .map((r) => r.key);
    expect(keys()).toEqual(["games:30"]);
    await applyGameRewards(ctx.db, { key: "games:31", at: at + 86_400_001 }, [{ userId: a, delta: plain }]);
    expect(keys()).toEqual(["games:31"]);
  });
});
