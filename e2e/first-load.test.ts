/**
 * A fast first load (issue 15) as the browser sees it: pages load when first visited, files arrive compressed,
 * and a page of UI text downloads the two UI font subsets, other text the slices holding it. Issue 24: nothing on /ranking moves while its cards load,
 * and a link inside text is told apart by more than its colour.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page, Response } from "playwright-core";
import { member, playResult } from "../modules/rankings/test-support";
import {
  type E2E,
  expectTitle,
  holdRequests,
  imeType,
  layoutShift,
  PHONE,
  recordLayoutShift,
  signIn,
  startE2E,
  twoFrames,
} from "./helpers";

let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E();
});

afterAll(async () => {
  await e2e?.stop();
});

/** Every response of the page from now on. */
function recordResponses(page: Page): Response[] {
  const responses: Response[] = [];
  page.on("response", (response) => void responses.push(response));
  return responses;
}

const pathOf = (response: Response) => new URL(response.url()).pathname;
const scripts = (responses: Response[]) =>
  responses.filter((response) => response.request().resourceType() === "script").map(pathOf);

describe("first load", () => {
  test("the board's code loads when the board is first visited, by navigation inside the app", async () => {
    const page = await e2e.newPage();
    const responses = recordResponses(page);
    await page.goto(`${e2e.url}/`);
    await page.getByRole("heading", { name: "실시간 타자 방" }).waitFor();
    expect(scripts(responses).some((path) => path.includes("/home-page-"))).toBe(true);
    expect(scripts(responses).some((path) => path.includes("/board-list-page-"))).toBe(false);

    // A marker on window survives only if the app navigates without reloading the document.
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    await page.getByRole("link", { name: "자유게시판" }).first().click();
    await page.getByRole("heading", { name: "자유게시판" }).waitFor();
    await expectTitle(page, "자유게시판 | 타자마당");
    expect(scripts(responses).some((path) => path.includes("/board-list-page-"))).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  });

  test("the browser gets the HTML, scripts and styles brotli-compressed, each with Vary: Accept-Encoding", async () => {
    const page = await e2e.newPage();
    const responses = recordResponses(page);
    await page.goto(`${e2e.url}/board`);
    await page.getByRole("heading", { name: "자유게시판" }).waitFor();
    const files = responses.filter((response) =>
      ["document", "script", "stylesheet"].includes(response.request().resourceType()),
    );
    expect(files.map((response) => response.request().resourceType()).sort()).toEqual(
      expect.arrayContaining(["document", "script", "stylesheet"]),
    );
    for (const response of files) {
      const headers = await response.allHeaders();
      expect({ path: pathOf(response), encoding: headers["content-encoding"], vary: headers.vary }).toEqual({
        path: pathOf(response),
        encoding: "br",
        vary: "Accept-Encoding",
      });
    }
  });

  test("a page of UI text downloads the two preloaded UI subsets and no slice; other text falls back to the slices", async () => {
    const page = await e2e.newPage();
    const responses = recordResponses(page);
    await page.goto(`${e2e.url}/login`);
    await page.getByRole("button", { name: "로그인", exact: true }).waitFor();
    await page.evaluate(() => document.fonts.ready);
    const fonts = () => responses.filter((response) => response.request().resourceType() === "font").map(pathOf);
    const preloads = await page
      .locator('link[rel="preload"][as="font"]')
      .evaluateAll((links) => links.map((link) => new URL((link as HTMLLinkElement).href).pathname));
    expect(preloads).toHaveLength(2);
    for (const path of preloads) expect(path).toMatch(/^\/assets\/fonts\/noto-sans-kr-ui-(400|700)-normal-\w+\.woff2$/);
    // Before the subsets, this page took 11 slices (95 kB); every character it shows is in the subsets now.
    expect(fonts().sort()).toEqual([...preloads].sort());
    const loadedFaces = () =>
      page.evaluate(() =>
        [...document.fonts]
          .filter((face) => face.family.includes("Noto Sans KR") && face.status === "loaded")
          .map((face) => face.unicodeRange),
      );
    expect(await loadedFaces()).toHaveLength(2);

    // A name the UI never writes ("뷁" is in no text of the app): its slice of the same family is fetched and used.
    const rare = "뷁";
    const loadedFaceHasIt = await page.evaluate(
      (point) =>
        [...document.fonts].some(
          (face) =>
            face.family.includes("Noto Sans KR") &&
            face.unicodeRange.split(",").some((range) => {
              const [first, last = first] = range.trim().replace(/^U\+/i, "").split("-");
              return Number.parseInt(first, 16) <= point && point <= Number.parseInt(last, 16);
            }) &&
            face.status === "loaded",
        ),
      rare.codePointAt(0)!,
    );
    expect(loadedFaceHasIt).toBe(false);
    const email = page.getByLabel("이메일");
    await email.click();
    await imeType(page, rare);
    expect(await email.inputValue()).toBe(rare);
    await page.waitForFunction((text) => document.fonts.check('16px "Noto Sans KR"', text), rare);
    await page.evaluate(() => document.fonts.ready);
    const slices = fonts().filter((path) => !preloads.includes(path));
    expect(slices.length).toBeGreaterThan(0);
    for (const path of slices) expect(path).toMatch(/^\/assets\/fonts\/noto-sans-kr-\d+-400-normal-\w+\.woff2$/);
  });

  test("the splash is drawn from the HTML alone; the app shows no page before its stylesheets apply", async () => {
    // No stylesheet link holds the first paint: the splash's styles are inline, the rest is named for the app.
    const html = await (await fetch(`${e2e.url}/login`)).text();
    expect(html).not.toContain('rel="stylesheet"');
    expect(html).toMatch(/<style>[^<]*\.splash\{/);
    expect(html).toMatch(/<meta name="deferred-styles" content="\/assets\/fonts-\w+\.css \/assets\/index-\w+\.css">/);

    const page = await e2e.newPage();
    const release = await holdRequests(page, /\/assets\/index-\w+\.css$/);
    await page.goto(`${e2e.url}/login`, { waitUntil: "commit" });
    await page.locator(".splash").waitFor();
    // Styled by the inline CSS (the page's background colour, the brand's colour) before any stylesheet. Read in
    // one go: React replaces the HTML's splash with its own, same-looking one.
    const splashColours = () =>
      page.evaluate(() => {
        const colour = (selector: string, property: "backgroundColor" | "color") => {
          const element = document.querySelector(selector);
          return element ? getComputedStyle(element)[property] : null;
        };
        return { background: colour(".splash", "backgroundColor"), brand: colour(".splash-brand", "color") };
      });
    expect(await splashColours()).toEqual({ background: "rgb(244, 246, 251)", brand: "rgb(26, 102, 220)" });
    // The session resolves at once for a visitor; the page still waits for app.css.
    await page.waitForTimeout(500);
    expect(await page.getByRole("button", { name: "로그인", exact: true }).count()).toBe(0);
    expect(await splashColours()).toEqual({ background: "rgb(244, 246, 251)", brand: "rgb(26, 102, 220)" });

    release();
    const button = page.getByRole("button", { name: "로그인", exact: true });
    await button.waitFor();
    expect(await button.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe("rgb(26, 102, 220)");
    expect(await page.locator('link[rel="preload"][as="font"]').count()).toBe(2);
  });

  test("the icon a browser asks for by name is there: /favicon.ico and the manifest, never a 404", async () => {
    const icon = await fetch(`${e2e.url}/favicon.ico`);
    expect(icon.status).toBe(200);
    expect((await icon.arrayBuffer()).byteLength).toBeGreaterThan(0);
    const manifest = await fetch(`${e2e.url}/manifest.webmanifest`);
    expect(manifest.status).toBe(200);
    expect((await manifest.json()).name).toContain("타자마당");
  });
});

async function shiftWhileRankingLoads(page: Page) {
  await recordLayoutShift(page);
  // The ranking calls answer only once the page has painted its cards' placeholders.
  const release = await holdRequests(page, "**/api/rankings/**");
  await page.goto(`${e2e.url}/ranking`);
  await page.locator('.ranking-list[aria-busy="true"]').first().waitFor();
  await page.evaluate(() => document.fonts.ready);
  // Two frames: the placeholders are on screen before the answers come.
  await twoFrames(page);
  release();
  await page.waitForFunction(() => document.querySelectorAll('[aria-busy="true"]').length === 0);
  await page.evaluate(() => document.fonts.ready);
  await twoFrames(page);
  return layoutShift(page);
}

describe("first paint stays put and reads well (issue 24)", () => {
  test("/ranking on a phone: the cards keep their size from placeholders to empty lists (no layout shift)", async () => {
    const page = await e2e.newPage(PHONE);
    const shift = await shiftWhileRankingLoads(page);
    await page.getByText("아직 기록이 없습니다.").first().waitFor();
    // Before the cards reserved their rows: 0.36 here (Lighthouse calls up to 0.1 good); now only the font's swap.
    expect(shift).toBeLessThan(0.01);
  });

  test("/ranking on a phone: the cards keep their size from placeholder to full lists (no layout shift)", async () => {
    const now = Date.now();
    for (let i = 0; i < 10; i++) {
      const user = await e2e.createUser({ username: `측정${i}` });
      await playResult(e2e.server.ctx, member(user), { wpm: 200 + i * 10, accuracy: 95, at: now });
    }
    const page = await e2e.newPage(PHONE);
    const shift = await shiftWhileRankingLoads(page);
    expect(await page.locator('[data-card="weekly-wpm"] .ranking-row').count()).toBe(10);
    // 0.08 before the cards reserved their rows (a 5-row placeholder grew to 10 rows and a count).
    expect(shift).toBeLessThan(0.01);
  });

  test("the footer stays below the first screen while a page's data arrives (/admin/users/:id on a phone)", async () => {
    const admin = await e2e.createUser();
    await e2e.accounts().setAdmin(admin.id, true);
    const page = await e2e.newPage(PHONE);
    await signIn(page, e2e.url, admin);
    await recordLayoutShift(page);
    const release = await holdRequests(page, `**/api/admin/users/${admin.id}**`);
    await page.goto(`${e2e.url}/admin/users/${admin.id}`);
    await page.getByText("불러오는 중...").first().waitFor();
    await page.evaluate(() => document.fonts.ready);
    await twoFrames(page);
    release();
    await expectTitle(page, `${admin.username} - 사용자 상세 | 타자마당`);
    await twoFrames(page);
    const shift = await layoutShift(page);
    // 0.18 in Lighthouse before the page filled the first screen: the footer, visible under "불러오는 중...", moved.
    expect(shift).toBeLessThan(0.01);
  });

  test("the admin dashboard on a phone: the chart's card holds its place while the figures load", async () => {
    const admin = await e2e.createUser();
    await e2e.accounts().setAdmin(admin.id, true);
    const page = await e2e.newPage(PHONE);
    await signIn(page, e2e.url, admin);
    await recordLayoutShift(page);
    const release = await holdRequests(page, "**/api/admin/dashboard");
    await page.goto(`${e2e.url}/admin/dashboard`);
    await page.getByRole("heading", { name: "관리자 대시보드" }).waitFor();
    await page.evaluate(() => document.fonts.ready);
    await twoFrames(page);
    release();
    await page.locator(".admin-chart svg").first().waitFor();
    await twoFrames(page);
    // 0.13 in Lighthouse when the card appeared only with the answer, pushing the links below it down.
    expect(await layoutShift(page)).toBeLessThan(0.01);
  });

  test("links inside text are underlined on /login, /register and /password-forgot", async () => {
    const page = await e2e.newPage();
    for (const [path, names] of [
      ["/login", ["회원가입", "비밀번호 찾기"]],
      ["/register", ["로그인"]],
      ["/password-forgot", ["로그인"]],
    ] as const) {
      await page.goto(`${e2e.url}${path}`);
      for (const name of names) {
        const link = page.locator("main p a", { hasText: name });
        await link.first().waitFor();
        const decoration = await link.first().evaluate((element) => getComputedStyle(element).textDecorationLine);
        expect({ path, name, decoration }).toEqual({ path, name, decoration: "underline" });
      }
    }
  });
});
