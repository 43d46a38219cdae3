import { sql } from "drizzle-orm";
import { startTestServer, type TestServer, type TestUser } from "../../apps/server/testing";
import { runCliOn } from "../../cli/testing";
import * as coreSqlite from "../../db/core/schema";
import * as corePg from "../../db/core/schema.pg";
import { storeDb, tablesFor } from "../../db/store";
import { FakeClock } from "../kernel/clock";
import type { ModuleContext } from "../kernel/define-module";

export type { TestUser };

export const PASSWORD = "admin-pass-2026";

/**
 * A real server on a fake clock (dates of the dashboard without sleeping), plus account helpers. `systemClock`
 * is for tests that share the database with a CLI process, which writes with the real time.
 */
export async function startAdminServer(options: { systemClock?: boolean } = {}) {
  const clock = new FakeClock(Date.UTC(2026, 2, 10, 3, 0, 0));
  const server = await startTestServer(options.systemClock ? {} : { clock });

  async function login(email: string, password = PASSWORD) {
    return server.api("POST", "/api/users/login", {
      body: { email, password },
      headers: { "user-agent": "admin-test-agent" },
    });
  }

  const user = (username: string, options: { admin?: boolean } = {}) =>
    server.createUser(username, { ...options, password: PASSWORD, userAgent: "admin-test-agent" });

  return { server, clock, user, login };
}

/**
 * Runs the `madang` CLI as its own process on the test server's database (its SQLite file or its PostgreSQL
 * database), exactly as an operator's terminal next to a live server.
 */
export { runCliOn };
export const runCli = (server: TestServer, ...args: string[]) => runCliOn(server.ctx.config, ...args);

/** Sets a user's stored figures directly (dashboard and sort tests), on either engine. */
export async function setUserFigures(
  ctx: ModuleContext,
  id: number,
  values: Partial<typeof coreSqlite.users.$inferInsert>,
) {
  const { users } = tablesFor(ctx.database, coreSqlite, corePg);
  await storeDb(ctx.database).update(users).set(values).where(sql`${users.id} = ${id}`);
}

/**
 * Makes every insert into admin_logs fail, as a full disk or a broken table would (a trigger, in each engine's
 * dialect). Returns the repair.
 */
export async function breakAuditLog(ctx: ModuleContext): Promise<() => Promise<void>> {
  const database = ctx.database;
  if (database.dialect === "sqlite") {
    database.sqlite.run(
      "CREATE TRIGGER break_audit BEFORE INSERT ON admin_logs BEGIN SELECT RAISE(ABORT, 'audit log unavailable'); END",
    );
    return async () => {
      database.sqlite.run("DROP TRIGGER break_audit");
    };
  }
  await database.db.execute(
    sql.raw(
      "CREATE FUNCTION break_audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit log unavailable'; END $$",
    ),
  );
  await database.db.execute(
    sql.raw("CREATE TRIGGER break_audit BEFORE INSERT ON admin_logs FOR EACH ROW EXECUTE FUNCTION break_audit()"),
  );
  return async () => {
    await database.db.execute(sql.raw("DROP TRIGGER break_audit ON admin_logs"));
    await database.db.execute(sql.raw("DROP FUNCTION break_audit()"));
  };
}

/** An error's message with those of its causes (drizzle wraps the driver's error as `cause`). */
export function errorText(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error; e instanceof Error; e = e.cause) parts.push(e.message);
  return parts.join("\n");
}
