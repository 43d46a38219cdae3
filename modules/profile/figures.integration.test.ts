import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer, type TestUser } from "../../apps/server/testing";
import { FakeClock } from "../kernel/clock";
import { average2 } from "../kernel/typing";
import { figuresTestModules, playMixedHistory } from "./test-support";

/**
 * product-rules "Trust rules": one definition of each player figure (games played, average speed and accuracy,
 * best speed, win streak), the same on the profile, the navbar (`/api/users/me`), the admin pages and the
 * rankings. A member plays a mixed history over real sockets on a fake clock — room races (first places, a round
 * cut short by a fault after their answer was stored, an attempt refused as implausible), guild games and a duel —
 * and every place that shows their figures must show the same ones, those of their counted results (the records).
 * TEST_DATABASE=postgres runs it on PostgreSQL.
 */

let server: TestServer;
let clock: FakeClock;
let ace: TestUser;
let rival: TestUser;
let admin: TestUser;
/** Each counted game of `ace` in the order played: won = first place in a game with ≥ 2 counted results. */
let played: { kind: string; won: boolean }[] = [];

beforeAll(async () => {
  clock = new FakeClock(Date.UTC(2026, 4, 6, 3, 0, 0));
  server = await startTestServer({ clock, modules: figuresTestModules() });
  ace = await server.createUser("기록왕");
  rival = await server.createUser("맞수");
  admin = await server.createUser("운영자", { admin: true });
  played = await playMixedHistory(server, clock, ace, rival);
});
afterAll(async () => {
  for (let i = 0; i < 8; i++) {
    clock.advance(5_000);
    await Bun.sleep(2);
  }
  await server.stop();
});

// --- the checks ------------------------------------------------------------------------------------------------------

type Figures = { games_played: number; avg_wpm: number; avg_accuracy: number };
const typingFigures = (x: Figures) => ({
  games_played: x.games_played,
  avg_wpm: x.avg_wpm,
  avg_accuracy: x.avg_accuracy,
});

/** Games, average speed and average accuracy of these records, by the figures' one rounding (`average2`). */
const figuresOf = (records: { wpm: number; accuracy: number }[]) => ({
  games_played: records.length,
  avg_wpm: average2(
    records.reduce((sum, r) => sum + r.wpm, 0),
    records.length,
  ),
  avg_accuracy: average2(
    records.reduce((sum, r) => sum + r.accuracy, 0),
    records.length,
  ),
});

/** The figures by their definition: the member's counted results (the records), duels apart. */
async function expected() {
  const res = await server.api("GET", `/api/games/results/user/${ace.id}?limit=200`, { token: ace.token });
  const records = res.body as { wpm: number; accuracy: number; mode: string; replay_key: string | null }[];
  let streak = 0;
  let maxStreak = 0;
  for (const game of played) {
    streak = game.won ? streak + 1 : 0;
    maxStreak = Math.max(maxStreak, streak);
  }
  return {
    records,
    figures: figuresOf(records),
    bestWpm: Math.max(...records.map((r) => r.wpm)),
    bestAccuracy: Math.max(...records.map((r) => r.accuracy)),
    streak,
    maxStreak,
  };
}

describe("one definition of each player figure", () => {
  test("the history is what was played: 7 counted games of two typing modes, the implausible one and the duel apart", async () => {
    const { records } = await expected();
    expect(played).toHaveLength(7);
    expect(records).toHaveLength(7);
    expect(records.filter((r) => r.mode === "guild_game")).toHaveLength(2);
    expect(records.every((r) => r.mode === "sentence_race" || r.mode === "guild_game")).toBe(true);
    const duel = await server.api("GET", "/api/duel/stats/me", { token: ace.token });
    expect(duel.body).toMatchObject({ wins: 1, total_games: 1 });
  });

  test("the profile and the navbar (/api/users/me): games, averages and streaks of the counted results", async () => {
    const want = await expected();
    const me = (await server.api("GET", "/api/users/me", { token: ace.token })).body;
    expect(typingFigures(me)).toEqual(want.figures);
    expect({ win_streak: me.win_streak, max_win_streak: me.max_win_streak }).toEqual({
      win_streak: want.streak,
      max_win_streak: want.maxStreak,
    });
  });

  test("the profile's best figures come from the server: GET /api/games/best/user/{id}", async () => {
    const want = await expected();
    const best = await server.api("GET", `/api/games/best/user/${ace.id}`, { token: ace.token });
    expect(best.status).toBe(200);
    expect(best.body).toEqual({ user_id: ace.id, best_wpm: want.bestWpm, best_accuracy: want.bestAccuracy });
    // Another member's: administrators only; no token: 401.
    expect((await server.api("GET", `/api/games/best/user/${ace.id}`, { token: rival.token })).status).toBe(403);
    expect((await server.api("GET", `/api/games/best/user/${ace.id}`, { token: admin.token })).body).toEqual(best.body);
    expect((await server.api("GET", `/api/games/best/user/${ace.id}`)).status).toBe(401);
  });

  test("the admin pages: the user view and the user list show the same figures", async () => {
    const want = await expected();
    const view = await server.api("GET", `/api/admin/users/${ace.id}`, { token: admin.token });
    expect(view.status).toBe(200);
    expect(typingFigures(view.body)).toEqual(want.figures);
    expect(view.body.max_win_streak).toBe(want.maxStreak);
    const list = await server.api("GET", `/api/admin/users?search=${encodeURIComponent(ace.username)}`, {
      token: admin.token,
    });
    const row = list.body.users.find((u: { id: number }) => u.id === ace.id);
    expect(typingFigures(row)).toEqual(want.figures);
  });

  test("the rankings: the all-time board counts the verified results, the medal and level boards the account's", async () => {
    const want = await expected();
    const entryOf = async (path: string) => {
      const res = await server.api("GET", path);
      expect(res.status).toBe(200);
      return (res.body as (Figures & { user_id: number | null })[]).find((e) => e.user_id === ace.id)!;
    };
    // Verified = typed with server-stamped steps, which are the result's replay: the records with a replay_key.
    // (Answers sent without steps are counted and rewarded, never ranked: product-rules "Live race and replays".)
    const ranked = want.records.filter((r) => r.replay_key !== null);
    expect(ranked.length).toBeGreaterThan(0);
    const rankedFigures = figuresOf(ranked);
    for (const sort of ["wpm", "games"]) {
      const entry = await entryOf(`/api/rankings/users?period=all&sort=${sort}&limit=100`);
      expect(typingFigures(entry)).toEqual(rankedFigures);
    }
    expect(typingFigures(await entryOf("/api/rankings/medals?limit=100"))).toEqual(want.figures);
    expect(typingFigures(await entryOf("/api/rankings/levels?limit=100"))).toEqual(want.figures);
  });
});
