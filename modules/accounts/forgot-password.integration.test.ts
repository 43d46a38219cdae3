import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../../apps/server/testing";
import { storeDb, tablesFor } from "../../db/store";
import { type Clock, systemClock } from "../kernel/clock";
import { accountsApi } from "./api";
import * as sqliteTables from "./schema";
import * as pgTables from "./schema.pg";
import { RESET_LINK_INVALID, RESET_LINK_SENT } from "./service";

// A clock that can be moved forward (the link's 30 minutes) while timers stay real.
let offset = 0;
const clock: Clock = { ...systemClock, now: () => Date.now() + offset };

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ clock });
});
afterAll(() => server.stop());

const outbox = () => join(server.ctx.config.dataDir, "outbox");
const NEW_PASSWORD = "fresh-start-2026";

async function outboxFiles(): Promise<string[]> {
  try {
    return (await readdir(outbox())).sort();
  } catch {
    return [];
  }
}

/** The mail goes out after the answer: waits until the outbox holds `count` messages, then reads the last. */
async function waitForMail(count: number) {
  for (;;) {
    const files = await outboxFiles();
    if (files.length >= count) return readFile(join(outbox(), files[count - 1]!), "utf8");
    await Bun.sleep(10);
  }
}

const tokenOf = (mail: string) => {
  const link = mail.match(/https?:\/\/\S+\/password-forgot\/reset\?token=(\S+)/);
  if (!link) throw new Error(`no link in ${mail}`);
  return decodeURIComponent(link[1]!);
};

const forgot = (email: string) => server.api("POST", "/api/users/forgot-password", { body: { email } });
const resetWith = (token: string, password = NEW_PASSWORD, confirm = password) =>
  server.api("POST", "/api/users/reset-password-with-token", {
    body: { token, new_password: password, confirm_password: confirm },
  });
const login = (email: string, password: string) =>
  server.api("POST", "/api/users/login", { body: { email, password } });

describe("비밀번호 찾기", () => {
  test("the same answer for a known and an unknown e-mail; only the known one gets a link", async () => {
    const user = await server.createUser("찾기유저");
    const before = (await outboxFiles()).length;
    const unknown = await forgot("nobody-here@example.com");
    const known = await forgot(user.email.toUpperCase());
    expect(unknown).toMatchObject({ status: 200, body: { detail: RESET_LINK_SENT } });
    expect(known).toMatchObject({ status: 200, body: { detail: RESET_LINK_SENT } });
    const mail = await waitForMail(before + 1);
    expect(mail).toContain(`To: ${user.email}`);
    expect(mail).toContain("찾기유저님");
    expect(await outboxFiles()).toHaveLength(before + 1);
  });

  test("the link sets a new password once, ends every session and is stored only as its SHA-256", async () => {
    const user = await server.createUser("링크유저");
    const before = (await outboxFiles()).length;
    await forgot(user.email);
    const token = tokenOf(await waitForMail(before + 1));

    const { passwordResetTokens } = tablesFor(server.ctx.database, sqliteTables, pgTables);
    const rows = await storeDb(server.ctx.database).select().from(passwordResetTokens);
    const hashes = rows.map((row) => row.tokenHash);
    expect(hashes).toContain(createHash("sha256").update(token).digest("hex"));
    expect(hashes).not.toContain(token);

    expect((await resetWith(token, NEW_PASSWORD, "something-else-1")).body).toEqual({
      detail: "비밀번호가 일치하지 않습니다.",
    });
    expect((await resetWith(token, "123456")).status).toBe(422);
    const done = await resetWith(token);
    expect(done).toMatchObject({
      status: 200,
      body: { detail: "비밀번호가 성공적으로 변경되었습니다. 새 비밀번호로 다시 로그인해주세요." },
    });
    // The session opened before the reset is over; the old password no longer works, the new one does.
    expect((await server.api("GET", "/api/users/me", { token: user.token })).status).toBe(401);
    const refreshed = await server.api("POST", "/api/users/refresh", { body: { refresh_token: user.refreshToken } });
    expect(refreshed.status).toBe(401);
    expect((await login(user.email, user.password)).status).toBe(401);
    expect((await login(user.email, NEW_PASSWORD)).status).toBe(200);
    // Single use.
    expect(await resetWith(token, "another-pass-77")).toMatchObject({
      status: 400,
      body: { detail: RESET_LINK_INVALID },
    });
  });

  test("a link older than 30 minutes is refused; an unknown token too", async () => {
    const user = await server.createUser("만료유저");
    const link = await accountsApi(server.ctx).service.resetLink(user.id);
    const token = new URL(link).searchParams.get("token")!;
    offset += 30 * 60 * 1000 + 1;
    expect(await resetWith(token)).toMatchObject({ status: 400, body: { detail: RESET_LINK_INVALID } });
    expect(await resetWith("not-a-token")).toMatchObject({ status: 400, body: { detail: RESET_LINK_INVALID } });
    expect((await login(user.email, user.password)).status).toBe(200);
  });

  test("a password change (the logged-in way) voids every link mailed before it", async () => {
    const user = await server.createUser("변경유저");
    const before = (await outboxFiles()).length;
    await forgot(user.email);
    const token = tokenOf(await waitForMail(before + 1));
    const changed = await server.api("POST", "/api/users/reset-password", {
      token: user.token,
      body: { new_password: NEW_PASSWORD, confirm_password: NEW_PASSWORD },
    });
    expect(changed.status).toBe(200);
    // Whoever kept the old mail cannot set the password back.
    expect(await resetWith(token, "taken-over-77")).toMatchObject({
      status: 400,
      body: { detail: RESET_LINK_INVALID },
    });
    expect((await login(user.email, NEW_PASSWORD)).status).toBe(200);
  });

  test("a deactivation voids every link; reactivating the account does not bring them back", async () => {
    const admin = await server.createUser("찾기관리자", { admin: true });
    const user = await server.createUser("정지유저");
    const link = await accountsApi(server.ctx).service.resetLink(user.id);
    const token = new URL(link).searchParams.get("token")!;
    const act = (action: string) =>
      server.api("POST", `/api/admin/users/${user.id}/${action}`, { token: admin.token, body: {} });
    expect((await act("deactivate")).status).toBe(200);
    expect(await resetWith(token)).toMatchObject({ status: 400, body: { detail: RESET_LINK_INVALID } });
    expect((await act("activate")).status).toBe(200);
    expect(await resetWith(token)).toMatchObject({ status: 400, body: { detail: RESET_LINK_INVALID } });
    expect((await login(user.email, user.password)).status).toBe(200);
  });

  test("requests per e-mail are limited whether or not it has an account", async () => {
    for (let i = 0; i < 3; i++) expect((await forgot("flood@example.com")).status).toBe(200);
    const refused = await forgot("flood@example.com");
    expect(refused).toMatchObject({
      status: 429,
      body: { detail: "요청이 너무 많습니다. 잠시 후 다시 시도해주세요." },
    });
  });
});
