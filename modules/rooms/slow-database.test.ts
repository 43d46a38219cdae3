import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { startTestServer, type TestServer } from "../../apps/server/testing";
import type { PgDb } from "../../db/postgres";
import { testEngine } from "../../db/testing";
import { resultsOfUser } from "../games";
import { FakeClock } from "../kernel/clock";
import { sharedScheduler } from "../kernel/game-host";
import { keystrokes } from "../kernel/typing";
import { createRoom, importSentences } from ".";
import { type Client, closeAndWait, member, openClient } from "./test-support";

/**
 * A database that answers slowly never stalls a room: game writes wait in the room's write queue, after the
 * transitions, while the game goes on. PostgreSQL only: there a write waits on the server (here: on a lock another
 * transaction holds) while this process carries on. bun:sqlite is synchronous by design, so a SQLite file locked by
 * another process would block the whole process for its busy timeout; the SQLite run skips this file.
 */
const SENTENCE = "낮말은 새가 듣고 밤말은 쥐가 듣는다";
const typingMs = Math.ceil(keystrokes(SENTENCE) / 10) * 1000;

let server: TestServer;
let clock: FakeClock;
const clients: Client[] = [];

describe.skipIf(testEngine() !== "postgres")("a slow database (PostgreSQL)", () => {
  beforeAll(async () => {
    clock = new FakeClock(Date.now());
    server = await startTestServer({ clock });
  });
  afterAll(async () => {
    for (const c of clients.splice(0)) await closeAndWait(server, c);
    await server.stop();
  });

  async function open(auth: Record<string, string>) {
    const client = await openClient(server, auth);
    clients.push(client);
    await client.sync();
    return client;
  }

  /**
   * Holds a lock on the games module's results table in a transaction of its own (writes wait for it, reads do
   * not) until the answer is called.
   */
  async function holdResultsLock(): Promise<() => Promise<void>> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const holding = server.ctx.database.transaction(async (tx) => {
      await (tx as unknown as PgDb).execute(sql`LOCK TABLE games_results IN EXCLUSIVE MODE`);
      locked();
      await released;
    });
    await isLocked;
    return async () => {
      release();
      await holding;
    };
  }

  /** Game writes waiting on a lock right now (PostgreSQL's own view of its sessions). */
  async function writesWaitingOnLock(): Promise<number> {
    const rows = await (server.ctx.database.db as PgDb).execute(
      sql`SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE 'insert into "games_results"%'`,
    );
    return Number((rows as unknown as { n: number }[])[0]?.n ?? 0);
  }

  /** Waits (bounded) until the result's write has reached the database and waits there. */
  async function untilAWriteWaits() {
    for (let i = 0; i < 200 && (await writesWaitingOnLock()) === 0; i++) await Bun.sleep(10);
    return writesWaitingOnLock();
  }

  test("results (and their acknowledgements) wait for the database while the room plays on: chat, the end, the next round; then all is stored and told", async () => {
    await importSentences(server.ctx, "slowdb", [SENTENCE]);
    const room = await createRoom(server.ctx, { name: "느린 저장소 방", theme: "slowdb" });
    const alice = await member(server, "느림");
    const bob = await member(server, "기다림");
    const a = await open({ token: alice.token });
    const b = await open({ token: bob.token });
    for (const c of [a, b]) {
      c.emit("join_room", { room_id: room.id });
      await c.next("room:joined");
    }
    clock.advance(5_000);
    for (let i = 0; i < 3; i++) clock.advance(1_000);
    const state = await a.next("game:state", (s) => s.status === "in_progress");

    const unlock = await holdResultsLock();
    try {
      clock.advance(typingMs);
      a.emit("game:submission", { room_id: room.id, sentence_id: state.sentence.id, typed_text: SENTENCE });
      // The write of that result is waiting on the lock; the room is not. The answer is acknowledged once stored.
      expect(await untilAWriteWaits()).toBe(1);
      b.emit("chat_message", { room_id: room.id, message: "아직 치는 중이에요" });
      expect(await a.next("chat:message", (m) => m.message_type === "chat")).toMatchObject({
        message: "아직 치는 중이에요",
      });
      clock.advance(1_000);
      b.emit("game:submission", { room_id: room.id, sentence_id: state.sentence.id, typed_text: SENTENCE });
      expect(await a.next("game:state", (s) => s.status === "finished")).toMatchObject({ room_id: room.id });
      // The results (with rewards) wait for the finish's write, which waits behind the results' writes; the
      // room goes on to its next round meanwhile.
      clock.advance(5_000);
      clock.advance(5_000);
      for (let i = 0; i < 3; i++) clock.advance(1_000);
      const next = await a.next("game:state", (s) => s.status === "in_progress");
      expect(next.sentence.id).toBe(state.sentence.id);
      expect(await writesWaitingOnLock()).toBe(1);
      await a.sync();
      expect(a.all("game:results")).toEqual([]);
      expect(a.all("game:personal_feedback")).toEqual([]);
      expect(await resultsOfUser(server.ctx, alice.id)).toEqual([]);
    } finally {
      await unlock();
    }

    expect(await a.next("game:personal_feedback")).toMatchObject({ position: 1 });
    expect(await b.next("game:personal_feedback")).toMatchObject({ position: 2 });
    const results = await a.next("game:results");
    expect(
      results.results.map((r: { user_id: number; rewards: { medal: string } }) => [r.user_id, r.rewards.medal]),
    ).toEqual([
      [alice.id, "gold"],
      [bob.id, "silver"],
    ]);
    await sharedScheduler(server.ctx).drain();
    expect(await resultsOfUser(server.ctx, alice.id)).toEqual([
      expect.objectContaining({ position: 1, medal: "gold" }),
    ]);
    expect(await resultsOfUser(server.ctx, bob.id)).toEqual([
      expect.objectContaining({ position: 2, medal: "silver" }),
    ]);
  });
});
