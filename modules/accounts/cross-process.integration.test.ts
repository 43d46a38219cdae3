import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../../apps/server/testing";
import { testEngine } from "../../db/testing";
import { createPgTestDatabase } from "../../db/testing-pg";
import { FakeClock } from "../kernel/clock";
import { testRedis } from "../kernel/game-host/redis-testing";
import { SESSION_CLOSED_EVENT, SESSION_END_TEXT } from "../kernel/session-end";
import { openClient } from "../rooms/test-support";

// Two processes of one deployment (one PostgreSQL database, one Redis). Their clocks never move, so the feed's
// regular poll never runs: what reaches the other process's sockets was carried by the Redis nudge.
const onPostgres = testEngine() === "postgres";
let redis: Awaited<ReturnType<typeof testRedis>>;
let database: Awaited<ReturnType<typeof createPgTestDatabase>>;
let here: TestServer;
let there: TestServer;

beforeAll(async () => {
  if (!onPostgres) return;
  redis = await testRedis();
  database = await createPgTestDatabase();
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL: redis.url,
    REDIS_PREFIX: `test:${crypto.randomUUID().slice(0, 8)}:`,
    JWT_SECRET: `shared-${crypto.randomUUID()}-${crypto.randomUUID()}`,
  };
  here = await startTestServer({ env, clock: new FakeClock() });
  there = await startTestServer({ env, clock: new FakeClock(), seed: false });
});
afterAll(async () => {
  await here?.stop();
  await there?.stop();
  await database?.drop();
  await redis?.stop();
});

test.skipIf(!onPostgres)("a rename made on one process reaches the player's socket on the other at once", async () => {
  const admin = await here.createUser("관리자", { admin: true });
  const player = await here.createUser("옛이름");
  const socket = await openClient(there, { token: player.token });
  try {
    const renamed = await here.api("PUT", `/api/admin/users/${player.id}/username`, {
      token: admin.token,
      body: { new_username: "새이름" },
    });
    expect(renamed.status).toBe(200);
    expect(await socket.next("user:stats_update", (u) => u.user_id === player.id, 5000)).toMatchObject({
      username: "새이름",
    });
  } finally {
    socket.close();
  }
});

test.skipIf(!onPostgres)(
  "a forced reset on one process: the player's socket on the other hears why, then closes",
  async () => {
    const admin = await here.createUser("관리자2", { admin: true });
    const player = await here.createUser("재설정");
    const socket = await openClient(there, { token: player.token });
    const closed = new Promise<string>((resolve) => socket.socket.once("disconnect", (reason) => resolve(reason)));
    try {
      const told = socket.next(SESSION_CLOSED_EVENT, () => true, 5000);
      const forced = await here.api("POST", `/api/admin/users/${player.id}/require-password-reset`, {
        token: admin.token,
      });
      expect(forced.status).toBe(200);
      expect(await told).toEqual({
        reason: "password_reset_required",
        detail: SESSION_END_TEXT.password_reset_required,
      });
      await closed;
    } finally {
      socket.close();
    }
  },
);
