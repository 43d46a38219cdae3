/**
 * `bun bench/games-daily-stats.ts`: the period reads rankings will make, on a temp database with about
 * 1,000,000 results folded into daily aggregates (365 days × 2,000 players a day, 1–2 games each). Prints p50/p99
 * of 200 calls per read. Not a test: figures depend on the machine (README "Figures").
 */
import { createTestContext, sqliteOf } from "../db/testing";
import { type DailyStatsQuery, dailyStats } from "../modules/games";
import { seoulDate } from "../modules/kernel/seoul-time";

const DAYS = 365;
const PLAYERS_PER_DAY = 2000;
const PLAYERS = 20_000;
const START = Date.UTC(2025, 0, 1);

const { ctx, cleanup } = await createTestContext();
const insert = sqliteOf(ctx).sqlite.prepare(
  "INSERT INTO games_daily_stats (day, mode, player_key, user_id, nickname, games, wpm_sum, accuracy_sum, best_wpm," +
    " gold_medals, silver_medals, bronze_medals, last_played_at) VALUES (?, 'sentence_race', ?, NULL, ?, ?, ?, ?, ?, 0, 0, 1, ?)",
);
let results = 0;
sqliteOf(ctx).sqlite.transaction(() => {
  for (let d = 0; d < DAYS; d++) {
    const at = START + d * 86_400_000;
    const players = new Set<number>();
    while (players.size < PLAYERS_PER_DAY) players.add(Math.floor(Math.random() * PLAYERS));
    for (const p of players) {
      const games = 1 + Math.floor(Math.random() * 2);
      results += games;
      insert.run(seoulDate(at), `g_${p}`, `guest_${p}`, games, games * 300, games * 95, 400, at);
    }
  }
})();
sqliteOf(ctx).sqlite.run("ANALYZE");
console.log(`${results} results in ${DAYS * PLAYERS_PER_DAY} aggregate rows`);

async function measure(label: string, query: DailyStatsQuery, calls = 200) {
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    await dailyStats(ctx, query);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(2);
  console.log(`${label}: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`);
}

const lastDay = seoulDate(START + (DAYS - 1) * 86_400_000);
const weekStart = seoulDate(START + (DAYS - 7) * 86_400_000);
await measure("day, speed top 5", { fromDay: lastDay, toDay: lastDay, sort: "wpm", limit: 5 });
await measure("day, games top 5", { fromDay: lastDay, toDay: lastDay, mode: "sentence_race", sort: "games", limit: 5 });
await measure("week, speed top 10", { fromDay: weekStart, toDay: lastDay, sort: "wpm", limit: 10 });
await measure("week, medals top 10", { fromDay: weekStart, toDay: lastDay, sort: "medals", limit: 10 });
await measure("all days, speed top 10", { fromDay: "2000-01-01", toDay: lastDay, sort: "wpm", limit: 10 }, 10);
cleanup();
