import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { io as connect, type Socket } from "socket.io-client";
import { ACCOUNT_CHANGES_POLL_MS, accountChangesPolled, accountsApi } from "../accounts";
import { adminApi } from "./api";
import type { Actor } from "./service";
import { breakAuditLog, errorText, runCli, startAdminServer, type TestUser } from "./test-helpers";
import { USER_ACTIONS } from "./user-actions";

// A server on a fake clock: its poll of the account changes feed runs when the test advances the clock, so "the
// server learned of the CLI's change" is checked without sleeping.
let t: Awaited<ReturnType<typeof startAdminServer>>;
let admin: TestUser;
const sockets: Socket[] = [];
const heard: { event: string; userId: number }[] = [];

beforeAll(async () => {
  t = await startAdminServer();
  admin = await t.user("소켓관리자", { admin: true });
  t.server.ctx.events.on("accounts.user_updated", ({ userId }) => heard.push({ event: "user_updated", userId }));
  t.server.ctx.events.on("accounts.sessions_closed", ({ userId }) => heard.push({ event: "sessions_closed", userId }));
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await t.server.stop();
});

async function liveSocket(user: TestUser) {
  const socket = connect(t.server.url, {
    path: "/socket.io/",
    transports: ["websocket"],
    reconnection: false,
    forceNew: true,
    auth: { token: user.token },
  });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", reject);
  });
  return socket;
}

/** The identity the server holds for this client's socket (what every module's handler reads). */
async function identityOf(socket: Socket) {
  const found = (await t.server.io.fetchSockets()).find((s) => s.id === socket.id);
  return found?.data.identity;
}

const heardFor = (userId: number) => heard.filter((h) => h.userId === userId).map((h) => h.event);
const pollFeed = async () => {
  t.clock.advance(ACCOUNT_CHANGES_POLL_MS);
  await accountChangesPolled(t.server.ctx);
};

describe("a rename reaches the user's live sockets", () => {
  test("from the web console: every socket of the user has the new name at once, announced once", async () => {
    const user = await t.user("옛이름");
    const [first, second] = [await liveSocket(user), await liveSocket(user)];
    const told = new Promise((resolve) => second.once("user:stats_update", resolve));
    const res = await t.server.api("PUT", `/api/admin/users/${user.id}/username`, {
      token: admin.token,
      body: { new_username: "새이름" },
    });
    expect(res.status).toBe(200);
    // The page is told too (the navbar shows the new name, in a room or not).
    expect(await told).toEqual({ id: user.id, user_id: user.id, username: "새이름", is_admin: false });
    expect(await identityOf(first)).toMatchObject({ kind: "user", userId: user.id, username: "새이름" });
    expect(await identityOf(second)).toMatchObject({ username: "새이름" });
    // The server's own change also sits in the feed for other processes; its poll does not announce it again.
    await pollFeed();
    await pollFeed();
    expect(heardFor(user.id)).toEqual(["user_updated"]);
  });

  test("granting and revoking administrator rights updates the socket's identity too", async () => {
    const user = await t.user("권한대상");
    const socket = await liveSocket(user);
    await t.server.api("POST", `/api/admin/users/${user.id}/grant-admin`, { token: admin.token });
    expect(await identityOf(socket)).toMatchObject({ isAdmin: true });
    await t.server.api("POST", `/api/admin/users/${user.id}/revoke-admin`, { token: admin.token });
    expect(await identityOf(socket)).toMatchObject({ isAdmin: false });
  });

  test("from the CLI (another process): the server learns it from the feed and announces it once", async () => {
    const user = await t.user("cli대상");
    const socket = await liveSocket(user);
    const res = await runCli(t.server, "users", "rename", user.email, "cli새이름", "--as", "운영자");
    expect(res.code, res.stderr).toBe(0);
    expect(await identityOf(socket)).toMatchObject({ username: "cli대상" });
    await pollFeed();
    expect(await identityOf(socket)).toMatchObject({ kind: "user", userId: user.id, username: "cli새이름" });
    await pollFeed();
    expect(heardFor(user.id)).toEqual(["user_updated"]);
    expect(socket.connected).toBe(true);
  });

  test("from the CLI, a grant of administrator rights reaches the socket as well", async () => {
    const user = await t.user("cli권한");
    const socket = await liveSocket(user);
    expect((await runCli(t.server, "users", "grant-admin", String(user.id))).code).toBe(0);
    await pollFeed();
    expect(await identityOf(socket)).toMatchObject({ isAdmin: true });
  });
});

describe("an account toggle and its audit row commit together", () => {
  const actor = (): Actor => ({ id: admin.id, username: "소켓관리자", source: "web" });

  test.each(USER_ACTIONS.map((action) => [action.name, action] as const))(
    "%s: a failed audit write rolls the change back and announces nothing",
    async (_name, action) => {
      const user = await t.user(`감사${action.name.replace(/-/g, "").slice(0, 8)}`);
      // The starting point each toggle changes: an inactive user to activate, an administrator to demote.
      if (action.name === "activate") await accountsApi(t.server.ctx).service.setActive(user.id, false);
      if (action.name === "revoke-admin") await accountsApi(t.server.ctx).service.setAdmin(user.id, true);
      const refreshToken = (await t.login(user.email)).body.refresh_token;
      const socket = action.name === "activate" ? null : await liveSocket(user);
      const before = await accountsApi(t.server.ctx).service.me(user.id);
      heard.length = 0;
      const repair = await breakAuditLog(t.server.ctx);
      let failure: unknown;
      try {
        await action.run(adminApi(t.server.ctx), actor(), user.id, "사유");
      } catch (error) {
        failure = error;
      } finally {
        await repair();
      }
      expect(errorText(failure)).toContain("audit log unavailable");
      expect(await accountsApi(t.server.ctx).service.me(user.id)).toEqual(before);
      expect(heard).toEqual([]);
      if (refreshToken) {
        const refreshed = await t.server.api("POST", "/api/users/refresh", { body: { refresh_token: refreshToken } });
        expect(refreshed.status).toBe(200);
      }
      expect(socket?.connected ?? true).toBe(true);
      const logs = await adminApi(t.server.ctx).listLogs({ page: 1, pageSize: 50, targetUserId: user.id });
      expect(logs.logs).toEqual([]);
      // Repaired, the same toggle goes through with its audit row.
      await action.run(adminApi(t.server.ctx), actor(), user.id, "사유");
      const after = await adminApi(t.server.ctx).listLogs({ page: 1, pageSize: 50, targetUserId: user.id });
      expect(after.total_count).toBe(1);
    },
  );
});
