import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestServer, type TestServer, type TestUser } from "../../apps/server/testing";
import { runCliWith } from "../../cli/testing";
import { storeDb, tablesFor } from "../../db/store";
import { accountsModule } from "../accounts";
import { createGamesModule } from "../games";
import { systemModule } from "../system";
import { rankingsModule } from ".";
import * as sqliteSchema from "./schema";
import * as pgSchema from "./schema.pg";
import { member, playResult } from "./test-support";

/**
 * `madang rankings rebuild` as an operator runs it: its own process on the server's database, recounting the
 * rankings from games' records after the rankings' own rows were lost.
 */
let server: TestServer;
let player: TestUser;

const madang = (...args: string[]) => runCliWith(server.ctx.config, { REDIS_URL: "" }, ...args);

const ranking = async (period: string) =>
  (await server.api("GET", `/api/rankings/users?period=${period}`)).body.map(
    (e: { username: string; games_played: number }) => [e.username, e.games_played],
  );

beforeAll(async () => {
  server = await startTestServer({
    modules: [accountsModule, systemModule, createGamesModule({ serveRoutes: true }), rankingsModule],
  });
  player = await server.createUser("재계산");
  const now = server.ctx.clock.now();
  // Both at the same moment: the same Seoul day and week whenever the test runs.
  await playResult(server.ctx, member(player), { wpm: 300, accuracy: 95, at: now });
  await playResult(server.ctx, member(player), { wpm: 200, accuracy: 85, at: now });
});
afterAll(() => server.stop());

test("rebuild recounts today, this week and all time from the game records", async () => {
  const { periodStats } = tablesFor(server.ctx.database, sqliteSchema, pgSchema);
  await storeDb(server.ctx.database).delete(periodStats);
  expect(await ranking("daily")).toEqual([]);
  const res = await madang("rankings", "rebuild", "--days", "1", "--json");
  expect(res.code, res.stderr).toBe(0);
  const periods = JSON.parse(res.stdout) as { period: string; players: number }[];
  expect(periods.map((p) => p.period)).toContain("all");
  expect(periods.every((p) => p.players === 1)).toBe(true);
  for (const period of ["daily", "weekly", "all"]) expect(await ranking(period)).toEqual([["재계산", 2]]);
});

test("a bad --days is refused in Korean", async () => {
  const res = await madang("rankings", "rebuild", "--days", "0");
  expect(res.code).not.toBe(0);
  expect(res.stderr).toContain("--days는 1~3660 사이의 정수여야 합니다.");
});
