import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import type { PgDb } from "../../db/postgres";
import { createTestContext, testEngine } from "../../db/testing";
import { FakeClock } from "../kernel/clock";
import { ACCOUNT_CHANGES_POLL_MS, type AccountChange, feedEntries, watchAccountChanges } from "./account-changes";
import { accountsStore } from "./store";

/** The account changes feed: how a server learns what other processes (the CLI, other servers) changed. */
let env: Awaited<ReturnType<typeof createTestContext>>;
const clock = new FakeClock(Date.UTC(2026, 6, 1));
const store = () => accountsStore(env.ctx.database);
let userId: number;

beforeAll(async () => {
  env = await createTestContext({ clock });
  const outcome = await store().createUser({
    username: "피드",
    usernameKey: "피드",
    email: "feed@example.com",
    passwordHash: "not-a-hash",
    at: new Date(clock.now()),
  });
  if (!("row" in outcome)) throw new Error("user not created");
  userId = outcome.row.id;
});
afterAll(() => env.cleanup());

const renamed = (): AccountChange => ({ userId, sessionsClosed: null, identityChanged: true });
const closed = (reason: string): AccountChange => ({ userId, sessionsClosed: reason, identityChanged: false });
const record = (origin: string, change: AccountChange) =>
  store().transaction((tx) => store().recordChangesIn(tx, origin, feedEntries(change), clock.now()));

/** A server's watch of the feed on the fake clock; `poll` runs one poll and waits for its announcements. */
async function watch(origin = "this-server") {
  const heard: AccountChange[] = [];
  const watcher = watchAccountChanges(env.ctx, store(), origin, async (change) => {
    heard.push(change);
  });
  await watcher.settled();
  const poll = async () => {
    clock.advance(ACCOUNT_CHANGES_POLL_MS);
    await watcher.settled();
  };
  return { heard, poll, stop: () => watcher.stop() };
}

describe("the account changes feed", () => {
  test("another process's changes are announced once at the next poll; the server's own are not", async () => {
    const server = await watch();
    await record("cli-run", renamed());
    await record("cli-run", closed("deactivated"));
    await record("this-server", closed("password_reset"));
    await server.poll();
    expect(server.heard).toEqual([renamed(), closed("deactivated")]);
    await server.poll();
    expect(server.heard).toHaveLength(2);
    await server.stop();
  });

  test("changes written before the server started are not announced again", async () => {
    await record("cli-run", renamed());
    const server = await watch();
    await server.poll();
    expect(server.heard).toEqual([]);
    await server.stop();
  });

  test("rows older than a day are pruned when new ones come", async () => {
    const server = await watch();
    await record("cli-run", closed("old"));
    await server.poll();
    clock.stall(24 * 60 * 60 * 1000 + 1);
    await record("cli-run", closed("new"));
    await server.poll();
    const reasons = (await store().changesAfter(0, 100)).map((row) => row.reason);
    expect(reasons).toEqual(["new"]);
    expect(server.heard).toEqual([closed("old"), closed("new")]);
    await server.stop();
  });

  // PostgreSQL only: on SQLite one writer at a time commits rows in id order. PostgreSQL hands out ids at insert
  // time, so without the feed's write lock a change could commit after a later one, and a poll between the two
  // commits would move past it for good.
  test.skipIf(testEngine() !== "postgres")(
    "a change that commits after a later one is still announced (PostgreSQL)",
    async () => {
      const server = await watch();
      let release = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let locked = () => {};
      const isLocked = new Promise<void>((resolve) => {
        locked = resolve;
      });
      const slow = store().transaction(async (tx) => {
        await store().recordChangesIn(tx, "cli-a", feedEntries(closed("first")), clock.now());
        locked();
        await gate;
      });
      // The first writer holds the feed's lock before the second starts (otherwise the second could commit first,
      // and the poll's prune would wait behind the first writer's lock, which waits for the poll: a test deadlock).
      await isLocked;
      const fast = record("cli-b", closed("second"));
      await untilWaitingOrVisible("second");
      await server.poll();
      release();
      await Promise.all([slow, fast]);
      await server.poll();
      expect(server.heard.map((c) => c.sessionsClosed).sort()).toEqual(["first", "second"]);
      await server.stop();
    },
  );
});

/** Until the second writer either waits for a lock or has committed its row: the moment a poll could slip. */
async function untilWaitingOrVisible(reason: string) {
  const pg = env.ctx.database.db as PgDb;
  for (;;) {
    const rows = await pg.execute(
      sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    const waiting = Number((rows as unknown as { n: number }[])[0]?.n ?? 0) > 0;
    const visible = (await store().changesAfter(0, 500)).some((row) => row.reason === reason);
    if (waiting || visible) return;
    await Bun.sleep(5);
  }
}
