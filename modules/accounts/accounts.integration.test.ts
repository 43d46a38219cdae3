import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SignJWT } from "jose";
import { startTestServer, type TestServer } from "../../apps/server/testing";
import { MSG } from "../kernel/account-rules";
import { accountsApi } from "./api";
import { ACCOUNT_INACTIVE, EMAIL_TAKEN, LOGIN_FAILED, USERNAME_TAKEN } from "./service";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

let counter = 0;
async function newUser(password = "good-pass-42") {
  counter++;
  const email = `user${counter}@example.com`;
  const reg = await server.api("POST", "/api/users/register", {
    body: { username: `user${counter}`, email, password },
  });
  expect(reg.status).toBe(201);
  return { id: reg.body.id as number, email, password, username: reg.body.username as string };
}
const login = (email: string, password: string, remember_me = false) =>
  server.api("POST", "/api/users/login", { body: { email, password, remember_me } });

describe("register", () => {
  test("creates a level-1 user with zero currencies and never returns the hash", async () => {
    const res = await server.api("POST", "/api/users/register", {
      body: { username: "김타자", email: "Kim@Example.com", password: "good-pass-42" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      username: "김타자",
      email: "kim@example.com",
      level: 1,
      experience: 0,
      coins: 0,
      points: 0,
      gold_medals: 0,
      silver_medals: 0,
      bronze_medals: 0,
      is_admin: false,
      is_active: true,
    });
    expect(JSON.stringify(res.body)).not.toContain("argon2");
  });

  test("refuses duplicates case-insensitively", async () => {
    const base = { email: "dup@example.com", password: "good-pass-42" };
    expect((await server.api("POST", "/api/users/register", { body: { ...base, username: "Dupe" } })).status).toBe(201);
    const sameName = await server.api("POST", "/api/users/register", {
      body: { ...base, email: "other@example.com", username: "dUPE" },
    });
    expect(sameName).toMatchObject({ status: 409, body: { detail: USERNAME_TAKEN } });
    const sameEmail = await server.api("POST", "/api/users/register", {
      body: { ...base, email: "DUP@example.com", username: "Another" },
    });
    expect(sameEmail).toMatchObject({ status: 409, body: { detail: EMAIL_TAKEN } });
  });

  test("the same name or e-mail registered several times at once: one account, the others a 409", async () => {
    const register = (username: string, email: string) =>
      server.api("POST", "/api/users/register", { body: { username, email, password: "good-pass-42" } });
    const sameName = await Promise.all(
      Array.from({ length: 6 }, (_, i) => register("동시가입", `race${i}@example.com`)),
    );
    expect(sameName.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect(sameName.find((r) => r.status === 409)?.body.detail).toBe(USERNAME_TAKEN);
    const sameEmail = await Promise.all(Array.from({ length: 6 }, (_, i) => register(`race${i}`, "race@example.com")));
    expect(sameEmail.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect(sameEmail.find((r) => r.status === 409)?.body.detail).toBe(EMAIL_TAKEN);
  });

  test.each([
    ["bad!name", "x1@example.com", "good-pass-42", MSG.usernameCharacters],
    ["12345", "x2@example.com", "good-pass-42", MSG.usernameDigitsOnly],
    ["abcdefghijklm", "x3@example.com", "good-pass-42", MSG.usernameLength],
    ["okname", "x4@example.com", "abc", MSG.passwordMin],
    ["okname", "not-an-email", "good-pass-42", MSG.emailInvalid],
    ["okname", "x5@example.com", "password1", MSG.passwordCommon],
  ])("refuses %s / %s with the spec's Korean text", async (username, email, password, detail) => {
    const res = await server.api("POST", "/api/users/register", { body: { username, email, password } });
    expect(res).toMatchObject({ status: 422, body: { detail } });
  });
});

describe("login", () => {
  test("answers tokens and the user, records history and counters", async () => {
    const u = await newUser();
    const res = await server.api("POST", "/api/users/login", {
      body: { email: u.email.toUpperCase(), password: u.password, remember_me: true },
      headers: { "user-agent": "TestAgent/1.0" },
    });
    expect(res.status).toBe(200);
    expect(res.body.access_token.split(".")).toHaveLength(3);
    expect(res.body.refresh_token.length).toBeGreaterThanOrEqual(43);
    expect(res.body).toMatchObject({ password_reset_required: false, user: { id: u.id, login_count: 1 } });
    expect(res.body.user.last_login_at).toBeString();
    const history = await accountsApi(server.ctx).service.loginHistoryPage(u.id, 1, 10);
    expect(history.logs[0]).toMatchObject({ ip_address: "127.0.0.1", user_agent: "TestAgent/1.0" });
  });

  test("wrong password and unknown e-mail get the same answer, without echoing the password", async () => {
    const u = await newUser();
    const wrong = await login(u.email, "definitely-wrong-1");
    const unknown = await login("nobody@example.com", "definitely-wrong-1");
    expect(wrong).toMatchObject({ status: 401, body: { detail: LOGIN_FAILED } });
    expect(unknown).toMatchObject({ status: 401, body: { detail: LOGIN_FAILED } });
    const typeError = await server.api("POST", "/api/users/login", {
      body: { email: u.email, password: ["secret-value-123"] },
    });
    expect(typeError.status).toBe(422);
    expect(JSON.stringify(typeError.body)).not.toContain("secret-value-123");
  });

  test("repeated failures are throttled with 429 and a Korean detail", async () => {
    const u = await newUser();
    for (let i = 0; i < 5; i++) expect((await login(u.email, "wrong-password-x")).status).toBe(401);
    const blocked = await login(u.email, u.password);
    expect(blocked.status).toBe(429);
    expect(blocked.body.detail).toContain("잠시 후 다시 시도");
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  test("a deactivated user cannot log in or refresh", async () => {
    const u = await newUser();
    const first = await login(u.email, u.password);
    await accountsApi(server.ctx).service.setActive(u.id, false);
    expect(await login(u.email, u.password)).toMatchObject({ status: 403, body: { detail: ACCOUNT_INACTIVE } });
    const refresh = await server.api("POST", "/api/users/refresh", {
      body: { refresh_token: first.body.refresh_token },
    });
    expect(refresh.status).toBeGreaterThanOrEqual(401);
    expect(refresh.status).toBeLessThanOrEqual(403);
    expect((await server.api("GET", "/api/users/me", { token: first.body.access_token })).status).toBe(403);
  });
});

describe("me, refresh, logout", () => {
  test("me needs a valid bearer token", async () => {
    const u = await newUser();
    const { body } = await login(u.email, u.password);
    expect(await server.api("GET", "/api/users/me", { token: body.access_token })).toMatchObject({
      status: 200,
      body: { id: u.id, username: u.username },
    });
    expect((await server.api("GET", "/api/users/me")).status).toBe(401);
    expect((await server.api("GET", "/api/users/me", { headers: { authorization: "Basic abc" } })).status).toBe(401);
  });

  test("refresh rotates, and replaying the old token revokes the family", async () => {
    const u = await newUser();
    const { body } = await login(u.email, u.password);
    const first = await server.api("POST", "/api/users/refresh", { body: { refresh_token: body.refresh_token } });
    expect(first.status).toBe(200);
    expect(first.body.refresh_token).not.toBe(body.refresh_token);
    expect((await server.api("GET", "/api/users/me", { token: first.body.access_token })).status).toBe(200);
    const replay = await server.api("POST", "/api/users/refresh", { body: { refresh_token: body.refresh_token } });
    expect(replay.status).toBe(401);
    const afterReplay = await server.api("POST", "/api/users/refresh", {
      body: { refresh_token: first.body.refresh_token },
    });
    expect(afterReplay.status).toBe(401);
  });

  test("logout revokes the refresh token", async () => {
    const u = await newUser();
    const { body } = await login(u.email, u.password);
    expect(
      (await server.api("POST", "/api/users/logout", { body: { refresh_token: body.refresh_token } })).status,
    ).toBe(200);
    expect(
      (await server.api("POST", "/api/users/refresh", { body: { refresh_token: body.refresh_token } })).status,
    ).toBe(401);
    expect((await server.api("POST", "/api/users/logout", { body: {} })).status).toBe(200);
  });
});

describe("forced password reset", () => {
  test("a reset-required login gets a narrow token that only me, reset-password and logout accept", async () => {
    const u = await newUser();
    await accountsApi(server.ctx).service.requirePasswordReset(u.id);
    const res = await login(u.email, u.password);
    expect(res.status).toBe(200);
    expect(res.body.password_reset_required).toBe(true);
    expect(res.body.refresh_token).toBeUndefined();
    const token = res.body.access_token;
    expect((await server.api("GET", "/api/users/me", { token })).status).toBe(200);
    await expect(
      accountsApi(server.ctx).guards.requireUser({ authorization: `Bearer ${token}` }),
    ).rejects.toMatchObject({ status: 403, code: "password_reset_required" });

    const mismatch = await server.api("POST", "/api/users/reset-password", {
      token,
      body: { new_password: "brand-new-pass-1", confirm_password: "brand-new-pass-2" },
    });
    expect(mismatch).toMatchObject({ status: 422, body: { detail: MSG.passwordMismatch } });
    const ok = await server.api("POST", "/api/users/reset-password", {
      token,
      body: { new_password: "brand-new-pass-1", confirm_password: "brand-new-pass-1" },
    });
    expect(ok.status).toBe(200);
    expect((await login(u.email, u.password)).status).toBe(401);
    const fresh = await login(u.email, "brand-new-pass-1");
    expect(fresh.body).toMatchObject({ password_reset_required: false });
    expect(fresh.body.refresh_token).toBeString();
  });

  test("reset-password without a token is 401", async () => {
    const res = await server.api("POST", "/api/users/reset-password", {
      body: { new_password: "brand-new-pass-1", confirm_password: "brand-new-pass-1" },
    });
    expect(res.status).toBe(401);
  });
});

describe("JWT negatives", () => {
  const secret = () => new TextEncoder().encode(server.ctx.config.jwtSecret);
  const claims = (userId: number) => ({ sub: String(userId), scope: "full" });

  test("an expired token is refused", async () => {
    const u = await newUser();
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT(claims(u.id))
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer("tajamadang")
      .setAudience("tajamadang-api")
      .setIssuedAt(now - 3600)
      .setExpirationTime(now - 60)
      .sign(secret());
    expect((await server.api("GET", "/api/users/me", { token })).status).toBe(401);
  });

  test("alg none is refused", async () => {
    const u = await newUser();
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
    const now = Math.floor(Date.now() / 1000);
    const token = `${b64({ alg: "none", typ: "JWT" })}.${b64({ ...claims(u.id), iss: "tajamadang", aud: "tajamadang-api", iat: now, exp: now + 600 })}.`;
    expect((await server.api("GET", "/api/users/me", { token })).status).toBe(401);
  });

  test("another algorithm (HS512 with the same secret) is refused", async () => {
    const u = await newUser();
    const token = await new SignJWT(claims(u.id))
      .setProtectedHeader({ alg: "HS512" })
      .setIssuer("tajamadang")
      .setAudience("tajamadang-api")
      .setIssuedAt()
      .setExpirationTime("10m")
      .sign(secret());
    expect((await server.api("GET", "/api/users/me", { token })).status).toBe(401);
  });

  test("a tampered payload is refused", async () => {
    const u = await newUser();
    const other = await newUser();
    const { body } = await login(u.email, u.password);
    const [h, p, s] = body.access_token.split(".");
    const payload = JSON.parse(Buffer.from(p, "base64url").toString());
    const forged = Buffer.from(JSON.stringify({ ...payload, sub: String(other.id) })).toString("base64url");
    expect((await server.api("GET", "/api/users/me", { token: `${h}.${forged}.${s}` })).status).toBe(401);
  });

  test("a token without issuer and audience is refused", async () => {
    const u = await newUser();
    const token = await new SignJWT(claims(u.id))
      .setProtectedHeader({ alg: "HS256" })
      .setIssuedAt()
      .setExpirationTime("10m")
      .sign(secret());
    expect((await server.api("GET", "/api/users/me", { token })).status).toBe(401);
  });
});

describe("bad input never gets a 500", () => {
  test("malformed JSON is 400", async () => {
    const res = await server.api("POST", "/api/users/login", { raw: "{not json" });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBeString();
  });

  test("wrong types, missing and unknown fields are 422 with Korean messages", async () => {
    const wrong = await server.api("POST", "/api/users/register", {
      body: { username: 1, email: true, password: null },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.detail[0]).toMatchObject({ loc: ["body", "username"] });
    const missing = await server.api("POST", "/api/users/login", { body: { email: "a@b.co" } });
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0].msg).toBe("필수 항목입니다.");
    const unknown = await server.api("POST", "/api/users/login", {
      body: { email: "a@b.co", password: "whatever1", is_admin: true },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail[0].msg).toBe("허용되지 않는 항목이 포함되어 있습니다.");
  });

  test("an oversize body is 413", async () => {
    const res = await server.api("POST", "/api/users/register", {
      raw: JSON.stringify({ username: "big", email: "big@x.com", password: "x".repeat(400_000) }),
    });
    expect(res.status).toBe(413);
    expect(res.body.detail).toBe("요청 본문이 너무 큽니다.");
  });

  test("unknown API paths are a JSON 404, client routes get the SPA, socket.io never gets HTML", async () => {
    const api = await server.api("GET", "/api/does-not-exist");
    expect(api.status).toBe(404);
    expect(api.body.detail).toBeString();
    const route = await fetch(`${server.url}/rooms/1`);
    expect(route.headers.get("content-type") ?? "").toContain("text/html");
    const socket = await fetch(`${server.url}/socket.io/?EIO=3&transport=polling`);
    expect(socket.headers.get("content-type") ?? "").not.toContain("text/html");
  });
});

describe("platform", () => {
  test("health reports version and database", async () => {
    expect(await server.api("GET", "/api/health")).toMatchObject({
      status: 200,
      body: { status: "ok", database: true },
    });
  });

  test("security headers are on every response", async () => {
    for (const path of ["/api/health", "/", "/api/nope"]) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    }
  });

  test("CORS does not reflect an unknown origin", async () => {
    const res = await fetch(`${server.url}/api/health`, { headers: { origin: "https://evil.example" } });
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });

  test("/swagger/json is OpenAPI and lists every accounts route with a tag and summary", async () => {
    const { status, body } = await server.api("GET", "/swagger/json");
    expect(status).toBe(200);
    expect(body.openapi).toMatch(/^3\./);
    for (const path of ["register", "login", "me", "refresh", "logout", "reset-password"]) {
      const item = body.paths[`/api/users/${path}`];
      expect(item).toBeDefined();
      const op = Object.values(item)[0] as { tags: string[]; summary: string };
      expect(op.tags).toContain("accounts");
      expect(op.summary).toBeString();
    }
    const ui = await fetch(`${server.url}/swagger`);
    const html = await ui.text();
    expect(html).toContain("/swagger-assets/swagger-ui-bundle.js");
    expect(html).not.toContain("unpkg.com");
    expect((await fetch(`${server.url}/swagger-assets/swagger-ui-bundle.js`)).status).toBe(200);
  });
});
