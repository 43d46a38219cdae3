import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
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
