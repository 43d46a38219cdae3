import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { users as sqliteUsers } from "../../db/core/schema";
import { users as pgUsers } from "../../db/core/schema.pg";
import { storeDb, tablesFor } from "../../db/store";
import { createTestContext } from "../../db/testing";
import { defineModule } from "../kernel/define-module";
import { seoulDate } from "../kernel/seoul-time";
import { rateDuel } from "./glicko2";
import { migrations } from "./migrations";
import { migrations as pgMigrations } from "./migrations-pg";
import { createDuelStore, type DuelRecord, type DuelStore, nextStreak } from "./store";
import { duelRecord } from "./test-support";

/**
 * The duel store on a fresh database of this run's engine (TEST_DATABASE=postgres for PostgreSQL), with only the
 * core tables and the duel's own migrated (the store touches no other module's tables).
 */
let env: Awaited<ReturnType<typeof createTestContext>>;
let store: DuelStore;
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 3, 10, 3, 0, 0); // 12:00 in Seoul

beforeAll(async () => {
  const duelTables = defineModule({ name: "duel", migrations, pgMigrations });
  env = await createTestContext({ modules: [duelTables] });
  store = createDuelStore(env.ctx.database);
});
afterAll(() => env.cleanup());

let userCount = 0;
async function member(name = `결투${++userCount}`) {
  const users = tablesFor(env.ctx.database, { users: sqliteUsers }, { users: pgUsers }).users;
  const at = new Date(T0);
  const [row] = await storeDb(env.ctx.database)
    .insert(users)
    .values({
      username: name,
      usernameKey: name.toLowerCase(),
      email: `${name}@example.com`,
      passwordHash: "-",
      createdAt: at,
      updatedAt: at,
    })
    .returning({ id: users.id });
  return row.id;
}

let sessions = 0;
function duel(red: number, blue: number, winnerSide: DuelRecord["winnerSide"], endedAt = T0): DuelRecord {
  return duelRecord(`session-${++sessions}`, red, blue, winnerSide, endedAt);
}

describe("recording a duel", () => {
  test("ratings from 1500 move by Glicko-2, figures and streaks follow; a retry of the same session is a no-op", async () => {
    const a = await member();
    const b = await member();
    expect(await store.rating(a)).toBe(1500);
    const record = duel(a, b, "red");
    const first = await store.recordDuel(record);
    expect(first.recorded).toBe(true);
    const [expectedA, expectedB] = rateDuel(
      { rating: 1500, rd: 350, volatility: 0.06 },
      { rating: 1500, rd: 350, volatility: 0.06 },
      1,
    );
    expect(first.players[0]).toMatchObject({ userId: a, wins: 1, losses: 0, totalGames: 1, currentStreak: 1 });
    expect(first.players[0].rating).toBeCloseTo(expectedA.rating, 6);
    expect(first.players[0].ratingChange).toBeCloseTo(expectedA.rating - 1500, 6);
    expect(first.players[1]).toMatchObject({ userId: b, wins: 0, losses: 1, currentStreak: -1, maxWinStreak: 0 });
    expect(first.players[1].rating).toBeCloseTo(expectedB.rating, 6);
    const again = await store.recordDuel(record);
    expect(again.recorded).toBe(false);
    expect(await store.player(a)).toMatchObject({ wins: 1, totalGames: 1 });
    expect(await store.rating(a)).toBeCloseTo(expectedA.rating, 6);
  });

  test("streaks: wins count up, a loss turns it negative, a draw resets; the max win streak stays", () => {
    expect([1, 1, 1].reduce((s) => nextStreak(s, 1), 0)).toBe(3);
    expect(nextStreak(3, 0)).toBe(-1);
    expect(nextStreak(-1, 0)).toBe(-2);
    expect(nextStreak(-2, 0.5)).toBe(0);
    expect(nextStreak(-2, 1)).toBe(1);
  });

  test("concurrent records of different duels of one member all count", async () => {
    const hub = await member();
    const others = await Promise.all([member(), member(), member(), member()]);
    await Promise.all(others.map((o) => store.recordDuel(duel(hub, o, "red"))));
    expect(await store.player(hub)).toMatchObject({ wins: 4, totalGames: 4, currentStreak: 4, maxWinStreak: 4 });
  });
});

describe('the daily pair limit (product-rules "Trust rules")', () => {
  test("the same two members are rated at most 3 times a Seoul day, whichever sides; further duels are stored unrated", async () => {
    const a = await member();
    const b = await member();
    const c = await member();
    const results = [];
    for (const [red, blue] of [
      [a, b],
      [b, a],
      [a, b],
      [b, a],
    ])
      results.push(await store.recordDuel(duel(red, blue, red === a ? "red" : "blue")));
    expect(results.map((r) => [r.recorded, r.rated])).toEqual([
      [true, true],
      [true, true],
      [true, true],
      [true, false],
    ]);
    // The unrated duel is stored (its session answers), its figures are the members' unchanged ones.
    expect(results[3].players.map((p) => [p.userId, p.ratingChange, p.wins, p.losses])).toEqual([
      [b, 0, 0, 3],
      [a, 0, 3, 0],
    ]);
    expect(await store.duelBySession(`session-${sessions}`)).not.toBeNull();
    expect(await store.player(a)).toMatchObject({ wins: 3, totalGames: 3, currentStreak: 3 });
    const ranking = await store.ranking("recent_activity", { limit: 100, minGames: 0, fromDay: seoulDate(T0) });
    expect(ranking.find((r) => r.user_id === a)).toMatchObject({ recent_games: 3 });
    // Another opponent the same day, and the same pair on the next Seoul day (00:00:30 KST), are rated.
    expect((await store.recordDuel(duel(a, c, "red"))).rated).toBe(true);
    const nextSeoulDay = T0 + 12 * 3_600_000 + 30_000; // 12:00 KST + 12 h 30 s
    expect((await store.recordDuel(duel(a, b, "red", nextSeoulDay))).rated).toBe(true);
    // 23:59:30 KST of the first day is still the first day: unrated.
    expect((await store.recordDuel(duel(a, b, "red", nextSeoulDay - 60_000))).rated).toBe(false);
  });

  test("six duels of one pair recorded at once (concurrent transactions): exactly three are rated", async () => {
    const a = await member();
    const b = await member();
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => store.recordDuel(duel(i % 2 ? a : b, i % 2 ? b : a, "draw"))),
    );
    expect(results.filter((r) => r.rated)).toHaveLength(3);
    expect(results.every((r) => r.recorded)).toBe(true);
    expect(await store.player(a)).toMatchObject({ draws: 3, totalGames: 3 });
    expect(await store.player(b)).toMatchObject({ draws: 3, totalGames: 3 });
  });
});

describe("rankings", () => {
  test("win rate (min games), total games, max win streak and recent activity (Seoul days), members only", async () => {
    const ace = await member("에이스");
    const busy = await member("바쁜이");
    const rookie = await member("신입");
    const from = seoulDate(T0 + 30 * DAY - 6 * DAY);
    const now = T0 + 30 * DAY;
    // ace: 3 wins (one long ago); busy: 5 games, 2 wins; rookie: 1 win.
    await store.recordDuel(duel(ace, busy, "red", T0));
    await store.recordDuel(duel(ace, busy, "red", now - DAY));
    await store.recordDuel(duel(busy, ace, "blue", now));
    await store.recordDuel(duel(busy, rookie, "red", now));
    await store.recordDuel(duel(busy, rookie, "blue", now));
    await store.recordDuel(duel(busy, rookie, "red", now));
    // rookie: 3 games, 1 win.

    const winRate = await store.ranking("win_rate", { limit: 50, minGames: 3, fromDay: from });
    // Only this test's members (the other tests' are in the same database).
    const mine = ["에이스", "바쁜이", "신입"];
    const names = (rows: { username: string }[]) => rows.map((r) => r.username).filter((n) => mine.includes(n));
    // 바쁜이 and 신입 both win 1 in 3: the one with more games first.
    expect(names(winRate)).toEqual(["에이스", "바쁜이", "신입"]);
    const ace3 = winRate.find((r) => r.username === "에이스")!;
    expect(ace3).toMatchObject({ wins: 3, losses: 0, total_games: 3, win_rate: 1, current_streak: 3 });
    expect(ace3.recent_games).toBe(2);
    expect(ace3.recent_wins).toBe(2);
    expect(ace3.recent_win_rate).toBe(1);
    const busy6 = winRate.find((r) => r.username === "바쁜이")!;
    expect(busy6).toMatchObject({ wins: 2, losses: 4, total_games: 6, win_rate: 0.3333, current_streak: 1 });
    expect(names(await store.ranking("win_rate", { limit: 50, minGames: 4, fromDay: from }))).toEqual(["바쁜이"]);

    const totals = await store.ranking("total_games", { limit: 50, minGames: 0, fromDay: from });
    expect(names(totals)).toEqual(["바쁜이", "에이스", "신입"]);
    expect(await store.ranking("total_games", { limit: 1, minGames: 0, fromDay: from })).toHaveLength(1);

    const streaks = await store.ranking("win_streak", { limit: 50, minGames: 0, fromDay: from });
    expect(names(streaks)).toEqual(["에이스", "바쁜이", "신입"]);
    expect(streaks.find((r) => r.username === "에이스")).toMatchObject({ max_win_streak: 3 });

    const recent = await store.ranking("recent_activity", { limit: 50, minGames: 0, fromDay: from });
    expect(names(recent)).toEqual(["바쁜이", "신입", "에이스"]);
    expect(recent.find((r) => r.username === "바쁜이")).toMatchObject({ recent_games: 5, recent_wins: 2 });
    expect(recent.find((r) => r.username === "에이스")).toMatchObject({ recent_games: 2 });
    const tomorrow = await store.ranking("recent_activity", {
      limit: 50,
      minGames: 0,
      fromDay: seoulDate(now + DAY),
    });
    expect(names(tomorrow)).toEqual([]);
  });
});
