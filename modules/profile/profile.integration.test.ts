import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer, type TestUser } from "../../apps/server/testing";
import { accountsModule, applyGameRewards } from "../accounts";
import { createGamesModule, finishGame, recordResult } from "../games";
import { systemModule } from "../system";
import { profileModule } from ".";

/**
 * What the /profile page reads after real games, through the calls it makes: `/api/users/me` for the basic info
 * tab and the records call for the other tabs, with their permissions.
 */
let server: TestServer;
let owner: TestUser;
let other: TestUser;
let admin: TestUser;
const kst = (text: string) => Date.parse(`${text.replace(" ", "T")}+09:00`);
const records = (userId: number, token?: string) =>
  server.api("GET", `/api/games/results/user/${userId}?limit=200`, token ? { token } : {});

beforeAll(async () => {
  server = await startTestServer({
    modules: [accountsModule, systemModule, createGamesModule({ serveRoutes: true }), profileModule],
  });
  owner = await server.createUser("프로필주인");
  other = await server.createUser("다른사람");
  admin = await server.createUser("운영자", { admin: true });
  const ctx = server.ctx;
  const race = { mode: "sentence_race" as const, sourceId: "7", sourceName: "속담 방", round: 1 };
  const game = { ...race, startedAt: kst("2026-03-08 23:59:00") };
  const result = (user: TestUser, wpm: number, accuracy: number, position: number, implausible = false) => ({
    userId: user.id,
    playerKey: `u_${user.id}`,
    nickname: user.username,
    wpm,
    accuracy,
    completionTime: 12.34,
    position,
    errorCount: 1,
    implausible,
    createdAt: kst("2026-03-08 23:59:40") + position,
  });
  await recordResult(ctx, game, result(owner, 320, 97.5, 1));
  await recordResult(ctx, game, result(other, 250, 91, 2));
  await finishGame(ctx, game, {
    endedAt: kst("2026-03-09 00:00:10"),
    participants: 2,
    medals: [
      { playerKey: `u_${owner.id}`, medal: "gold" },
      { playerKey: `u_${other.id}`, medal: "silver" },
    ],
  });
  const delta = { experience: 130, coins: 5, points: 40, medal: "gold" as const, won: true, wpm: 320, accuracy: 97.5 };
  await applyGameRewards(ctx.database, { key: "profile-test:1", at: kst("2026-03-09 00:00:10") }, [
    { userId: owner.id, delta },
  ]);
  // A guild game and an implausible attempt of the next round. (Duels are not typing results: never records here.)
  const guildGame = {
    mode: "guild_game" as const,
    sourceId: "7",
    sourceName: "타자 길드",
    round: 1,
    startedAt: kst("2026-03-09 10:00:00"),
  };
  await recordResult(ctx, guildGame, { ...result(owner, 280, 95, 1), createdAt: kst("2026-03-09 10:01:00") });
  await recordResult(
    ctx,
    { ...game, round: 2 },
    { ...result(owner, 1900, 100, 1, true), createdAt: kst("2026-03-09 10:02:00") },
  );
});
afterAll(() => server.stop());

describe("the profile's calls", () => {
  test("/api/users/me carries every field of the basic info tab", async () => {
    const res = await server.api("GET", "/api/users/me", { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: owner.id,
      username: "프로필주인",
      level: 2,
      experience: 30,
      next_level_experience: 200,
      points: 40,
      coins: 5,
      total_earned_points: 40,
      total_spent_points: 0,
      gold_medals: 1,
      silver_medals: 0,
      bronze_medals: 0,
      games_played: 1,
      avg_wpm: 320,
      avg_accuracy: 97.5,
    });
  });

  test("the records: every mode, newest first, counted results only, with the spec's fields", async () => {
    const res = await records(owner.id, owner.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        id: expect.any(Number),
        room_name: "타자 길드",
        wpm: 280,
        accuracy: 95,
        completion_time: 12.34,
        position: 1,
        created_at: "2026-03-09T01:01:00.000Z",
        mode: "guild_game",
        medal: null,
        replay_key: null,
      },
      {
        id: expect.any(Number),
        room_name: "속담 방",
        wpm: 320,
        accuracy: 97.5,
        completion_time: 12.34,
        position: 1,
        created_at: "2026-03-08T14:59:40.001Z",
        mode: "sentence_race",
        medal: "gold",
        replay_key: null,
      },
    ]);
  });

  test("another member's records: 403 with the rule's text; administrators may read them; no token: 401", async () => {
    const refused = await records(owner.id, other.token);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ detail: "다른 사용자의 게임 기록은 관리자만 볼 수 있습니다." });
    const asAdmin = await records(owner.id, admin.token);
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body).toHaveLength(2);
    const anonymous = await records(owner.id);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ detail: "로그인이 필요합니다." });
  });
});
