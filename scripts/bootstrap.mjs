#!/usr/bin/env node
// Entry point of `npm start`, `npm test` and `npm run cli` (and the `madang` bin) on a machine that has only
// Node.js and npm. It installs the pinned Bun from the npm registry into .tools/ (no curl installer), runs
// `bun install` against the committed lockfile, then hands over to a Bun script, forwarding signals to it and
// exiting with its code (a process manager's SIGTERM reaches the server, which finishes its games first).
// Whoever started it may also die without a signal reaching it: npm forwards SIGTERM to its script shell only,
// and dash dies of it without passing it on. So the bootstrap watches its launcher (below), and the server
// watches the bootstrap (apps/server/index.ts, `MADANG_PARENT_PID`): no server is ever left running alone.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import os from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const BUN_VERSION = pkg.config.bunVersion;
const toolDir = join(root, ".tools", `bun-${BUN_VERSION}`);
// The bun package's bin/bun.exe is the real binary on every platform (its name notwithstanding).
const bunCandidates = [
  join(toolDir, "node_modules", ".bin", "bun"),
  join(toolDir, "node_modules", "bun", "bin", "bun.exe"),
];

function run(cmd, args, opts = {}) {
  const result = spawnSync(cmd, args, { stdio: "inherit", cwd: root, ...opts });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function findBun() {
  for (const candidate of bunCandidates) if (existsSync(candidate)) return candidate;
  return null;
}

function ensureBun() {
  let bun = findBun();
  if (bun && spawnSync(bun, ["--version"], { encoding: "utf8" }).stdout?.trim() === BUN_VERSION) return bun;
  console.error(`[bootstrap] installing bun@${BUN_VERSION} from npm into ${toolDir}`);
  mkdirSync(toolDir, { recursive: true });
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  // Its report goes to stderr, like everything the bootstrap says: stdout belongs to the script it runs.
  const status = run(
    npm,
    ["install", "--prefix", toolDir, "--no-save", "--no-audit", "--no-fund", `bun@${BUN_VERSION}`],
    {
      stdio: ["ignore", process.stderr, "inherit"],
    },
  );
  if (status !== 0) process.exit(status);
  bun = findBun();
  if (!bun) {
    console.error("[bootstrap] bun binary not found after install");
    process.exit(1);
  }
  return bun;
}

/** The parent pid of `pid` (Linux's /proc), or null where that cannot be read. */
function parentOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (in parentheses) may hold spaces: the fields after its closing parenthesis are fixed.
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) || null;
  } catch {
    return null;
  }
}

/**
 * The processes whose end means "stop": the parent, and under npm (`npm_lifecycle_event` is set by npm run-script)
 * also npm itself, the parent of npm's script shell, which outlives npm when npm is killed. A process that loses
 * its parent is re-parented, so a changed parent pid means the parent is gone.
 */
function launcherGone() {
  const parent = process.ppid;
  const grandparent = process.env.npm_lifecycle_event ? parentOf(parent) : null;
  return () => process.ppid !== parent || (grandparent !== null && parentOf(parent) !== grandparent);
}

const LAUNCHER_POLL_MS = 500;

/**
 * Runs the Bun script as a child that gets our signals; resolves with the exit code to give (128 + n on a signal).
 * When the launcher (npm, a shell) goes away, the child gets SIGTERM as if the launcher had been stopped by one.
 */
function handOver(bun, args, env) {
  const child = spawn(bun, args, {
    stdio: "inherit",
    cwd: root,
    env: { ...env, MADANG_PARENT_PID: String(process.pid) },
  });
  const signals = ["SIGINT", "SIGTERM", "SIGHUP"];
  const forward = (signal) => child.kill(signal);
  for (const signal of signals) process.on(signal, forward);
  const gone = launcherGone();
  const watch = setInterval(() => {
    if (!gone()) return;
    clearInterval(watch);
    console.error("[bootstrap] the process that started me has ended: stopping");
    child.kill("SIGTERM");
  }, LAUNCHER_POLL_MS);
  return new Promise((resolve) => {
    child.on("error", (error) => {
      console.error(`[bootstrap] ${error.message}`);
      clearInterval(watch);
      resolve(1);
    });
    child.on("exit", (code, signal) => {
      for (const s of signals) process.off(s, forward);
      clearInterval(watch);
      resolve(code ?? 128 + (os.constants.signals[signal] ?? 0));
    });
  });
}

const scripts = { start: "scripts/start.ts", test: "scripts/test.ts", cli: "cli/index.ts" };
const [task, ...rest] = process.argv.slice(2);
if (!scripts[task]) {
  console.error(`usage: node scripts/bootstrap.mjs <${Object.keys(scripts).join("|")}> [arguments]`);
  process.exit(2);
}
const bun = ensureBun();
const env = { ...process.env, BUN_BIN: bun, PATH: `${dirname(bun)}:${process.env.PATH}` };
// The CLI's stdout is for its answer (`--json` is read by scripts): the install's report goes to stderr.
const installStatus = run(bun, ["install", "--frozen-lockfile"], {
  env,
  stdio: task === "cli" ? ["ignore", process.stderr, "inherit"] : "inherit",
});
if (installStatus !== 0) process.exit(installStatus);
process.exit(await handOver(bun, [scripts[task], ...rest], env));
