/**
 * 목표와 진행 on /practice (issue 28): a guest sets a target (kept in the browser, Korean refusals), practises
 * through the IME and sees 연속 연습, the daily chart with two y axes and the target lines, and a weak jamo's days;
 * at sign-in the target becomes the account's. A member's chart reads the server's progress. recharts loads only
 * when the panel is on screen.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { KeystrokeTally } from "../modules/practice/keystroke-model";
import { type E2E, imeType, signIn, startE2E } from "./helpers";

const PACE_MS = 250;

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e.stop());

/** Types the first line of 진달래꽃 with a slip on 나 (ㅓ for ㅏ, erased), then stops. */
async function practiseOneLine(page: Page) {
  await page.getByLabel("긴 글 고르기").selectOption({ label: "진달래꽃 — 김소월" });
  await page.getByRole("button", { name: "긴 글 시작" }).click();
  await page.getByLabel("연습 입력").focus();
  await imeType(page, "너", { pauseMs: PACE_MS });
  await page.keyboard.press("Backspace");
  await imeType(page, "나 보기가 역겨워", { pauseMs: PACE_MS });
  await page.keyboard.press("Enter");
  await page.getByRole("button", { name: "그만하기" }).click();
  await page.getByTestId("practice-result").waitFor();
}

const chartsLoaded = (page: Page) =>
  page.evaluate(() => performance.getEntriesByType("resource").some((r) => /practice-charts-/.test(r.name)));

describe("goals and progress", () => {
  test("a guest's target, streak, chart and weak jamo; the target moves to the account at sign-in", async () => {
    const page = await e2e.newPage({ width: 1280, height: 700 });
    await page.goto(`${e2e.url}/practice`);
    const panel = page.getByTestId("practice-progress");
    await panel.waitFor();
    expect(await page.getByTestId("practice-streak").textContent()).toBe("연속 연습 0일");
    // Below the first screen: no chart code yet.
    expect(await chartsLoaded(page)).toBeFalse();

    // A target out of range is refused in Korean; a valid one is kept in this browser.
    const speed = page.getByLabel("목표 속도 (타/분)");
    const accuracy = page.getByLabel("목표 정확도 (%)");
    expect(await speed.inputValue()).toBe("200");
    await speed.fill("5");
    await page.getByRole("button", { name: "목표 저장" }).click();
    await panel.getByText("목표 속도는 10–1,500타/분의 정수로 정해주세요.").waitFor();
    await speed.fill("250");
    await accuracy.fill("97.5");
    await page.getByRole("button", { name: "목표 저장" }).click();
    await panel.getByText("목표를 저장했습니다.").waitFor();
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem("practice_goal"))) ?? "null")).toEqual({
      wpm: 250,
      accuracy: 97.5,
    });

    await practiseOneLine(page);
    expect(await page.getByTestId("practice-streak").textContent()).toBe("연속 연습 1일");
    await panel.scrollIntoViewIfNeeded();
    const chart = panel.getByRole("figure", { name: "날마다 속도와 정확도" });
    await chart.locator(".recharts-wrapper").waitFor();
    // Two y axes (speed, accuracy) and the two target lines.
    expect(await chart.locator(".recharts-yAxis").count()).toBe(2);
    expect(await chart.locator(".recharts-reference-line").count()).toBe(2);
    expect(await chart.getByText("목표 250타/분", { exact: true }).count()).toBe(1);
    expect(await chart.getByText("목표 97.5%", { exact: true }).count()).toBe(1);
    expect(await page.getByTestId("practice-goal-summary").textContent()).toMatch(
      /^1일 연습 · 마지막 날\(\d{4}-\d\d-\d\d\) 평균 \d+타\/분, 정확도 [\d.]+% · 목표 250타\/분, 97.5%: /,
    );
    // The kinds practised can be chosen one by one.
    await panel.getByLabel("종류").selectOption({ label: "긴 글" });
    expect(await page.getByTestId("practice-goal-summary").textContent()).toContain("1일 연습");

    // A jamo's days: ㅏ was missed once (too few keystrokes yet to rank the weakest: every typed one is offered).
    await panel.getByLabel("자모").selectOption("ㅏ");
    expect(await page.getByTestId("practice-unit-summary").textContent()).toMatch(
      /^ㅏ: \d{4}-\d\d-\d\d 오타율 [\d.]+%/,
    );
    expect(await page.getByTestId("practice-unit-summary").textContent()).not.toContain("오타율 0%");

    const user = await e2e.createUser();
    await signIn(page, e2e.url, user);
    await page.goto(`${e2e.url}/practice`);
    await page.getByText("손님일 때 한 연습 기록 1개를 계정으로 옮겼습니다.").waitFor();
    await page.waitForFunction(() => localStorage.getItem("practice_goal") === null);
    const login = await e2e.server.api("POST", "/api/users/login", {
      body: { email: user.email, password: user.password },
    });
    const goal = await e2e.server.api("GET", "/api/practice/goal", { token: login.body.access_token });
    expect(goal.body.goal).toMatchObject({ wpm: 250, accuracy: 97.5 });
    // The member's chart: the moved result, from the server's progress, against the account's target.
    await page.getByTestId("practice-progress").scrollIntoViewIfNeeded();
    await page.getByTestId("practice-goal-summary").waitFor();
    expect(await page.getByTestId("practice-goal-summary").textContent()).toContain("목표 250타/분, 97.5%");
    expect(await page.getByTestId("practice-streak").textContent()).toBe("연속 연습 1일");
  });

  test("the profile shows the member's practice: time, 연속 연습, best speed per kind, weakest jamo", async () => {
    const user = await e2e.createUser();
    const login = await e2e.server.api("POST", "/api/users/login", {
      body: { email: user.email, password: user.password },
    });
    // 빵 typed with ㅂ for ㅃ every time, the rest right: ㅃ is the weakest.
    const tally = new KeystrokeTally();
    tally.setTarget("빵빵 아빠 오빠 빵집");
    let at = 0;
    for (const value of [
      "ㅂ",
      "",
      "빵",
      "빵ㅂ",
      "빵",
      "빵빵",
      "빵빵 ",
      "빵빵 아",
      "빵빵 아ㅂ",
      "빵빵 아",
      "빵빵 아빠",
    ]) {
      at += 250;
      tally.input(value, at);
    }
    for (const [kind, wpm] of [
      ["words", 280],
      ["long", 310],
      ["long", 250],
    ] as const) {
      const stored = await e2e.server.api("POST", "/api/practice/results", {
        token: login.body.access_token,
        body: {
          client_id: crypto.randomUUID(),
          kind,
          text_id: kind === "long" ? "long:kim-sowol-azaleas" : "words",
          layout: "dubeolsik",
          wpm,
          accuracy: 95,
          keystrokes: 500,
          error_count: 5,
          duration_ms: 90_000,
          summary: tally.summary(),
        },
      });
      expect(stored.status).toBe(200);
    }
    const page = await e2e.newPage();
    await signIn(page, e2e.url, user);
    await page.goto(`${e2e.url}/profile`);
    const card = page.getByTestId("profile-practice");
    await card.getByText("연습 시간").waitFor();
    const figure = async (label: string) =>
      await card
        .locator(".profile-figure", { has: page.getByText(label, { exact: true }) })
        .locator("dd")
        .textContent();
    expect(await figure("연습 시간")).toBe("5분");
    expect(await figure("연속 연습")).toBe("1일");
    expect(await figure("최고 속도 (낱말 연습)")).toBe("280타/분");
    expect(await figure("최고 속도 (긴 글)")).toBe("310타/분");
    expect(await figure("약한 자모")).toStartWith("ㅃ");
    // The games' figures stay the games': practice played none.
    const typing = page.locator(".profile-card", { has: page.getByRole("heading", { name: "타자 기록" }) });
    expect(await typing.locator(".profile-figure", { hasText: "게임 수" }).locator("dd").textContent()).toBe("0");
  });
});
