/**
 * Issue 24 "What players trip over": when the server ends a session (the password changed on another device, an
 * administrator forced a reset), the device that lost it says why and offers the login, which brings the player
 * back to the page they were on. Two browser contexts are two devices.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { SESSION_END_TEXT } from "../modules/kernel/session-end";
import { type E2E, signIn, startE2E, storedItem, type TestUser, uniqueUser } from "./helpers";

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e?.stop());

/** Device A: signed in, on its profile page (members only). */
async function onProfile(user: TestUser, page?: Page): Promise<Page> {
  const device = page ?? (await e2e.newPage());
  await signIn(device, e2e.url, user, true);
  await device.goto(`${e2e.url}/profile`);
  await device.getByRole("tab", { name: "기본 정보" }).waitFor();
  await device.getByText(user.email).first().waitFor();
  return device;
}

async function loginAgain(page: Page, user: Pick<TestUser, "email">, password: string) {
  await page.getByLabel("이메일").fill(user.email);
  await page.getByLabel("비밀번호", { exact: true }).fill(password);
  await page.getByRole("button", { name: "로그인", exact: true }).click();
}

describe("a device whose session the server ended says why", () => {
  test("password changed on device B (the mailed link): device A on /profile says so, and its login returns there", async () => {
    const user = await e2e.createUser(uniqueUser("두기기"));
    const deviceA = await onProfile(user);

    // Device B: the 비밀번호 찾기 link, a new password.
    const deviceB = await e2e.newPage();
    const link = new URL(await e2e.accounts().resetLink(user.id));
    await deviceB.goto(`${e2e.url}${link.pathname}${link.search}`);
    const newPassword = `New-${crypto.randomUUID().slice(0, 10)}`;
    await deviceB.getByLabel("새 비밀번호", { exact: true }).fill(newPassword);
    await deviceB.getByLabel("새 비밀번호 확인").fill(newPassword);
    await deviceB.getByRole("button", { name: "비밀번호 변경" }).click();
    await deviceB.getByText("비밀번호가 성공적으로 변경되었습니다.").first().waitFor();

    // Device A: told why, not just "프로필을 보려면 로그인이 필요합니다.", with the login at hand.
    await deviceA.getByText(SESSION_END_TEXT.password_changed).waitFor();
    await deviceA.waitForURL(`${e2e.url}/login`);
    expect(await deviceA.getByText("프로필을 보려면 로그인이 필요합니다.").count()).toBe(0);
    expect(await storedItem(deviceA, "token")).toBeNull();
    await loginAgain(deviceA, user, newPassword);
    await deviceA.waitForURL(`${e2e.url}/profile`);
    await deviceA.getByText(user.email).first().waitFor();
  });

  test("an administrator forces a reset while device A has no socket: A's next call says why", async () => {
    const user = await e2e.createUser(uniqueUser("소켓없음"));
    const admin = await e2e.createUser(uniqueUser("관리"));
    await e2e.accounts().setAdmin(admin.id, true);
    const deviceA = await e2e.newPage();
    // No socket for this tab: the WebSocket cannot open and the polling fallback is refused, so the reason can only
    // come from the refresh answer.
    await deviceA.addInitScript(() => {
      (window as unknown as { WebSocket: unknown }).WebSocket = class {
        constructor() {
          throw new Error("blocked by the test");
        }
      };
    });
    await deviceA.context().route("**/socket.io/**", (route) => route.abort());
    await onProfile(user, deviceA);
    const memberSockets = async () =>
      (await e2e.server.io.fetchSockets()).filter(
        (s) => (s.data.identity as { userId?: number } | undefined)?.userId === user.id,
      );
    expect(await memberSockets()).toHaveLength(0);

    const adminPage = await e2e.newPage();
    await signIn(adminPage, e2e.url, admin);
    await adminPage.goto(`${e2e.url}/admin/users/${user.id}`);
    adminPage.on("dialog", (dialog) => void dialog.accept());
    await adminPage.getByRole("button", { name: "비밀번호 재설정 요구" }).click();
    await adminPage.getByText("비밀번호 재설정을 요구했습니다.").waitFor();

    // The stats tab reloads the profile: 401 → refresh → 401 with the reason.
    await deviceA.getByRole("tab", { name: "게임 통계" }).click();
    await deviceA.getByText(SESSION_END_TEXT.password_reset_required).waitFor();
    await deviceA.waitForURL(`${e2e.url}/login`);
    expect(await deviceA.getByText("프로필을 보려면 로그인이 필요합니다.").count()).toBe(0);
    // Logging in again leads to the new password, as the notice says.
    await loginAgain(deviceA, user, user.password);
    await deviceA.waitForURL(`${e2e.url}/password-reset`);
  });

  test("a page open to everyone stays, says why and offers the login, which returns to it", async () => {
    const user = await e2e.createUser(uniqueUser("공개"));
    const deviceA = await e2e.newPage();
    await signIn(deviceA, e2e.url, user);
    await deviceA.goto(`${e2e.url}/ranking`);
    await deviceA.getByRole("link", { name: user.username }).waitFor();
    await deviceA.waitForFunction(() => document.title.startsWith("랭킹"));

    // Device B changes the password (an API client is a device too).
    const newPassword = `New-${crypto.randomUUID().slice(0, 10)}`;
    const changed = await e2e.server.api("POST", "/api/users/reset-password", {
      token: (
        await e2e.server.api("POST", "/api/users/login", { body: { email: user.email, password: user.password } })
      ).body.access_token,
      body: { new_password: newPassword, confirm_password: newPassword },
    });
    expect(changed.status).toBe(200);

    const notice = deviceA.getByRole("alert").filter({ hasText: SESSION_END_TEXT.password_changed });
    await notice.waitFor();
    expect(new URL(deviceA.url()).pathname).toBe("/ranking");
    await notice.getByRole("link", { name: "다시 로그인" }).click();
    await deviceA.waitForURL(`${e2e.url}/login`);
    await loginAgain(deviceA, user, newPassword);
    await deviceA.waitForURL(`${e2e.url}/ranking`);
    await deviceA.getByRole("link", { name: user.username }).waitFor();
  });
});
