#!/usr/bin/env node
// Entry point of `npm start`, `npm test` and `npm run cli` (and the `madang` bin) on a machine that has only
// Node.js and npm. It installs the pinned Bun from the npm registry into .tools/ (no curl installer), runs
// `bun install` against the committed lockfile, then hands over to a Bun script, forwarding signals to it and
// exiting with its code (a process manager's SIGTERM reaches the server, which finishes its games first).
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

/** Runs the Bun script as a child that gets our signals; resolves with the exit code to give (128 + n on a signal). */
function handOver(bun, args, env) {
  const child = spawn(bun, args, { stdio: "inherit", cwd: root, env });
  const signals = ["SIGINT", "SIGTERM", "SIGHUP"];
  const forward = (signal) => child.kill(signal);
  for (const signal of signals) process.on(signal, forward);
  return new Promise((resolve) => {
    child.on("error", (error) => {
      console.error(`[bootstrap] ${error.message}`);
      resolve(1);
    });
    child.on("exit", (code, signal) => {
      for (const s of signals) process.off(s, forward);
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
