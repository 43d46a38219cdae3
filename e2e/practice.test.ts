/**
 * 타자 연습 in the browser (issue 28): a member picks a 긴 글, types it through the IME (composition events, as a
 * Korean keyboard delivers them), sees the keyboard light the next key and the finger, the text coloured (a syllable
 * still composing is never wrong), the pause, then the result and the per-jamo statistics the keystrokes made. A
 * guest's practice stays in the browser and moves to the account at sign-in.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { type E2E, imeCommit, imeCompose, imeType, openMenuIfFolded, signIn, startE2E } from "./helpers";

/** Between two characters: a human pace (a result above 1,500 타/분 is refused by the server). */
const PACE_MS = 250;

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e.stop());

const nextKeyOf = (page: Page) =>
  page.locator('[data-testid="practice-keyboard"] [data-next="true"]').getAttribute("data-key");
const line = (page: Page) => page.getByTestId("practice-line");

async function startLongText(page: Page, title: string) {
  await page.getByLabel("긴 글 고르기").selectOption({ label: title });
  await page.getByRole("button", { name: "긴 글 시작" }).click();
  await page.getByLabel("연습 입력").waitFor();
}

describe("/practice", () => {
  test("a member types a 긴 글 through the IME: keyboard guide, colouring, pause, result and jamo statistics", async () => {
    const user = await e2e.createUser();
    const page = await e2e.newPage();
    await signIn(page, e2e.url, user);
    await openMenuIfFolded(page);
    await page.getByRole("link", { name: "타자 연습" }).click();
    await page.waitForURL(`${e2e.url}/practice`);
    await startLongText(page, "진달래꽃 — 김소월");

    // The first line, 나 보기가 역겨워: the guide lights ㄴ (S), left ring finger.
    expect(await line(page).textContent()).toBe("나 보기가 역겨워");
    expect(await nextKeyOf(page)).toBe("KeyS");
    expect(await page.getByTestId("practice-next").textContent()).toBe("다음 키: ㄴ (S), 왼손 약지 손가락");
    const box = page.getByLabel("연습 입력");
    await box.focus();

    // ㄴ composing: shown as being typed, not wrong; the guide goes on to ㅏ (K).
    await imeCompose(page, "ㄴ");
    expect(await line(page).locator(".ch-typing").count()).toBe(1);
    expect(await line(page).locator(".ch-bad").count()).toBe(0);
    expect(await nextKeyOf(page)).toBe("KeyK");
    await imeCompose(page, "나");
    await imeCommit(page, "나");
    await imeType(page, " 보기가 역겨워", { pauseMs: PACE_MS });
    expect(await line(page).locator(".ch-ok").count()).toBe(9);
    await page.keyboard.press("Enter");

    // The second line with a slip: 거 for 가 is wrong, the guide asks for Backspace.
    expect(await line(page).textContent()).toBe("가실 때에는");
    expect(await page.getByTestId("practice-position").textContent()).toContain("2/12줄");
    await imeType(page, "거", { pauseMs: PACE_MS });
    expect(await line(page).locator(".ch-bad").count()).toBe(1);
    expect(
      await page.locator('[data-testid="practice-keyboard"] [data-key="Backspace"].practice-key-next').count(),
    ).toBe(1);
    await page.keyboard.press("Backspace");
    // ㄸ needs Shift: the guide lights the right Shift with E once 가실 and the space are typed.
    await imeType(page, "가실 ", { pauseMs: PACE_MS });
    expect(await nextKeyOf(page)).toBe("KeyE");
    expect(await page.locator('[data-key="ShiftRight"].practice-key-next').count()).toBe(1);
    await imeType(page, "때에는", { pauseMs: PACE_MS });

    // A 긴 글 can be paused: the box waits, the clock stops.
    await page.getByRole("button", { name: "일시 정지" }).click();
    await page.getByText("잠시 멈췄습니다. 시간은 가지 않습니다.").waitFor();
    expect(await box.isDisabled()).toBeTrue();
    await page.getByRole("button", { name: "이어 하기" }).click();
    await box.focus();
    await page.keyboard.press("Enter");
    expect(await page.getByTestId("practice-speed").textContent()).toMatch(/^\d+타\/분$/);

    await page.getByRole("button", { name: "그만하기" }).click();
    const result = page.getByTestId("practice-result");
    await result.waitFor();
    expect(await result.textContent()).toContain("기록을 저장했습니다.");

    // The statistics the keystrokes made: ㅏ was missed once (거 for 가), ㄸ typed with Shift.
    const stats = page.getByTestId("practice-stats");
    await stats.getByRole("table", { name: "자모별 기록" }).waitFor();
    const row = (unit: string) => stats.getByRole("row", { name: new RegExp(`^${unit} `) });
    expect(await row("ㅏ").textContent()).not.toContain("0.0%");
    expect(await row("ㄸ").count()).toBe(1);
    expect(await stats.getByRole("table", { name: "어려운 전환" }).textContent()).toContain("Shift 자모");
    expect(await page.getByTestId("practice-heat").count()).toBe(1);

    // The server has them too.
    const server = await e2e.server.api("GET", "/api/practice/stats", {
      token: await page.evaluate(() => localStorage.getItem("token") ?? ""),
    });
    expect(server.body.totals.results).toBe(1);
    expect(server.body.jamo.find((j: { unit: string }) => j.unit === "ㅏ").errors).toBe(1);
  });

  test("the keyboard can be hidden; a guest's practice moves to the account at sign-in", async () => {
    const page = await e2e.newPage();
    await page.goto(`${e2e.url}/practice`);
    await startLongText(page, "진달래꽃 — 김소월");
    await page.getByRole("button", { name: "자판 숨기기" }).click();
    expect(await page.getByTestId("practice-keyboard").count()).toBe(0);
    await page.getByRole("button", { name: "자판 보이기" }).click();
    expect(await page.getByTestId("practice-keyboard").count()).toBe(1);
    await page.getByLabel("연습 입력").focus();
    await imeType(page, "나 보기가 역겨워", { pauseMs: PACE_MS });
    await page.keyboard.press("Enter");
    await page.getByRole("button", { name: "그만하기" }).click();
    await page.getByText("기록은 이 브라우저에 남았습니다. 로그인하면 계정으로 옮겨집니다.").waitFor();
    // The guest's own statistics, from this browser.
    await page.getByTestId("practice-stats").getByRole("table", { name: "자모별 기록" }).waitFor();

    const user = await e2e.createUser();
    await signIn(page, e2e.url, user);
    await page.goto(`${e2e.url}/practice`);
    await page.getByText("손님일 때 한 연습 기록 1개를 계정으로 옮겼습니다.").waitFor();
    expect(await page.evaluate(() => localStorage.getItem("practice_guest_results"))).toBeNull();
    const login = await e2e.server.api("POST", "/api/users/login", {
      body: { email: user.email, password: user.password },
    });
    const stats = await e2e.server.api("GET", "/api/practice/stats", { token: login.body.access_token });
    expect(stats.body.totals).toMatchObject({ results: 1, today_experience: 0 });
  });

  test("a member practises on 세벌식 390: its keyboard, initials and finals on their own keys, statistics of its own", async () => {
    const user = await e2e.createUser();
    const page = await e2e.newPage();
    await signIn(page, e2e.url, user);
    await page.goto(`${e2e.url}/practice`);
    await page.getByLabel("자판").selectOption({ label: "세벌식 390" });
    await page.getByRole("button", { name: "숫자 자리" }).waitFor();
    await startLongText(page, "진달래꽃 — 김소월");
    expect(await page.getByTestId("practice-keyboard").getAttribute("data-layout")).toBe("sebeolsik-390");
    // The initial ㄴ is H on 390 (S is the final ㄴ).
    expect(await nextKeyOf(page)).toBe("KeyH");
    expect(await page.getByTestId("practice-next").textContent()).toBe("다음 키: ㄴ (H), 오른손 검지 손가락");
    await page.getByLabel("연습 입력").focus();
    await imeType(page, "나 보기가 ", { pauseMs: PACE_MS });
    await imeCompose(page, "ㅇ");
    await imeCompose(page, "여");
    // 역's final ㄱ: X, not the initial ㄱ's K.
    expect(await nextKeyOf(page)).toBe("KeyX");
    expect(await page.getByTestId("practice-next").textContent()).toBe("다음 키: 받침 ㄱ (X), 왼손 약지 손가락");
    await imeCompose(page, "역");
    await imeCommit(page, "역");
    await imeType(page, "겨워", { pauseMs: PACE_MS });
    await page.keyboard.press("Enter");
    await page.getByRole("button", { name: "그만하기" }).click();
    expect(await page.getByTestId("practice-result").textContent()).toContain("기록을 저장했습니다.");

    const stats = page.getByTestId("practice-stats");
    expect(await stats.getByRole("heading").textContent()).toContain("세벌식 390");
    await stats.getByRole("row", { name: /^받침 ㄱ / }).waitFor();
    expect(await page.getByTestId("practice-heat").getAttribute("data-layout")).toBe("sebeolsik-390");

    // Remembered on the server: the page opens on it again; the 두벌식 statistics stay empty.
    await page.reload();
    await page.getByRole("button", { name: "숫자 자리" }).waitFor();
    expect(await page.getByLabel("자판").inputValue()).toBe("sebeolsik-390");
    const token = await page.evaluate(() => localStorage.getItem("token") ?? "");
    const two = await e2e.server.api("GET", "/api/practice/stats?layout=dubeolsik", { token });
    expect(two.body.jamo.every((j: { hits: number }) => j.hits === 0)).toBeTrue();
    const three = await e2e.server.api("GET", "/api/practice/stats", { token });
    expect(three.body.layout).toBe("sebeolsik-390");
    expect(three.body.jamo.find((j: { unit: string }) => j.unit === "ᆨ").hits).toBe(1);
  });

  test("a guest clears a goal and undoes it; the layout stays in the browser", async () => {
    const page = await e2e.newPage();
    await page.goto(`${e2e.url}/practice`);
    await page.getByLabel("자판").selectOption({ label: "세벌식 최종" });
    expect(await page.evaluate(() => localStorage.getItem("practice_layout"))).toBe("sebeolsik-final");
    await page.getByLabel("목표 속도 (타/분)").fill("320");
    await page.getByRole("button", { name: "목표 저장" }).click();
    await page.getByText("목표를 저장했습니다.").waitFor();
    await page.getByRole("button", { name: "목표 지우기" }).click();
    await page.getByTestId("practice-goal-cleared").waitFor();
    expect(await page.evaluate(() => localStorage.getItem("practice_goal"))).toBeNull();
    expect(await page.getByLabel("목표 속도 (타/분)").inputValue()).toBe("200");
    await page.getByRole("button", { name: "되돌리기" }).click();
    await page.getByRole("button", { name: "목표 지우기" }).waitFor();
    expect(await page.getByLabel("목표 속도 (타/분)").inputValue()).toBe("320");
    await page.reload();
    expect(await page.getByLabel("자판").inputValue()).toBe("sebeolsik-final");
  });
});
