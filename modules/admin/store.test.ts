import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createContext } from "../../apps/server/context";
import { users as sqliteUsers } from "../../db/core/schema";
import { users as pgUsers } from "../../db/core/schema.pg";
import { storeDb, tablesFor } from "../../db/store";
import { testConfig } from "../../db/testing";
import { DAY_MS, SEOUL_OFFSET_MS } from "../kernel/seoul-time";
import { adminModule } from "./index";
import { type AdminStore, createAdminStore, type UserPage } from "./store";

// The store's queries on this run's engine (TEST_DATABASE=postgres for PostgreSQL): what the console shows must
// not depend on the engine (on PostgreSQL its test databases have a real locale, see db/testing-pg.ts). Only the admin table
// is migrated; users are bare rows of the core users table.
let store: AdminStore;
let cleanup: () => Promise<void>;
const ids: Record<string, number> = {};

// Seoul midnight of 2026-03-10 (UTC 2026-03-09 15:00).
const seoulMidnight = Date.UTC(2026, 2, 10) - SEOUL_OFFSET_MS;

beforeAll(async () => {
  const config = await testConfig();
  const ctx = await createContext(config, [{ ...adminModule, dependsOn: [] }]);
  cleanup = async () => {
    await ctx.database.close();
    await config.cleanup();
  };
  store = createAdminStore(ctx.database);
  const users = tablesFor(ctx.database, { users: sqliteUsers }, { users: pgUsers }).users;
  const people = [
    // name, created (ms), last login
    ["Zed", seoulMidnight - 1, null],
    ["alice", seoulMidnight, seoulMidnight + 5],
    ["Bob_1", seoulMidnight + DAY_MS - 1, seoulMidnight - 10],
    ["가나다", seoulMidnight + DAY_MS, null],
    ["Bob1", seoulMidnight - 10 * DAY_MS, null],
  ] as const;
  for (const [name, created, login] of people) {
    const [row] = await storeDb(ctx.database)
      .insert(users)
      .values({
        username: name,
        usernameKey: name.toLowerCase(),
        email: `${name.toLowerCase()}@Example.com`,
        passwordHash: "-",
        createdAt: new Date(created),
        lastLoginAt: login === null ? null : new Date(login),
        isActive: name !== "Zed",
      })
      .returning({ id: users.id });
    ids[name] = row!.id;
  }
});
afterAll(() => cleanup());

const page = (over: Partial<UserPage> = {}): UserPage => ({
  filter: {},
  sortBy: "created_at",
  sortOrder: "desc",
  limit: 20,
  offset: 0,
  ...over,
});
const names = async (over: Partial<UserPage>) => (await store.listUsers(page(over))).rows.map((r) => r.username);

describe("admin store", () => {
  test("search folds A–Z only, matches username or e-mail, and takes % and _ literally", async () => {
    expect(await names({ filter: { search: "ALICE" } })).toEqual(["alice"]);
    expect(await names({ filter: { search: "example.COM" } })).toHaveLength(5);
    expect(await names({ filter: { search: "b_" } })).toEqual(["Bob_1"]);
    expect(await names({ filter: { search: "%" } })).toEqual([]);
    expect(await names({ filter: { searchUsername: "example" } })).toEqual([]);
    expect(await names({ filter: { searchUsername: "가나" } })).toEqual(["가나다"]);
    expect(await names({ filter: { isActive: false } })).toEqual(["Zed"]);
  });

  test("sorting: username by code point of the key, never-logged-in last both ways, ties by id", async () => {
    // Code point order: "bob1" before "bob_1" ("1" < "_"), where a locale (en-US) puts "bob_1" first.
    expect(await names({ sortBy: "username", sortOrder: "asc" })).toEqual(["alice", "Bob1", "Bob_1", "Zed", "가나다"]);
    expect(await names({ sortBy: "last_login_at", sortOrder: "desc" })).toEqual([
      "alice",
      "Bob_1",
      "Bob1",
      "가나다",
      "Zed",
    ]);
    expect(await names({ sortBy: "last_login_at", sortOrder: "asc" })).toEqual([
      "Bob_1",
      "alice",
      "Zed",
      "가나다",
      "Bob1",
    ]);
    expect(await names({ sortBy: "level", sortOrder: "asc", limit: 2, offset: 1 })).toEqual(["alice", "Bob_1"]);
    const { total } = await store.listUsers(page({ limit: 1 }));
    expect(total).toBe(5);
  });

  test("counts and registrations per Seoul day", async () => {
    expect(await store.countUsers()).toBe(5);
    expect(await store.countUsers({ lastLoginAt: new Date(seoulMidnight) })).toBe(1);
    expect(await store.countUsers({ createdAt: new Date(seoulMidnight) })).toBe(3);
    const days = await store.registrationsPerDay(new Date(seoulMidnight - DAY_MS));
    const day = (at: number) => Math.floor((at + SEOUL_OFFSET_MS) / DAY_MS);
    expect(days.sort((a, b) => a.day - b.day)).toEqual([
      { day: day(seoulMidnight - 1), n: 1 },
      { day: day(seoulMidnight), n: 2 },
      { day: day(seoulMidnight + DAY_MS), n: 1 },
    ]);
  });

  test("writeLog joins the caller's transaction: a throw after it leaves no row", async () => {
    const entry = (action: string) => ({
      adminId: null,
      adminUsername: "cli:test",
      action,
      targetUserId: ids.alice!,
      targetUsername: "alice",
      details: null,
      source: "cli" as const,
      createdAt: new Date(seoulMidnight),
    });
    const attempt = store.transaction(async () => {
      await store.writeLog(entry("rolled_back"));
      throw new Error("change refused");
    });
    await expect(attempt).rejects.toThrow("change refused");
    await store.writeLog(entry("kept"));
    const { rows, total } = await store.listLogs({ limit: 10, offset: 0 });
    expect(rows.map((r) => r.action)).toEqual(["kept"]);
    expect(total).toBe(1);
    expect(await store.countLogs()).toBe(1);
    expect((await store.listLogs({ targetUserId: ids.alice!, action: "kept", limit: 10, offset: 0 })).total).toBe(1);
  });
});
