/**
 * Submissions scored per second at saturation, without sockets: the work the server does per submission and per
 * game, back to back on one core. Each game goes through the rooms module's own code: the sentence race
 * (sentenceRace.move: checks, modules/kernel/typing.ts scoring, positions; finish: standings and rewards) and the
 * writes the room's presenter queues (modules/rooms/records.ts): one games-module `recordResult` transaction per
 * accepted result, then at the finish `finishGame` (medals) and accounts' `applyGameRewards` (each member paid
 * once), on a file database with the server's pragmas — or, with DATABASE_URL set, on a fresh database created on
 * that PostgreSQL server for the run and dropped after it. 20 players per game; run once with guests only (the load
 * test's population) and once with members only (20 reward updates in the finish's rewards transaction, the
 * heaviest case).
 *
 * The process's CPU time does not include PostgreSQL's own (another process): on PostgreSQL the wall rate is the
 * figure to compare, taken with the server on the other core.
 *
 * BENCH_SCORING_ROOMS=N (default 1, at most 50) plays N rooms at once, each its own games and players, as a
 * server's rooms write at the same time: on SQLite their transactions take turns on the one connection; on
 * PostgreSQL they run on the pool's connections side by side.
 *
 * Both wall-clock and CPU-time rates are printed: on a shared machine the CPU-time rate is the one to trust.
 * Bounded: each case runs for BENCH_SCORING_SECONDS (default 5) or 200,000 games, whichever comes first.
 * Prints `BENCH_SCORING {…}`.
 */
import { createContext, seedAll } from "../apps/server/context";
import { modules } from "../apps/server/modules";
import * as coreSqlite from "../db/core/schema";
import * as corePg from "../db/core/schema.pg";
import { storeDb, tablesFor } from "../db/store";
import { tempConfig } from "../db/testing";
import { createPgTestDatabase } from "../db/testing-pg";
import { createRandom } from "../modules/kernel/clock";
import type { GameRef } from "../modules/kernel/game-mode";
import { createRoom } from "../modules/rooms";
import { finishRaceGame, recordRaceResult } from "../modules/rooms/records";
import { type FinishedGame, type RacePlayer, type RaceState, sentenceRace } from "../modules/rooms/sentence-race";
import { loadSentencePool } from "../modules/rooms/service";

const SECONDS = Math.min(60, Number(process.env.BENCH_SCORING_SECONDS ?? 5));
const MAX_GAMES = 200_000;
const PLAYERS = 20;
const ROOMS = Math.max(1, Math.min(50, Number(process.env.BENCH_SCORING_ROOMS ?? 1)));

/** With DATABASE_URL: a fresh database on that server (the test helper's, with its production-like locale). */
async function benchDatabase() {
  const server = process.env.DATABASE_URL;
  if (!server) return null;
  process.env.TEST_POSTGRES_URL = server;
  return createPgTestDatabase();
}

const pg = await benchDatabase();
const config = tempConfig({ LOG_LEVEL: "warn", ...(pg ? { DATABASE_URL: pg.url } : {}) });
const ctx = await createContext(config, modules);
await seedAll(ctx, modules);
const rooms: Awaited<ReturnType<typeof createRoom>>[] = [];
for (let r = 0; r < ROOMS; r++) {
  rooms.push(await createRoom(ctx, { name: `채점 시험 방 ${r + 1}`, theme: "free", maxUsers: PLAYERS }));
}
const pool = await loadSentencePool(ctx.database, "free");
const random = createRandom();

const { users } = tablesFor(ctx.database, coreSqlite, corePg);
const memberIds = (
  await storeDb(ctx.database)
    .insert(users)
    .values(
      Array.from({ length: PLAYERS * ROOMS }, (_, i) => ({
        username: `채점${i}`,
        usernameKey: `채점${i}`,
        email: `scoring-${i}@bench.invalid`,
        passwordHash: "not-a-password-hash",
      })),
    )
    .returning({ id: users.id })
).map((r) => r.id);

/** The players of one room: members are in one room at a time, so each room has its own. */
function playersOf(kind: "guests" | "members", room: number): RacePlayer[] {
  return Array.from({ length: PLAYERS }, (_, p) => {
    const i = room * PLAYERS + p;
    return kind === "members"
      ? { id: `u:${memberIds[i]}`, name: `채점${i}`, userId: memberIds[i], sessionId: `u_${memberIds[i]}` }
      : { id: `g:bench-${i}`, name: `guest_${1000 + i}`, userId: null, sessionId: `g_bench${i}` };
  });
}

function typo(text: string): string {
  const chars = Array.from(text);
  for (let i = 0; i < chars.length; i++) if (random.next() < 0.03 && chars[i] !== " ") chars[i] = "ㅁ";
  return chars.join("");
}

const rounds = rooms.map(() => 0);

/** One whole game: join, countdown, sentence, 20 scored submissions (the last one finishes it), and its writes. */
async function playGame(r: number, players: RacePlayer[], clock: { now: number }): Promise<number> {
  const room = rooms[r]!;
  let state: RaceState = sentenceRace.setup({ roomId: room.id, pool });
  const at = () => ({ now: clock.now, random });
  for (const player of players) state = sentenceRace.onPlayerJoin(state, player, at()).state;
  for (let guard = 0; guard < 8 && state.status !== "in_progress"; guard++) {
    clock.now = sentenceRace.nextTickAt(state) ?? clock.now;
    state = sentenceRace.tick(state, at()).state;
  }
  const text = state.sentence!.text;
  const ref: GameRef = {
    mode: "sentence_race",
    sourceId: room.id,
    sourceName: room.name,
    round: ++rounds[r]!,
    startedAt: state.startedAt!,
  };
  let finished: FinishedGame | null = null;
  let scored = 0;
  clock.now = state.startedAt! + 8_000; // a plausible typing time (the race rejects > 1,500 타/분)
  for (const player of players) {
    clock.now += 200;
    const elapsed = (clock.now - state.startedAt!) / 1000;
    const result = sentenceRace.move(
      state,
      player.id,
      { typedText: typo(text), sentenceId: state.sentence!.id, elapsedTime: elapsed },
      at(),
    );
    if (!result.ok) continue;
    scored++;
    state = result.state;
    for (const effect of result.effects) {
      if (effect.type === "submitted") await recordRaceResult(ctx, ref, effect.result);
      if (effect.type === "finished") finished = effect.game;
    }
  }
  if (finished) await finishRaceGame(ctx, ref, finished);
  clock.now += 60_000;
  return scored;
}

async function measure(kind: "guests" | "members") {
  // Each room has its own game time (its moves are scored against it).
  const clocks = rooms.map(() => ({ now: Date.now() }));
  const players = rooms.map((_, r) => playersOf(kind, r));
  // Warm-up (JIT, page caches, prepared statements on every connection).
  await Promise.all(
    rooms.map(async (_, r) => {
      for (let i = 0; i < 50; i++) await playGame(r, players[r]!, clocks[r]!);
    }),
  );
  let games = 0;
  let submissions = 0;
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  const deadline = start + SECONDS * 1000;
  await Promise.all(
    rooms.map(async (_, r) => {
      while (performance.now() < deadline && games < MAX_GAMES) {
        // Awaited first: `submissions += await …` would read the sum before the await and lose the others' games.
        const scored = await playGame(r, players[r]!, clocks[r]!);
        submissions += scored;
        games++;
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  return {
    games,
    submissions,
    seconds: Math.round(seconds * 100) / 100,
    cpu_seconds: Math.round(cpuSeconds * 100) / 100,
    submissions_per_second: Math.round(submissions / seconds),
    // Per second of this process's own CPU: the same figure, unaffected by other processes on the core.
    submissions_per_cpu_second: Math.round(submissions / cpuSeconds),
    games_per_second: Math.round(games / seconds),
  };
}

const result = {
  engine: ctx.database.dialect === "pg" ? "postgresql" : "sqlite",
  rooms_at_once: ROOMS,
  players_per_game: PLAYERS,
  guests: await measure("guests"),
  members: await measure("members"),
};
console.log(`BENCH_SCORING ${JSON.stringify(result)}`);
await ctx.database.close();
config.cleanup();
await pg?.drop();
process.exit(0);
