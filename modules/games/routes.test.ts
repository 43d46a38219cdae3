import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer, type TestUser } from "../../apps/server/testing";
import { accountsModule } from "../accounts";
import { systemModule } from "../system";
import { createGamesModule, finishGame, gamesModule, recordResult } from ".";
import { kst, memberResult, race } from "./test-support";

/**
 * The records route over real HTTP. Rooms still serves the same path until it is ported, so this server runs
 * without rooms and with the games routes mounted.
 */
let server: TestServer;
let owner: TestUser;
let other: TestUser;
let admin: TestUser;
const path = (userId: number, query = "") => `/api/games/results/user/${userId}${query}`;

beforeAll(async () => {
  server = await startTestServer({ modules: [accountsModule, systemModule, createGamesModule({ serveRoutes: true })] });
  owner = await server.createUser("기록주인");
  other = await server.createUser("남");
  admin = await server.createUser("관리자", { admin: true });
  const round1 = race("3", 1, kst("2026-03-05 20:00:00"), "속담 방");
  await recordResult(
    server.ctx,
    round1,
    memberResult(owner.id, "기록주인", {
      wpm: 320,
      accuracy: 97.5,
      completionTime: 12.3,
      position: 1,
      createdAt: kst("2026-03-05 20:00:15"),
    }),
  );
  await recordResult(
    server.ctx,
    round1,
    memberResult(other.id, "남", { wpm: 250, accuracy: 91, position: 2, createdAt: kst("2026-03-05 20:00:16") }),
  );
  await finishGame(server.ctx, round1, {
    endedAt: kst("2026-03-05 20:00:30"),
    participants: 2,
    medals: [
      { playerKey: `u_${owner.id}`, medal: "gold" },
      { playerKey: `u_${other.id}`, medal: "silver" },
    ],
  });
  await recordResult(
    server.ctx,
    race("3", 2, kst("2026-03-05 20:01:00"), "속담 방"),
    memberResult(owner.id, "기록주인", {
      wpm: 280,
      accuracy: 75,
      completionTime: 14,
      createdAt: kst("2026-03-05 20:01:20"),
    }),
  );
});
afterAll(() => server.stop());

describe("GET /api/games/results/user/{userId}", () => {
  test("the member reads their own records, newest first, with mode and medal", async () => {
    const res = await server.api("GET", path(owner.id, "?limit=200"), { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        id: expect.any(Number),
        room_name: "속담 방",
        wpm: 280,
        accuracy: 75,
        completion_time: 14,
        position: null,
        created_at: "2026-03-05T11:01:20.000Z",
        mode: "sentence_race",
        medal: null,
        replay_key: null,
      },
      {
        id: expect.any(Number),
        room_name: "속담 방",
        wpm: 320,
        accuracy: 97.5,
        completion_time: 12.3,
        position: 1,
        created_at: "2026-03-05T11:00:15.000Z",
        mode: "sentence_race",
        medal: "gold",
        replay_key: null,
      },
    ]);
  });

  test("an administrator reads anyone's records", async () => {
    const res = await server.api("GET", path(owner.id), { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.map((r: { wpm: number }) => r.wpm)).toEqual([280, 320]);
  });

  test("another member gets 403 with a Korean detail", async () => {
    const res = await server.api("GET", path(owner.id), { token: other.token });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail: "다른 사용자의 게임 기록은 관리자만 볼 수 있습니다." });
  });

  test("without a token: 401 asking to log in", async () => {
    const res = await server.api("GET", path(owner.id));
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: "로그인이 필요합니다." });
  });

  test("limit outside 1–200 or a user id that is not a number is a 422, never a 500", async () => {
    for (const query of [path(owner.id, "?limit=0"), path(owner.id, "?limit=201"), "/api/games/results/user/abc"]) {
      const res = await server.api("GET", query, { token: admin.token });
      expect(res.status).toBe(422);
    }
    const one = await server.api("GET", path(owner.id, "?limit=1"), { token: owner.token });
    expect(one.body.map((r: { wpm: number }) => r.wpm)).toEqual([280]);
  });

  test("the route is in the OpenAPI document under the games tag, with a Korean summary", async () => {
    const res = await server.api("GET", "/swagger/json");
    const get = res.body.paths["/api/games/results/user/{userId}"].get;
    expect(get.tags).toEqual(["games"]);
    expect(get.summary).toBe("사용자 게임 기록");
  });

  test("the registered module mounts no route yet (rooms serves the path until it is ported)", () => {
    expect(gamesModule.routes).toBeUndefined();
    expect(createGamesModule({ serveRoutes: true }).routes).toBeDefined();
  });
});
