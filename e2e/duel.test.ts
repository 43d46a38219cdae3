/**
 * /duel in the browser (spec part 2 §2 "1:1 typing duel", §4): two players see each other in the online list (own
 * entry marked), find each other, play on the 800×500 canvas after the countdown, type a word from the field, and
 * one leaves: the other's result overlay shows the win with its figures. Cancel while waiting returns to the menu.
 * The canvas scales to 375 px.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { type E2E, PHONE, scrollWidth, signIn, startE2E } from "./helpers";

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.stop();
});

async function member(viewport?: { width: number; height: number }): Promise<{ page: Page; username: string }> {
  const user = await e2e.createUser();
  const page = await e2e.newPage(viewport);
  await signIn(page, e2e.url, user);
  await page.goto(`${e2e.url}/duel`);
  await page.getByRole("heading", { name: "1:1 타자 대결" }).waitFor();
  return { page, username: user.username };
}

test("two members find each other, play, one leaves: the other sees the win", async () => {
  const red = await member();
  const blue = await member(PHONE);
  // Each sees both, its own entry marked.
  await red.page.locator(".duel-user", { hasText: blue.username }).waitFor();
  await blue.page.locator(".duel-user.me", { hasText: blue.username }).waitFor();
  expect(await blue.page.locator(".duel-user.me .duel-me").textContent()).toBe(" (나)");

  await red.page.getByRole("button", { name: "매칭 찾기" }).click();
  await red.page.getByText("상대를 찾는 중입니다…").waitFor();
  await blue.page.getByRole("button", { name: "매칭 찾기" }).click();
  for (const { page } of [red, blue]) {
    await page.locator(".duel-canvas").waitFor();
    await page.getByText(/남은 시간 \d+초/).waitFor();
  }
  // After the countdown the words are on the field; typing one (Enter) clears the input.
  const word = await red.page.locator('[aria-label="화면의 단어"] li').first().textContent({ timeout: 15_000 });
  const input = red.page.getByRole("textbox", { name: "단어 입력" });
  await red.page.waitForFunction(() => document.querySelector(".duel-countdown") === null, undefined, {
    timeout: 15_000,
  });
  await input.fill(word ?? "");
  await input.press("Enter");
  expect(await input.inputValue()).toBe("");
  expect(await scrollWidth(blue.page)).toBeLessThanOrEqual(PHONE.width);

  await red.page.getByRole("button", { name: "대결 나가기" }).click();
  await red.page.getByRole("button", { name: "매칭 찾기" }).waitFor();
  const overlay = blue.page.getByRole("dialog", { name: "대결 결과" });
  await overlay.getByRole("heading", { name: "승리!" }).waitFor();
  await overlay.getByText("남은 생명").waitFor();
  await overlay.getByRole("button", { name: "다시 하기" }).waitFor();
  expect(await blue.page.locator(".duel-confetti span").count()).toBe(60);
});

test("cancel while waiting goes back to the menu", async () => {
  const { page } = await member();
  await page.getByRole("button", { name: "매칭 찾기" }).click();
  await page.getByRole("button", { name: "취소" }).click();
  await page.getByRole("button", { name: "매칭 찾기" }).waitFor();
});
