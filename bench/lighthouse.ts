/**
 * Lighthouse (npm `lighthouse`, pinned devDependency; its default mobile preset: Moto G Power, simulated slow 4G,
 * 4× CPU slowdown) against a production server this script starts: `apps/server/index.ts` with NODE_ENV=production,
 * a temporary DATA_DIR, seeded (so `/rooms/1` exists), serving the `dist/web` build. Debian Chromium from
 * CHROMIUM_PATH or /usr/bin/chromium: no browser is ever downloaded.
 *
 *   bun bench/lighthouse.ts                      # build the web app, every page of the app, 3 runs per page
 *   bun bench/lighthouse.ts --runs 5 --no-build  # measure the existing dist/web
 *   bun bench/lighthouse.ts --pages /,/login --json bench/results/lh.json --reports bench/results/lh
 *   bun bench/lighthouse.ts --runs 1 --no-build --pages /rooms/1 --reports /tmp/lh --traces   # + lighthouse-whatif.ts
 *   bun bench/lighthouse.ts --pages '/profile@member,/admin/users/{member}@admin' --quiet-wait 30
 *
 * The default page list is every route of web/src/routes (DEFAULT_PAGES). Before measuring, the script makes the
 * data those pages show through the server's own API (bench accounts, a guild with a recruitment post and a guild
 * board post, a board post, the member's block of the newcomer), and the accounts' roles with the `madang` CLI on the same DATA_DIR. A page is
 * `path@account`: before each of its runs that account logs in over HTTP and its tokens are written to the
 * origin's localStorage ("token", "refresh_token"), where the web client keeps them (Lighthouse's own reset before
 * a load clears the caches, cache storage, service workers and file systems, not localStorage, so the script empties
 * it before each run: every run is a first visit); a page without an account runs with both keys removed.
 * `{guild}`, `{post}`, `{recruitment}` and `{member}` in a path are the ids made, `{invite}` the link's code of a
 * private room the member made.
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
import { io as connect } from "socket.io-client";

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

/** Accounts the script makes: a guild master with posts, a member with nothing, an administrator, a forced reset. */
type AccountName = "member" | "newcomer" | "admin" | "reset";
const ACCOUNTS: Record<AccountName, { username: string; email: string }> = {
  member: { username: "측정회원", email: "member@lighthouse.test" },
  newcomer: { username: "측정새내기", email: "newcomer@lighthouse.test" },
  admin: { username: "측정관리자", email: "admin@lighthouse.test" },
  reset: { username: "측정재설정", email: "reset@lighthouse.test" },
};
const ACCOUNT_PASSWORD = "Lighthouse-bench-9";

/** Every route of the app (web/src/routes/*.tsx), as the visitor each is meant for. */
const DEFAULT_PAGES = [
  "/",
  "/@member",
  "/login",
  "/register",
  "/password-forgot",
  "/password-forgot/reset?token=lighthouse",
  "/password-reset@reset",
  "/rooms/1",
  "/r/{invite}",
  "/board",
  "/board/{post}",
  "/board/write@member",
  "/board/edit/{post}@member",
  "/duel",
  "/ranking",
  "/replay/{replay}",
  "/daily",
  "/daily@member",
  "/practice",
  "/practice@member",
  "/guilds",
  "/guilds/recruitment",
  "/guilds/recruitment/{recruitment}",
  "/guilds/create@newcomer",
  "/guilds/my@member",
  "/guilds/{guild}/room@member",
  "/guilds/{guild}/board@member",
  "/profile@member",
  "/profile/blocks@member",
  "/admin/dashboard@admin",
  "/admin/users@admin",
  "/admin/users/{member}@admin",
  "/admin/logs@admin",
  "/admin/profanity@admin",
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
  /** With reports: also each run's trace and DevTools log (≈ 4 MB), for bench/lighthouse-whatif.ts. */
  traces: boolean;
}

function parseArgs(argv: string[]): Options {
  const options: Options = { runs: 3, pages: DEFAULT_PAGES, build: true, quietWaitS: 300, traces: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--runs") options.runs = Math.max(1, Number(argv[++i]) || 1);
    else if (arg === "--pages") options.pages = argv[++i].split(",");
    else if (arg === "--list") {
      console.log(DEFAULT_PAGES.join("\n"));
      process.exit(0);
    } else if (arg === "--no-build") options.build = false;
    else if (arg === "--quiet-wait") options.quietWaitS = Number(argv[++i]) || 0;
    else if (arg === "--json") options.json = argv[++i];
    else if (arg === "--reports") options.reports = argv[++i];
    else if (arg === "--traces") options.traces = true;
    else throw new Error(`unknown option ${arg}`);
  }
  return options;
}

interface Started {
  url: string;
  dataDir: string;
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
    dataDir,
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

interface PageSpec {
  /** As given (the table's first column). */
  label: string;
  /** Path with the made ids in place. */
  path: string;
  account?: AccountName;
}

function parsePage(spec: string, ids: Record<string, number | string>): PageSpec {
  const at = spec.lastIndexOf("@");
  const account = at > 0 ? spec.slice(at + 1) : undefined;
  if (account !== undefined && !(account in ACCOUNTS)) throw new Error(`${spec}: no account "${account}"`);
  const template = at > 0 ? spec.slice(0, at) : spec;
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (!(name in ids)) throw new Error(`${spec}: no id "${name}"`);
    return String(ids[name]);
  });
  return { label: spec, path, account: account as AccountName | undefined };
}

/** A JSON call to the server's API; any answer but 2xx stops the script. */
async function apiCall<T>(base: string, method: string, path: string, body?: unknown, token?: string): Promise<T> {
  const response = await fetch(`${base}/api${path}`, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

interface LoginAnswer {
  access_token: string;
  refresh_token?: string | null;
}

const login = (base: string, account: AccountName) =>
  apiCall<LoginAnswer>(base, "POST", "/users/login", {
    email: ACCOUNTS[account].email,
    password: ACCOUNT_PASSWORD,
    remember_me: true,
  });

/** `madang <args>` on the server's database (the CLI works on DATA_DIR's SQLite file directly). */
async function cli(dataDir: string, args: string[]) {
  const proc = Bun.spawn([process.execPath, join(ROOT, "cli/index.ts"), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, NODE_ENV: "production" },
    stdout: "pipe",
    stderr: "pipe",
  });
  if ((await proc.exited) !== 0) throw new Error(`madang ${args.join(" ")}: ${await new Response(proc.stderr).text()}`);
}

/**
 * The accounts and the content the pages show, made as a visitor would (the API), roles with the CLI. Returns the
 * ids the page list refers to.
 */
async function prepareData(server: Started): Promise<Record<string, number | string>> {
  const ids: Record<string, number | string> = {};
  for (const [name, account] of Object.entries(ACCOUNTS)) {
    const user = await apiCall<{ id: number }>(server.url, "POST", "/users/register", {
      ...account,
      password: ACCOUNT_PASSWORD,
    });
    ids[name] = user.id;
  }
  await cli(server.dataDir, ["users", "grant-admin", ACCOUNTS.admin.email]);
  await cli(server.dataDir, ["users", "require-password-reset", ACCOUNTS.reset.email]);
  const token = (await login(server.url, "member")).access_token;
  const guild = await apiCall<{ id: number }>(
    server.url,
    "POST",
    "/guilds/",
    { name: "측정길드", description: "Lighthouse 측정을 위한 길드입니다." },
    token,
  );
  ids.guild = guild.id;
  const recruitment = await apiCall<{ id: number }>(
    server.url,
    "POST",
    "/guilds/recruitment",
    {
      guild_id: guild.id,
      title: "함께 타자 연습할 길드원을 모집합니다",
      content: "매일 저녁 아홉 시에 모여 연습합니다.",
    },
    token,
  );
  ids.recruitment = recruitment.id;
  await apiCall(
    server.url,
    "POST",
    `/guilds/${guild.id}/board`,
    { title: "이번 주 연습 일정", content: "월, 수, 금 저녁에 길드 방에서 만나요." },
    token,
  );
  const post = await apiCall<{ id: number }>(
    server.url,
    "POST",
    "/board/",
    { title: "타자 연습 잘하는 방법", content: "매일 조금씩, 정확도를 먼저 올리고 속도는 그다음에 올립니다." },
    token,
  );
  ids.post = post.id;
  const privateRoom = await apiCall<{ private: { code: string } }>(
    server.url,
    "POST",
    "/rooms/private",
    { name: "측정 비공개 방", max_users: 8, texts: ["가는 말이 고와야 오는 말이 곱다"] },
    token,
  );
  ids.invite = privateRoom.private.code;
  // One row on /profile/blocks (its table is what that page shows).
  await apiCall(server.url, "PUT", `/blocks/${ids.newcomer}`, undefined, token);
  ids.replay = await playDaily(server.url, token);
  return ids;
}

/**
 * One 오늘의 문장 attempt typed as a person does (a character every 150 ms, each change a step), so the day's board
 * has an entry with a replay: its key, for /replay/{replay}.
 */
async function playDaily(base: string, token: string): Promise<string> {
  const socket = connect(base, {
    path: "/socket.io/",
    transports: ["websocket"],
    reconnection: false,
    auth: { token },
  });
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", () => resolve());
      socket.once("connect_error", reject);
    });
    const inProgress = new Promise<{ sentence: { text: string } }>((resolve) => {
      socket.on("daily:state", (state: { status: string; sentence: { text: string } }) => {
        if (state.status === "in_progress") resolve(state);
      });
    });
    await socket.emitWithAck("daily:join", {});
    socket.emit("daily:start", {});
    const chars = [...(await inProgress).sentence.text];
    for (let i = 1; i <= chars.length; i++) {
      socket.emit("daily:progress", { typed_text: chars.slice(0, i).join("") });
      await Bun.sleep(150);
    }
    const result = new Promise((resolve) => socket.once("daily:result", resolve));
    socket.emit("daily:submit", { typed_text: chars.join("") });
    await result;
  } finally {
    socket.close();
  }
  const day = await apiCall<{ board: { replay_key: string | null }[] }>(base, "GET", "/daily", undefined, token);
  const key = day.board[0]?.replay_key;
  if (!key) throw new Error("the daily attempt left no replay");
  return key;
}

/**
 * Empties the localStorage of `origin`, then sets (or removes, for null) items through the DevTools protocol: a tab
 * on a file of that origin that runs no script (the favicon), a Runtime.evaluate there, the tab closed. Lighthouse's own storage
 * reset clears caches, service workers and the like but not localStorage, so the items are there for its load.
 */
async function setLocalStorage(port: number, origin: string, items: Record<string, string | null>) {
  const version = (await (await fetch(`http://127.0.0.1:${port}/json/version`)).json()) as {
    webSocketDebuggerUrl: string;
  };
  const socket = new WebSocket(version.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = reject;
  });
  let nextId = 0;
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  socket.onmessage = (event) => {
    const message = JSON.parse(String(event.data));
    const waiter = pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id);
    if (message.error) waiter.reject(new Error(JSON.stringify(message.error)));
    else waiter.resolve(message.result);
  };
  // biome-ignore lint/suspicious/noExplicitAny: DevTools protocol answers, read field by field below
  const send = (method: string, params: object, sessionId?: string): Promise<any> =>
    new Promise((resolve, reject) => {
      const id = ++nextId;
      pending.set(id, { resolve, reject });
      socket.send(JSON.stringify({ id, method, params, sessionId }));
    });
  try {
    const { targetId } = await send("Target.createTarget", { url: `${origin}/favicon.ico` });
    const { sessionId } = await send("Target.attachToTarget", { targetId, flatten: true });
    const expression = `(() => {
      if (location.origin !== ${JSON.stringify(origin)}) return false;
      localStorage.clear();
      for (const [key, value] of Object.entries(${JSON.stringify(items)})) {
        if (value === null) localStorage.removeItem(key); else localStorage.setItem(key, value);
      }
      return true;
    })()`;
    for (let attempt = 0; ; attempt++) {
      // Until the favicon's document is there, the tab has no execution context (an error): try again.
      const answer = await send("Runtime.evaluate", { expression, returnByValue: true }, sessionId).catch(() => null);
      if (answer?.result?.value === true) break;
      if (attempt > 100) throw new Error(`could not open ${origin} to set its localStorage`);
      await Bun.sleep(50);
    }
    await send("Target.closeTarget", { targetId });
  } finally {
    socket.close();
  }
}

/**
 * The page's visitor before a run: a first visit (nothing the app stored in an earlier run, such as the room's
 * one-time tip being seen, which made only a page's first run show it), with a fresh login of its account or nobody.
 */
async function prepareVisitor(server: Started, port: number, page: PageSpec) {
  let items: Record<string, string | null> = { token: null, refresh_token: null };
  if (page.account) {
    const answer = await login(server.url, page.account);
    items = { token: answer.access_token, refresh_token: answer.refresh_token ?? null };
  }
  await setLocalStorage(port, new URL(server.url).origin, items);
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
async function runLighthouse(
  server: Started,
  page: PageSpec,
  port: number,
  quietWaitS: number,
  attempts = 3,
): Promise<PageRun> {
  const url = `${server.url}${page.path}`;
  for (let attempt = 1; ; attempt++) {
    try {
      await prepareVisitor(server, port, page);
      const machineBusy = await waitForQuiet(quietWaitS);
      return { ...(await runLighthouseOnce(url, port)), machineBusy };
    } catch (error) {
      if (attempt >= attempts) throw error;
      console.error(`  ${url}: ${String(error)}; again`);
    }
  }
}

let reportsDir: string | undefined;
let keepTraces = false;
let reportCount = 0;

/**
 * Keeps the run's whole report when --reports names a folder, and with --traces its trace and DevTools log
 * (`<report>.trace.json`, what Lighthouse simulates the phone from: bench/lighthouse-whatif.ts reads it).
 */
function saveReport(url: string, result: LighthouseResult) {
  if (!reportsDir) return;
  mkdirSync(reportsDir, { recursive: true });
  const name = `${String(++reportCount).padStart(2, "0")}-${new URL(url).pathname.replace(/\W+/g, "_")}`;
  writeFileSync(join(reportsDir, `${name}.json`), JSON.stringify(result.lhr));
  if (keepTraces) {
    const { Trace, DevtoolsLog } = result.artifacts as { Trace?: unknown; DevtoolsLog?: unknown };
    writeFileSync(join(reportsDir, `${name}.trace.json`), JSON.stringify({ trace: Trace, devtoolsLog: DevtoolsLog }));
  }
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
  saveReport(url, result);
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

type LighthouseResult = NonNullable<Awaited<ReturnType<typeof lighthouse>>>;
type Lhr = LighthouseResult["lhr"];

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
  keepTraces = options.traces;
  if (options.build) {
    const { buildWeb } = await import("../scripts/build-web");
    await buildWeb();
  }
  const server = await startProductionServer();
  const chromium = await startChromium();
  const rows: { page: string; runs: PageRun[] }[] = [];
  try {
    const ids = await prepareData(server);
    const pages = options.pages.map((spec) => parsePage(spec, ids));
    // One unmeasured load first: the browser's and the server's first request pay one-time start-up costs.
    await runLighthouse(server, pages[0], chromium.port, 0);
    for (const page of pages) {
      const runs: PageRun[] = [];
      for (let run = 0; run < options.runs; run++) {
        const result = await runLighthouse(server, page, chromium.port, options.quietWaitS);
        runs.push(result);
        console.error(
          `  ${page.label} run ${run + 1}/${options.runs}: performance ${result.scores.performance} (other processes ${(result.machineBusy * 100).toFixed(0)} % of a core before it)`,
        );
      }
      rows.push({ page: page.label, runs });
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
