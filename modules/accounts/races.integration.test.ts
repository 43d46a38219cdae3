import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer, type TestUser } from "../../apps/server/testing";
import { accountsApi } from "./api";
import { RESET_LINK_TTL_MS } from "./service";
import { accountsStore } from "./store";

// Two requests at once on one account. PostgreSQL runs them side by side (READ COMMITTED); SQLite one after the
// other. Each test runs several accounts at once, so the interleavings that matter come up.
let server: TestServer;
let admin: TestUser;
beforeAll(async () => {
  // Behind our own proxy (the test client on 127.0.0.1 is one), so each reset comes from an address of its own:
  // the limit per address is not what these tests are about.
  server = await startTestServer({ env: { TRUST_PROXY: "1" } });
  admin = await server.createUser("경합관리자", { admin: true });
});
afterAll(() => server.stop());

const ROUNDS = 20;
const NEW_PASSWORD = "raced-pass-2026";
let counter = 0;
/** A member registered in process (the registration limit per address is not tested here), logged in over HTTP. */
async function member(): Promise<TestUser> {
  const n = ++counter;
  const password = "race-pass-2026";
  const user = { username: `경합${n}`, email: `race${n}@example.com`, password };
  const { id } = await accountsApi(server.ctx).service.register(user);
  const login = await server.api("POST", "/api/users/login", { body: { email: user.email, password } });
  return { id, ...user, token: login.body.access_token, refreshToken: login.body.refresh_token };
}
const members = (count = ROUNDS) => Promise.all(Array.from({ length: count }, member));
let addresses = 0;
const elsewhere = () => ({ "x-forwarded-for": `10.9.${(++addresses >> 8) & 255}.${addresses & 255}` });
const act = (userId: number, action: string) =>
  server.api("POST", `/api/admin/users/${userId}/${action}`, { token: admin.token, body: {} });
const resetPassword = (token: string) =>
  server.api("POST", "/api/users/reset-password", {
    token,
    body: { new_password: NEW_PASSWORD, confirm_password: NEW_PASSWORD },
    headers: elsewhere(),
  });
const resetWith = (token: string, password = NEW_PASSWORD) =>
  server.api("POST", "/api/users/reset-password-with-token", {
    body: { token, new_password: password, confirm_password: password },
    headers: elsewhere(),
  });
const issueLink = (userId: number) =>
  accountsStore(server.ctx.database).issuePasswordResetToken(userId, server.ctx.clock.now(), RESET_LINK_TTL_MS, {
    activeOnly: true,
  });

describe("races on one account", () => {
  test("a refresh racing a forced reset never yields a token that may set the password", async () => {
    const users = await members();
    const outcomes = await Promise.all(
      users.map(async (user) => {
        const [refreshed] = await Promise.all([
          server.api("POST", "/api/users/refresh", { body: { refresh_token: user.refreshToken } }),
          act(user.id, "require-password-reset"),
        ]);
        return { user, refreshed };
      }),
    );
    for (const { user, refreshed } of outcomes) {
      expect([200, 401]).toContain(refreshed.status);
      if (refreshed.status === 200) expect((await resetPassword(refreshed.body.access_token)).status).toBe(401);
      expect((await resetPassword(user.token)).status).toBe(401);
      // The password holder still can: a login made now.
      const narrow = await server.api("POST", "/api/users/login", {
        body: { email: user.email, password: user.password },
      });
      expect(narrow.body.password_reset_required).toBe(true);
    }
  });

  test("a login with the old password racing a password change keeps no session past the change", async () => {
    const users = await members();
    const outcomes = await Promise.all(
      users.map(async (user) => {
        const [login] = await Promise.all([
          server.api("POST", "/api/users/login", { body: { email: user.email, password: user.password } }),
          resetPassword(user.token),
        ]);
        return login;
      }),
    );
    for (const login of outcomes) {
      expect([200, 401]).toContain(login.status);
      if (login.status !== 200) continue;
      expect((await server.api("GET", "/api/users/me", { token: login.body.access_token })).status).toBe(401);
      const refreshed = await server.api("POST", "/api/users/refresh", {
        body: { refresh_token: login.body.refresh_token },
      });
      expect(refreshed.status).toBe(401);
    }
  });

  test("many administrator toggles at once (more than the PostgreSQL pool's connections) all answer", async () => {
    const users = await members(16);
    const answers = await Promise.all(users.map((user) => act(user.id, "deactivate")));
    expect(answers.map((a) => a.status)).toEqual(users.map(() => 200));
  });

  test("a link issued while the account is deactivated is voided or never issued; reactivation brings none back", async () => {
    const users = await members();
    const links = await Promise.all(
      users.map(async (user) => {
        const [token, deactivated] = await Promise.all([issueLink(user.id), act(user.id, "deactivate")]);
        expect(deactivated.status).toBe(200);
        return token;
      }),
    );
    await Promise.all(users.map((user) => act(user.id, "activate")));
    for (const token of links) {
      if (token !== null) expect((await resetWith(token)).status).toBe(400);
    }
  });

  test("a link used while the password is changed the logged-in way: both answer, neither is a 500", async () => {
    const users = await members();
    const links = await Promise.all(users.map((user) => issueLink(user.id)));
    const answers = await Promise.all(
      users.map((user, i) => Promise.all([resetWith(links[i]!, "link-pass-2026"), resetPassword(user.token)])),
    );
    for (const [viaLink, loggedIn] of answers) {
      expect([200, 400]).toContain(viaLink.status);
      expect([200, 401]).toContain(loggedIn.status);
    }
  });

  test("one link used twice at once sets the password once", async () => {
    const users = await members();
    const answers = await Promise.all(
      users.map(async (user) => {
        const token = (await issueLink(user.id))!;
        return Promise.all([resetWith(token, "first-pass-2026"), resetWith(token, "second-pass-2026")]);
      }),
    );
    for (const pair of answers) expect(pair.map((a) => a.status).sort()).toEqual([200, 400]);
  });
});
