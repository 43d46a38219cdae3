/**
 * Offline (issue 28, web/README.md "Offline"): the app installs as a web app; its service worker keeps the app and
 * the practice content, so /practice opens and runs with the browser offline; a member's result typed offline
 * (through the IME) waits on the device and reaches the server once the connection returns, exactly once; the live
 * pages say they need the connection. The worker is on in these contexts only (e2e/helpers blocks it elsewhere).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import type { Page } from "playwright-core";
import { cdp, DESKTOP, type E2E, imeType, signIn, startE2E, type TestUser } from "./helpers";

const PACE_MS = 250;
const OFFLINE_LIVE = "인터넷 연결이 끊겼습니다. 실시간 게임은 연결이 필요합니다. 타자 연습은 계속할 수 있습니다.";
const OFFLINE_PRACTICE = "인터넷 연결이 끊겼습니다. 타자 연습은 계속할 수 있고, 연습 기록은 연결되면 저장됩니다.";

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e.stop());

/** A browser context with the service worker allowed (closed with the browser by `e2e.stop`). */
async function pageWithWorker(): Promise<Page> {
  const context = await e2e.browser.newContext({ viewport: DESKTOP, locale: "ko-KR", serviceWorkers: "allow" });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  return page;
}

/**
 * The worker has kept everything and controls the page. It claims its pages once installed, but a page whose
 * document was being created during the claim (a navigation racing the install) stays uncontrolled until its next
 * load, as a player's would: then the page is loaded again.
 */
async function workerReady(page: Page) {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  if (await page.evaluate(() => navigator.serviceWorker.controller === null)) await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

async function practiceStats(user: TestUser) {
  const login = await e2e.server.api("POST", "/api/users/login", {
    body: { email: user.email, password: user.password },
  });
  const stats = await e2e.server.api("GET", "/api/practice/stats", { token: login.body.access_token });
  return stats.body.totals as { results: number; today_experience: number };
}

describe("offline", () => {
  test("the app is installable: a Korean manifest, standalone, icons, and a worker that controls the page", async () => {
    const page = await pageWithWorker();
    await page.goto(`${e2e.url}/practice`);
    await workerReady(page);
    const session = await cdp(page);
    const { installabilityErrors } = (await session.send("Page.getInstallabilityErrors")) as {
      installabilityErrors: { errorId: string }[];
    };
    // Playwright's contexts are incognito windows, where Chromium installs nothing; the app itself lacks nothing.
    expect(installabilityErrors.map((error) => error.errorId).filter((id) => id !== "in-incognito")).toEqual([]);
    const { data } = (await session.send("Page.getAppManifest")) as { data: string };
    const manifest = JSON.parse(data);
    expect(manifest).toMatchObject({ name: "타자마당", short_name: "타자마당", display: "standalone", lang: "ko" });
    expect(manifest.theme_color).toBe("#1f6feb");
    expect(manifest.icons.map((icon: { sizes: string }) => icon.sizes)).toEqual(["192x192", "512x512"]);
  });

  test("a member practises offline through the IME; back online the result reaches the server exactly once", async () => {
    const user = await e2e.createUser();
    const page = await pageWithWorker();
    await signIn(page, e2e.url, user);
    await page.goto(`${e2e.url}/practice`);
    await workerReady(page);
    // /practice opened online puts the whole word list into the worker's cache, in the 100 words' place.
    await page.waitForFunction(
      () =>
        caches.match("/api/practice/words?count=100").then((kept) => kept?.headers.get("x-practice-word-list") === "1"),
      undefined,
      { polling: 200 },
    );
    let stored = 0;
    page.context().on("response", (response) => {
      const request = response.request();
      if (request.method() === "POST" && request.url().endsWith("/api/practice/results")) stored++;
    });

    await page.context().setOffline(true);
    await page.reload();
    await page.getByRole("heading", { name: "타자 연습", level: 1 }).waitFor();
    expect(await page.getByTestId("offline-banner").textContent()).toBe(OFFLINE_PRACTICE);
    // The session could not be checked: the tab is nobody's yet, but the result will be the member's.
    await page.getByText("사용자 정보를 불러오는데 실패했습니다.").waitFor();

    // Offline the worker answers any word query with every word: 맞춤 연습 draws the weak jamo's words from all.
    const offlineWords = await page.evaluate(() =>
      fetch("/api/practice/words?count=20&focus=ㅃ")
        .then((answer) => answer.json())
        .then((body: { words: string[] }) => body.words.length),
    );
    expect(offlineWords).toBeGreaterThan(5_000);
    await page.getByRole("button", { name: "맞춤 연습 시작" }).click();
    expect(await page.getByTestId("practice-position").textContent()).toContain("1/4줄");
    await page.getByRole("button", { name: "그만하기" }).click();

    // The words and the sentences are there offline, as many as a practice asks for.
    await page.getByRole("button", { name: "낱말 연습 시작" }).click();
    expect(await page.getByTestId("practice-position").textContent()).toContain("1/6줄");
    await page.getByRole("button", { name: "그만하기" }).click();
    await page.getByRole("button", { name: "짧은 글 시작" }).click();
    expect(await page.getByTestId("practice-position").textContent()).toContain("1/8줄");
    await page.getByRole("button", { name: "그만하기" }).click();

    // A 긴 글, typed through the IME's composition.
    await page.getByLabel("긴 글 고르기").selectOption({ label: "진달래꽃 — 김소월" });
    await page.getByRole("button", { name: "긴 글 시작" }).click();
    const box = page.getByLabel("연습 입력");
    await box.focus();
    await imeType(page, "나 보기가 역겨워", { pauseMs: PACE_MS });
    await page.keyboard.press("Enter");
    expect(await page.getByTestId("practice-line").textContent()).toBe("가실 때에는");
    await page.getByRole("button", { name: "그만하기" }).click();
    expect(await page.getByTestId("practice-result").textContent()).toContain(
      "서버에 연결할 수 없어 기록을 이 기기에 보관했습니다. 연결되면 자동으로 저장합니다.",
    );
    expect(await page.getByTestId("practice-unsent").textContent()).toContain("연습 기록 1개");
    expect((await practiceStats(user)).results).toBe(0);

    await page.context().setOffline(false);
    await page.getByTestId("practice-unsent").waitFor({ state: "detached" });
    await page.getByTestId("offline-banner").waitFor({ state: "detached" });
    // The connection's return checked the kept session: the member is signed in again.
    await page.locator(".profile-name", { hasText: user.username }).waitFor();
    const totals = await practiceStats(user);
    expect(totals.results).toBe(1);
    // Typed today as a member: it pays like any result.
    expect(totals.today_experience).toBeGreaterThan(0);

    // Nothing is left to send: the connection's return again, a reload, another tab send nothing more.
    await page.evaluate(() => window.dispatchEvent(new Event("online")));
    await page.reload();
    await page.getByTestId("practice-stats").waitFor();
    const other = await page.context().newPage();
    await other.goto(`${e2e.url}/practice`);
    await other.getByTestId("practice-stats").waitFor();
    expect(await page.evaluate(() => localStorage.getItem("practice_unsent"))).toBeNull();
    expect((await practiceStats(user)).results).toBe(1);
    // The server answered one request for it (the try at the end of the practice, offline, got no answer).
    expect(stored).toBe(1);
  });

  test("an update of the app replaces the old version's cache", async () => {
    const page = await pageWithWorker();
    await page.goto(`${e2e.url}/`);
    await workerReady(page);
    const cacheNames = () => page.evaluate(() => caches.keys());
    const file = join(import.meta.dir, "../dist/web/sw.js");
    const built = readFileSync(file, "utf8");
    const version = built.match(/service worker ([0-9a-f]{12})/)![1]!;
    expect(await cacheNames()).toEqual([`tajamadang-${version}`]);

    // A new build: the same worker with another version (and its compressed copies, which the server prefers).
    const originals = ["", ".br", ".gz"].map((suffix) => [file + suffix, readFileSync(file + suffix)] as const);
    const next = Buffer.from(built.replaceAll(version, "0123456789ab"));
    writeFileSync(file, next);
    writeFileSync(`${file}.br`, brotliCompressSync(next));
    writeFileSync(`${file}.gz`, gzipSync(next));
    try {
      await page.evaluate(() =>
        navigator.serviceWorker.getRegistration().then((registration) => registration?.update()),
      );
      await page.waitForFunction(
        () => caches.keys().then((names) => names.join() === "tajamadang-0123456789ab"),
        undefined,
        { polling: 200 },
      );
      expect(await page.evaluate(() => caches.match("/").then((shell) => shell?.ok))).toBeTrue();
    } finally {
      for (const [path, bytes] of originals) writeFileSync(path, bytes);
    }
  });

  test("offline, the live pages open from the worker and say they need the connection", async () => {
    const page = await pageWithWorker();
    await page.goto(`${e2e.url}/`);
    await workerReady(page);
    await page.context().setOffline(true);
    for (const path of ["/rooms/1", "/duel", "/daily"]) {
      await page.goto(`${e2e.url}${path}`);
      const banner = page.getByTestId("offline-banner");
      expect(await banner.textContent()).toContain(OFFLINE_LIVE);
      // One notice: the real-time connection's own failure banner gives way to it.
      expect(await page.getByText("서버 연결에 실패했습니다").count()).toBe(0);
    }
    await page.getByTestId("offline-banner").getByRole("link", { name: "타자 연습 하기" }).click();
    await page.waitForURL(`${e2e.url}/practice`);
    expect(await page.getByTestId("offline-banner").textContent()).toBe(OFFLINE_PRACTICE);
  });
});
