/**
 * What Korean players trip over in the 1:1 duel (issue 24, "Duel"), typed as a player does: words go in through
 * the IME (CDP `Input.imeSetComposition` then `Input.insertText`), never with `fill`.
 *
 * - One Space (or Enter) pressed while the last syllable is still composing sends the word once and empties the
 *   box, whichever order the browser puts the composition's end and the key in (Chrome: key first; Safari: the
 *   composition's end first).
 * - The result outlives the automatic leave: the menu keeps it (winner, reason once, lives, words, duration, rating
 *   change) with 다시 하기 until the player moves on; a finished duel's input does not say it waits for the start.
 * - On a 375-px phone the words on the field are drawn at a readable size.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { type E2E, imeCommit, imeKeyDown, imeType, PHONE, signIn, startE2E } from "./helpers";

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.stop();
});

async function member(viewport?: { width: number; height: number }) {
  const user = await e2e.createUser();
  const page = await e2e.newPage(viewport);
  page.setDefaultTimeout(20_000);
  await signIn(page, e2e.url, user);
  await page.goto(`${e2e.url}/duel`);
  await page.getByRole("heading", { name: "1:1 타자 대결" }).waitFor();
  return { page, username: user.username };
}

/** Two members matched and past the countdown. */
async function duel(blueViewport?: { width: number; height: number }) {
  const red = await member();
  const blue = await member(blueViewport);
  await red.page.locator(".duel-user", { hasText: blue.username }).waitFor();
  await red.page.getByRole("button", { name: "매칭 찾기" }).click();
  await red.page.getByText("상대를 찾는 중입니다…").waitFor();
  await blue.page.getByRole("button", { name: "매칭 찾기" }).click();
  for (const { page } of [red, blue]) {
    await page.locator('[aria-label="화면의 단어"] li').first().waitFor();
    await page.waitForFunction(() => document.querySelector(".duel-countdown") === null);
  }
  return { red, blue };
}

const wordInput = (page: Page) => page.getByRole("textbox", { name: "단어 입력" });
const staticWords = (page: Page) =>
  page
    .locator('[aria-label="화면의 단어"] li[data-status="static"]')
    .evaluateAll((items) => items.map((item) => item.getAttribute("data-word") ?? ""));
const blockStatus = (page: Page, word: string) =>
  page.locator(`[aria-label="화면의 단어"] li[data-word="${word}"]`).getAttribute("data-status");

test("one Space or Enter while the last syllable composes sends the word once, in either event order", async () => {
  const { red } = await duel();
  const words = (await staticWords(red.page)).slice(0, 3);
  expect(words.length).toBe(3);
  const input = wordInput(red.page);
  await input.focus();
  const lastOf = (word: string) => Array.from(word).at(-1)!;

  // Chrome: the Space's keydown comes while the syllable composes, then the commit, then the space itself.
  await imeType(red.page, words[0], { leaveLast: true, pauseMs: 60 });
  await imeKeyDown(red.page, " ");
  await imeCommit(red.page, lastOf(words[0]));
  await imeCommit(red.page, " ");
  await red.page.waitForFunction((w) => {
    return (
      document.querySelector(`[aria-label="화면의 단어"] li[data-word="${w}"]`)?.getAttribute("data-status") !==
      "static"
    );
  }, words[0]);
  expect(await input.inputValue()).toBe("");
  expect(await blockStatus(red.page, words[0])).toBe("moving_right");

  // Safari: the composition ends first, then the Space's keydown (keyCode 229), then the space.
  await imeType(red.page, words[1], { leaveLast: true, pauseMs: 60 });
  await imeCommit(red.page, lastOf(words[1]));
  await imeKeyDown(red.page, " ");
  await imeCommit(red.page, " ");
  await red.page.waitForFunction((w) => {
    return (
      document.querySelector(`[aria-label="화면의 단어"] li[data-word="${w}"]`)?.getAttribute("data-status") !==
      "static"
    );
  }, words[1]);
  expect(await input.inputValue()).toBe("");

  // Enter while composing (Chrome): keydown, then the commit; no character follows.
  await imeType(red.page, words[2], { leaveLast: true, pauseMs: 60 });
  await imeKeyDown(red.page, "Enter");
  await imeCommit(red.page, lastOf(words[2]));
  await red.page.waitForFunction((w) => {
    return (
      document.querySelector(`[aria-label="화면의 단어"] li[data-word="${w}"]`)?.getAttribute("data-status") !==
      "static"
    );
  }, words[2]);
  expect(await input.inputValue()).toBe("");

  await red.page.getByRole("button", { name: "대결 나가기" }).click();
});

test("the result stays on the menu after the automatic leave, reason once, with 다시 하기", async () => {
  const { red, blue } = await duel();
  const [word] = await staticWords(blue.page);
  await wordInput(blue.page).focus();
  await imeType(blue.page, word, { pauseMs: 60 });
  await blue.page.keyboard.press("Enter");
  await blue.page.waitForFunction(
    (w) =>
      document.querySelector(`[aria-label="화면의 단어"] li[data-word="${w}"]`)?.getAttribute("data-status") !==
      "static",
    word,
  );

  // Red's connection drops for good (the tab is closed): blue wins once the reconnect grace is over.
  await red.page.context().close();
  const overlay = blue.page.getByRole("dialog", { name: "대결 결과" });
  await overlay.getByRole("heading", { name: "승리!" }).waitFor({ timeout: 30_000 });
  expect(await wordInput(blue.page).getAttribute("placeholder")).not.toContain("시작을 기다리는 중");

  // The duel is left on time (5 s), the result stays on the menu with its figures and 다시 하기.
  await blue.page.getByRole("button", { name: "매칭 찾기" }).waitFor({ timeout: 15_000 });
  const last = blue.page.getByRole("region", { name: "지난 대결 결과" });
  await last.getByText("승리!").waitFor();
  // Red dropped within the first 10 s of play: the duel is neither stored nor rated, and the page says so.
  await last.getByText("레이팅").waitFor();
  await last.getByText("변동 없음").waitFor();
  await last.getByText("시작 10초 안에 나가거나 연결이 끊겨 끝난 대결은 기록되지 않습니다.").waitFor();
  const text = (await last.textContent()) ?? "";
  expect(text.split("상대의 연결이 끊어졌습니다.").length - 1).toBe(1);
  expect(text).not.toContain("생명이 모두 사라졌습니다.");
  for (const label of ["남은 생명", "입력한 단어", "대결 시간"]) expect(text).toContain(label);
  expect(text).toMatch(/파랑 1/); // blue's one word
  await last.getByRole("button", { name: "다시 하기" }).waitFor();
  // Still there a while later: only the player moves it on.
  await blue.page.waitForTimeout(2_000);
  expect(await last.isVisible()).toBe(true);
  await last.getByRole("button", { name: "닫기" }).click();
  expect(await last.count()).toBe(0);
});

test("at 375 px the words on the field are drawn at a readable size", async () => {
  const { red, blue } = await duel(PHONE);
  const canvas = blue.page.locator(".duel-canvas");
  // The size the words are drawn at, in CSS pixels: the canvas font, scaled as the canvas is shown.
  const wordPx = await canvas.evaluate((element) => {
    const c = element as HTMLCanvasElement;
    const size = Number(/(\d+(?:\.\d+)?)px/.exec(c.getContext("2d")?.font ?? "")?.[1] ?? 0);
    return (size * c.clientWidth) / c.width;
  });
  expect(wordPx).toBeGreaterThanOrEqual(14);
  const box = (await canvas.boundingBox())!;
  expect(box.width).toBeLessThanOrEqual(PHONE.width);
  await red.page.getByRole("button", { name: "대결 나가기" }).click();
});
