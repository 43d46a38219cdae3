/**
 * Playing together in the 1:1 duel (issue 27), in three browser contexts: A challenges B from the duel's online
 * list, B accepts within the countdown, they play (words typed through IME composition), and C — a guest — watches
 * the field from the list's 관전 button: both names and ratings, the words moving, the result, and a watchers' chat
 * the players never see. A challenge link opens /duel with a challenge to its member prepared; a decline is told.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { type E2E, imeType, signIn, startE2E } from "./helpers";

/** The menu's 대결 신청 받기 setting is drawn and usable (after a reload the heading comes before it). */
const settingReady = () =>
  (document.querySelector(".duel-setting input") as HTMLInputElement | null)?.disabled === false;

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.stop();
});

async function openDuel(page: Page) {
  page.setDefaultTimeout(20_000);
  await page.goto(`${e2e.url}/duel`);
  await page.getByRole("heading", { name: "1:1 타자 대결" }).waitFor();
}

async function member() {
  const user = await e2e.createUser();
  const page = await e2e.newPage();
  await signIn(page, e2e.url, user);
  await openDuel(page);
  return { page, user };
}

const words = (page: Page, status: string) =>
  page
    .locator(`[aria-label="화면의 단어"] li[data-status="${status}"]`)
    .evaluateAll((items) => items.map((item) => item.getAttribute("data-word") ?? ""));

test("A challenges B from the online list, B accepts, they play; guest C watches the field and chats", async () => {
  const a = await member();
  const b = await member();
  const c = await e2e.newPage();
  await openDuel(c);

  // A challenges B from the list; B sees it with its countdown and accepts.
  await a.page.getByRole("button", { name: `${b.user.username}님에게 도전` }).click();
  await a.page.getByText(`${b.user.username}님의 응답을 기다리는 중…`).waitFor();
  const received = b.page.getByRole("region", { name: "받은 도전" });
  await received.getByText(`${a.user.username}`).waitFor();
  expect(await received.locator(".duel-challenge-time").textContent()).toMatch(/^1[0-5]초$/);
  await received.getByRole("button", { name: `${a.user.username}님의 도전 수락` }).click();

  // Both play: the challenger on the left (red).
  for (const { page } of [a, b]) {
    await page.locator(".duel-canvas").waitFor();
    await page.waitForFunction(() => document.querySelector('[aria-label="화면의 단어"] li') !== null);
    await page.waitForFunction(() => document.querySelector(".duel-countdown") === null);
  }
  expect(await a.page.locator(".duel-side.red").textContent()).toContain("나 (빨강)");
  expect(await a.page.getByRole("region", { name: "보낸 도전" }).count()).toBe(0);

  // C watches: the list's 관전 button, then both sides by name and rating, live.
  await c.getByRole("button", { name: `${a.user.username}님의 대결 관전` }).click();
  const watching = c.getByRole("region", { name: "대결 관전" });
  await watching.waitFor();
  expect(await watching.locator(".duel-side.red").textContent()).toContain(`빨강 ${a.user.username} (레이팅 1500)`);
  expect(await watching.locator(".duel-side.blue").textContent()).toContain(`파랑 ${b.user.username} (레이팅 1500)`);
  expect(await c.getByRole("textbox", { name: "단어 입력" }).count()).toBe(0);

  // A types a word of the field through the IME; it flies on every screen, the watcher's too.
  const [word] = await words(a.page, "static");
  const input = a.page.getByRole("textbox", { name: "단어 입력" });
  await input.focus();
  await imeType(a.page, word, { pauseMs: 40 });
  await a.page.keyboard.press("Enter");
  await c.waitForFunction(
    (w) =>
      document.querySelector(`[aria-label="화면의 단어"] li[data-word="${w}"]`)?.getAttribute("data-status") ===
      "moving_right",
    word,
  );
  await b.page.waitForFunction(
    (w) =>
      document.querySelector(`[aria-label="화면의 단어"] li[data-word="${w}"]`)?.getAttribute("data-status") !==
      "static",
    word,
  );

  // The watchers' chat, typed through the IME: C sees its line; the players have no such chat.
  const chat = c.getByRole("textbox", { name: "관전자 채팅 입력" });
  await chat.focus();
  await imeType(c, "화이팅", { pauseMs: 40 });
  await c.keyboard.press("Enter");
  await c.getByRole("region", { name: "관전자 채팅" }).getByText("화이팅").waitFor();
  expect(await a.page.getByRole("region", { name: "관전자 채팅" }).count()).toBe(0);
  expect(await b.page.getByText("화이팅").count()).toBe(0);

  // A leaves: B wins, and the watcher reads it by name.
  await a.page.getByRole("button", { name: "대결 나가기" }).click();
  await b.page.getByRole("dialog", { name: "대결 결과" }).getByRole("heading", { name: "승리!" }).waitFor();
  const result = c.getByRole("dialog", { name: "대결 결과" });
  await result.getByRole("heading", { name: `파랑 ${b.user.username} 승리` }).waitFor();
  await result.getByRole("button", { name: "목록으로" }).click();
  await c.getByRole("button", { name: "매칭 찾기" }).waitFor();
});

test("a challenge link opens /duel with the challenge prepared; the linked member declines, the sender is told", async () => {
  const a = await member();
  const b = await member();
  // A's link (the menu copies it and shows it to copy by hand).
  await a.page.getByRole("button", { name: "도전 링크 복사" }).click();
  const link = await a.page.getByRole("textbox", { name: "도전 링크" }).inputValue();
  expect(link).toBe(`${e2e.url}/duel?challenge=u_${a.user.id}`);

  await b.page.goto(link);
  const prompt = b.page.getByRole("region", { name: "대결 신청 링크" });
  await prompt.getByText(`${a.user.username}님에게 대결을 신청할까요?`).waitFor();
  await prompt.getByRole("button", { name: "도전하기" }).click();
  await b.page.getByText(`${a.user.username}님의 응답을 기다리는 중…`).waitFor();
  expect(new URL(b.page.url()).search).toBe("");

  await a.page
    .getByRole("region", { name: "받은 도전" })
    .getByRole("button", { name: `${b.user.username}님의 도전 거절` })
    .click();
  await b.page.getByRole("status").getByText("도전이 거절되었습니다.").waitFor();
  expect(await b.page.getByRole("region", { name: "보낸 도전" }).count()).toBe(0);

  // Challenges turned off on A's menu: B's next challenge is refused with the server's words.
  await a.page.getByRole("checkbox", { name: "대결 신청 받기" }).uncheck();
  await a.page.waitForFunction(settingReady);
  await b.page.getByRole("button", { name: `${a.user.username}님에게 도전` }).click();
  await b.page.getByText("상대가 대결 신청을 받지 않도록 설정했습니다.").waitFor();
  await a.page.reload();
  await a.page.getByRole("heading", { name: "1:1 타자 대결" }).waitFor();
  await a.page.waitForFunction(settingReady);
  expect(await a.page.getByRole("checkbox", { name: "대결 신청 받기" }).isChecked()).toBe(false);
});
