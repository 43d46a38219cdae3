import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { seedAll } from "../apps/server/context";
import { modules } from "../apps/server/modules";
import { migrateAll } from "./migrate";
import { createTestContext, sqliteOf } from "./testing";

const root = resolve(import.meta.dir, "..");
const cleanups: (() => void)[] = [];
afterAll(() => {
  for (const fn of cleanups) fn();
});

const tableNames = (sqlite: Database) =>
  (sqlite.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map(
    (r) => r.name,
  );

test("every schema owner has its own migrations table, and migrating again changes nothing", async () => {
  const env = await createTestContext();
  cleanups.push(env.cleanup);
  const names = tableNames(sqliteOf(env.ctx).sqlite);
  expect(names).toContain("__migrations_core");
  for (const module of modules) if (module.migrations) expect(names).toContain(`__migrations_${module.name}`);
  const before = sqliteOf(env.ctx).sqlite.query("SELECT count(*) AS n FROM __migrations_core").get();
  migrateAll(sqliteOf(env.ctx).db, modules);
  expect(sqliteOf(env.ctx).sqlite.query("SELECT count(*) AS n FROM __migrations_core").get()).toEqual(before);
});

test("the pragmas are applied and read back", async () => {
  const env = await createTestContext();
  cleanups.push(env.cleanup);
  const read = (p: string) => Object.values(sqliteOf(env.ctx).sqlite.query(`PRAGMA ${p}`).get() as object)[0];
  expect(read("journal_mode")).toBe("wal");
  expect(read("foreign_keys")).toBe(1);
  expect(read("synchronous")).toBe(1);
  expect(read("busy_timeout")).toBe(5000);
});

test("seeding twice gives the same rows", async () => {
  const env = await createTestContext({ seed: true });
  cleanups.push(env.cleanup);
  const counts = () =>
    tableNames(sqliteOf(env.ctx).sqlite)
      .filter((n) => !n.startsWith("__") && !n.startsWith("sqlite_"))
      .map((n) => [n, (sqliteOf(env.ctx).sqlite.query(`SELECT count(*) AS n FROM "${n}"`).get() as { n: number }).n]);
  const first = counts();
  await seedAll(env.ctx, modules);
  expect(counts()).toEqual(first);
});

test("a bundled build still migrates (the SQL is embedded, not read from folders)", async () => {
  const out = mkdtempSync(join(tmpdir(), "tajamadang-bundle-"));
  const data = mkdtempSync(join(tmpdir(), "tajamadang-bundle-data-"));
  cleanups.push(() => rmSync(out, { recursive: true, force: true }));
  cleanups.push(() => rmSync(data, { recursive: true, force: true }));
  const build = await Bun.build({ entrypoints: [join(root, "cli/index.ts")], outdir: out, target: "bun" });
  expect(build.success).toBe(true);
  // Run the bundle from another folder so no relative path into the source tree can work by accident.
  const proc = Bun.spawnSync([process.execPath, join(out, "index.js"), "db", "migrate"], {
    cwd: tmpdir(),
    env: { ...process.env, DATA_DIR: data, LOG_LEVEL: "error" },
  });
  expect(proc.exitCode).toBe(0);
  const sqlite = new Database(join(data, "tajamadang.sqlite"), { readonly: true });
  const names = tableNames(sqlite);
  sqlite.close();
  expect(names).toContain("users");
  expect(names).toContain("accounts_refresh_tokens");
}, 60_000);
