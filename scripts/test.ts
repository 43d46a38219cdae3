/**
 * `npm test` after bootstrap: Biome, type check, web build, unit + integration tests, browser tests.
 * Every step is counted; the last line is `N passed, N failed` and the exit code is non-zero on any failure.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { startPostgres, startRedis, type TestService } from "./test-services";

const root = resolve(import.meta.dir, "..");
const bun = process.execPath;
let passed = 0;
let failed = 0;
const started = performance.now();

async function run(label: string, cmd: string[], env: Record<string, string> = {}) {
  console.log(`\n=== ${label}: ${cmd.join(" ")}`);
  const proc = Bun.spawn(cmd, { cwd: root, stdout: "pipe", stderr: "pipe", env: { ...process.env, ...env } });
  let output = "";
  const pump = async (stream: ReadableStream<Uint8Array>, sink: NodeJS.WriteStream) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
      const text = decoder.decode(chunk, { stream: true });
      output += text;
      sink.write(text);
    }
  };
  await Promise.all([pump(proc.stdout, process.stdout), pump(proc.stderr, process.stderr)]);
  const code = await proc.exited;
  return { code, output };
}

async function step(label: string, cmd: string[]) {
  const { code } = await run(label, cmd);
  if (code === 0) passed++;
  else failed++;
  console.log(`--- ${label}: ${code === 0 ? "ok" : `FAILED (exit ${code})`}`);
}

/** Counts a `bun test` run by its own summary (` N pass`, ` N fail`); a crash without one counts as a failure. */
async function testSuite(label: string, args: string[], env: Record<string, string> = {}) {
  const { code, output } = await run(label, [bun, "test", ...args], env);
  const pass = Number(/^\s*(\d+) pass\s*$/m.exec(output)?.[1] ?? 0);
  const fail = Number(/^\s*(\d+) fail\s*$/m.exec(output)?.[1] ?? 0);
  passed += pass;
  failed += fail;
  if (code !== 0 && fail === 0) failed++;
  console.log(`--- ${label}: ${pass} pass, ${fail} fail (exit ${code})`);
}

function ensureChromium(): string | null {
  const candidates = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].filter(Boolean);
  const found = candidates.find((p) => existsSync(p!));
  if (found) return found!;
  if (process.getuid?.() === 0) {
    console.log("\n=== installing Debian chromium (apt-get)");
    Bun.spawnSync(["apt-get", "update"], { stdout: "inherit", stderr: "inherit" });
    Bun.spawnSync(["apt-get", "install", "-y", "--no-install-recommends", "chromium"], {
      stdout: "inherit",
      stderr: "inherit",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
    if (existsSync("/usr/bin/chromium")) return "/usr/bin/chromium";
  }
  return null;
}

await step("biome", [bun, "x", "biome", "check", "."]);
await step("typecheck", [bun, "x", "tsc", "--noEmit", "-p", "."]);
await step("web build", [bun, "scripts/build-web.ts"]);
/** PostgreSQL and Redis for this run (integration tests on the second engine and between processes). */
const services: TestService[] = [];
const serviceEnv: Record<string, string> = {};
async function startService(label: string, envName: string, start: () => Promise<TestService>) {
  console.log(`\n=== ${label}`);
  try {
    const service = await start();
    services.push(service);
    serviceEnv[envName] = service.url;
    console.log(`${envName}=${service.url}`);
    passed++;
  } catch (error) {
    console.log(`--- ${label}: FAILED (${error instanceof Error ? error.message : String(error)})`);
    failed++;
  }
}
const stopServices = () => Promise.all(services.splice(0).map((s) => s.stop().catch(() => {})));
process.on("SIGINT", () => stopServices().then(() => process.exit(130)));
process.on("SIGTERM", () => stopServices().then(() => process.exit(143)));

await startService("PostgreSQL", "TEST_POSTGRES_URL", startPostgres);
await startService("Redis", "TEST_REDIS_URL", startRedis);
try {
  await testSuite(
    "unit + integration (SQLite)",
    ["--timeout", "30000", "./apps", "./cli", "./db", "./modules", "./web"],
    serviceEnv,
  );
  // The same integration suite on the second engine: every test server and test context gets a fresh PostgreSQL
  // database (db/testing.ts). db/ tests both engines on their own, and web/ has no database.
  if (serviceEnv.TEST_POSTGRES_URL) {
    await testSuite("unit + integration (PostgreSQL)", ["--timeout", "30000", "./apps", "./cli", "./modules"], {
      ...serviceEnv,
      TEST_DATABASE: "postgres",
    });
  }
} finally {
  await stopServices();
}
const chromium = ensureChromium();
if (chromium) {
  await testSuite("browser", ["--timeout", "120000", "--max-concurrency", "1", "./e2e"], { CHROMIUM_PATH: chromium });
} else {
  console.log("\n--- browser: FAILED (no chromium; install it with apt-get install chromium)");
  failed++;
}

console.log(`\ntotal time ${((performance.now() - started) / 1000).toFixed(1)} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
