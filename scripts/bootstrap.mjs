#!/usr/bin/env node
// Entry point of `npm start` and `npm test` on a machine that has only Node.js and npm.
// It installs the pinned Bun from the npm registry into .tools/ (no curl installer), runs
// `bun install` against the committed lockfile, then hands over to a Bun script.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
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
  console.log(`[bootstrap] installing bun@${BUN_VERSION} from npm into ${toolDir}`);
  mkdirSync(toolDir, { recursive: true });
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const status = run(npm, [
    "install",
    "--prefix",
    toolDir,
    "--no-save",
    "--no-audit",
    "--no-fund",
    `bun@${BUN_VERSION}`,
  ]);
  if (status !== 0) process.exit(status);
  bun = findBun();
  if (!bun) {
    console.error("[bootstrap] bun binary not found after install");
    process.exit(1);
  }
  return bun;
}

const [task, ...rest] = process.argv.slice(2);
const bun = ensureBun();
const env = { ...process.env, BUN_BIN: bun, PATH: `${dirname(bun)}:${process.env.PATH}` };
const installStatus = run(bun, ["install", "--frozen-lockfile"], { env });
if (installStatus !== 0) process.exit(installStatus);
const scripts = { start: "scripts/start.ts", test: "scripts/test.ts" };
if (!scripts[task]) {
  console.error(`usage: node scripts/bootstrap.mjs <${Object.keys(scripts).join("|")}>`);
  process.exit(2);
}
process.exit(run(bun, [scripts[task], ...rest], { env }));
