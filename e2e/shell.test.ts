import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { createAccessTokens } from "../modules/accounts/tokens";
import {
  type E2E,
  expectTitle,
  navbarLogin,
  openMenuIfFolded,
  PHONE,
  scrollWidth,
  signIn,
  startE2E,
  storedItem,
  uniqueUser,
} from "./helpers";

let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E();
});

afterAll(async () => {
  await e2e?.stop();
});

/** The sockets the server holds for a user (the handshake carried that user's token). */
async function userSockets(userId: number) {
  const sockets = await e2e.server.io.fetchSockets();
  return sockets.filter((s) => {
    const identity = s.data.identity as { kind: string; userId?: number } | undefined;
    return identity?.kind === "user" && identity.userId === userId;
  });
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await Bun.sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * Puts tokens in the origin's localStorage from a page that does not run the app (a JSON endpoint), so no app
 * instance can start using them (and rotate them) before the page under test loads.
 */
async function storeTokens(page: Page, token: string, refresh: string) {
  await page.goto(`${e2e.url}/api/health`);
  await page.evaluate(
    ([t, r]) => {
      localStorage.setItem("token", t);
      localStorage.setItem("refresh_token", r);
    },
    [token, refresh],
  );
}

describe("accounts in the browser", () => {
  test("register → login with remember-me → reload stays logged in → logout", async () => {
    const page = await e2e.newPage();
    const input = uniqueUser("가입");
    await page.goto(`${e2e.url}/register`);
    await expectTitle(page, "회원가입 | 타자마당");

    await page.getByLabel("아이디").fill("12345");
    await expect(page.getByText("숫자로만 구성될 수 없습니다").isVisible()).resolves.toBe(true);
    expect(await page.getByRole("button", { name: "회원가입", exact: true }).isDisabled()).toBe(true);

    await page.getByLabel("아이디").fill(input.username);
    await page.getByText("사용 가능한 아이디입니다!").waitFor();
    await page.getByLabel("이메일").fill(input.email);
    await page.getByLabel("비밀번호", { exact: true }).fill(input.password);
    await page.getByLabel("비밀번호 확인").fill(`${input.password}x`);
    await page.getByText("비밀번호가 일치하지 않습니다.").waitFor();
    expect(await page.getByRole("button", { name: "회원가입", exact: true }).isDisabled()).toBe(true);
    await page.getByLabel("비밀번호 확인").fill(input.password);
    await page.getByRole("button", { name: "회원가입", exact: true }).click();

    await page.waitForURL(`${e2e.url}/login`);
    await page.getByText("회원가입이 완료되었습니다!").waitFor();
    expect(await page.getByLabel("이메일").inputValue()).toBe(input.email);

    const loginBodies: string[] = [];
    page.on("request", (request) => {
      if (request.url().endsWith("/api/users/login")) loginBodies.push(request.postData() ?? "");
    });
    await page.getByLabel("비밀번호", { exact: true }).fill(input.password);
    await page.getByLabel("로그인 상태 유지 (30일)").check();
    await page.getByRole("button", { name: "로그인", exact: true }).click();
    await page.waitForURL(`${e2e.url}/`);
    expect(JSON.parse(loginBodies[0])).toEqual({ email: input.email, password: input.password, remember_me: true });
    await page.getByRole("link", { name: input.username }).waitFor();
    expect(await storedItem(page, "token")).toBeTruthy();
    expect(await storedItem(page, "refresh_token")).toBeTruthy();

    await page.reload();
    await page.getByRole("link", { name: input.username }).waitFor();
    expect(await navbarLogin(page).count()).toBe(0);

    await page.getByRole("button", { name: "로그아웃" }).click();
    await navbarLogin(page).waitFor();
    expect(await storedItem(page, "token")).toBeNull();
    expect(await storedItem(page, "refresh_token")).toBeNull();
    await page.reload();
    await page.getByRole("link", { name: "회원가입" }).waitFor();
    expect(await page.getByRole("link", { name: input.username }).count()).toBe(0);
  });

  test("a wrong password shows the login failure text", async () => {
    const user = await e2e.createUser();
    const page = await e2e.newPage();
    await page.goto(`${e2e.url}/login`);
    await page.getByLabel("이메일").fill(user.email);
    await page.getByLabel("비밀번호", { exact: true }).fill(`${user.password}-wrong`);
    await page.getByRole("button", { name: "로그인", exact: true }).click();
    await page.getByText("로그인에 실패했습니다. 이메일과 비밀번호를 확인해주세요.").waitFor();
    expect(new URL(page.url()).pathname).toBe("/login");
    expect(await storedItem(page, "token")).toBeNull();
  });

  test("an expired access token is refreshed silently and both tokens are replaced", async () => {
    const user = await e2e.createUser();
    const login = await e2e.server.api("POST", "/api/users/login", {
      body: { email: user.email, password: user.password, remember_me: true },
    });
    expect(login.status).toBe(200);
    const originalRefresh: string = login.body.refresh_token;
    // Signed with the server's own key, but issued 20 minutes ago: past the 15-minute lifetime.
    const expired = await createAccessTokens(e2e.server.ctx.config.jwtSecret, () => Date.now() - 20 * 60_000).sign(
      user.id,
      "full",
    );
    expect((await e2e.server.api("GET", "/api/users/me", { token: expired })).status).toBe(401);

    const page = await e2e.newPage();
    await storeTokens(page, expired, originalRefresh);
    await page.goto(`${e2e.url}/`);
    await page.getByRole("link", { name: user.username }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/");
    const newToken = await storedItem(page, "token");
    const newRefresh = await storedItem(page, "refresh_token");
    expect(newToken).not.toBe(expired);
    expect(newRefresh).toBeTruthy();
    expect(newRefresh).not.toBe(originalRefresh);
    expect((await e2e.server.api("GET", "/api/users/me", { token: newToken! })).status).toBe(200);
  });

  test("a bogus token with a revoked refresh token becomes anonymous with the error text", async () => {
    const page = await e2e.newPage();
    await storeTokens(page, "not-a-jwt", "not-a-refresh-token");
    await page.goto(`${e2e.url}/`);
    await page.getByText("인증에 실패했습니다. 다시 로그인해주세요.").waitFor();
    await navbarLogin(page).waitFor();
    expect(await storedItem(page, "token")).toBeNull();
    expect(await storedItem(page, "refresh_token")).toBeNull();
  });

  test("forced password reset: login → /password-reset → change → login with the new password", async () => {
    const user = await e2e.createUser();
    await e2e.accounts().requirePasswordReset(user.id);
    const page = await e2e.newPage();
    await page.goto(`${e2e.url}/login`);
    await page.getByLabel("이메일").fill(user.email);
    await page.getByLabel("비밀번호", { exact: true }).fill(user.password);
    await page.getByRole("button", { name: "로그인", exact: true }).click();

    await page.waitForURL(`${e2e.url}/password-reset`);
    await expectTitle(page, "비밀번호 재설정 | 타자마당");
    await page.getByText(`${user.username}님, 안녕하세요.`).waitFor();
    expect(await page.getByRole("link", { name: user.username }).count()).toBe(0);

    // Until the password is changed the rest of the product leads back here, also after a reload.
    await page.goto(`${e2e.url}/board`);
    await page.waitForURL(`${e2e.url}/password-reset`);
    await page.getByText(`${user.username}님, 안녕하세요.`).waitFor();

    const newPassword = `New-${crypto.randomUUID().slice(0, 10)}`;
    await page.getByLabel("새 비밀번호", { exact: true }).fill(newPassword);
    await page.getByLabel("새 비밀번호 확인").fill(`${newPassword}!`);
    await page.getByRole("button", { name: "비밀번호 변경" }).click();
    await page.getByText("비밀번호가 일치하지 않습니다.").waitFor();

    await page.getByLabel("새 비밀번호 확인").fill(newPassword);
    await page.getByRole("button", { name: "비밀번호 변경" }).click();
    await page.getByText("비밀번호가 성공적으로 변경되었습니다.").first().waitFor();
    // The success text alone until /login, not a greyed form.
    expect(await page.getByLabel("새 비밀번호", { exact: true }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "비밀번호 변경" }).count()).toBe(0);
    expect(await storedItem(page, "token")).toBeNull();
    await page.waitForURL(`${e2e.url}/login`, { timeout: 10_000 });
    expect(await page.getByLabel("이메일").inputValue()).toBe(user.email);

    await page.getByLabel("비밀번호", { exact: true }).fill(newPassword);
    await page.getByRole("button", { name: "로그인", exact: true }).click();
    await page.waitForURL(`${e2e.url}/`);
    await page.getByRole("link", { name: user.username }).waitFor();
    const old = await e2e.server.api("POST", "/api/users/login", {
      body: { email: user.email, password: user.password },
    });
    expect(old.status).toBe(401);
  });

  test("/password-reset without a login goes to /login asking to log in first", async () => {
    const page = await e2e.newPage();
    await page.goto(`${e2e.url}/password-reset`);
    await page.waitForURL(`${e2e.url}/login`);
    await page.getByText("비밀번호를 재설정하려면 먼저 로그인해주세요.").waitFor();
  });
});

describe("app shell", () => {
  test("the socket follows the session: member after login, guest after logout; stats update live", async () => {
    const user = await e2e.createUser();
    const page = await e2e.newPage();
    await signIn(page, e2e.url, user);
    await waitFor(async () => (await userSockets(user.id)).length === 1, "the member socket");

    const cookies = await page.context().cookies();
    const anonymous = cookies.find((c) => c.name === "anonymous_id");
    expect(anonymous?.value).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    expect(anonymous?.sameSite).toBe("Lax");

    await page.getByText("Lv.1").waitFor();
    e2e.server.io
      .to(`user:${user.id}`)
      .emit("user:stats_update", { level: 7, coins: 1234, points: 56, gold_medals: 2, silver_medals: 1 });
    await page.getByText("Lv.7").waitFor();
    await page.getByText("1,234").waitFor();

    await page.getByRole("button", { name: "로그아웃" }).click();
    await waitFor(async () => (await userSockets(user.id)).length === 0, "the member socket to close");
    await waitFor(async () => {
      const sockets = await e2e.server.io.fetchSockets();
      return sockets.some((s) => (s.data.identity as { clientId?: string })?.clientId === anonymous?.value);
    }, "the guest socket");
  });

  test("administrators see the admin link and the floating dashboard link; others do not", async () => {
    const admin = await e2e.createUser();
    await e2e.accounts().setAdmin(admin.id, true);
    const member = await e2e.createUser();

    const adminPage = await e2e.newPage();
    await signIn(adminPage, e2e.url, admin);
    await adminPage.getByRole("link", { name: "관리자", exact: true }).waitFor();
    await adminPage.getByRole("link", { name: "관리자 대시보드" }).waitFor();

    const memberPage = await e2e.newPage();
    await signIn(memberPage, e2e.url, member);
    await memberPage.getByRole("link", { name: member.username }).waitFor();
    expect(await memberPage.getByRole("link", { name: "관리자", exact: true }).count()).toBe(0);
    expect(await memberPage.getByRole("link", { name: "관리자 대시보드" }).count()).toBe(0);
    await memberPage.goto(`${e2e.url}/admin/dashboard`);
    await memberPage.waitForURL(`${e2e.url}/`);
  });

  test("navbar items, room routes without footer and with compact figures, /rooms → /, Korean 404", async () => {
    const user = await e2e.createUser();
    const page = await e2e.newPage();
    await signIn(page, e2e.url, user);
    for (const name of ["홈", "랭킹", "자유게시판", "1:1 타자 대결", "내 길드", user.username]) {
      await page.getByRole("link", { name, exact: true }).first().waitFor();
    }
    // No EXTERNAL_CHAT_URL here: no chat link (e2e/external-chat.test.ts has one).
    expect(await page.getByRole("link", { name: /채팅방/ }).count()).toBe(0);
    expect(await page.locator("footer").count()).toBe(1);

    await page.getByRole("link", { name: "자유게시판" }).click();
    await page.waitForURL(`${e2e.url}/board`);
    await page.getByRole("heading", { name: "자유게시판" }).waitFor();
    await expectTitle(page, "자유게시판 | 타자마당");

    await page.goto(`${e2e.url}/rooms/1`);
    await page.getByRole("heading", { name: "초보자 방" }).waitFor();
    expect(await page.locator("footer").count()).toBe(0);
    // The figures stay, compact, in the navbar's own row.
    expect(await page.locator(".stats-bar").count()).toBe(0);
    expect(await page.locator(".navbar .stats-compact .stat-level dd").textContent()).toBe("Lv.1");

    await page.goto(`${e2e.url}/rooms`);
    await page.waitForURL(`${e2e.url}/`);
    expect(await page.locator("footer").count()).toBe(1);
    await page.getByText("Lv.1").waitFor();

    await page.goto(`${e2e.url}/no/such/page`);
    await page.getByRole("heading", { name: "페이지를 찾을 수 없습니다." }).waitFor();
    await expectTitle(page, "페이지를 찾을 수 없음 | 타자마당");
  });

  test("the Korean web font is served by the app and used", async () => {
    const page = await e2e.newPage();
    const fontRequests: string[] = [];
    page.on("requestfinished", (request) => {
      if (request.resourceType() === "font") fontRequests.push(request.url());
    });
    await page.goto(`${e2e.url}/login`);
    const loaded = await page.evaluate(async () => {
      await document.fonts.ready;
      return [...document.fonts].filter((f) => f.family.includes("Noto Sans KR") && f.status === "loaded").length;
    });
    expect(loaded).toBeGreaterThan(0);
    expect(fontRequests.length).toBeGreaterThan(0);
    for (const url of fontRequests) expect(url.startsWith(e2e.url)).toBe(true);
  });

  test("a 375-px phone renders the shell without horizontal scrolling", async () => {
    const user = await e2e.createUser({ username: "가나다라마바사아자차카타" });
    const page = await e2e.newPage(PHONE);
    for (const path of ["/", "/login", "/register", "/board", "/no/such/page"]) {
      await page.goto(`${e2e.url}${path}`);
      await page.locator(".navbar").waitFor();
      expect({ path, width: await scrollWidth(page) }).toEqual({ path, width: PHONE.width });
    }
    await signIn(page, e2e.url, user);
    await page.getByText("Lv.1").waitFor();
    expect(await scrollWidth(page)).toBe(PHONE.width);

    expect(await page.getByRole("link", { name: "랭킹" }).isVisible()).toBe(false);
    await openMenuIfFolded(page);
    await page.getByRole("link", { name: "랭킹" }).waitFor({ state: "visible" });
    expect(await page.getByRole("button", { name: "메뉴 닫기" }).getAttribute("aria-expanded")).toBe("true");
    expect(await scrollWidth(page)).toBe(PHONE.width);
    await page.getByRole("link", { name: "랭킹" }).click();
    await page.waitForURL(`${e2e.url}/ranking`);
    // The menu folds after the navigation renders (an effect of the route change): wait for it, not for a frame.
    await page.getByRole("link", { name: "랭킹" }).waitFor({ state: "hidden", timeout: 5_000 });
    expect(await page.getByRole("link", { name: "랭킹" }).isVisible()).toBe(false);
  });
});
