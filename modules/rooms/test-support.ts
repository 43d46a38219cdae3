import { afterAll, afterEach, beforeAll } from "bun:test";
import { sql } from "drizzle-orm";
import { startTestServer, type TestServer } from "../../apps/server/testing";
import * as coreSqlite from "../../db/core/schema";
import * as corePg from "../../db/core/schema.pg";
import type { PgDb } from "../../db/postgres";
import { storeDb, tablesFor } from "../../db/store";
import { FakeClock } from "../kernel/clock";
import type { ModuleContext } from "../kernel/define-module";
import { closeAndWait, openTestClient, type TestClient } from "../kernel/socket-testing";

/**
 * Test helpers for rooms integration tests. The socket client is the kernel's (`TestClient`: a real socket.io client
 * that records every event it receives), under the name these tests use.
 */
export {
  closeAndWait,
  openTestClient as openClient,
  type Received,
  TestClient as Client,
} from "../kernel/socket-testing";

/**
 * One real server on a FakeClock for a test file (call at the top level): started before its tests, stopped after
 * them; after each test every client `open` gave is disconnected and the reconnect grace periods run out, so no
 * player outlives its test. `onStart` receives the server once it listens.
 */
export function roomsTestServer(onStart: (server: TestServer) => void) {
  const clock = new FakeClock(Date.now());
  const clients: TestClient[] = [];
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ clock });
    onStart(server);
  });
  afterAll(async () => {
    await server.stop();
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) await closeAndWait(server, c);
    clock.advance(10_000);
    clock.advance(10_000);
  });
  /** A connected client, synced, closed after the test. */
  async function open(auth: Record<string, string>) {
    const client = await openTestClient(server, auth);
    clients.push(client);
    await client.sync();
    return client;
  }
  return { clock, open };
}

let counter = 0;
/** Registers and logs in a member; returns the token and id. */
export async function member(server: TestServer, prefix = "선수") {
  counter++;
  const email = `player${counter}-${Date.now()}@example.com`;
  const { id, username, token } = await server.createUser(`${prefix}${counter}`, { email });
  return { id, username, token };
}

// --- stored rows, on either engine ------------------------------------------------------------------------------

/** A member row in the core users table (no login needed), on either engine. */
export async function insertMember(ctx: ModuleContext, username: string): Promise<number> {
  const { users } = tablesFor(ctx.database, coreSqlite, corePg);
  const [row] = await storeDb(ctx.database)
    .insert(users)
    .values({ username, usernameKey: username, email: `${crypto.randomUUID()}@example.com`, passwordHash: "x" })
    .returning({ id: users.id });
  return row!.id;
}

const int = (expression: string) => sql.raw(expression).mapWith(Number);

/**
 * The games module's rows of a room's games, as both engines give them: round, ended (1 once finished, else 0),
 * participants. Read by table name: the rooms module has no business with the games module's schema.
 */
export const storedGames = (ctx: ModuleContext, roomId: number) =>
  storeDb(ctx.database)
    .select({
      round: int("round"),
      ended: int("CASE WHEN ended_at IS NULL THEN 0 ELSE 1 END"),
      participants: int("participants"),
    })
    .from(sql`games_games`)
    .where(sql`mode = 'sentence_race' AND source_id = ${String(roomId)}`)
    .orderBy(sql`round`);

/** The games module's stored results of these players, in the order they were stored: implausible as 1 or 0. */
export const storedResults = (ctx: ModuleContext, playerKeys: string[]) =>
  storeDb(ctx.database)
    .select({
      playerKey: sql<string>`player_key`,
      nickname: sql<string>`nickname`,
      implausible: int("CASE WHEN implausible THEN 1 ELSE 0 END"),
      position: sql<number | null>`position`,
    })
    .from(sql`games_results`)
    .where(
      sql`player_key IN (${sql.join(
        playerKeys.map((key) => sql`${key}`),
        sql`, `,
      )})`,
    )
    .orderBy(sql`id`);

/**
 * Makes the database refuse to finish this room's games (a trigger on the games module's table), so a test sees
 * what players get when the finish cannot be stored; the answer removes it. Triggers are written per engine.
 */
export async function refuseFinishes(ctx: ModuleContext, roomId: number): Promise<() => Promise<void>> {
  const name = `refuse_finish_${roomId}`;
  const database = ctx.database;
  if (database.dialect === "pg") {
    const db = database.db as PgDb;
    await db.execute(
      sql.raw(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS
        $$ BEGIN RAISE EXCEPTION 'finish refused (test)'; END $$`),
    );
    await db.execute(
      sql.raw(`CREATE TRIGGER ${name} BEFORE UPDATE OF ended_at ON games_games FOR EACH ROW
        WHEN (NEW.source_id = '${roomId}') EXECUTE FUNCTION ${name}()`),
    );
    return async () => {
      await db.execute(sql.raw(`DROP TRIGGER ${name} ON games_games`));
      await db.execute(sql.raw(`DROP FUNCTION ${name}()`));
    };
  }
  // bun:sqlite runs DDL synchronously; `exec` is its statement runner.
  database.sqlite.exec(`CREATE TRIGGER ${name} BEFORE UPDATE OF ended_at ON games_games
    WHEN NEW.source_id = '${roomId}' BEGIN SELECT RAISE(ABORT, 'finish refused (test)'); END`);
  return async () => {
    database.sqlite.exec(`DROP TRIGGER ${name}`);
  };
}
