import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freePort } from "../scripts/test-services";

// The entry points an operator uses on a machine with only Node.js and npm: `node scripts/bootstrap.mjs …` is what
// `npm start`, `npm test` and `npm run cli` run, and `cli/madang.mjs` is the `madang` bin. Bun is NOT on the PATH
// here, as on such a machine: the bootstrap must find or install its own.
const root = resolve(import.meta.dir, "..");
const dataDirs: string[] = [];
const freshDataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "tajamadang-bootstrap-"));
  dataDirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

const nodeOnlyEnv = (dataDir: string, extra: Record<string, string> = {}) => ({
  PATH: "/usr/local/bin:/usr/bin:/bin",
  HOME: process.env.HOME ?? "/root",
  DATA_DIR: dataDir,
  LOG_LEVEL: "warn",
  ...extra,
});

async function runNode(args: string[], env: Record<string, string>) {
  const proc = Bun.spawn(["node", ...args], { cwd: root, env, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { stdout, stderr, code };
}

describe("the CLI without Bun on the PATH", () => {
  test("`npm run cli -- db migrate --json`-style runs answer on stdout alone (the install report goes to stderr)", async () => {
    const dataDir = freshDataDir();
    const migrated = await runNode(["scripts/bootstrap.mjs", "cli", "db", "migrate"], nodeOnlyEnv(dataDir));
    expect(migrated.code, migrated.stderr).toBe(0);
    const listed = await runNode(["scripts/bootstrap.mjs", "cli", "users", "list", "--json"], nodeOnlyEnv(dataDir));
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toMatchObject({ users: [], total: 0 });
  });

  test("the madang bin prints the Korean help", async () => {
    const help = await runNode(["cli/madang.mjs", "--help"], nodeOnlyEnv(freshDataDir()));
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toContain("사용법:");
    expect(help.stdout).toContain("타자마당 관리 도구");
  });

  test("an unknown task is refused with its usage", async () => {
    const wrong = await runNode(["scripts/bootstrap.mjs", "serve"], nodeOnlyEnv(freshDataDir()));
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("usage: node scripts/bootstrap.mjs <start|test|cli>");
  });
});

describe("`npm start` under a process manager", () => {
  test("SIGTERM to the bootstrap stops the server it started and exits with the server's code", async () => {
    const port = await freePort();
    const proc = Bun.spawn(["node", "scripts/bootstrap.mjs", "start"], {
      cwd: root,
      env: nodeOnlyEnv(freshDataDir(), { PORT: String(port), HOST: "127.0.0.1", NODE_ENV: "test" }),
      stdout: "pipe",
      stderr: "pipe",
    });
    const health = () =>
      fetch(`http://127.0.0.1:${port}/api/health`).then(
        (r) => r.status,
        () => 0,
      );
    let up = false;
    for (let i = 0; i < 300 && !up; i++) {
      up = (await health()) === 200;
      if (!up) await Bun.sleep(100);
    }
    expect(up).toBe(true);
    proc.kill("SIGTERM");
    expect(await proc.exited).toBe(0);
    // The server was the bootstrap's child: had it been left behind, it would still answer.
    expect(await health()).toBe(0);
  }, 60_000);
});

/** Reads `/proc/<pid>/stat`: the parent's pid and the state letter, or null when the process is gone. */
function procStat(pid: number): { ppid: number; state: string } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (in parentheses) may hold spaces: the fields after its closing parenthesis are fixed.
    const [state, ppid] = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { ppid: Number(ppid), state };
  } catch {
    return null;
  }
}

/** A dead process nobody reaped yet (a zombie) is gone as far as a player or an operator can tell. */
const running = (pid: number) => {
  const stat = procStat(pid);
  return stat !== null && stat.state !== "Z" && stat.state !== "X";
};

const cmdline = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return "";
  }
};

/** `root` and every process below it, found through /proc. */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const stat = procStat(pid);
    if (stat) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), pid]);
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]) ?? []));
  return tree;
}

async function waitUntil(check: () => boolean | Promise<boolean>, ms: number) {
  const deadline = Date.now() + ms;
  while (!(await check()) && Date.now() < deadline) await Bun.sleep(100);
  return check();
}

/**
 * `npm start` as an operator runs it (npm → its script shell → the bootstrap → the server), without the web build
 * (WEB_BUILD=0: these tests are about processes, not pages). Resolves once the server answers.
 */
async function npmStart() {
  const port = await freePort();
  const npm = Bun.spawn(["npm", "start"], {
    cwd: root,
    env: nodeOnlyEnv(freshDataDir(), { PORT: String(port), HOST: "127.0.0.1", NODE_ENV: "test", WEB_BUILD: "0" }),
    stdout: "pipe",
    stderr: "pipe",
  });
  const health = () =>
    fetch(`http://127.0.0.1:${port}/api/health`).then(
      (r) => r.status,
      () => 0,
    );
  expect(await waitUntil(async () => (await health()) === 200, 60_000)).toBe(true);
  const tree = processTree(npm.pid);
  const bootstrap = tree.find((pid) => cmdline(pid).includes("scripts/bootstrap.mjs"));
  const server = tree.find((pid) => cmdline(pid).includes("scripts/start.ts"));
  expect(bootstrap).toBeDefined();
  expect(server).toBeDefined();
  const answers = async () => (await health()) !== 0;
  return { npm, tree, bootstrap: bootstrap!, server: server!, answers };
}

describe("`npm start`: whatever stops, the whole tree stops", () => {
  test("SIGTERM to npm's own pid stops the bootstrap and the server (no process left, the port closed)", async () => {
    const started = await npmStart();
    process.kill(started.npm.pid, "SIGTERM");
    expect(await waitUntil(() => started.tree.filter(running).length === 0, 30_000)).toBe(true);
    expect(await started.answers()).toBe(false);
  }, 120_000);

  test("SIGKILL to the bootstrap: the server, left without its parent, stops by itself", async () => {
    const started = await npmStart();
    process.kill(started.bootstrap, "SIGKILL");
    expect(await waitUntil(() => !running(started.server), 30_000)).toBe(true);
    expect(await started.answers()).toBe(false);
    expect(await waitUntil(() => started.tree.filter(running).length === 0, 30_000)).toBe(true);
  }, 120_000);

  test("SIGKILL to npm: the bootstrap and the server stop", async () => {
    const started = await npmStart();
    process.kill(started.npm.pid, "SIGKILL");
    expect(await waitUntil(() => started.tree.filter(running).length === 0, 30_000)).toBe(true);
    expect(await started.answers()).toBe(false);
  }, 120_000);

  test("SIGHUP to the server stops it cleanly: the bootstrap exits with its code 0", async () => {
    const started = await npmStart();
    process.kill(started.server, "SIGHUP");
    expect(await started.npm.exited).toBe(0);
    expect(await started.answers()).toBe(false);
  }, 120_000);
});
