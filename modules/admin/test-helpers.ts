import { resolve } from "node:path";
import { startTestServer, type TestServer, type TestUser } from "../../apps/server/testing";
import { FakeClock } from "../kernel/clock";

export type { TestUser };

export const PASSWORD = "admin-pass-2026";

/**
 * A real server on a fake clock (dates of the dashboard without sleeping), plus account helpers. `systemClock`
 * is for tests that share the database with a CLI process, which writes with the real time.
 */
export async function startAdminServer(options: { systemClock?: boolean } = {}) {
  const clock = new FakeClock(Date.UTC(2026, 2, 10, 3, 0, 0));
  const server = await startTestServer(options.systemClock ? {} : { clock });

  async function login(email: string, password = PASSWORD) {
    return server.api("POST", "/api/users/login", {
      body: { email, password },
      headers: { "user-agent": "admin-test-agent" },
    });
  }

  const user = (username: string, options: { admin?: boolean } = {}) =>
    server.createUser(username, { ...options, password: PASSWORD, userAgent: "admin-test-agent" });

  return { server, clock, user, login };
}

const root = resolve(import.meta.dir, "../..");

/**
 * Runs the `madang` CLI as its own process on the test server's data folder, exactly as an operator's terminal next
 * to a live server.
 */
export async function runCli(server: TestServer, ...args: string[]) {
  const proc = Bun.spawn([process.execPath, "cli/index.ts", ...args], {
    cwd: root,
    env: { ...process.env, DATA_DIR: server.ctx.config.dataDir, LOG_LEVEL: "error", NODE_ENV: "test" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout, stderr };
}
