import { afterAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { tempConfig } from "../db/testing";
import { commandWords, databaseName } from "./database-name";
import { runCliOn } from "./testing";

// The CLI as an operator runs it, in its own process, on a SQLite data folder of its own (the file's existence is
// the point here, so always SQLite).
const config = tempConfig();
const sqlite = { dataDir: config.dataDir, databaseUrl: null };
afterAll(() => config.cleanup());

describe("madang names its database and never creates one by accident", () => {
  test("a missing SQLite file: refused in Korean naming the path and DATA_DIR, and not created", async () => {
    const listed = await runCliOn(sqlite, "users", "list");
    expect(listed.code).toBe(1);
    expect(listed.stderr).toContain(`데이터베이스 파일이 없습니다: ${config.databaseFile}`);
    expect(listed.stderr).toContain(`DATA_DIR=${config.dataDir}`);
    expect(listed.stdout).toBe("");
    expect(existsSync(config.databaseFile)).toBe(false);
  });

  test("help on a missing SQLite file shows every command and still creates nothing", async () => {
    for (const args of [["--help"], ["users", "--help"], ["help"]]) {
      const help = await runCliOn(sqlite, ...args);
      expect(help.code, help.stderr).toBe(0);
      expect(help.stdout).toContain("사용법:");
      expect(existsSync(config.databaseFile)).toBe(false);
    }
  });

  test("db migrate creates it; then every command names it (stderr for people, a `database` field in --json)", async () => {
    const migrated = await runCliOn(sqlite, "db", "migrate");
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(existsSync(config.databaseFile)).toBe(true);
    const table = await runCliOn(sqlite, "users", "list");
    expect(table.code, table.stderr).toBe(0);
    expect(table.stderr).toContain(`데이터베이스: SQLite ${config.databaseFile}`);
    const json = await runCliOn(sqlite, "users", "list", "--json", "--as", "someone");
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ database: `SQLite ${config.databaseFile}`, users: [], total: 0 });
  });

  test("a PostgreSQL database is named by host and name, never with its password", () => {
    const name = databaseName({ databaseUrl: "postgres://madang:secret@db.local:5433/tajamadang", databaseFile: "" });
    expect(name).toBe("PostgreSQL db.local:5433/tajamadang");
    expect(commandWords(["--as", "db", "users", "list", "--json"])).toEqual(["users", "list"]);
  });
});
