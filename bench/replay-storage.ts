/**
 * `bun bench/replay-storage.ts [--sample 20000] [--engine sqlite|postgres|both]`: what replays cost to keep
 * (issue 26 "Figures": bytes per stored replay, the replay table at 1,000,000 results).
 *
 * 1. The median seeded sentence (by characters, over every file of modules/rooms/data/sentences) typed through IME
 *    composition at a human pace: each syllable built over its jamo (ㅂ, 부, 북: one keystroke each), 200 ms a
 *    keystroke on average (±40 %, about 300 타/분), a longer pause after a space, a wrong syllable then a
 *    backspace 3 % of the time, and the page's pace of sending (a change at most every 100 ms, the last one always
 *    sent). Prints its steps, the encoded form's bytes (kernel race-steps `encodeSteps`) and the JSON the API
 *    would send.
 * 2. A realistic sample: `--sample` results (default 20,000) of random seeded sentences typed the same way, written
 *    through games' `recordResult` (the real write path: result and replay in one transaction) into a real SQLite
 *    file and a throwaway PostgreSQL (scripts/test-services.ts). The replay table's size on disk is measured —
 *    SQLite: the file's pages with the sample minus after `DELETE FROM games_replays` and VACUUM (table and its two
 *    indexes); PostgreSQL: `pg_total_relation_size` (table, TOAST and indexes) after VACUUM — and extrapolated
 *    linearly to 1,000,000 replays (a B-tree's size grows with its rows; the per-row figure of a 20,000-row sample
 *    already carries the page overhead of a full table). Not a test: figures depend on the data (README "Replays").
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { closeContext, createContext } from "../apps/server/context";
import { modules } from "../apps/server/modules";
import type { PgDb } from "../db/postgres";
import { sqliteOf, tempConfig } from "../db/testing";
import { compositionStages } from "../e2e/helpers";
import { newReplayKey, recordResult } from "../modules/games";
import type { ModuleContext } from "../modules/kernel/define-module";
import { decodeSteps, encodeSteps, type RaceStep } from "../modules/kernel/race-steps";
import { readSentenceFile } from "../modules/rooms/sentence-file";
import { startPostgres } from "../scripts/test-services";

const { values: args } = parseArgs({
  options: {
    sample: { type: "string", default: "20000" },
    engine: { type: "string", default: "both" },
  },
});
const SAMPLE = Number(args.sample);
const TARGET = 1_000_000;

// --- the sentences and the typing -------------------------------------------------------------------------------

const dir = join(import.meta.dir, "../modules/rooms/data/sentences");
const sentences = readdirSync(dir)
  .filter((file) => file.endsWith(".json"))
  .flatMap((file) => readSentenceFile(join(dir, file)))
  .filter((s): s is string => typeof s === "string");
const byLength = [...sentences].sort((a, b) => [...a].length - [...b].length);
const median = byLength[Math.floor(byLength.length / 2)];

let seed = 26;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};

/** The answer box after each keystroke of `text` typed through an IME, with the time of each (ms since start). */
function keystrokesOf(text: string): RaceStep[] {
  const out: RaceStep[] = [];
  let t = 600 + random() * 600; // reading the sentence
  let box = "";
  const key = (next: string, pause = 1) => {
    t += 200 * (0.6 + random() * 0.8) * pause;
    box = next;
    out.push({ t: Math.round(t), text: box });
  };
  for (const char of text) {
    if (random() < 0.03) {
      key(`${box}${compositionStages("갑")[0]}`); // a wrong jamo, then its correction
      key(box.slice(0, -1));
    }
    const before = box;
    for (const stage of compositionStages(char)) key(`${before}${stage}`, char === " " ? 1.6 : 1);
  }
  return out;
}

/** What the server receives: a change at most every 100 ms (the latest text), the last change always sent. */
function sentSteps(keys: RaceStep[]): RaceStep[] {
  const steps: RaceStep[] = [];
  let lastSent = Number.NEGATIVE_INFINITY;
  let pending: RaceStep | null = null;
  for (const k of keys) {
    if (pending && pending.t < k.t) {
      steps.push(pending);
      lastSent = pending.t;
      pending = null;
    }
    if (k.t - lastSent >= 100) {
      steps.push(k);
      lastSent = k.t;
    } else pending = { t: lastSent + 100, text: k.text };
  }
  if (pending) steps.push(pending);
  return steps;
}

const typed = (text: string) => sentSteps(keystrokesOf(text));
const utf8 = (text: string) => Buffer.byteLength(text, "utf8");

const medianSteps = typed(median);
const encoded = encodeSteps(medianSteps);
if (JSON.stringify(decodeSteps(encoded)) !== JSON.stringify(medianSteps)) throw new Error("encode/decode differ");
console.log(`median seeded sentence (${[...median].length} characters of ${sentences.length}): ${median}`);
console.log(
  `  ${medianSteps.length} steps over ${(medianSteps.at(-1)!.t / 1000).toFixed(1)} s; encoded ${utf8(encoded)} B` +
    ` (as the API's JSON: ${utf8(JSON.stringify(medianSteps))} B); with the sentence kept beside it: ` +
    `${utf8(encoded) + utf8(median)} B of text per replay`,
);

// --- the sample in a real database ---------------------------------------------------------------------------------

async function sample(ctx: ModuleContext) {
  let encodedBytes = 0;
  const started = performance.now();
  for (let i = 0; i < SAMPLE; i++) {
    const sentence = sentences[Math.floor(random() * sentences.length)];
    const steps = typed(sentence);
    encodedBytes += utf8(encodeSteps(steps)) + utf8(sentence);
    const at = Date.UTC(2026, 5, 1) + i * 1_000;
    const userId = null;
    await recordResult(
      ctx,
      { mode: "sentence_race", sourceId: String(1 + (i % 50)), sourceName: "벤치 방", round: i + 1, startedAt: at },
      {
        userId,
        playerKey: `g_bench${i % 5_000}`,
        nickname: "벤치",
        wpm: 300,
        accuracy: 98,
        completionTime: steps.at(-1)!.t / 1000,
        position: 1,
        errorCount: 0,
        verified: true,
        createdAt: at + steps.at(-1)!.t,
        replay: { key: newReplayKey(), sentence, steps },
      },
    );
  }
  return { encodedBytes, seconds: (performance.now() - started) / 1000 };
}

function report(engine: string, bytes: number, written: { encodedBytes: number; seconds: number }) {
  const perRow = bytes / SAMPLE;
  console.log(
    `${engine}: ${SAMPLE} replays written in ${written.seconds.toFixed(1)} s; text ${(written.encodedBytes / SAMPLE).toFixed(0)} B a replay;` +
      ` table + indexes ${(bytes / 1_048_576).toFixed(1)} MiB = ${perRow.toFixed(0)} B a replay →` +
      ` ${((perRow * TARGET) / 1_073_741_824).toFixed(2)} GiB at ${TARGET.toLocaleString("en")} replays`,
  );
}

async function onSqlite() {
  const config = tempConfig();
  const ctx = await createContext(config, modules);
  try {
    const written = await sample(ctx);
    const { sqlite } = sqliteOf(ctx);
    const size = () => {
      sqlite.run("VACUUM");
      const pages = sqlite.query("PRAGMA page_count").get() as { page_count: number };
      const pageSize = sqlite.query("PRAGMA page_size").get() as { page_size: number };
      return pages.page_count * pageSize.page_size;
    };
    const full = size();
    sqlite.run("DELETE FROM games_replays");
    report("SQLite", full - size(), written);
  } finally {
    await closeContext(ctx);
    config.cleanup();
  }
}

async function onPostgres() {
  const pg = await startPostgres();
  const config = tempConfig({ DATABASE_URL: pg.url });
  const ctx = await createContext(config, modules);
  try {
    const written = await sample(ctx);
    const db = ctx.database.db as PgDb;
    await db.execute(sql`VACUUM ANALYZE games_replays`);
    const [row] = await db.execute<{ bytes: string }>(sql`SELECT pg_total_relation_size('games_replays') AS bytes`);
    report("PostgreSQL", Number(row!.bytes), written);
  } finally {
    await closeContext(ctx);
    config.cleanup();
    await pg.stop();
  }
}

if (args.engine !== "postgres") await onSqlite();
if (args.engine !== "sqlite") await onPostgres();
