import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type E2E, expectTitle, PHONE, scrollWidth, signIn, startE2E, type TestUser, uniqueUser } from "./helpers";

let e2e: E2E;
let admin: TestUser;

beforeAll(async () => {
  e2e = await startE2E();
  admin = await e2e.createUser(uniqueUser("관리"));
  await e2e.accounts().setAdmin(admin.id, true);
});

afterAll(async () => {
  await e2e?.stop();
});

describe("administrator console", () => {
  test("an administrator finds a user, renames them with a reason and sees the log entry", async () => {
    const target = await e2e.createUser(uniqueUser("대상"));
    const newName = `새이름${target.id}`;
    const page = await e2e.newPage();
    await signIn(page, e2e.url, admin);

    await page.goto(`${e2e.url}/admin/dashboard`);
    await page.getByRole("heading", { level: 1, name: "관리자 대시보드" }).waitFor();
    await expectTitle(page, "관리자 대시보드 | 타자마당");
    for (const label of [
      "전체 사용자",
      "오늘 활성 사용자",
      "전체 게임 수",
      "오늘 게임 수",
      "관리자 작업",
      "최근 가입자",
    ]) {
      await page.getByText(label, { exact: true }).waitFor();
    }
    // The lazily loaded recharts chunk draws the 30-day chart.
    await page.locator(".admin-chart svg.recharts-surface").first().waitFor();
    await page.getByText("준비 중", { exact: true }).waitFor();

    await page.getByRole("link", { name: /사용자 관리/ }).click();
    await page.waitForURL(`${e2e.url}/admin/users`);
    await page.getByPlaceholder("사용자명 또는 이메일로 검색").fill(target.username);
    await page.getByRole("button", { name: "검색", exact: true }).click();
    await page.waitForURL(/search=/);
    const rows = page.locator(".admin-table tbody tr");
    await rows.filter({ hasText: target.email }).waitFor();
    expect(await rows.count()).toBe(1);

    await rows.first().getByRole("link", { name: "상세" }).click();
    await page.waitForURL(`${e2e.url}/admin/users/${target.id}`);
    await page.getByText(target.email).first().waitFor();
    await page.getByText("로그인 기록이 없습니다.").waitFor();

    await page.getByRole("button", { name: "사용자명 변경" }).click();
    const dialog = page.getByRole("dialog", { name: "사용자명 변경" });
    const nameInput = dialog.getByLabel("새 사용자명");
    await nameInput.fill(" a ");
    await dialog.getByText("사용자명은 최소 2자 이상이어야 합니다.").waitFor();
    expect(await dialog.getByRole("button", { name: "변경", exact: true }).isDisabled()).toBe(true);
    await nameInput.fill(newName);
    await dialog.getByLabel("변경 사유 (선택)").fill("부적절한 이름 신고");
    await dialog.getByRole("button", { name: "변경", exact: true }).click();
    await page.getByText("사용자명이 성공적으로 변경되었습니다.").waitFor();
    await page.getByRole("heading", { level: 1, name: new RegExp(newName) }).waitFor();
    expect((await e2e.accounts().requireById(target.id)).username).toBe(newName);

    await page.goto(`${e2e.url}/admin/logs`);
    const entry = page.locator(".admin-table tbody tr").filter({ hasText: "사용자명 변경" }).first();
    await entry.waitFor();
    const text = (await entry.textContent()) ?? "";
    expect(text).toContain(admin.username);
    expect(text).toContain(newName);
    expect(text).toContain(`${target.username} → ${newName}`);
    expect(text).toContain("부적절한 이름 신고");
    await page.getByText("작업 종류").waitFor();
  });

  test("a duplicate name shows the server's message in the dialog", async () => {
    const taken = await e2e.createUser(uniqueUser("중복"));
    const target = await e2e.createUser(uniqueUser("변경"));
    const page = await e2e.newPage();
    await signIn(page, e2e.url, admin);
    await page.goto(`${e2e.url}/admin/users/${target.id}`);
    await page.getByRole("button", { name: "사용자명 변경" }).click();
    const dialog = page.getByRole("dialog", { name: "사용자명 변경" });
    await dialog.getByLabel("새 사용자명").fill(taken.username);
    await dialog.getByRole("button", { name: "변경", exact: true }).click();
    await dialog.getByText("이미 사용 중인 아이디입니다.").waitFor();
    expect((await e2e.accounts().requireById(target.id)).username).toBe(target.username);
  });

  test("the rename dialog lists one rule (2~12자) and refuses what the server refuses, with its text", async () => {
    const target = await e2e.createUser(uniqueUser("규칙"));
    const page = await e2e.newPage();
    await signIn(page, e2e.url, admin);
    await page.goto(`${e2e.url}/admin/users/${target.id}`);
    await page.getByRole("button", { name: "사용자명 변경" }).click();
    const dialog = page.getByRole("dialog", { name: "사용자명 변경" });
    const rules = (await dialog.locator("#rename-rules").textContent()) ?? "";
    expect(rules).toContain("2~12자");
    expect(rules).not.toContain("1~12자");
    const confirm = dialog.getByRole("button", { name: "변경", exact: true });
    const nameInput = dialog.getByLabel("새 사용자명");
    await nameInput.fill("가나다라마바사아자차카타파");
    await dialog.getByRole("alert").filter({ hasText: "사용자명은 12자 이하여야 합니다." }).waitFor();
    expect(await confirm.isDisabled()).toBe(true);
    await nameInput.fill("bad name!");
    await dialog.getByRole("alert").filter({ hasText: "한글 또는 영문, 숫자만 사용 가능합니다" }).waitFor();
    expect(await confirm.isDisabled()).toBe(true);
    await nameInput.fill("규칙맞는이름");
    await page.waitForFunction(() => !document.querySelector("[role=dialog] [role=alert]"));
    expect(await confirm.isDisabled()).toBe(false);
  });

  test("the log filters by action and by administrator, kept in the address", async () => {
    const other = await e2e.createUser(uniqueUser("둘째"));
    await e2e.accounts().setAdmin(other.id, true);
    const target = await e2e.createUser(uniqueUser("필터"));
    const login = { email: other.email, password: other.password };
    const token = (await e2e.server.api("POST", "/api/users/login", { body: login })).body.access_token;
    // The second administrator leaves routine list views and one rename among them.
    for (let i = 0; i < 3; i++) await e2e.server.api("GET", "/api/admin/users", { token });
    const renamed = `필터됨${target.id}`;
    const res = await e2e.server.api("PUT", `/api/admin/users/${target.id}/username`, {
      token,
      body: { new_username: renamed },
    });
    expect(res.status).toBe(200);

    const page = await e2e.newPage();
    await signIn(page, e2e.url, admin);
    await page.goto(`${e2e.url}/admin/logs`);
    const rows = page.locator(".admin-table tbody tr");
    await rows.first().waitFor();
    await page
      .getByRole("combobox", { name: /^관리자/ })
      .selectOption({ label: `${other.username} (ID ${other.id}) · 4건` });
    await page.waitForURL(new RegExp(`admin_id=${other.id}`));
    await page.waitForFunction(
      (name) => [...document.querySelectorAll(".admin-table tbody tr")].every((row) => row.textContent?.includes(name)),
      other.username,
    );
    await page.getByRole("combobox", { name: /^작업/ }).selectOption({ label: "사용자명 변경" });
    await page.waitForURL(/action=update_username/);
    await page.waitForFunction(() => document.querySelectorAll(".admin-table tbody tr").length === 1);
    expect(await rows.first().textContent()).toContain(`${target.username} → ${renamed}`);

    // The address alone brings the same view back.
    const again = await e2e.newPage();
    await signIn(again, e2e.url, admin);
    await again.goto(`${e2e.url}/admin/logs?action=update_username&admin_id=${other.id}`);
    await again.locator(".admin-table tbody tr").filter({ hasText: renamed }).waitFor();
    expect(await again.locator(".admin-table tbody tr").count()).toBe(1);
    await again.getByRole("button", { name: "필터 해제" }).click();
    await again.waitForFunction(() => document.querySelectorAll(".admin-table tbody tr").length > 1);
  });

  test("deactivating from the detail page blocks that user's login", async () => {
    const target = await e2e.createUser(uniqueUser("정지"));
    const page = await e2e.newPage();
    await signIn(page, e2e.url, admin);
    await page.goto(`${e2e.url}/admin/users/${target.id}`);
    page.once("dialog", (dialog) => dialog.accept());
    await page.getByRole("button", { name: "계정 비활성화" }).click();
    await page.getByText("계정을 비활성화했습니다.").waitFor();
    await page.getByRole("button", { name: "계정 활성화" }).waitFor();
    const login = await e2e.server.api("POST", "/api/users/login", {
      body: { email: target.email, password: target.password },
    });
    expect(login.status).toBe(403);
  });

  test("non-administrators are sent to / from every admin page", async () => {
    const member = await e2e.createUser();
    const page = await e2e.newPage();
    await signIn(page, e2e.url, member);
    for (const path of ["/admin/dashboard", "/admin/users", `/admin/users/${member.id}`, "/admin/logs"]) {
      await page.goto(`${e2e.url}${path}`);
      await page.waitForURL(`${e2e.url}/`);
    }
    const anonymous = await e2e.newPage();
    await anonymous.goto(`${e2e.url}/admin/users`);
    await anonymous.waitForURL(`${e2e.url}/`);
  });

  test("the user list fits a phone screen (the table scrolls inside its card)", async () => {
    const page = await e2e.newPage(PHONE);
    await signIn(page, e2e.url, admin);
    await page.goto(`${e2e.url}/admin/users`);
    await page.locator(".admin-table tbody tr").first().waitFor();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(PHONE.width);
  });
});
