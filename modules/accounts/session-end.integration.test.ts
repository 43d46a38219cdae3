/**
 * Issue 24 "What players trip over": a device whose session the server ended learns why (the refresh answer's
 * `reason`, and `user:session_closed` on its socket before the disconnect), and the reset page can check its link
 * when it opens without using it up.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { io as connect, type Socket } from "socket.io-client";
import { startTestServer, type TestServer } from "../../apps/server/testing";
import { type Clock, systemClock } from "../kernel/clock";
import { SESSION_CLOSED_EVENT, SESSION_END_TEXT } from "../kernel/session-end";
import { accountsApi } from "./api";
import { RESET_LINK_INVALID, RESET_LINK_USABLE } from "./service";
import { AUTH_FAILED } from "./tokens";

// A clock that can be moved forward (the link's 30 minutes) while timers stay real.
let offset = 0;
const clock: Clock = { ...systemClock, now: () => Date.now() + offset };

let server: TestServer;
const sockets: Socket[] = [];
beforeAll(async () => {
  server = await startTestServer({ clock });
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server.stop();
});

const NEW_PASSWORD = "brand-new-pass-24";
const service = () => accountsApi(server.ctx).service;

const login = (email: string, password: string) =>
  server.api("POST", "/api/users/login", { body: { email, password, remember_me: true } });
const refresh = (refreshToken: string) =>
  server.api("POST", "/api/users/refresh", { body: { refresh_token: refreshToken } });
const check = (token: unknown) => server.api("POST", "/api/users/reset-password-with-token/check", { body: { token } });
const resetWith = (token: string) =>
  server.api("POST", "/api/users/reset-password-with-token", {
    body: { token, new_password: NEW_PASSWORD, confirm_password: NEW_PASSWORD },
  });
const tokenOfLink = (link: string) => new URL(link).searchParams.get("token")!;

interface Closed {
  events: unknown[];
  disconnected: Promise<string>;
}

/** A member socket of another device, recording `user:session_closed` and how it ended. */
async function deviceSocket(accessToken: string): Promise<Closed> {
  const socket = connect(server.url, {
    path: "/socket.io/",
    transports: ["websocket"],
    reconnection: false,
    forceNew: true,
    auth: { token: accessToken },
  });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", reject);
  });
  const events: unknown[] = [];
  socket.on(SESSION_CLOSED_EVENT, (payload: unknown) => events.push(payload));
  const disconnected = new Promise<string>((resolve) => socket.once("disconnect", (reason) => resolve(reason)));
  return { events, disconnected };
}

/** Another device: logged in (refresh token), with a live member socket. */
async function otherDevice(email: string, password: string) {
  const { body } = await login(email, password);
  return { refreshToken: body.refresh_token as string, socket: await deviceSocket(body.access_token) };
}

describe("the device whose session the server ended is told why", () => {
  test("a password change elsewhere: its socket hears password_changed before it closes, its refresh says so", async () => {
    const user = await server.createUser("변경알림");
    const device = await otherDevice(user.email, user.password);

    const changed = await server.api("POST", "/api/users/reset-password", {
      token: user.token,
      body: { new_password: NEW_PASSWORD, confirm_password: NEW_PASSWORD },
    });
    expect(changed.status).toBe(200);

    await device.socket.disconnected;
    expect(device.socket.events).toEqual([{ reason: "password_changed", detail: SESSION_END_TEXT.password_changed }]);
    expect(await refresh(device.refreshToken)).toMatchObject({
      status: 401,
      body: { reason: "password_changed", detail: SESSION_END_TEXT.password_changed },
    });
  });

  test("the mailed link used elsewhere ends the session the same way", async () => {
    const user = await server.createUser("링크알림");
    const device = await otherDevice(user.email, user.password);
    expect((await resetWith(tokenOfLink(await service().resetLink(user.id)))).status).toBe(200);
    await device.socket.disconnected;
    expect(device.socket.events).toEqual([{ reason: "password_changed", detail: SESSION_END_TEXT.password_changed }]);
    expect((await refresh(device.refreshToken)).body).toMatchObject({ reason: "password_changed" });
  });

  test("an administrator's forced reset: password_reset_required", async () => {
    const user = await server.createUser("강제알림");
    const device = await otherDevice(user.email, user.password);
    await service().requirePasswordReset(user.id);
    await device.socket.disconnected;
    expect(device.socket.events).toEqual([
      { reason: "password_reset_required", detail: SESSION_END_TEXT.password_reset_required },
    ]);
    expect(await refresh(device.refreshToken)).toMatchObject({
      status: 401,
      body: { reason: "password_reset_required", detail: SESSION_END_TEXT.password_reset_required },
    });
  });

  test("a deactivation: deactivated, only while the account stays deactivated", async () => {
    const user = await server.createUser("정지알림");
    const device = await otherDevice(user.email, user.password);
    await service().setActive(user.id, false);
    await device.socket.disconnected;
    expect(device.socket.events).toEqual([{ reason: "deactivated", detail: SESSION_END_TEXT.deactivated }]);
    expect(await refresh(device.refreshToken)).toMatchObject({
      status: 401,
      body: { reason: "deactivated", detail: SESSION_END_TEXT.deactivated },
    });
    // Reactivated since: "비활성화된 계정입니다" would be false now; the old login just ended.
    await service().setActive(user.id, true);
    const after = await refresh(device.refreshToken);
    expect(after).toMatchObject({ status: 401, body: { detail: AUTH_FAILED } });
    expect(after.body.reason).toBeUndefined();
  });

  test("a logout ends its own login only, with no reason; the other device goes on", async () => {
    const user = await server.createUser("로그아웃");
    const mine = (await login(user.email, user.password)).body;
    const device = await otherDevice(user.email, user.password);
    await server.api("POST", "/api/users/logout", { body: { refresh_token: mine.refresh_token } });
    const refused = await refresh(mine.refresh_token);
    expect(refused).toMatchObject({ status: 401, body: { detail: AUTH_FAILED } });
    expect(refused.body.reason).toBeUndefined();
    expect((await refresh(device.refreshToken)).status).toBe(200);
    expect(device.socket.events).toEqual([]);
  });
});

describe("POST /api/users/reset-password-with-token/check", () => {
  test("a good link: 200, and checking it (twice) does not use it up", async () => {
    const user = await server.createUser("확인링크");
    const token = tokenOfLink(await service().resetLink(user.id));
    const first = await check(token);
    expect(first).toMatchObject({ status: 200, body: { detail: RESET_LINK_USABLE } });
    expect(Date.parse(first.body.expires_at) - clock.now()).toBeGreaterThan(29 * 60 * 1000);
    expect((await check(token)).status).toBe(200);
    // Still usable after the checks.
    expect((await resetWith(token)).status).toBe(200);
    expect((await login(user.email, NEW_PASSWORD)).status).toBe(200);
  });

  test("a used link, an expired one, a malformed one: 400 with the page's text", async () => {
    const user = await server.createUser("쓴링크");
    const used = tokenOfLink(await service().resetLink(user.id));
    expect((await resetWith(used)).status).toBe(200);
    expect(await check(used)).toMatchObject({ status: 400, body: { detail: RESET_LINK_INVALID } });

    const other = await server.createUser("만료링크");
    const expiring = tokenOfLink(await service().resetLink(other.id));
    expect((await check(expiring)).status).toBe(200);
    offset += 31 * 60 * 1000;
    try {
      expect(await check(expiring)).toMatchObject({ status: 400, body: { detail: RESET_LINK_INVALID } });
    } finally {
      offset -= 31 * 60 * 1000;
    }

    for (const malformed of ["", "x", "not a token at all", "%00%ff"]) {
      expect(await check(malformed)).toMatchObject({ status: 400, body: { detail: RESET_LINK_INVALID } });
    }
    expect((await check("a".repeat(201))).status).toBe(422);
    expect((await check(12345)).status).toBe(422);
    expect((await server.api("POST", "/api/users/reset-password-with-token/check", { body: {} })).status).toBe(422);
  });

  test("a link voided by a password change is refused by the check too", async () => {
    const user = await server.createUser("무효링크");
    const token = tokenOfLink(await service().resetLink(user.id));
    await server.api("POST", "/api/users/reset-password", {
      token: user.token,
      body: { new_password: NEW_PASSWORD, confirm_password: NEW_PASSWORD },
    });
    expect(await check(token)).toMatchObject({ status: 400, body: { detail: RESET_LINK_INVALID } });
  });
});
