import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { io as connect, type Socket } from "socket.io-client";
import { startTestServer, type TestServer } from "../../apps/server/testing";
import { accountsApi } from "./api";

let server: TestServer;
const sockets: Socket[] = [];
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server.stop();
});

const NEW_PASSWORD = "brand-new-pass-9";

function open(token: string) {
  const socket = connect(server.url, {
    path: "/socket.io/",
    transports: ["websocket"],
    reconnection: false,
    forceNew: true,
    auth: { token },
  });
  sockets.push(socket);
  return new Promise<{ socket: Socket; error?: Error & { data?: { code?: string } } }>((resolve) => {
    socket.once("connect", () => resolve({ socket }));
    socket.once("connect_error", (error) => resolve({ socket, error }));
  });
}

const login = (email: string, password: string) =>
  server.api("POST", "/api/users/login", { body: { email, password } });
const reset = (token: string) =>
  server.api("POST", "/api/users/reset-password", {
    token,
    body: { new_password: NEW_PASSWORD, confirm_password: NEW_PASSWORD },
  });

describe("a password change ends every session of the account", () => {
  test("another device's socket is disconnected and its tokens no longer work; a new login does", async () => {
    const user = await server.createUser("리셋유저");
    const other = (await login(user.email, user.password)).body;
    const { socket: otherSocket } = await open(other.access_token);
    const dropped = new Promise<string>((resolve) => otherSocket.once("disconnect", resolve));

    const res = await reset(user.token);
    expect(res).toMatchObject({
      status: 200,
      body: { detail: "비밀번호가 성공적으로 변경되었습니다. 새 비밀번호로 다시 로그인해주세요." },
    });
    expect(await dropped).toBe("io server disconnect");
    // The other device cannot come back with what it holds: access token, refresh token, socket handshake.
    expect((await server.api("GET", "/api/users/me", { token: other.access_token })).status).toBe(401);
    const refreshed = await server.api("POST", "/api/users/refresh", { body: { refresh_token: other.refresh_token } });
    expect(refreshed.status).toBe(401);
    const again = await open(other.access_token);
    expect(again.error?.data?.code).toBe("auth_failed");
    // Nor can the session that made the change: the user logs in again with the new password (spec).
    expect((await server.api("GET", "/api/users/me", { token: user.token })).status).toBe(401);
    expect((await login(user.email, user.password)).status).toBe(401);
    const fresh = await login(user.email, NEW_PASSWORD);
    expect(fresh.status).toBe(200);
    expect((await server.api("GET", "/api/users/me", { token: fresh.body.access_token })).status).toBe(200);
    expect((await open(fresh.body.access_token)).error).toBeUndefined();
  });

  test("the forced reset: a reset-only login sets the password, then the user logs in normally", async () => {
    const user = await server.createUser("강제리셋");
    const { socket } = await open(user.token);
    const dropped = new Promise<string>((resolve) => socket.once("disconnect", resolve));
    await accountsApi(server.ctx).service.requirePasswordReset(user.id);
    expect(await dropped).toBe("io server disconnect");
    const narrow = await login(user.email, user.password);
    expect(narrow.body.password_reset_required).toBe(true);
    expect((await reset(narrow.body.access_token)).status).toBe(200);
    const fresh = await login(user.email, NEW_PASSWORD);
    expect(fresh.body).toMatchObject({ password_reset_required: false });
    expect((await open(fresh.body.access_token)).error).toBeUndefined();
  });

  test("a forced reset closes the sessions before it: an old token cannot set the password, a new login can", async () => {
    const admin = await server.createUser("리셋관리자", { admin: true });
    const victim = await server.createUser("피해자");
    // Someone else holds the victim's tokens from before (a stolen token, a shared computer).
    const stolen = (await login(victim.email, victim.password)).body;
    const forced = await server.api("POST", `/api/admin/users/${victim.id}/require-password-reset`, {
      token: admin.token,
      body: {},
    });
    expect(forced.status).toBe(200);
    // Tokens issued before the requirement are closed, the narrow routes included.
    expect((await reset(stolen.access_token)).status).toBe(401);
    expect((await reset(victim.token)).status).toBe(401);
    expect((await server.api("GET", "/api/users/me", { token: stolen.access_token })).status).toBe(401);
    const refreshed = await server.api("POST", "/api/users/refresh", { body: { refresh_token: stolen.refresh_token } });
    expect(refreshed.status).toBe(401);
    // The password is unchanged: only a login with it (made after the requirement) may set a new one.
    const narrow = await login(victim.email, victim.password);
    expect(narrow.body.password_reset_required).toBe(true);
    expect((await reset(narrow.body.access_token)).status).toBe(200);
    expect((await login(victim.email, NEW_PASSWORD)).status).toBe(200);
  });

  test("the same through the service `madang users require-password-reset` runs", async () => {
    const victim = await server.createUser("씨엘아이");
    await accountsApi(server.ctx).service.requirePasswordReset(victim.id);
    expect((await reset(victim.token)).status).toBe(401);
    expect((await login(victim.email, victim.password)).body.password_reset_required).toBe(true);
  });

  test("a failed attempt (the same password again) ends nothing", async () => {
    const user = await server.createUser("실패리셋");
    const { socket } = await open(user.token);
    const same = await server.api("POST", "/api/users/reset-password", {
      token: user.token,
      body: { new_password: user.password, confirm_password: user.password },
    });
    expect(same.status).toBe(422);
    expect((await server.api("GET", "/api/users/me", { token: user.token })).status).toBe(200);
    const refreshed = await server.api("POST", "/api/users/refresh", { body: { refresh_token: user.refreshToken } });
    expect(refreshed.status).toBe(200);
    expect(socket.connected).toBe(true);
  });
});
