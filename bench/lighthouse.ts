/**
 * Lighthouse (npm `lighthouse`, pinned devDependency; its default mobile preset: Moto G Power, simulated slow 4G,
 * 4× CPU slowdown) against a production server this script starts: `apps/server/index.ts` with NODE_ENV=production,
 * a temporary DATA_DIR, seeded (so `/rooms/1` exists), serving the `dist/web` build. Debian Chromium from
 * CHROMIUM_PATH or /usr/bin/chromium: no browser is ever downloaded.
 *
 *   bun bench/lighthouse.ts                      # build the web app, 3 runs per page, median by performance
 *   bun bench/lighthouse.ts --runs 5 --no-build  # measure the existing dist/web
 *   bun bench/lighthouse.ts --pages /,/login --json bench/results/lh.json --reports bench/results/lh
 *
 * Lighthouse times the page's real main-thread work (then simulates a slow phone and network from it), so other
 * processes on the machine lower the scores: before each run the script waits (at most --quiet-wait seconds,
 * 300 by default) until other processes use under a fifth of a core, and prints the busiest figure it saw.
 *
 * Prints, per page, the four category scores and LCP / TBT / FCP of the run with the median performance score,
 * and the range of the performance score over the runs. Everything listens on 127.0.0.1 only.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import lighthouse from "lighthouse";

const ROOT = join(import.meta.dir, "..");
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
  "--disable-dev-shm-usage",
  "--remote-debugging-port=0",
  "--remote-debugging-address=127.0.0.1",
];

interface Options {
  runs: number;
  pages: string[];
  build: boolean;
  /** Longest wait, in seconds, for a quiet machine before each run (0: never wait). */
  quietWaitS: number;
  json?: string;
  /** Folder for every run's full Lighthouse report (JSON), to see what a score is made of. */
  reports?: string;
}

function parseArgs(argv: string[]): Options {
  const options: Options = { runs: 3, pages: ["/", "/board", "/rooms/1"], build: true, quietWaitS: 300 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--runs") options.runs = Math.max(1, Number(argv[++i]) || 1);
    else if (arg === "--pages") options.pages = argv[++i].split(",");
    else if (arg === "--no-build") options.build = false;
    else if (arg === "--quiet-wait") options.quietWaitS = Number(argv[++i]) || 0;
    else if (arg === "--json") options.json = argv[++i];
    else if (arg === "--reports") options.reports = argv[++i];
    else throw new Error(`unknown option ${arg}`);
  }
  return options;
}

interface Started {
  url: string;
  stop(): Promise<void>;
}

/** Reads `stream` line by line until `match` returns a value; later output is drained and dropped. */
async function waitForLine<T>(stream: ReadableStream<Uint8Array>, match: (line: string) => T | null, what: string) {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const deadline = setTimeout(() => void reader.cancel(), 120_000);
  try {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) throw new Error(`${what} did not start:\n${buffer.slice(-2000)}`);
      buffer += decoder.decode(chunk.value, { stream: true });
      for (const line of buffer.split("\n")) {
        const found = match(line);
        if (found !== null) {
          void (async () => {
            while (!(await reader.read().catch(() => ({ done: true }))).done) {}
          })();
          return found;
        }
      }
    }
  } finally {
    clearTimeout(deadline);
  }
}

async function stopProcess(proc: ReturnType<typeof Bun.spawn>) {
  proc.kill("SIGTERM");
  const exited = await Promise.race([proc.exited.then(() => true), Bun.sleep(15_000).then(() => false)]);
  if (!exited) proc.kill("SIGKILL");
  await proc.exited;
}

/** The real server, production settings, a fresh seeded database; its URL comes from its "server listening" log. */
async function startProductionServer(): Promise<Started> {
  const dataDir = mkdtempSync(join(tmpdir(), "tajamadang-lighthouse-"));
  const proc = Bun.spawn([process.execPath, join(ROOT, "apps/server/index.ts")], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", NODE_ENV: "production", LOG_LEVEL: "info" },
    stdout: "ignore",
    stderr: "pipe",
  });
  const url = await waitForLine(
    proc.stderr,
    (line) => (line.includes('"server listening"') ? (JSON.parse(line).url as string) : null),
    "server",
  );
  return {
    url,
    async stop() {
      await stopProcess(proc);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Debian Chromium with a DevTools port of its own choosing (read from its "DevTools listening on" line). */
async function startChromium() {
  const profile = mkdtempSync(join(tmpdir(), "tajamadang-lighthouse-chromium-"));
  const executable = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  const proc = Bun.spawn([executable, ...CHROMIUM_FLAGS, `--user-data-dir=${profile}`, "about:blank"], {
    stdout: "ignore",
    stderr: "pipe",
  });
  const port = await waitForLine(
    proc.stderr,
    (line) => {
      const match = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(line);
      return match ? Number(match[1]) : null;
    },
    "chromium",
  );
  return {
    port,
    async stop() {
      await stopProcess(proc);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

const CLOCK_TICKS = 100;
const QUIET_CORES = 0.2;

/** Busy time of the whole machine (all cores) in seconds, from /proc/stat. */
function machineBusySeconds(): number {
  const line = readFileSync("/proc/stat", "utf8").split("\n")[0]; // "cpu  user nice system idle iowait irq softirq steal"
  const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
  return (user + nice + system + irq + softirq + steal) / CLOCK_TICKS;
}

/** Waits (bounded) until the machine is nearly idle; returns the cores other processes used in the last second. */
async function waitForQuiet(maxWaitS: number): Promise<number> {
  const deadline = performance.now() + maxWaitS * 1000;
  for (;;) {
    const before = machineBusySeconds();
    await Bun.sleep(1000);
    const busy = machineBusySeconds() - before;
    if (busy < QUIET_CORES || performance.now() > deadline) return busy;
  }
}

interface PageRun {
  scores: Record<(typeof CATEGORIES)[number], number>;
  lcpMs: number;
  tbtMs: number;
  fcpMs: number;
  /** Bytes over the wire for the whole load (what the compression and splitting change). */
  transferBytes: number;
  /** Cores other processes used in the second before the run. */
  machineBusy: number;
  /** Titles of the failed audits outside performance (what an accessibility or best-practices score lost). */
  failed: string[];
}

/** Lighthouse sometimes fails to record a trace (NO_NAVSTART, NO_FCP on a busy machine): such a run is repeated. */
async function runLighthouse(url: string, port: number, quietWaitS: number, attempts = 3): Promise<PageRun> {
  for (let attempt = 1; ; attempt++) {
    try {
      const machineBusy = await waitForQuiet(quietWaitS);
      return { ...(await runLighthouseOnce(url, port)), machineBusy };
    } catch (error) {
      if (attempt >= attempts) throw error;
      console.error(`  ${url}: ${String(error)}; again`);
    }
  }
}

let reportsDir: string | undefined;
let reportCount = 0;

/** Keeps the run's whole report when --reports names a folder. */
function saveReport(url: string, lhr: Lhr) {
  if (!reportsDir) return;
  mkdirSync(reportsDir, { recursive: true });
  const name = `${String(++reportCount).padStart(2, "0")}-${new URL(url).pathname.replace(/\W+/g, "_")}.json`;
  writeFileSync(join(reportsDir, name), JSON.stringify(lhr));
}

async function runLighthouseOnce(url: string, port: number): Promise<Omit<PageRun, "machineBusy">> {
  const result = await lighthouse(url, {
    port,
    output: "json",
    logLevel: "error",
    onlyCategories: [...CATEGORIES],
  });
  if (!result) throw new Error(`lighthouse gave no result for ${url}`);
  const { categories, audits } = result.lhr;
  if (result.lhr.runtimeError) throw new Error(`${url}: ${result.lhr.runtimeError.message}`);
  saveReport(url, result.lhr);
  const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
  const numeric = (id: string) => audits[id]?.numericValue ?? Number.NaN;
  return {
    scores: {
      performance: score("performance"),
      accessibility: score("accessibility"),
      "best-practices": score("best-practices"),
      seo: score("seo"),
    },
    lcpMs: numeric("largest-contentful-paint"),
    tbtMs: numeric("total-blocking-time"),
    fcpMs: numeric("first-contentful-paint"),
    transferBytes: numeric("total-byte-weight"),
    failed: failedAudits(result.lhr),
  };
}

type Lhr = NonNullable<Awaited<ReturnType<typeof lighthouse>>>["lhr"];

function failedAudits(lhr: Lhr): string[] {
  const failed = new Set<string>();
  for (const id of CATEGORIES.slice(1)) {
    for (const ref of lhr.categories[id]?.auditRefs ?? []) {
      const audit = lhr.audits[ref.id];
      if (ref.weight > 0 && audit?.score !== null && audit?.score !== undefined && audit.score < 1) {
        failed.add(`${id}: ${audit.id} (${audit.title})`);
      }
    }
  }
  return [...failed];
}

/** The run with the median performance score (the lower middle one for an even count). */
function medianRun(runs: PageRun[]): PageRun {
  const sorted = [...runs].sort((a, b) => a.scores.performance - b.scores.performance);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function printTable(rows: { page: string; runs: PageRun[] }[]) {
  const header = [
    "page",
    "performance",
    "accessibility",
    "best practices",
    "SEO",
    "LCP",
    "TBT",
    "FCP",
    "bytes",
    "busy",
  ];
  const lines = rows.map(({ page, runs }) => {
    const median = medianRun(runs);
    const performance = runs.map((run) => run.scores.performance);
    const range = runs.length > 1 ? ` (${Math.min(...performance)}–${Math.max(...performance)})` : "";
    return [
      page,
      `${median.scores.performance}${range}`,
      String(median.scores.accessibility),
      String(median.scores["best-practices"]),
      String(median.scores.seo),
      seconds(median.lcpMs),
      `${Math.round(median.tbtMs)} ms`,
      seconds(median.fcpMs),
      `${Math.round(median.transferBytes / 1024)} KiB`,
      `≤ ${Math.round(Math.max(...runs.map((run) => run.machineBusy)) * 100)} %`,
    ];
  });
  console.log(`| ${header.join(" | ")} |`);
  console.log(`| ${header.map(() => "---").join(" | ")} |`);
  for (const line of lines) console.log(`| ${line.join(" | ")} |`);
  for (const { page, runs } of rows) {
    for (const audit of medianRun(runs).failed) console.log(`  ${page} failed ${audit}`);
  }
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  reportsDir = options.reports;
  if (options.build) {
    const { buildWeb } = await import("../scripts/build-web");
    await buildWeb();
  }
  const server = await startProductionServer();
  const chromium = await startChromium();
  const rows: { page: string; runs: PageRun[] }[] = [];
  try {
    // One unmeasured load first: the browser's and the server's first request pay one-time start-up costs.
    await runLighthouse(`${server.url}${options.pages[0]}`, chromium.port, 0);
    for (const page of options.pages) {
      const runs: PageRun[] = [];
      for (let run = 0; run < options.runs; run++) {
        const result = await runLighthouse(`${server.url}${page}`, chromium.port, options.quietWaitS);
        runs.push(result);
        console.error(
          `  ${page} run ${run + 1}/${options.runs}: performance ${result.scores.performance} (other processes ${(result.machineBusy * 100).toFixed(0)} % of a core before it)`,
        );
      }
      rows.push({ page, runs });
    }
  } finally {
    await chromium.stop();
    await server.stop();
  }
  console.log(
    `Lighthouse ${lighthouseVersion()}, mobile preset, ${options.runs} run(s) per page, the run with the median performance shown (range in brackets); busy = most of a core other processes used just before a run`,
  );
  printTable(rows);
  if (options.json) {
    mkdirSync(dirname(options.json), { recursive: true });
    writeFileSync(options.json, JSON.stringify(rows, null, 2));
  }
}

function lighthouseVersion(): string {
  return (require(join(ROOT, "node_modules/lighthouse/package.json")) as { version: string }).version;
}

await main();
process.exit(0);
