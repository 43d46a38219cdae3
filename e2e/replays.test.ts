/**
 * Replays in the browser (issue 26, product-rules "Live race and replays"): a member finishes a guild game typing
 * through the IME (each syllable composed over its jamo, at a human pace, every change sent as a step), opens the
 * result's replay from the profile's records table, and watches the sentence fill in as it was typed; the scrub bar
 * and 2× work. Against the real server and its real storage.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { createAccessTokens } from "../modules/accounts/tokens";
import {
  type E2E,
  imeType,
  layoutShift,
  recordLayoutShift,
  signIn,
  startE2E,
  type TestUser,
  uniqueUser,
} from "./helpers";

let e2e: E2E;
const PROBLEM = "하늘 천 따 지 검을 현";

beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.stop();
});

async function call(user: TestUser, method: string, path: string, body?: unknown) {
  const token = await createAccessTokens(e2e.server.ctx.config.jwtSecret, Date.now).sign(user.id, "full");
  const res = await e2e.server.api(method, path, { token, body });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The mobile preset's screen (Moto G Power) that bench/lighthouse.ts measures with. */
const LIGHTHOUSE_PHONE = { width: 412, height: 823 };

const typedCount = (page: Page) => page.locator(".replay-stage .ch-ok").count();

describe("replays in the browser", () => {
  test("a guild game typed through the IME, replayed from the profile's records: the sentence fills in; scrub and 2×", async () => {
    const admin = await e2e.createUser(uniqueUser("리플"));
    const guild = await call(admin, "POST", "/api/guilds", { name: `리플길드${Date.now().toString(36).slice(-4)}` });
    await call(admin, "PUT", `/api/guilds/${guild.id}/problems`, { problems: [PROBLEM] });
    await call(admin, "PUT", `/api/guilds/${guild.id}/settings`, { countdown_seconds: 1 });

    const page = await e2e.newPage();
    await signIn(page, e2e.url, admin);
    await page.goto(`${e2e.url}/guilds/${guild.id}/room`);
    await page.getByRole("tab", { name: "길드 게임" }).click();
    await page.getByRole("button", { name: "게임 시작" }).click();
    const answer = page.getByRole("textbox", { name: "답 입력" });
    await page.getByTestId("guild-problem").getByText(PROBLEM).waitFor();
    await answer.click();
    await imeType(page, PROBLEM, { pauseMs: 120 });
    await answer.press("Enter");
    await page
      .getByRole("region", { name: "게임 결과" })
      .locator(".guild-result", { hasText: admin.username })
      .waitFor();

    // The profile's records table links the result's replay.
    await page.goto(`${e2e.url}/profile`);
    await page.getByRole("tab", { name: "게임 기록" }).click();
    const link = page.getByRole("link", { name: /^리플레이/ });
    await link.first().waitFor();
    expect(await link.count()).toBe(1);
    await link.click();
    await page.waitForURL(/\/replay\/[A-Za-z0-9_-]{22}$/);
    await page.getByRole("heading", { name: `${admin.username}의 리플레이` }).waitFor();

    // It plays by itself at the real pace: the sentence fills in, a few characters at a time, to the end.
    const total = [...PROBLEM].length;
    await page.waitForFunction(() => {
      const ok = document.querySelectorAll(".replay-stage .ch-ok").length;
      return ok > 0 && ok < 13;
    });
    await page.waitForFunction((n) => document.querySelectorAll(".replay-stage .ch-ok").length === n, total, {
      timeout: 30_000,
    });
    expect(await page.getByRole("button", { name: "다시 재생" }).count()).toBe(1);

    // Scrub: back to the start the box is empty; to the middle, part of it.
    const scrub = page.getByRole("slider", { name: "재생 위치" });
    const max = Number(await scrub.getAttribute("max"));
    await scrub.fill("0");
    expect(await typedCount(page)).toBe(0);
    await scrub.fill(String(Math.round(max / 200) * 100));
    const middle = await typedCount(page);
    expect(middle).toBeGreaterThan(0);
    expect(middle).toBeLessThan(total);

    // 2×: from the start, twice the clock's pace (the replay's time runs about 2 s per second).
    await scrub.fill("0");
    await page.getByRole("button", { name: "2×" }).click();
    expect(await page.getByRole("button", { name: "2×" }).getAttribute("aria-pressed")).toBe("true");
    await page.getByRole("button", { name: "재생", exact: true }).click();
    const started = Date.now();
    await page.waitForTimeout(1_000);
    const value = Number(await scrub.inputValue());
    const elapsed = Date.now() - started;
    expect(value).toBeGreaterThan(elapsed * 1.5);
    expect(value).toBeLessThan(elapsed * 2.5 + 200);

    // On a phone (Lighthouse's, 412 px wide), played from the start to the end, nothing moves: the live figures
    // change every frame but keep their rows (wrapped as a flex row, a longer figure pushed the controls down and
    // back: Lighthouse CLS 0.13–0.32).
    const phone = await e2e.newPage(LIGHTHOUSE_PHONE);
    await recordLayoutShift(phone);
    await phone.goto(page.url());
    await phone.waitForFunction((n) => document.querySelectorAll(".replay-stage .ch-ok").length === n, total, {
      timeout: 30_000,
    });
    expect(await layoutShift(phone)).toBeLessThan(0.01);
  });
});
