/**
 * 오늘의 문장 in the browser (issue 26): a member starts an attempt at /daily, types the day's sentence through the
 * IME (composition events, as a Korean keyboard delivers it), presses Enter, and sees the result and their name on
 * the day's board; the navbar leads there. The next attempt races the ghost of their best (its lane moves beside
 * theirs and crosses the line); a guest races the leader's.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { dailyStoreOf } from "../modules/daily/store";
import { seoulDate } from "../modules/kernel/seoul-time";
import {
  type E2E,
  holdRequests,
  holdSocketFrames,
  imeType,
  layoutShift,
  openMenuIfFolded,
  PHONE,
  recordLayoutShift,
  signIn,
  startE2E,
  twoFrames,
} from "./helpers";

const SENTENCE = "가는 말이 고와야 오는 말이 곱다";
/** Between two syllables: a human pace, well below the implausible speed. */
const PACE_MS = 120;

let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E();
  // The day's sentence, chosen before anyone asks (the first row of the day wins): a short one to type.
  await dailyStoreOf(e2e.server.ctx.database).chooseDay({
    day: seoulDate(Date.now()),
    sentenceId: 1,
    sentenceText: SENTENCE,
    chosenAt: Date.now(),
  });
});
afterAll(() => e2e.stop());

describe("/daily", () => {
  test("a member types the sentence through the IME and finds the result on the day's board", async () => {
    const user = await e2e.createUser();
    const page = await e2e.newPage();
    await signIn(page, e2e.url, user);
    await openMenuIfFolded(page);
    await page.getByRole("link", { name: "오늘의 문장" }).click();
    await page.waitForURL(`${e2e.url}/daily`);
    await page.getByTestId("daily-day").waitFor();

    await page.getByRole("button", { name: "시작" }).click();
    await page.getByText("초 후 문장이 나옵니다!").waitFor();
    const box = page.getByLabel("문장 입력");
    await box.waitFor();
    expect(await page.getByTestId("daily-sentence").textContent()).toContain(SENTENCE);
    await box.focus();
    await imeType(page, SENTENCE, { pauseMs: PACE_MS });
    await page.keyboard.press("Enter");

    const result = page.getByTestId("daily-result");
    await result.waitFor();
    expect(await result.textContent()).toContain("오늘 1번째 도전");
    expect(await result.textContent()).toContain("타/분");
    const board = page.getByTestId("daily-board");
    await board.getByText(user.username, { exact: true }).waitFor();
    // The entry links its replay (the attempt's server-stamped steps).
    expect(await board.getByRole("link", { name: `리플레이: ${user.username}` }).count()).toBe(1);
    expect(await page.getByTestId("daily-my-best").first().textContent()).toContain("1위");
    await page.getByRole("button", { name: "다시 도전" }).waitFor();
  });

  test("the next attempt races the ghost of one's best: its lane moves beside the player's and crosses the line", async () => {
    const user = await e2e.createUser();
    const page = await e2e.newPage();
    await signIn(page, e2e.url, user);
    await page.goto(`${e2e.url}/daily`);
    await page.getByRole("button", { name: "시작" }).click();
    await typeAttempt(page);
    await page.keyboard.press("Enter");
    await page.getByTestId("daily-result").waitFor();

    // By default the ghost is one's own best of the day.
    const mine = page.getByRole("radio", { name: /^내 최고 기록 \(\d+타\/분\)$/ });
    await mine.waitFor();
    expect(await mine.isChecked()).toBe(true);
    await page.getByRole("button", { name: "다시 도전" }).click();
    const ghost = page.getByRole("progressbar", { name: "내 최고 기록 진행률" });
    await ghost.waitFor();
    expect(await page.getByRole("progressbar", { name: `${user.username} 진행률` }).count()).toBe(1);

    // Halfway through the sentence, typed at the same pace, the ghost is on its way.
    const chars = [...SENTENCE];
    await typeAttempt(page, chars.slice(0, chars.length / 2).join(""));
    const halfway = Number(await ghost.getAttribute("aria-valuenow"));
    expect(halfway).toBeGreaterThan(0);
    expect(halfway).toBeLessThan(100);
    await imeType(page, chars.slice(chars.length / 2).join(""), { pauseMs: PACE_MS });
    await page.keyboard.press("Enter");
    await page.getByTestId("daily-result").waitFor();
    await crossesTheLine(page, "내 최고 기록 진행률");
  });

  test("a guest races the leader's ghost", async () => {
    const page = await e2e.newPage();
    await page.goto(`${e2e.url}/daily`);
    const leader = page.getByRole("radio", { name: /^1위 .+ \(\d+타\/분\)$/ });
    await leader.waitFor();
    expect(await leader.isChecked()).toBe(true);
    expect(await page.getByRole("radio", { name: "내 최고 기록 (아직 없음)" }).isDisabled()).toBe(true);
    await page.getByRole("button", { name: "시작" }).click();
    await crossesTheLine(page, /^1위 .+ 진행률$/);
  });

  test("on a phone nothing moves while the game connects and the board loads (issue 24: CLS on /daily)", async () => {
    const page = await e2e.newPage(PHONE);
    await recordLayoutShift(page);
    // The game's answers and the board's arrive only once the page has drawn itself without them.
    const releaseSocket = await holdSocketFrames(page);
    const releaseBoard = await holdRequests(page, /\/api\/daily$/);
    await page.goto(`${e2e.url}/daily`);
    await page.getByRole("button", { name: "연결하는 중…" }).waitFor();
    await page.getByText("불러오는 중…").waitFor();
    await page.evaluate(() => document.fonts.ready);
    await twoFrames(page);
    const board = page.waitForResponse(/\/api\/daily$/);
    releaseSocket();
    releaseBoard();
    await page.getByRole("button", { name: "시작" }).waitFor();
    await board;
    await page.getByText("불러오는 중…").waitFor({ state: "detached" });
    await page.evaluate(() => document.fonts.ready);
    await twoFrames(page);
    // Before: 0.04–0.11 in Lighthouse's runs (the day's line and the start button appearing with the answer).
    expect(await layoutShift(page)).toBeLessThan(0.01);
  });
});

/** Waits for the sentence, then types `text` (the whole sentence by default) through the IME. */
async function typeAttempt(page: Page, text = SENTENCE) {
  const box = page.getByLabel("문장 입력");
  await box.waitFor();
  await box.focus();
  await imeType(page, text, { pauseMs: PACE_MS });
}

/** The ghost's lane reaches the end with a place. */
async function crossesTheLine(page: Page, name: string | RegExp) {
  const ghost = page.getByRole("progressbar", { name });
  await ghost.waitFor();
  await page.waitForFunction(
    (el) => el?.getAttribute("aria-valuenow") === "100" && /\d위$/.test(el.getAttribute("aria-valuetext") ?? ""),
    await ghost.elementHandle(),
    { timeout: 20_000 },
  );
}
