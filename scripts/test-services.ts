/**
 * PostgreSQL and Redis for the test run, started from Debian's packages in temporary folders on free 127.0.0.1
 * ports, and stopped at the end (also on failure). Nothing here relies on a server left running by hand.
 *
 * When a server binary is missing and we run as root (CI), the Debian package is installed with apt-get, as the
 * test script does for chromium. PostgreSQL refuses to run as root, so as root its cluster belongs to the
 * `postgres` account the Debian package creates, and its commands run through `runuser`.
 */
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface TestService {
  url: string;
  stop(): Promise<void>;
}

const isRoot = () => process.getuid?.() === 0;

/** A port the kernel just gave us and released: good enough for a server we start right away. */
export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function aptInstall(pkg: string): boolean {
  if (!isRoot()) return false;
  console.log(`\n=== installing Debian ${pkg} (apt-get)`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const install = () =>
    Bun.spawnSync(["apt-get", "install", "-y", "--no-install-recommends", pkg], {
      stdout: "inherit",
      stderr: "inherit",
      env,
    }).exitCode === 0;
  if (install()) return true;
  Bun.spawnSync(["apt-get", "update"], { stdout: "inherit", stderr: "inherit", env });
  return install();
}

/** The newest installed PostgreSQL's bin folder (Debian keeps them under /usr/lib/postgresql/<version>/bin). */
function postgresBin(): string | null {
  const base = "/usr/lib/postgresql";
  if (!existsSync(base)) return null;
  const versions = readdirSync(base)
    .filter((v) => existsSync(join(base, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? join(base, versions[0]!, "bin") : null;
}

function findPostgres(): string {
  const found = postgresBin();
  if (found) return found;
  if (aptInstall("postgresql")) {
    const installed = postgresBin();
    if (installed) return installed;
  }
  throw new Error(
    "PostgreSQL was not found and could not be installed: install Debian's postgresql package (apt-get install postgresql) or run the tests as root",
  );
}

function findRedis(): string {
  for (const candidate of ["/usr/bin/redis-server", "/usr/local/bin/redis-server"]) {
    if (existsSync(candidate)) return candidate;
  }
  if (aptInstall("redis-server") && existsSync("/usr/bin/redis-server")) return "/usr/bin/redis-server";
  throw new Error(
    "redis-server was not found and could not be installed: install Debian's redis-server package (apt-get install redis-server) or run the tests as root",
  );
}

/** Runs a PostgreSQL command as the cluster's owner (the `postgres` account when we are root). */
function asOwner(cmd: string[]): string[] {
  return isRoot() ? ["runuser", "-u", "postgres", "--", ...cmd] : cmd;
}

function check(label: string, result: { exitCode: number | null; stderr?: Uint8Array | null }) {
  if (result.exitCode === 0) return;
  const detail = result.stderr ? new TextDecoder().decode(result.stderr) : "";
  throw new Error(`${label} failed (exit ${result.exitCode}): ${detail.trim()}`);
}

async function waitUntil(ready: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await ready()) return;
    await Bun.sleep(100);
  }
  throw new Error(`${what} did not start within ${timeoutMs / 1000} s`);
}

/** A throwaway PostgreSQL cluster with a database `tajamadang` owned by a trusted local user. */
export async function startPostgres(): Promise<TestService> {
  const bin = findPostgres();
  const dir = mkdtempSync(join(tmpdir(), "tajamadang-pg-"));
  if (isRoot()) chownSync(dir, uidOf("postgres"), gidOf("postgres"));
  const data = join(dir, "data");
  const port = await freePort();
  check(
    "initdb",
    Bun.spawnSync(
      asOwner([join(bin, "initdb"), "-D", data, "-U", "tajamadang", "--auth=trust", "-E", "UTF8", "--no-locale"]),
      { stdout: "ignore", stderr: "pipe" },
    ),
  );
  // Durability is not what these tests check: fsync off makes a fresh cluster several times faster.
  const options = `-h 127.0.0.1 -p ${port} -k ${dir} -F -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  check(
    "pg_ctl start",
    Bun.spawnSync(asOwner([join(bin, "pg_ctl"), "-D", data, "-l", join(dir, "log"), "-o", options, "-w", "start"]), {
      stdout: "ignore",
      stderr: "pipe",
    }),
  );
  const stop = async () => {
    Bun.spawnSync(asOwner([join(bin, "pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop"]), {
      stdout: "ignore",
      stderr: "ignore",
    });
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    check(
      "createdb",
      Bun.spawnSync(
        asOwner([join(bin, "createdb"), "-h", "127.0.0.1", "-p", String(port), "-U", "tajamadang", "tajamadang"]),
        {
          stdout: "ignore",
          stderr: "pipe",
        },
      ),
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `postgres://tajamadang@127.0.0.1:${port}/tajamadang`, stop };
}

/** A throwaway Redis without persistence. */
export async function startRedis(): Promise<TestService> {
  const binary = findRedis();
  const dir = mkdtempSync(join(tmpdir(), "tajamadang-redis-"));
  const port = await freePort();
  const proc = Bun.spawn(
    [binary, "--bind", "127.0.0.1", "--port", String(port), "--dir", dir, "--save", "", "--appendonly", "no"],
    { stdout: "ignore", stderr: "pipe" },
  );
  const pingOk = async () => {
    try {
      const socket = await Bun.connect({
        hostname: "127.0.0.1",
        port,
        socket: { data() {}, error() {} },
      });
      socket.end();
      return true;
    } catch {
      return false;
    }
  };
  const stop = async () => {
    proc.kill();
    await proc.exited;
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitUntil(pingOk, "redis-server");
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `redis://127.0.0.1:${port}`, stop };
}

function uidOf(user: string): number {
  return Number(new TextDecoder().decode(Bun.spawnSync(["id", "-u", user]).stdout).trim());
}
function gidOf(user: string): number {
  return Number(new TextDecoder().decode(Bun.spawnSync(["id", "-g", user]).stdout).trim());
}

// `bun scripts/test-services.ts` starts both, prints their URLs and keeps them until Ctrl-C (handy by hand).
if (import.meta.main) {
  const pg = await startPostgres();
  const redis = await startRedis();
  console.log(`DATABASE_URL=${pg.url}\nREDIS_URL=${redis.url}`);
  const stopAll = async () => {
    await Promise.all([pg.stop(), redis.stop()]);
    process.exit(0);
  };
  process.on("SIGINT", stopAll);
  process.on("SIGTERM", stopAll);
}
