import { sql } from "drizzle-orm";
import { io as connect, type Socket } from "socket.io-client";
import type { TestServer } from "../../apps/server/testing";
import * as coreSqlite from "../../db/core/schema";
import * as corePg from "../../db/core/schema.pg";
import type { PgDb } from "../../db/postgres";
import { storeDb, tablesFor } from "../../db/store";
import type { ModuleContext } from "../kernel/define-module";

/** Test helpers for rooms integration tests: real socket.io clients that record every event they receive. */
export interface Received {
  event: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever payload the event carries
  payload: any;
}

export class Client {
  readonly log: Received[] = [];
  private waiters: { match: (r: Received) => boolean; resolve: (r: Received) => void }[] = [];
  /** Per event name: events before this index have been consumed by `next`. */
  private cursors = new Map<string, number>();

  constructor(readonly socket: Socket) {
    socket.onAny((event: string, payload: unknown) => {
      const received = { event, payload };
      this.log.push(received);
      for (const waiter of [...this.waiters]) {
        if (waiter.match(received)) {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          waiter.resolve(received);
        }
      }
    });
  }

  emit(event: string, ...args: unknown[]) {
    this.socket.emit(event, ...args);
  }

  /**
   * The next event of that name (after the previous `next` of that name) that matches; waits for it when it has
   * not arrived yet.
   * Rejects after a generous timeout with what did arrive, so a failing test says why.
   */
  // biome-ignore lint/suspicious/noExplicitAny: see Received
  next(event: string, match: (payload: any) => boolean = () => true, timeoutMs = 3000): Promise<any> {
    const test = (r: Received) => r.event === event && match(r.payload);
    const from = this.cursors.get(event) ?? 0;
    for (let i = from; i < this.log.length; i++) {
      if (test(this.log[i])) {
        this.cursors.set(event, i + 1);
        return Promise.resolve(this.log[i].payload);
      }
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w.resolve !== done);
        const seen = this.log.slice(from).map((r) => r.event);
        reject(new Error(`no ${event} within ${timeoutMs} ms; received since: ${seen.join(", ")}`));
      }, timeoutMs);
      const done = (r: Received) => {
        clearTimeout(timer);
        this.cursors.set(event, this.log.indexOf(r) + 1);
        resolve(r.payload);
      };
      this.waiters.push({ match: test, resolve: done });
    });
  }

  /** Every received event of that name so far. */
  all(event: string) {
    return this.log.filter((r) => r.event === event).map((r) => r.payload);
  }

  /** A round trip through the server: everything the server sent before has arrived when this resolves. */
  async sync() {
    const stamp = Math.random();
    this.emit("ping", { timestamp: stamp });
    await this.next("pong", (p) => p.timestamp === stamp);
  }

  close() {
    this.socket.disconnect();
  }
}

export async function openClient(server: Pick<TestServer, "url">, auth: Record<string, string>): Promise<Client> {
  const socket = connect(server.url, {
    path: "/socket.io/",
    transports: ["websocket"],
    reconnection: false,
    forceNew: true,
    auth,
  });
  const client = new Client(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", reject);
  });
  return client;
}

let counter = 0;
/** Registers and logs in a member; returns the token and id. */
export async function member(server: TestServer, prefix = "선수") {
  counter++;
  const email = `player${counter}-${Date.now()}@example.com`;
  const { id, username, token } = await server.createUser(`${prefix}${counter}`, { email });
  return { id, username, token };
}

/** Closes a client and waits until the server has handled the disconnect (no sleeping on a guess). */
export async function closeAndWait(server: TestServer, client: Client) {
  const id = client.socket.id;
  client.close();
  for (let i = 0; i < 400 && id && server.io.of("/").sockets.has(id); i++) await Bun.sleep(5);
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
