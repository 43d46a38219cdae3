import { startTestServer } from "../../apps/server/testing";
import { accountsApi } from "../accounts";
import { FakeClock } from "../kernel/clock";

export interface TestUser {
  id: number;
  username: string;
  email: string;
  password: string;
  token: string;
  refreshToken: string;
}

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

  async function user(username: string, { admin = false } = {}): Promise<TestUser> {
    const email = `${username.toLowerCase()}@example.com`;
    const reg = await server.api("POST", "/api/users/register", { body: { username, email, password: PASSWORD } });
    if (reg.status !== 201) throw new Error(`register ${username}: ${reg.status} ${JSON.stringify(reg.body)}`);
    if (admin) accountsApi(server.ctx).service.setAdmin(reg.body.id, true);
    const res = await login(email);
    if (res.status !== 200) throw new Error(`login ${username}: ${res.status} ${JSON.stringify(res.body)}`);
    return {
      id: reg.body.id,
      username,
      email,
      password: PASSWORD,
      token: res.body.access_token,
      refreshToken: res.body.refresh_token,
    };
  }

  return { server, clock, user, login };
}
