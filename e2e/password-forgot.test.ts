import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { type E2E, expectTitle, startE2E, storedItem } from "./helpers";

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e.stop());

/** The link of the newest message in DATA_DIR/outbox/ (no SMTP_URL in tests), once it is there. */
async function linkInOutbox(to: string): Promise<string> {
  const folder = join(e2e.server.ctx.config.dataDir, "outbox");
  for (;;) {
    const files = await readdir(folder).catch(() => [] as string[]);
    for (const file of files.sort().reverse()) {
      const mail = await readFile(join(folder, file), "utf8");
      const link = mail.match(/https?:\/\/\S+\/password-forgot\/reset\?token=\S+/);
      if (mail.includes(`To: ${to}`) && link) return link[0];
    }
    await Bun.sleep(20);
  }
}

describe("비밀번호 찾기", () => {
  test("/login → 비밀번호 찾기 → the mailed link → a new password → /login with it; old sessions end", async () => {
    const user = await e2e.createUser();
    const other = await e2e.server.api("POST", "/api/users/login", {
      body: { email: user.email, password: user.password, remember_me: true },
    });
    const page = await e2e.newPage();
    await page.goto(`${e2e.url}/login`);
    await page.getByRole("link", { name: "비밀번호 찾기" }).click();
    await page.waitForURL(`${e2e.url}/password-forgot`);
    await expectTitle(page, "비밀번호 찾기 | 타자마당");
    await page.getByLabel("이메일").fill(user.email);
    await page.getByRole("button", { name: "재설정 링크 받기" }).click();
    await page.getByText("비밀번호 재설정 링크를 보냈습니다").waitFor();

    // The link points to the configured site; the test server listens elsewhere, so keep its path and query.
    const link = new URL(await linkInOutbox(user.email));
    await page.goto(`${e2e.url}${link.pathname}${link.search}`);
    await expectTitle(page, "비밀번호 재설정 | 타자마당");
    const newPassword = `New-${crypto.randomUUID().slice(0, 10)}`;
    await page.getByLabel("새 비밀번호", { exact: true }).fill("12345");
    await page.getByLabel("새 비밀번호 확인").fill("12345");
    await page.getByRole("button", { name: "비밀번호 변경" }).click();
    await page.getByText("비밀번호는 최소 6자 이상이어야 합니다").waitFor();

    await page.getByLabel("새 비밀번호", { exact: true }).fill(newPassword);
    await page.getByLabel("새 비밀번호 확인").fill(newPassword);
    await page.getByRole("button", { name: "비밀번호 변경" }).click();
    await page.getByText("비밀번호가 성공적으로 변경되었습니다.").first().waitFor();
    expect(await page.getByLabel("새 비밀번호", { exact: true }).count()).toBe(0);
    await page.waitForURL(`${e2e.url}/login`, { timeout: 10_000 });

    const refreshed = await e2e.server.api("POST", "/api/users/refresh", {
      body: { refresh_token: other.body.refresh_token },
    });
    expect(refreshed.status).toBe(401);
    await page.getByLabel("이메일").fill(user.email);
    await page.getByLabel("비밀번호", { exact: true }).fill(newPassword);
    await page.getByRole("button", { name: "로그인", exact: true }).click();
    await page.waitForURL(`${e2e.url}/`);
    await page.getByRole("link", { name: user.username }).waitFor();
    expect(await storedItem(page, "token")).not.toBeNull();

    // The link was for one use: opened again, it says so at once, with no form to fill in first.
    await page.goto(`${e2e.url}${link.pathname}${link.search}`);
    await page.getByText("링크가 올바르지 않거나 만료되었습니다. 비밀번호 찾기를 다시 요청해주세요.").waitFor();
    expect(await page.getByLabel("새 비밀번호", { exact: true }).count()).toBe(0);
    await page.getByRole("link", { name: "비밀번호 찾기" }).click();
    await page.waitForURL(`${e2e.url}/password-forgot`);
  });

  test("a used link opened on another device says so when the page opens, before any password is typed", async () => {
    const user = await e2e.createUser();
    const link = new URL(await e2e.accounts().resetLink(user.id));
    const first = await e2e.newPage();
    await first.goto(`${e2e.url}${link.pathname}${link.search}`);
    // A link that is still good shows the form (opening the page did not use it up).
    await first.getByLabel("새 비밀번호", { exact: true }).waitFor();
    const other = await e2e.newPage();
    await other.goto(`${e2e.url}${link.pathname}${link.search}`);
    await other.getByLabel("새 비밀번호", { exact: true }).waitFor();
    const newPassword = `New-${crypto.randomUUID().slice(0, 10)}`;
    await other.getByLabel("새 비밀번호", { exact: true }).fill(newPassword);
    await other.getByLabel("새 비밀번호 확인").fill(newPassword);
    await other.getByRole("button", { name: "비밀번호 변경" }).click();
    await other.getByText("비밀번호가 성공적으로 변경되었습니다.").first().waitFor();

    const later = await e2e.newPage();
    await later.goto(`${e2e.url}${link.pathname}${link.search}`);
    await expectTitle(later, "비밀번호 재설정 | 타자마당");
    const notice = later.getByRole("alert").filter({ hasText: "링크가 올바르지 않거나 만료되었습니다." });
    await notice.waitFor();
    expect(await later.getByLabel("새 비밀번호", { exact: true }).count()).toBe(0);
    expect(await later.getByRole("button", { name: "비밀번호 변경" }).count()).toBe(0);
    expect(await later.getByRole("link", { name: "비밀번호 찾기" }).count()).toBe(1);

    // The page left open before the use: its submit finds the link used and says the same, without the form.
    await first.getByLabel("새 비밀번호", { exact: true }).fill("another-pass-88");
    await first.getByLabel("새 비밀번호 확인").fill("another-pass-88");
    await first.getByRole("button", { name: "비밀번호 변경" }).click();
    await first.getByText("링크가 올바르지 않거나 만료되었습니다.").waitFor();
    expect(await first.getByLabel("새 비밀번호", { exact: true }).count()).toBe(0);
  });
});
