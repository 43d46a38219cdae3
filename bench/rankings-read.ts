/**
 * `bun bench/rankings-read.ts [--engine sqlite|postgres] [--redis] [--results 1000000] [--calls 1000]`: the ranking
 * calls and the records call on a real server over a database seeded with `--results` stored results (default
 * 1,000,000) over 10,000 players (9,000 members, 1,000 guests) and the last 60 Seoul days, 4 players a game,
 * 0.5 % implausible. Seeding is direct (batched inserts into games' tables and the core users, the daily
 * aggregates computed here), then `rebuildRankings` fills the rankings' own figures (and the Redis boards) the way
 * `madang rankings rebuild` does. Prints p50/p99 of each call in process (the service function) and over HTTP,
 * and the in-process p99 as a ratio to a plain indexed SELECT of the same number of rows from games_results
 * (`WHERE user_id = ? ORDER BY created_at DESC LIMIT n`). PostgreSQL and Redis are throwaway servers started here
 * (scripts/test-services.ts). Not a test: figures depend on the machine (bench/README.md "Rankings").
 */
import { parseArgs } from "node:util";
import { desc, eq, type SQL, sql } from "drizzle-orm";
import { startTestServer } from "../apps/server/testing";
import * as coreSqlite from "../db/core/schema";
import * as corePg from "../db/core/schema.pg";
import { inTransaction, storeDb, tablesFor } from "../db/store";
import { resultsOfUser } from "../modules/games";
import * as gamesSqlite from "../modules/games/schema";
import * as gamesPg from "../modules/games/schema.pg";
import type { ModuleContext } from "../modules/kernel/define-module";
import { DAY_MS, seoulDate } from "../modules/kernel/seoul-time";
import { levelsRanking, medalsRanking, rebuildRankings, usersRanking } from "../modules/rankings";
import { startPostgres, startRedis, type TestService } from "../scripts/test-services";

const { values: args } = parseArgs({
  options: {
    engine: { type: "string", default: "sqlite" },
    redis: { type: "boolean", default: false },
    results: { type: "string", default: "1000000" },
    calls: { type: "string", default: "1000" },
  },
});
const RESULTS = Number(args.results);
const CALLS = Number(args.calls);
const MEMBERS = 9_000;
const GUESTS = 1_000;
const DAYS = 60;
const PER_GAME = 4;
const BATCH = 1_000;

const services: TestService[] = [];
const env: Record<string, string> = {};
if (args.engine === "postgres") {
  const pg = await startPostgres();
  services.push(pg);
  env.DATABASE_URL = pg.url;
}
if (args.redis) {
  const redis = await startRedis();
  services.push(redis);
  env.REDIS_URL = redis.url;
}
const server = await startTestServer({ env, seed: false });
const ctx = server.ctx;
const reader = await server.createUser("기록보기");

// --- seeding -----------------------------------------------------------------------------------------------------

const random = (() => {
  let seed = 20261123;
  return () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
})();
const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));

async function insertBatched<T>(table: unknown, rows: T[]) {
  for (let i = 0; i < rows.length; i += BATCH) {
    const batch = rows.slice(i, i + BATCH);
    // biome-ignore lint/suspicious/noExplicitAny: one helper for the bench's three tables
    await inTransaction(ctx.database, (tx) => tx.insert(table as any).values(batch as any) as unknown as Promise<void>);
  }
}

/** Players: index 0 is the reading member, then members, then guests. */
async function seedMembers(): Promise<number[]> {
  const { users } = tablesFor(ctx.database, coreSqlite, corePg);
  const rows = [];
  for (let i = 1; i < MEMBERS; i++) {
    const games = between(10, 300);
    rows.push({
      username: `선수${i}`,
      usernameKey: `선수${i}`,
      email: `player${i}@example.com`,
      passwordHash: "x",
      level: between(1, 60),
      experience: between(0, 5_000),
      goldMedals: between(0, 40),
      silverMedals: between(0, 40),
      bronzeMedals: between(0, 40),
      gamesPlayed: games,
      wpmSum: games * between(150, 650),
      accuracySum: games * between(85, 100),
    });
  }
  await insertBatched(users, rows);
  const ids = await storeDb(ctx.database).select({ id: users.id }).from(users).orderBy(users.id);
  return ids.map((r) => r.id);
}

interface DayAggregate {
  day: string;
  mode: "sentence_race";
  playerKey: string;
  userId: number | null;
  nickname: string;
  games: number;
  wpmSum: number;
  accuracySum: number;
  bestWpm: number;
  goldMedals: number;
  silverMedals: number;
  bronzeMedals: number;
  lastPlayedAt: Date;
}

async function seedResults(memberIds: number[]) {
  const { games, results, dailyStats } = tablesFor(ctx.database, gamesSqlite, gamesPg);
  const players = [
    ...memberIds.map((id) => ({ userId: id as number | null, key: `u_${id}`, name: `선수${id}` })),
    ...Array.from({ length: GUESTS }, (_, i) => ({ userId: null, key: `g_bench${i}`, name: `손님${i}` })),
  ];
  const gameCount = Math.ceil(RESULTS / PER_GAME);
  const start = ctx.clock.now() - (DAYS - 1) * DAY_MS - (ctx.clock.now() % DAY_MS);
  const span = ctx.clock.now() - start - 60_000;
  const aggregates = new Map<string, DayAggregate>();
  const medals = ["gold", "silver", "bronze"] as const;
  let written = 0;
  for (let first = 0; first < gameCount; first += BATCH) {
    const gameRows = [];
    const resultRows = [];
    for (let g = first; g < Math.min(gameCount, first + BATCH); g++) {
      const at = start + Math.floor((g / gameCount) * span);
      gameRows.push({
        id: g + 1,
        mode: "sentence_race" as const,
        sourceId: String(g % 50),
        sourceName: `방 ${g % 50}`,
        round: g + 1,
        startedAt: new Date(at - 30_000),
        endedAt: new Date(at + 5_000),
        participants: PER_GAME,
      });
      const seated = new Set<number>();
      while (seated.size < PER_GAME) seated.add(between(0, players.length - 1));
      let position = 0;
      for (const p of seated) {
        if (written++ >= RESULTS) break;
        position += 1;
        const player = players[p]!;
        const wpm = between(150, 700);
        const accuracy = between(8_500, 10_000) / 100;
        const implausible = random() < 0.005;
        const medal = !implausible && position <= 3 ? medals[position - 1]! : null;
        const createdAt = at + position * 1_000;
        resultRows.push({
          gameId: g + 1,
          userId: player.userId,
          playerKey: player.key,
          nickname: player.name,
          wpm,
          accuracy,
          completionTime: 20 + position,
          position,
          medal,
          errorCount: between(0, 5),
          implausible,
          itemId: null,
          createdAt: new Date(createdAt),
        });
        if (implausible) continue;
        const day = seoulDate(createdAt);
        const key = `${day}|${player.key}`;
        const agg = aggregates.get(key) ?? {
          day,
          mode: "sentence_race" as const,
          playerKey: player.key,
          userId: player.userId,
          nickname: player.name,
          games: 0,
          wpmSum: 0,
          accuracySum: 0,
          bestWpm: 0,
          goldMedals: 0,
          silverMedals: 0,
          bronzeMedals: 0,
          lastPlayedAt: new Date(createdAt),
        };
        agg.games += 1;
        agg.wpmSum += wpm;
        agg.accuracySum += accuracy;
        agg.bestWpm = Math.max(agg.bestWpm, wpm);
        if (medal === "gold") agg.goldMedals += 1;
        if (medal === "silver") agg.silverMedals += 1;
        if (medal === "bronze") agg.bronzeMedals += 1;
        agg.lastPlayedAt = new Date(createdAt);
        aggregates.set(key, agg);
      }
    }
    await insertBatched(games, gameRows);
    await insertBatched(results, resultRows);
  }
  await insertBatched(dailyStats, [...aggregates.values()]);
  return { results: Math.min(written, RESULTS), aggregateRows: aggregates.size };
}

let seeded = performance.now();
const memberIds = [reader.id, ...(await seedMembers()).filter((id) => id !== reader.id)];
const counts = await seedResults(memberIds);
// Fresh planner statistics, as a database that has grown over time would have them.
if (ctx.database.dialect === "sqlite") await storeDb(ctx.database).run(sql`ANALYZE`);
else await (storeDb(ctx.database) as unknown as { execute(query: SQL): Promise<unknown> }).execute(sql`ANALYZE`);
console.log(
  `engine ${args.engine}${args.redis ? " + redis" : ""}: ${counts.results} results, ${counts.aggregateRows} daily ` +
    `aggregate rows, ${memberIds.length} members + ${GUESTS} guests, seeded in ${((performance.now() - seeded) / 1000).toFixed(1)} s`,
);
seeded = performance.now();
const rebuilt = await rebuildRankings(ctx, DAYS);
console.log(`rebuild of ${rebuilt.length} periods: ${((performance.now() - seeded) / 1000).toFixed(1)} s`);

// --- measuring ---------------------------------------------------------------------------------------------------

async function timings(call: () => Promise<unknown>) {
  // The seeding's garbage is collected before each series, so a series does not pay for the one before.
  Bun.gc(true);
  for (let i = 0; i < 20; i++) await call();
  const times: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return { p50: at(0.5), p99: at(0.99) };
}

const { results } = tablesFor(ctx.database, gamesSqlite, gamesPg);
/** The baseline: a plain indexed SELECT of n rows (games_results_user_created_idx). */
const plainSelect = (n: number) => () =>
  storeDb(ctx.database)
    .select()
    .from(results)
    .where(eq(results.userId, memberIds[between(0, memberIds.length - 1)]!))
    .orderBy(desc(results.createdAt))
    .limit(n);

async function http(path: string, token?: string) {
  const res = await fetch(`${server.url}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
  return res.json();
}

const calls: { label: string; rows: number; service: (c: ModuleContext) => Promise<unknown>; path: string }[] = [
  {
    label: "users daily wpm",
    rows: 5,
    service: (c) => usersRanking(c, { limit: 5 }),
    path: "/api/rankings/users?limit=5",
  },
  {
    label: "users daily games",
    rows: 5,
    service: (c) => usersRanking(c, { limit: 5, sort: "games" }),
    path: "/api/rankings/users?limit=5&sort=games",
  },
  {
    label: "users weekly wpm",
    rows: 10,
    service: (c) => usersRanking(c, { limit: 10, period: "weekly" }),
    path: "/api/rankings/users?limit=10&period=weekly",
  },
  {
    label: "users weekly games",
    rows: 10,
    service: (c) => usersRanking(c, { limit: 10, period: "weekly", sort: "games" }),
    path: "/api/rankings/users?limit=10&period=weekly&sort=games",
  },
  {
    label: "users all wpm",
    rows: 10,
    service: (c) => usersRanking(c, { limit: 10, period: "all" }),
    path: "/api/rankings/users?limit=10&period=all",
  },
  { label: "medals", rows: 10, service: (c) => medalsRanking(c, 10), path: "/api/rankings/medals?limit=10" },
  { label: "levels", rows: 10, service: (c) => levelsRanking(c, 10), path: "/api/rankings/levels?limit=10" },
  {
    label: "records (limit 200)",
    rows: 200,
    service: (c) => resultsOfUser(c, reader.id, 200),
    path: `/api/games/results/user/${reader.id}?limit=200`,
  },
];

const fmt = (ms: number) => ms.toFixed(2);
console.log("| call | rows | p50 ms | p99 ms | HTTP p50 ms | HTTP p99 ms | plain SELECT p99 ms | p99 ratio |");
console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
for (const call of calls) {
  const inProcess = await timings(() => call.service(ctx));
  const overHttp = await timings(() => http(call.path, call.label.startsWith("records") ? reader.token : undefined));
  const baseline = await timings(plainSelect(call.rows));
  console.log(
    `| ${call.label} | ${call.rows} | ${fmt(inProcess.p50)} | ${fmt(inProcess.p99)} | ${fmt(overHttp.p50)} | ` +
      `${fmt(overHttp.p99)} | ${fmt(baseline.p99)} | ${(inProcess.p99 / baseline.p99).toFixed(1)} |`,
  );
}

await server.stop();
for (const service of services) await service.stop();
