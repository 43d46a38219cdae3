/**
 * Shell frictions of issue 15: the administrator's floating "대시보드" link never sits on content (a phone's comment
 * button, a desktop table), non-administrators on /admin/* are told why they were sent home, the register form
 * drops an error once the fields change, and every page has an app icon and a web manifest (no 404).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Locator, Page } from "playwright-core";
import { ADMIN_LOGIN_MESSAGE, ADMIN_ONLY_MESSAGE } from "../web/src/routes/guards";
import { DESKTOP, type E2E, PHONE, signIn, startE2E, type TestUser, uniqueUser } from "./helpers";

let e2e: E2E;
let admin: TestUser;

beforeAll(async () => {
  e2e = await startE2E();
  admin = await e2e.createUser(uniqueUser("관리"));
  e2e.accounts().setAdmin(admin.id, true);
});

afterAll(() => e2e?.stop());

const fab = (page: Page) => page.getByRole("link", { name: "관리자 대시보드" });

/**
 * Waits until a click at the middle of `target` would hit `target` itself (nothing lies on top of it); fails when
 * something stays on top.
 */
async function waitReachable(page: Page, target: Locator) {
  const handle = await target.elementHandle();
  await page.waitForFunction(
    (element) => {
      const r = element!.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return hit !== null && element!.contains(hit);
    },
    handle,
    { timeout: 3_000 },
  );
}

/** The floating link can be seen and clicked where it is now. */
const fabShown = (page: Page) =>
  fab(page).evaluate((element) => {
    const r = element.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return getComputedStyle(element).opacity === "1" && hit !== null && element.contains(hit);
  });

async function adminToken() {
  const login = await e2e.server.api("POST", "/api/users/login", {
    body: { email: admin.email, password: admin.password },
  });
  return login.body.access_token as string;
}

describe("the floating dashboard link", () => {
  test("on a phone it does not cover the comment button; at the end of the page it is there", async () => {
    const post = await e2e.server.api("POST", "/api/board/", {
      token: await adminToken(),
      body: { title: "떠 있는 버튼 시험", content: "본문 첫 줄\n본문 둘째 줄\n본문 셋째 줄" },
    });
    expect(post.status).toBe(201);
    const page = await e2e.newPage(PHONE);
    await signIn(page, e2e.url, admin);
    await page.goto(`${e2e.url}/board/${post.body.id}`);
    const comment = page.getByPlaceholder("댓글을 입력하세요");
    await comment.fill("댓글 내용");
    const send = page.getByRole("button", { name: "댓글 작성" });
    await send.waitFor();
    await page.waitForFunction(() => document.querySelector(".fab") !== null);

    // Wherever the page is scrolled, the button is never under the link.
    for (const y of [0, 120, 240, 360]) {
      await page.evaluate((top) => window.scrollTo(0, top), y);
      const inView = await send.evaluate((element) => element.getBoundingClientRect().bottom <= window.innerHeight);
      if (inView) await waitReachable(page, send);
    }
    await send.click();
    await page.locator(".board-comment", { hasText: "댓글 내용" }).first().waitFor();

    // At the end of the page nothing is under it: it shows and leads to the dashboard.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForFunction(() => getComputedStyle(document.querySelector(".fab")!).opacity === "1");
    expect(await fabShown(page)).toBe(true);
    await fab(page).click();
    await page.waitForURL(`${e2e.url}/admin/dashboard`);
  });

  test("on a desktop it does not cover the login-history table", async () => {
    for (let i = 0; i < 8; i++) await adminToken(); // rows for the table
    const page = await e2e.newPage(DESKTOP);
    await signIn(page, e2e.url, admin);
    await page.goto(`${e2e.url}/admin/users/${admin.id}`);
    const table = page.locator("table", { hasText: "127.0.0.1" });
    await table.waitFor();
    await page.waitForFunction(() => document.querySelector(".fab") !== null);

    // The table runs under the bottom-right corner of the window, where the link floats: there, the table's rows
    // are what a click reaches.
    const spot = await fab(page).evaluate((element) => {
      const r = element.getBoundingClientRect();
      return { x: r.left + 10, y: r.top + r.height / 2 };
    });
    expect(
      await table.evaluate((element, { x, y }) => {
        const r = element.getBoundingClientRect();
        return x > r.left && x < r.right && y > r.top && y < r.bottom;
      }, spot),
    ).toBe(true);
    await page.waitForFunction(({ x, y }) => document.elementFromPoint(x, y)?.closest("table") != null, spot, {
      timeout: 3_000,
    });

    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    // The link fades in once the page has scrolled to its end; the layout may still settle after the scroll (late
    // rows), so wait for the link to be both shown and the thing a click reaches, then check once more.
    await page
      .waitForFunction(
        () => {
          const element = document.querySelector(".fab");
          if (!element || getComputedStyle(element).opacity !== "1") return false;
          const r = element.getBoundingClientRect();
          const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return hit !== null && element.contains(hit);
        },
        undefined,
        { timeout: 5_000 },
      )
      .catch(() => {});
    expect(await fabShown(page)).toBe(true);
  });
});

describe("telling people why", () => {
  test("a member or a visitor on /admin/* is sent home with the reason", async () => {
    const member = await e2e.createUser(uniqueUser("일반"));
    const page = await e2e.newPage();
    await signIn(page, e2e.url, member);
    await page.goto(`${e2e.url}/admin/users`);
    await page.waitForURL(`${e2e.url}/`);
    await page.getByRole("alert").filter({ hasText: ADMIN_ONLY_MESSAGE }).waitFor();
    // The notice belongs to that one redirect: the next page does not repeat it.
    await page.getByRole("link", { name: "자유게시판" }).click();
    await page.waitForURL(`${e2e.url}/board`);
    expect(await page.getByText(ADMIN_ONLY_MESSAGE).count()).toBe(0);

    const visitor = await e2e.newPage();
    await visitor.goto(`${e2e.url}/admin/dashboard`);
    await visitor.waitForURL(`${e2e.url}/`);
    await visitor.getByRole("alert").filter({ hasText: ADMIN_LOGIN_MESSAGE }).waitFor();
  });

  test("the register form drops the server's error once the fields are changed", async () => {
    const taken = await e2e.createUser(uniqueUser("기존"));
    const page = await e2e.newPage();
    const fresh = uniqueUser("새로");
    await page.goto(`${e2e.url}/register`);
    await page.getByLabel("아이디").fill(fresh.username);
    await page.getByLabel("이메일").fill(taken.email);
    await page.getByLabel("비밀번호", { exact: true }).fill(fresh.password);
    await page.getByLabel("비밀번호 확인").fill(fresh.password);
    await page.getByRole("button", { name: "회원가입", exact: true }).click();
    const error = page.locator(".auth-card .notice-error");
    await error.waitFor();
    const text = (await error.textContent()) ?? "";
    expect(text.length).toBeGreaterThan(0);

    await page.getByLabel("이메일").fill(fresh.email);
    expect(await page.getByText(text).count()).toBe(0);
    await page.getByRole("button", { name: "회원가입", exact: true }).click();
    await page.waitForURL(`${e2e.url}/login`);
  });
});

describe("app icon and web manifest", () => {
  test("pages load without a 404; the icon and the manifest (Korean name, usable icons) are served", async () => {
    const page = await e2e.newPage();
    const failed: string[] = [];
    page.on("response", (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    for (const path of ["/", "/board", "/login", "/rooms/1"]) {
      await page.goto(`${e2e.url}${path}`);
      await page.locator(".navbar").waitFor();
      await page.evaluate(() => document.fonts.ready);
    }
    expect(failed).toEqual([]);

    const icon = await page.locator("link[rel='icon']").getAttribute("href");
    expect(icon).toBeTruthy();
    const iconResponse = await fetch(new URL(icon!, e2e.url));
    expect(iconResponse.status).toBe(200);
    expect(new Uint8Array(await iconResponse.arrayBuffer()).subarray(0, 4)).toEqual(new Uint8Array([0, 0, 1, 0]));

    const cdp = await page.context().newCDPSession(page);
    const manifest = await cdp.send("Page.getAppManifest");
    expect(manifest.errors).toEqual([]);
    const parsed = JSON.parse(manifest.data ?? "{}");
    expect(parsed.name).toBe("타자마당");
    expect(parsed.lang).toBe("ko");
    // Chrome finds nothing missing for installing it as an app, except that tests run in an incognito context.
    const { installabilityErrors } = await cdp.send("Page.getInstallabilityErrors");
    expect(installabilityErrors.map((e) => e.errorId).filter((id) => id !== "in-incognito")).toEqual([]);
  });
});
