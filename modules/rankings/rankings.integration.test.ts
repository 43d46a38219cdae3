import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer, type TestUser } from "../../apps/server/testing";
import { accountsModule } from "../accounts";
import { createGamesModule, newReplayKey } from "../games";
import { FakeClock } from "../kernel/clock";
import { systemModule } from "../system";
import { rankingsModule } from ".";
import { guest, kst, member, playResult, reward } from "./test-support";

/**
 * The user rankings over real HTTP after scripted games on two Seoul days: Sunday 2026-03-08 and Monday
 * 2026-03-09 (a new day AND a new Monday-first week), with the server's clock injected.
 */
let server: TestServer;
let clock: FakeClock;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
/** The replay of carol's implausible run: no ranking may link it (GET /api/replays/{key} hides it from players). */
const implausibleReplay = newReplayKey();
const ranking = async (query: string) => {
  const res = await server.api("GET", `/api/rankings/users${query}`);
  expect(res.status).toBe(200);
  return res.body as {
    rank: number;
    player_key: string;
    games_played: number;
    avg_wpm: number;
    replay_key: string | null;
  }[];
};
const order = (entries: { player_key: string; games_played: number; avg_wpm: number }[]) =>
  entries.map((e) => [e.player_key, e.games_played, e.avg_wpm]);

beforeAll(async () => {
  clock = new FakeClock(kst("2026-03-09 12:00:00"));
  server = await startTestServer({
    clock,
    modules: [accountsModule, systemModule, createGamesModule({ serveRoutes: true }), rankingsModule],
  });
  alice = await server.createUser("앨리스");
  bob = await server.createUser("밥");
  carol = await server.createUser("캐럴");
  const ctx = server.ctx;
  // Sunday (the last day of the week of 03-02).
  await playResult(ctx, member(alice), { wpm: 300, accuracy: 99, at: kst("2026-03-08 23:59:30") });
  await playResult(ctx, member(bob), { wpm: 200, accuracy: 90, at: kst("2026-03-08 10:00:00") });
  await playResult(ctx, guest("abc123", "손님1234"), { wpm: 250, accuracy: 95.5, at: kst("2026-03-08 11:00:00") });
  // Monday: 30 seconds after Seoul midnight is the next day and the next week.
  await playResult(ctx, member(alice), { wpm: 100, accuracy: 80, at: kst("2026-03-09 00:00:30") });
  await playResult(ctx, member(bob), { wpm: 250, accuracy: 91, at: kst("2026-03-09 09:00:00") });
  await playResult(ctx, member(bob), { wpm: 271, accuracy: 92, at: kst("2026-03-09 09:10:00") });
  // Rejected as implausible: stored by games, never counted.
  await playResult(ctx, member(carol), {
    wpm: 2000,
    accuracy: 100,
    at: kst("2026-03-09 09:20:00"),
    implausible: true,
    replay: { key: implausibleReplay, sentence: "가나다", steps: [{ t: 100, text: "가나다" }] },
  });
});
afterAll(() => server.stop());

describe("GET /api/rankings/users", () => {
  test("today (Seoul) by average speed, with every field of the User ranking entry", async () => {
    const res = await server.api("GET", "/api/rankings/users?limit=5");
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        rank: 1,
        user_id: bob.id,
        username: "밥",
        anonymous_nickname: null,
        player_key: `u_${bob.id}`,
        games_played: 2,
        total_games: 2,
        avg_wpm: 260.5,
        avg_accuracy: 91.5,
        gold_medals: 0,
        silver_medals: 0,
        bronze_medals: 0,
        level: 1,
        experience: 0,
        replay_key: null,
      },
      expect.objectContaining({ rank: 2, user_id: alice.id, username: "앨리스", games_played: 1, avg_wpm: 100 }),
    ]);
  });

  test("the week started on Monday: Sunday's games are in last week", async () => {
    expect(order(await ranking("?period=weekly&limit=10"))).toEqual([
      [`u_${bob.id}`, 2, 260.5],
      [`u_${alice.id}`, 1, 100],
    ]);
  });

  test("all time by speed and by games; the guest appears by nickname; implausible results never count", async () => {
    const bySpeed = await ranking("?period=all");
    expect(order(bySpeed)).toEqual([
      ["g_abc123", 1, 250],
      [`u_${bob.id}`, 3, 240.33],
      [`u_${alice.id}`, 2, 200],
    ]);
    expect(bySpeed[0]).toMatchObject({
      user_id: null,
      username: null,
      anonymous_nickname: "손님1234",
      avg_accuracy: 95.5,
      level: 0,
    });
    expect(order(await ranking("?period=all&sort=games"))).toEqual([
      [`u_${bob.id}`, 3, 240.33],
      [`u_${alice.id}`, 2, 200],
      ["g_abc123", 1, 250],
    ]);
    expect(bySpeed.some((e) => e.player_key === `u_${carol.id}`)).toBe(false);
    for (const period of ["daily", "weekly", "all"]) {
      const keys = (await ranking(`?period=${period}`)).map((e) => e.replay_key);
      expect(keys).not.toContain(implausibleReplay);
    }
  });

  test("limit cuts the list; the day before reads Sunday's boards", async () => {
    expect(order(await ranking("?period=all&limit=1"))).toEqual([["g_abc123", 1, 250]]);
    // Back to Sunday evening (nothing is scheduled on this clock: stall moves it without firing timers).
    clock.stall(kst("2026-03-08 18:00:00") - clock.now());
    try {
      expect(order(await ranking("?period=daily"))).toEqual([
        [`u_${alice.id}`, 1, 300],
        ["g_abc123", 1, 250],
        [`u_${bob.id}`, 1, 200],
      ]);
      expect(order(await ranking("?period=weekly&sort=games"))).toEqual([
        [`u_${alice.id}`, 1, 300],
        ["g_abc123", 1, 250],
        [`u_${bob.id}`, 1, 200],
      ]);
    } finally {
      clock.stall(kst("2026-03-09 12:00:00") - clock.now());
    }
  });

  test("ties: equal speed and games come in player key order (code point), on both sorts", async () => {
    const tuesday = kst("2026-03-10 15:00:00");
    clock.stall(tuesday - clock.now());
    try {
      for (const [key, name] of [
        ["u9", "나중"],
        ["A1", "대문자"],
        ["a1", "소문자"],
      ] as const) {
        await playResult(server.ctx, guest(key, name), { wpm: 300, accuracy: 90, at: tuesday - 60_000 });
      }
      await playResult(server.ctx, member(alice), { wpm: 300, accuracy: 90, at: tuesday - 30_000 });
      const expected = [
        ["g_A1", 1, 300],
        ["g_a1", 1, 300],
        ["g_u9", 1, 300],
        [`u_${alice.id}`, 1, 300],
      ];
      expect(order(await ranking("?period=daily"))).toEqual(expected);
      expect(order(await ranking("?period=daily&sort=games"))).toEqual(expected);
    } finally {
      clock.stall(kst("2026-03-09 12:00:00") - clock.now());
    }
  });

  test("bad query values get 422 with Korean messages", async () => {
    for (const query of ["?limit=0", "?limit=101", "?limit=abc", "?period=monthly", "?sort=accuracy"]) {
      const res = await server.api("GET", `/api/rankings/users${query}`);
      expect(res.status).toBe(422);
      expect(JSON.stringify(res.body)).toMatch(/[가-힣]/);
    }
  });
});

describe("GET /api/rankings/medals and /levels", () => {
  test("medal score 3/2/1, then gold; members without medals are left out", async () => {
    await reward(server, alice.id, { medal: "silver" });
    await reward(server, alice.id, { medal: "silver" });
    await reward(server, bob.id, { medal: "gold" });
    await reward(server, bob.id, { medal: "bronze" });
    const res = await server.api("GET", "/api/rankings/medals?limit=10");
    expect(res.status).toBe(200);
    // alice 2 + 2 = 4, bob 3 + 1 = 4: equal scores, bob has the gold.
    expect(res.body.map((e: { username: string }) => e.username)).toEqual(["밥", "앨리스"]);
    expect(res.body[0]).toMatchObject({ rank: 1, gold_medals: 1, silver_medals: 0, bronze_medals: 1 });
  });

  test("level, then experience", async () => {
    await reward(server, carol.id, { experience: 150 }); // level 2, 50 experience
    await reward(server, bob.id, { experience: 60 });
    const res = await server.api("GET", "/api/rankings/levels?limit=2");
    expect(res.status).toBe(200);
    expect(
      res.body.map((e: { username: string; level: number; experience: number }) => [e.username, e.level, e.experience]),
    ).toEqual([
      ["캐럴", 2, 50],
      ["밥", 1, 60],
    ]);
    expect((await server.api("GET", "/api/rankings/levels?limit=500")).status).toBe(422);
  });
});
