import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../../apps/server/testing";
import { accountsApi } from "./api";
import { LOGIN_FAILED, PASSWORD_SAME, TOO_MANY_LOGINS, TOO_MANY_REQUESTS } from "./service";
import { DEFAULT_LOGIN_LIMITS, REGISTER_LIMIT, RESET_PASSWORD_LIMIT } from "./throttle";

// Behind our own proxy (the test client on 127.0.0.1 is one): each test plays a client of its own address,
// written by the proxy as the right-most X-Forwarded-For hop.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: { TRUST_PROXY: "1" } });
});
afterAll(() => server.stop());

const from = (ip: string, spoofed?: string) => ({ "x-forwarded-for": spoofed ? `${spoofed}, ${ip}` : ip });
const login = (email: string, password: string, ip: string, spoofed?: string) =>
  server.api("POST", "/api/users/login", { body: { email, password }, headers: from(ip, spoofed) });
function statuses(answers: { status: number }[]) {
  const counts: Record<number, number> = {};
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

let counter = 0;
const member = () => server.createUser(`thr${++counter}`, { password: "good-pass-42" });

describe("login throttle under parallel attempts", () => {
  test("30 wrong passwords at once for one e-mail from one address: no more 401s than the pair's limit", async () => {
    const user = await member();
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => login(user.email, "wrong-password-1", "203.0.113.10")),
    );
    const counts = statuses(answers);
    expect(counts[401]).toBe(DEFAULT_LOGIN_LIMITS.perPair);
    expect(counts[429]).toBe(30 - DEFAULT_LOGIN_LIMITS.perPair);
    expect(answers.find((a) => a.status === 401)?.body.detail).toBe(LOGIN_FAILED);
    const refused = answers.find((a) => a.status === 429)!;
    expect(refused.body.detail).toBe(TOO_MANY_LOGINS);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // That address waits, the right password too; the owner, from their own address, does not.
    expect((await login(user.email, user.password, "203.0.113.10")).status).toBe(429);
    expect((await login(user.email, user.password, "203.0.113.11")).status).toBe(200);
  });

  test("strangers on many addresses: slowed at the e-mail-wide count, the owner's usual address never", async () => {
    const user = await member();
    expect((await login(user.email, user.password, "198.18.0.1")).status).toBe(200);
    const { perPair, perEmail } = DEFAULT_LOGIN_LIMITS;
    expect(perEmail).toBeGreaterThanOrEqual(10 * perPair);
    const strangers = Math.ceil(perEmail / perPair) + 1;
    const answers = await Promise.all(
      Array.from({ length: strangers * perPair }, (_, i) =>
        login(user.email, "wrong-password-1", `198.18.1.${i % strangers}`),
      ),
    );
    expect(statuses(answers)).toEqual({ 401: perEmail, 429: strangers * perPair - perEmail });
    expect((await login(user.email, "wrong-password-1", "198.18.2.1")).status).toBe(429);
    expect((await login(user.email, user.password, "198.18.0.1")).status).toBe(200);
  });

  test("45 wrong logins at once from one address, each for another e-mail, are cut at the address limit", async () => {
    const answers = await Promise.all(
      Array.from({ length: 45 }, (_, i) => login(`nobody${i}@example.com`, "wrong-password-1", "203.0.113.20")),
    );
    const counts = statuses(answers);
    expect(counts[401]).toBe(DEFAULT_LOGIN_LIMITS.perIp);
    expect(counts[429]).toBe(45 - DEFAULT_LOGIN_LIMITS.perIp);
    // Another address is not affected.
    const user = await member();
    expect((await login(user.email, user.password, "203.0.113.21")).status).toBe(200);
  });

  test("successful logins in parallel from one address all pass and use up nothing", async () => {
    const users = await Promise.all(Array.from({ length: 8 }, () => member()));
    for (let round = 0; round < 5; round++) {
      const answers = await Promise.all(users.map((u) => login(u.email, u.password, "203.0.113.30")));
      expect(statuses(answers)).toEqual({ 200: 8 });
    }
  });
});

describe("the client address behind a proxy is the right-most hop the proxy wrote", () => {
  test("a spoofed left X-Forwarded-For hop neither shows in the login history nor escapes the throttle", async () => {
    const user = await member();
    expect((await login(user.email, user.password, "203.0.113.40", "198.51.100.99")).status).toBe(200);
    const history = await accountsApi(server.ctx).service.loginHistoryPage(user.id, 1, 1);
    expect(history.logs[0].ip_address).toBe("203.0.113.40");
    // Failures up to the address limit, each claiming another address on the left: all counted against the real one.
    for (let i = 0; i < DEFAULT_LOGIN_LIMITS.perIp; i++) {
      expect((await login(`x${i}@example.com`, "wrong-password-1", "203.0.113.41", `198.51.100.${i}`)).status).toBe(
        401,
      );
    }
    expect((await login(user.email, user.password, "203.0.113.41", "198.51.100.200")).status).toBe(429);
  });
});

describe("registration and password reset are limited per address", () => {
  test("a burst of registrations from one address is cut at the limit with a Korean 429", async () => {
    const total = REGISTER_LIMIT.limit + 5;
    const answers = await Promise.all(
      Array.from({ length: total }, (_, i) =>
        server.api("POST", "/api/users/register", {
          body: { username: `reg${i}`, email: `reg${i}@example.com`, password: "good-pass-42" },
          headers: from("203.0.113.50"),
        }),
      ),
    );
    expect(statuses(answers)).toEqual({ 201: REGISTER_LIMIT.limit, 429: 5 });
    const refused = answers.find((a) => a.status === 429)!;
    expect(refused.body.detail).toBe(TOO_MANY_REQUESTS);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    const elsewhere = await server.api("POST", "/api/users/register", {
      body: { username: "regother", email: "regother@example.com", password: "good-pass-42" },
      headers: from("203.0.113.51"),
    });
    expect(elsewhere.status).toBe(201);
  });

  test("a burst of password resets from one address is cut at the limit with a Korean 429", async () => {
    const user = await member();
    const total = RESET_PASSWORD_LIMIT.limit + 3;
    // The current password again: each attempt costs a hash check and is refused by it, and none changes anything.
    const answers = await Promise.all(
      Array.from({ length: total }, () =>
        server.api("POST", "/api/users/reset-password", {
          token: user.token,
          body: { new_password: user.password, confirm_password: user.password },
          headers: from("203.0.113.60"),
        }),
      ),
    );
    expect(statuses(answers)).toEqual({ 422: RESET_PASSWORD_LIMIT.limit, 429: 3 });
    expect(answers.find((a) => a.status === 422)?.body.detail).toBe(PASSWORD_SAME);
    expect(answers.find((a) => a.status === 429)?.body.detail).toBe(TOO_MANY_REQUESTS);
  });
});
