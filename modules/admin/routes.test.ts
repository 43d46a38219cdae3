import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { users } from "../../db/core/schema";
import { accountsApi } from "../accounts";
import { finishGame, recordResult } from "../games";
import { seoulDate } from "../kernel/seoul-time";
import { adminApi } from "./api";
import { registerGameStatsProvider } from "./game-stats";
import { setUserFigures, startAdminServer, type TestUser } from "./test-helpers";

let t: Awaited<ReturnType<typeof startAdminServer>>;
let admin: TestUser;
let member: TestUser;

beforeAll(async () => {
  t = await startAdminServer();
  admin = await t.user("관리자", { admin: true });
  member = await t.user("member1");
});
afterAll(() => t.server.stop());

const api = (method: string, path: string, token?: string, body?: unknown) =>
  t.server.api(method, path, { token, body });
const logs = async (query = "") => (await api("GET", `/api/admin/logs${query}`, admin.token)).body.logs as LogEntry[];
const setFigures = (id: number, values: Partial<typeof users.$inferInsert>) => setUserFigures(t.server.ctx, id, values);

interface LogEntry {
  id: number;
  admin_id: number | null;
  admin_username: string;
  action: string;
  target_user_id: number | null;
  target_username: string | null;
  details: string | null;
  source: string;
  created_at: string;
}

describe("access", () => {
  const routes = (id: () => number): [string, string, unknown?][] => [
    ["GET", "/api/admin/dashboard"],
    ["GET", "/api/admin/users"],
    ["GET", `/api/admin/users/${id()}`],
    ["PUT", `/api/admin/users/${id()}/username`, { new_username: "바뀐이름" }],
    ["GET", `/api/admin/users/${id()}/login-history`],
    ["GET", "/api/admin/logs"],
    ["POST", `/api/admin/users/${id()}/activate`],
    ["POST", `/api/admin/users/${id()}/deactivate`],
    ["POST", `/api/admin/users/${id()}/require-password-reset`],
    ["POST", `/api/admin/users/${id()}/grant-admin`],
    ["POST", `/api/admin/users/${id()}/revoke-admin`],
  ];

  test("anonymous callers get 401 on every admin route, even with a bad query", async () => {
    for (const [method, path, body] of routes(() => member.id)) {
      const res = await api(method, path, undefined, body);
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(typeof res.body.detail).toBe("string");
    }
    expect((await api("GET", "/api/admin/users?size=abc")).status).toBe(401);
  });

  test("a normal user gets 403 on every admin route and changes nothing", async () => {
    for (const [method, path, body] of routes(() => member.id)) {
      const res = await api(method, path, member.token, body);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.detail).toBe("관리자 권한이 필요합니다.");
    }
    const row = await accountsApi(t.server.ctx).service.requireById(member.id);
    expect(row.username).toBe("member1");
    expect(row.isActive).toBe(true);
    expect(row.isAdmin).toBe(false);
  });

  test("an administrator reaches every read route", async () => {
    for (const path of [
      "/api/admin/dashboard",
      "/api/admin/users",
      `/api/admin/users/${member.id}`,
      `/api/admin/users/${member.id}/login-history`,
      "/api/admin/logs",
    ]) {
      expect((await api("GET", path, admin.token)).status, path).toBe(200);
    }
  });

  test("a demoted administrator loses access at once with the same token", async () => {
    const other = await t.user("임시관리자", { admin: true });
    expect((await api("GET", "/api/admin/users", other.token)).status).toBe(200);
    expect((await api("POST", `/api/admin/users/${other.id}/revoke-admin`, admin.token)).status).toBe(200);
    expect((await api("GET", "/api/admin/users", other.token)).status).toBe(403);
  });

  test("a malformed bearer header is 401", async () => {
    const res = await t.server.api("GET", "/api/admin/dashboard", { headers: { authorization: "Token abc" } });
    expect(res.status).toBe(401);
  });
});

describe("user list", () => {
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  const list = async (query: string) => {
    const res = await api("GET", `/api/admin/users${query}`, admin.token);
    expect(res.status, query).toBe(200);
    return res.body as {
      users: { id: number; username: string; email: string; is_active: boolean }[];
      total: number;
      total_count: number;
      total_pages: number;
      current_page: number;
      page_size: number;
    };
  };
  const names = (body: { users: { username: string }[] }) => body.users.map((u) => u.username);

  beforeAll(async () => {
    alice = await t.user("Alice");
    t.clock.advance(1000);
    bob = await t.user("Bobby");
    t.clock.advance(1000);
    carol = await t.user("캐롤");
    await setFigures(alice.id, { level: 7, gamesPlayed: 30 });
    await setFigures(bob.id, { level: 3, gamesPlayed: 50 });
    await setFigures(carol.id, { level: 5, gamesPlayed: 10, isActive: false, lastLoginAt: null });
  });

  test("answers both page shapes with the default size of 20, newest first", async () => {
    const body = await list("");
    expect(body.page_size).toBe(20);
    expect(body.current_page).toBe(1);
    expect(body.total).toBe(body.total_count);
    expect(body.total_pages).toBe(Math.ceil(body.total / 20));
    expect(body.users.length).toBe(body.total);
    const created = body.users.map((u) => (u as unknown as { created_at: string }).created_at);
    expect(created).toEqual([...created].sort().reverse());
    const first = body.users[0] as Record<string, unknown>;
    for (const field of ["is_admin", "is_active", "level", "experience", "games_played", "avg_wpm", "login_count"]) {
      expect(first).toHaveProperty(field);
    }
    expect(first).not.toHaveProperty("password_hash");
    expect(first).not.toHaveProperty("passwordHash");
  });

  test("search matches username or email, case-insensitively, and % is literal", async () => {
    expect(names(await list("?search=ali"))).toEqual(["Alice"]);
    expect(names(await list("?search=BOBBY%40EXAMPLE"))).toEqual(["Bobby"]);
    expect(names(await list("?search=캐"))).toEqual(["캐롤"]);
    expect(names(await list(`?search=${encodeURIComponent("%")}`))).toEqual([]);
    expect(names(await list("?search_username=example"))).toEqual([]);
    expect(names(await list("?search_username=bob"))).toEqual(["Bobby"]);
  });

  test("is_active filters; an empty value means all", async () => {
    const inactive = await list("?is_active=false");
    expect(names(inactive)).toEqual(["캐롤"]);
    const active = await list("?is_active=true");
    expect(active.users.every((u) => u.is_active)).toBe(true);
    expect(names(active)).not.toContain("캐롤");
    expect((await list("?is_active=")).total).toBe(active.total + inactive.total);
  });

  test("sorts by level, games played, username and last login", async () => {
    const three = ["Alice", "Bobby", "캐롤"];
    const order = async (query: string) => names(await list(`${query}&size=100`)).filter((n) => three.includes(n));
    expect(await order("?sort_by=level&sort_order=desc")).toEqual(["Alice", "캐롤", "Bobby"]);
    expect(await order("?sort_by=level&sort_order=asc")).toEqual(["Bobby", "캐롤", "Alice"]);
    expect(await order("?sort_by=games_played&sort_order=desc")).toEqual(["Bobby", "Alice", "캐롤"]);
    expect(await order("?sort_by=username&sort_order=asc")).toEqual(["Alice", "Bobby", "캐롤"]);
    expect(await order("?sort_by=created_at&sort_order=asc")).toEqual(["Alice", "Bobby", "캐롤"]);
    // Never logged in sorts last both ways.
    expect(names(await list("?sort_by=last_login_at&sort_order=asc&size=100")).at(-1)).toBe("캐롤");
    expect(names(await list("?sort_by=last_login_at&sort_order=desc&size=100")).at(-1)).toBe("캐롤");
  });

  test("pages with size or page_size", async () => {
    const all = await list("?sort_order=asc&size=100");
    const page2 = await list("?sort_order=asc&size=2&page=2");
    expect(page2.page_size).toBe(2);
    expect(page2.current_page).toBe(2);
    expect(page2.total_pages).toBe(Math.ceil(all.total / 2));
    expect(names(page2)).toEqual(names(all).slice(2, 4));
    const alias = await list("?sort_order=asc&page_size=2&page=2");
    expect(names(alias)).toEqual(names(page2));
    expect((await list("?page=999")).users).toEqual([]);
  });

  test("bad query values are refused with 422", async () => {
    for (const query of [
      "?size=0",
      "?size=101",
      "?page=0",
      "?page=x",
      "?sort_by=password",
      "?sort_order=up",
      "?is_active=yes",
    ]) {
      const res = await api("GET", `/api/admin/users${query}`, admin.token);
      expect(res.status, query).toBe(422);
      expect(Array.isArray(res.body.detail)).toBe(true);
    }
  });

  test("each list view is logged as view_users with its filters", async () => {
    await list("?search=ali");
    const [entry] = await logs();
    expect(entry.action).toBe("view_users");
    expect(entry.admin_id).toBe(admin.id);
    expect(entry.admin_username).toBe("관리자");
    expect(entry.source).toBe("web");
    expect(JSON.parse(entry.details!)).toEqual({ search: "ali" });
  });
});

describe("user detail and login history", () => {
  test("shows the administrator view of a user and logs view_user", async () => {
    const res = await api("GET", `/api/admin/users/${member.id}`, admin.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: member.id, username: "member1", email: member.email, is_active: true });
    expect(res.body.login_count).toBeGreaterThanOrEqual(1);
    // Earlier views of member1 in this file were within 10 minutes: one row (see the next test).
    const [entry] = await logs(`?action=view_user&target_user_id=${member.id}`);
    expect(entry).toMatchObject({ action: "view_user", target_user_id: member.id, target_username: "member1" });
  });

  test("repeated views of one user by one admin within 10 minutes are one row: its time the latest, views counted", async () => {
    const viewed = await t.user("자주보는회원");
    const other = await t.user("다른관리자", { admin: true });
    const rowsOf = async () => logs(`?action=view_user&target_user_id=${viewed.id}`);
    await api("GET", `/api/admin/users/${viewed.id}`, admin.token);
    t.clock.advance(4 * 60 * 1000);
    await api("GET", `/api/admin/users/${viewed.id}`, admin.token);
    t.clock.advance(4 * 60 * 1000);
    await api("GET", `/api/admin/users/${viewed.id}`, admin.token);
    let rows = await rowsOf();
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]!.details!)).toEqual({ views: 3 });
    expect(Date.parse(rows[0]!.created_at)).toBe(t.clock.now());
    // Another administrator's view is their own row; a view more than 10 minutes after the last starts a new one.
    await api("GET", `/api/admin/users/${viewed.id}`, other.token);
    t.clock.advance(10 * 60 * 1000 + 1);
    // Access tokens live 15 minutes: the admin logs in again (the later tests use this token too).
    admin.token = (await t.login(admin.email)).body.access_token;
    await api("GET", `/api/admin/users/${viewed.id}`, admin.token);
    rows = await rowsOf();
    expect(rows.map((r) => [r.admin_username, r.details])).toEqual([
      [admin.username, null],
      [other.username, null],
      [admin.username, JSON.stringify({ views: 3 })],
    ]);
  });

  test("an unknown user is 404 with the spec's text; a non-number id is 422", async () => {
    const missing = await api("GET", "/api/admin/users/999999", admin.token);
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toBe("사용자를 찾을 수 없습니다.");
    expect((await api("GET", "/api/admin/users/abc", admin.token)).status).toBe(422);
    expect((await api("GET", "/api/admin/users/999999/login-history", admin.token)).status).toBe(404);
  });

  test("login history lists logins newest first with IP and user agent, paged", async () => {
    const u = await t.user("기록남김");
    t.clock.advance(60_000);
    await t.login(u.email);
    const res = await api("GET", `/api/admin/users/${u.id}/login-history`, admin.token);
    expect(res.status).toBe(200);
    expect(res.body.total_count).toBe(2);
    expect(res.body.current_page).toBe(1);
    expect(res.body.page_size).toBe(10);
    const [newest, older] = res.body.logs;
    expect(Object.keys(newest).sort()).toEqual(["id", "ip_address", "login_time", "user_agent"]);
    expect(newest.user_agent).toBe("admin-test-agent");
    expect(newest.ip_address).toBeTruthy();
    expect(Date.parse(newest.login_time)).toBeGreaterThan(Date.parse(older.login_time));
    const page2 = await api("GET", `/api/admin/users/${u.id}/login-history?page=2&size=1`, admin.token);
    expect(page2.body.logs.map((l: { id: number }) => l.id)).toEqual([older.id]);
    expect(page2.body.total_pages).toBe(2);
  });
});

describe("rename", () => {
  const rename = (id: number, body: unknown, token = admin.token) =>
    api("PUT", `/api/admin/users/${id}/username`, token, body);

  test("renames with a reason: answer, database and audit row agree", async () => {
    const u = await t.user("oldname");
    const res = await rename(u.id, { new_username: "  새이름  ", reason: " 부적절한 이름 " });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: u.id, username: "새이름", email: u.email });
    expect((await accountsApi(t.server.ctx).service.requireById(u.id)).username).toBe("새이름");
    const [entry] = await logs();
    expect(entry).toMatchObject({
      action: "update_username",
      admin_id: admin.id,
      admin_username: "관리자",
      target_user_id: u.id,
      target_username: "새이름",
      source: "web",
    });
    expect(JSON.parse(entry.details!)).toEqual({
      old_username: "oldname",
      new_username: "새이름",
      reason: "부적절한 이름",
    });
    // The renamed user logs in as before and is seen under the new name.
    const login = await t.login(u.email);
    expect(login.body.user.username).toBe("새이름");
  });

  test("the reason is optional and a case-only change is allowed", async () => {
    const u = await t.user("casey");
    const res = await rename(u.id, { new_username: "Casey" });
    expect(res.status).toBe(200);
    expect(res.body.username).toBe("Casey");
    const [entry] = await logs();
    expect(JSON.parse(entry.details!)).toEqual({ old_username: "casey", new_username: "Casey" });
  });

  test("refuses bad names with Korean details and writes no audit row", async () => {
    const u = await t.user("keepme");
    const taken = await t.user("TakenName");
    const before = (await logs("?action=update_username")).length;
    const cases: [unknown, number, string][] = [
      [{ new_username: " a " }, 400, "사용자명은 최소 2자 이상이어야 합니다."],
      [{ new_username: "" }, 400, "사용자명은 최소 2자 이상이어야 합니다."],
      [{ new_username: "keepme" }, 400, "현재 사용자명과 같습니다."],
      [{ new_username: "takenname" }, 409, "이미 사용 중인 아이디입니다."],
      [{ new_username: "bad name!" }, 400, "한글 또는 영문, 숫자만 사용 가능합니다 (특수문자 불가)"],
      [{ new_username: "12345" }, 400, "숫자로만 구성될 수 없습니다"],
      // One rule for renames (2~12자): never the registration's "1~12자" next to the spec's "2자 이상".
      [{ new_username: "abcdefghijklm" }, 400, "사용자명은 12자 이하여야 합니다."],
    ];
    for (const [body, status, detail] of cases) {
      const res = await rename(u.id, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.detail).toBe(detail);
    }
    expect((await accountsApi(t.server.ctx).service.requireById(u.id)).username).toBe("keepme");
    expect((await accountsApi(t.server.ctx).service.requireById(taken.id)).username).toBe("TakenName");
    expect((await logs("?action=update_username")).length).toBe(before);
  });

  test("schema failures: unknown fields, missing name, long reason, unknown user", async () => {
    expect((await rename(member.id, { new_username: "새이름2", extra: 1 })).status).toBe(422);
    expect((await rename(member.id, {})).status).toBe(422);
    expect((await rename(member.id, { new_username: "새이름2", reason: "가".repeat(501) })).status).toBe(422);
    const missing = await rename(999999, { new_username: "없는사람" });
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toBe("사용자를 찾을 수 없습니다.");
  });
});

describe("account actions", () => {
  test("deactivate: no login, no refresh, existing token refused; activate restores", async () => {
    const u = await t.user("dormant");
    const res = await api("POST", `/api/admin/users/${u.id}/deactivate`, admin.token, { reason: "스팸" });
    expect(res.status).toBe(200);
    expect(res.body.is_active).toBe(false);
    const login = await t.login(u.email);
    expect(login.status).toBe(403);
    expect(login.body.detail).toBe("비활성화된 계정입니다. 관리자에게 문의해주세요.");
    const refresh = await api("POST", "/api/users/refresh", undefined, { refresh_token: u.refreshToken });
    expect([401, 403]).toContain(refresh.status);
    expect((await api("GET", "/api/users/me", u.token)).status).toBe(403);
    const [entry] = await logs();
    expect(entry).toMatchObject({ action: "deactivate_user", target_user_id: u.id, target_username: "dormant" });
    expect(JSON.parse(entry.details!)).toEqual({ reason: "스팸" });

    const back = await api("POST", `/api/admin/users/${u.id}/activate`, admin.token);
    expect(back.status).toBe(200);
    expect(back.body.is_active).toBe(true);
    expect((await t.login(u.email)).status).toBe(200);
    expect((await logs())[0]).toMatchObject({ action: "activate_user", target_user_id: u.id, details: null });
  });

  test("deactivating closes the user's open sockets", async () => {
    const { io } = await import("socket.io-client");
    const u = await t.user("socketuser");
    const socket = io(t.server.url, { path: "/socket.io/", transports: ["websocket"], auth: { token: u.token } });
    await new Promise<void>((resolve, reject) => {
      socket.on("connect", () => resolve());
      socket.on("connect_error", reject);
    });
    const closed = new Promise<string>((resolve) => socket.on("disconnect", (reason) => resolve(reason)));
    expect((await api("POST", `/api/admin/users/${u.id}/deactivate`, admin.token)).status).toBe(200);
    expect(await closed).toBe("io server disconnect");
    socket.close();
  });

  test("an administrator cannot deactivate or demote themself", async () => {
    const self1 = await api("POST", `/api/admin/users/${admin.id}/deactivate`, admin.token);
    expect(self1.status).toBe(400);
    expect(self1.body.detail).toBe("자기 자신의 계정은 비활성화할 수 없습니다.");
    const self2 = await api("POST", `/api/admin/users/${admin.id}/revoke-admin`, admin.token);
    expect(self2.status).toBe(400);
    expect(self2.body.detail).toBe("자기 자신의 관리자 권한은 해제할 수 없습니다.");
    const row = await accountsApi(t.server.ctx).service.requireById(admin.id);
    expect(row.isActive && row.isAdmin).toBe(true);
  });

  test("grant and revoke admin, each logged", async () => {
    const u = await t.user("promoted");
    expect((await api("GET", "/api/admin/dashboard", u.token)).status).toBe(403);
    const granted = await api("POST", `/api/admin/users/${u.id}/grant-admin`, admin.token);
    expect(granted.body.is_admin).toBe(true);
    expect((await api("GET", "/api/admin/dashboard", u.token)).status).toBe(200);
    expect((await logs())[0]).toMatchObject({ action: "grant_admin", target_user_id: u.id });
    const revoked = await api("POST", `/api/admin/users/${u.id}/revoke-admin`, admin.token);
    expect(revoked.body.is_admin).toBe(false);
    expect((await api("GET", "/api/admin/dashboard", u.token)).status).toBe(403);
    expect((await logs())[0]).toMatchObject({ action: "revoke_admin", target_user_id: u.id });
  });

  test("require a password reset: next login gets a reset-only token", async () => {
    const u = await t.user("resetme");
    const res = await api("POST", `/api/admin/users/${u.id}/require-password-reset`, admin.token);
    expect(res.status).toBe(200);
    expect(res.body.password_reset_required).toBe(true);
    const login = await t.login(u.email);
    expect(login.body.password_reset_required).toBe(true);
    expect(login.body.refresh_token).toBeUndefined();
    expect((await logs())[0]).toMatchObject({ action: "require_password_reset", target_user_id: u.id });
  });

  test("unknown users and bad bodies", async () => {
    const missing = await api("POST", "/api/admin/users/999999/deactivate", admin.token);
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toBe("사용자를 찾을 수 없습니다.");
    expect((await api("POST", `/api/admin/users/${member.id}/activate`, admin.token, { foo: 1 })).status).toBe(422);
  });
});

describe("admin logs", () => {
  test("newest first, paged with page_size, every field present", async () => {
    const all = await api("GET", "/api/admin/logs?page_size=100", admin.token);
    expect(all.status).toBe(200);
    const entries = all.body.logs as LogEntry[];
    expect(all.body.total_count).toBe(entries.length);
    const ids = entries.map((e) => e.id);
    // Newest first by time, then by id (a collapsed view_user row moves up to its latest view's time).
    const newestFirst = [...entries].sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at) || b.id - a.id);
    expect(ids).toEqual(newestFirst.map((e) => e.id));
    expect(Object.keys(entries[0]).sort()).toEqual(
      [
        "action",
        "admin_id",
        "admin_username",
        "created_at",
        "details",
        "id",
        "source",
        "target_user_id",
        "target_username",
      ].sort(),
    );
    const page = await api("GET", "/api/admin/logs?page=2&page_size=3", admin.token);
    expect(page.body).toMatchObject({ current_page: 2, page_size: 3, total_pages: Math.ceil(entries.length / 3) });
    expect(page.body.logs.map((e: LogEntry) => e.id)).toEqual(ids.slice(3, 6));
    const defaults = await api("GET", "/api/admin/logs", admin.token);
    expect(defaults.body.page_size).toBe(20);
    expect((await api("GET", "/api/admin/logs?page_size=0", admin.token)).status).toBe(422);
  });

  test("filters by action and target user", async () => {
    const views = await logs(`?action=view_user&target_user_id=${member.id}`);
    expect(views.length).toBeGreaterThan(0);
    expect(views.every((e) => e.action === "view_user" && e.target_user_id === member.id)).toBe(true);
  });
});

describe("admin log filters", () => {
  test("by administrator: a web admin by id, a CLI operator by name; with the action too; the list of actors", async () => {
    const second = await t.user("둘째관리자", { admin: true });
    for (let i = 0; i < 3; i++) await api("GET", "/api/admin/users?size=1", second.token);
    await api("GET", `/api/admin/users/${member.id}`, second.token);
    await adminApi(t.server.ctx).writeLog({ id: null, username: "cli:ops", source: "cli" }, "create_room", null);

    const bySecond = await api("GET", `/api/admin/logs?admin_id=${second.id}&page_size=100`, admin.token);
    expect(bySecond.status).toBe(200);
    expect(bySecond.body.total_count).toBe(4);
    expect(bySecond.body.logs.every((e: LogEntry) => e.admin_id === second.id)).toBe(true);
    const renamesOnly = await logs(`?admin_id=${second.id}&action=view_user`);
    expect(renamesOnly.map((e) => [e.action, e.target_user_id])).toEqual([["view_user", member.id]]);
    const byOperator = await logs("?admin_username=cli:ops");
    expect(byOperator.map((e) => [e.admin_username, e.action, e.source])).toEqual([["cli:ops", "create_room", "cli"]]);
    expect(await logs("?admin_username=cli:nobody")).toEqual([]);
    expect((await api("GET", "/api/admin/logs?admin_id=abc", admin.token)).status).toBe(422);

    const actors = await api("GET", "/api/admin/logs/admins", admin.token);
    expect(actors.status).toBe(200);
    const found = (id: number | null, name: string) =>
      actors.body.admins.find(
        (a: { admin_id: number | null; admin_username: string }) => a.admin_id === id && a.admin_username === name,
      );
    expect(found(second.id, "둘째관리자")).toMatchObject({ source: "web", count: 4 });
    expect(found(null, "cli:ops")).toMatchObject({ source: "cli", count: 1 });
    expect(found(admin.id, "관리자")).toBeDefined();
    const memberToken = (await t.login(member.email)).body.access_token;
    expect((await api("GET", "/api/admin/logs/admins", memberToken)).status).toBe(403);
    expect((await api("GET", "/api/admin/logs/admins")).status).toBe(401);
  });
});

describe("dashboard", () => {
  test("counts users, today's logins, recent registrations and admin actions", async () => {
    const before = (await api("GET", "/api/admin/dashboard", admin.token)).body;
    expect(before.daily).toHaveLength(30);
    expect(before.daily.at(-1).date).toBe(seoulDate(t.clock.now()));
    expect(before.total_games_played).toBe(0);
    const total = (await api("GET", "/api/admin/users?size=1", admin.token)).body.total;
    expect(before.total_users).toBe(total);

    // A user who registered 10 days ago and has not logged in since.
    t.clock.advance(-10 * 86_400_000);
    await t.server.api("POST", "/api/users/register", {
      body: { username: "옛사람", email: "old@example.com", password: "admin-pass-2026" },
    });
    t.clock.advance(10 * 86_400_000);
    const after = (await api("GET", "/api/admin/dashboard", admin.token)).body;
    expect(after.total_users).toBe(before.total_users + 1);
    expect(after.recent_registrations).toBe(before.recent_registrations);
    expect(after.active_users_today).toBe(before.active_users_today);
    expect(after.total_admin_actions).toBe(before.total_admin_actions + 1); // the users?size=1 view
    const tenDaysAgo = after.daily.find((d: { date: string }) => d.date === seoulDate(t.clock.now() - 10 * 86_400_000));
    expect(tenDaysAgo.registrations).toBe(1);
    const today = after.daily.at(-1);
    expect(today.registrations).toBe(before.daily.at(-1).registrations);
    expect(after.daily.reduce((n: number, d: { registrations: number }) => n + d.registrations, 0)).toBe(
      after.total_users,
    );
  });

  test("'today' is the Seoul calendar day", async () => {
    const u = await t.user("자정직전");
    const dash = (await api("GET", "/api/admin/dashboard", admin.token)).body;
    const seoulMidnight = Math.floor((t.clock.now() + 9 * 3_600_000) / 86_400_000) * 86_400_000 - 9 * 3_600_000;
    t.clock.advance(seoulMidnight + 86_400_000 - t.clock.now()); // the next Seoul day begins
    admin.token = (await t.login(admin.email)).body.access_token; // the old access token has expired
    const next = (await api("GET", "/api/admin/dashboard", admin.token)).body;
    expect(dash.active_users_today).toBeGreaterThan(1);
    expect(next.active_users_today).toBe(1); // only the administrator, just now
    expect(next.daily.at(-1).date).not.toBe(dash.daily.at(-1).date);
    expect(next.daily.at(-2)).toEqual(dash.daily.at(-1));
    expect((await t.login(u.email)).status).toBe(200);
    expect((await api("GET", "/api/admin/dashboard", admin.token)).body.active_users_today).toBe(2);
  });

  test("game counts come from the games module: finished games only, per Seoul day", async () => {
    const before = (await api("GET", "/api/admin/dashboard", admin.token)).body;
    const now = t.clock.now();
    const game = (round: number, startedAt: number) => ({
      mode: "sentence_race" as const,
      sourceId: "dashboard-room",
      sourceName: "대시보드 시험 방",
      round,
      startedAt,
    });
    const result = { userId: null, playerKey: "g_dashboard01", nickname: "guest_2000", wpm: 200, accuracy: 95 };
    const play = async (round: number, endedAt: number | null) => {
      const ref = game(round, (endedAt ?? now) - 30_000);
      await recordResult(t.server.ctx, ref, { ...result, completionTime: 20, position: 1, errorCount: 1 });
      if (endedAt !== null) await finishGame(t.server.ctx, ref, { endedAt, participants: 1, medals: [] });
    };
    await play(1, now); // today (the clock may stand at a Seoul midnight: a second earlier is yesterday)
    await play(2, now - 3 * 86_400_000); // three days ago
    await play(3, null); // still running: not counted

    const after = (await api("GET", "/api/admin/dashboard", admin.token)).body;
    expect(after.total_games_played).toBe(before.total_games_played + 2);
    expect(after.games_played_today).toBe(before.games_played_today + 1);
    const threeDaysAgo = (d: { date: string }) => d.date === seoulDate(now - 3 * 86_400_000);
    expect(after.daily.find(threeDaysAgo).games).toBe(before.daily.find(threeDaysAgo).games + 1);
  });

  test("game figures come from the registered provider", async () => {
    const ranges: ({ from: number; to: number } | undefined)[] = [];
    registerGameStatsProvider(t.server.ctx, {
      countGames(range) {
        ranges.push(range);
        return range ? (range.from <= t.clock.now() && t.clock.now() < range.to ? 4 : 1) : 123;
      },
    });
    const dash = (await api("GET", "/api/admin/dashboard", admin.token)).body;
    expect(dash.total_games_played).toBe(123);
    expect(dash.games_played_today).toBe(4);
    expect(dash.daily.map((d: { games: number }) => d.games)).toEqual([...Array(29).fill(1), 4]);
    expect(ranges.filter(Boolean)).toHaveLength(30);
  });
});
