/**
 * Typing rooms in the browser: the live home list, a member and a guest in one room, Korean input with
 * composition events, the IME Enter rule, results on both screens, the "익명" tag, the rate-limit line, an
 * unknown room, and no horizontal scroll at 375 px. The server runs the real rooms module with short phases.
 *
 * Set ROOMS_SCREENSHOTS=/some/dir to also save screenshots of the pages (for a human look).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { modules } from "../apps/server/modules";
import type { TestServer } from "../apps/server/testing";
import { accountsApi } from "../modules/accounts";
import { keystrokes } from "../modules/kernel/typing";
import { createRoom, createRoomsModule, importSentences } from "../modules/rooms";
import { DESKTOP, type E2E, PHONE, scrollWidth, signIn, startE2E, type TestUser, uniqueUser } from "./helpers";

const SHOTS = process.env.ROOMS_SCREENSHOTS;
const THEME = "e2e-short";
const SENTENCES = ["타자 연습은 정말 즐겁다", "오늘도 힘차게 달려보자"];

let e2e: E2E;
let server: TestServer;
let roomId: number;
let member: TestUser;

/** Short phases so a whole game takes seconds; the sentence race itself is the real one. */
const fastRooms = createRoomsModule({
  race: { waitMs: 3_000, countdownSeconds: 2, resultsMs: 3_000, endCountdownSeconds: 3, minDurationSeconds: 30 },
  listUpdateMs: 300,
});

beforeAll(async () => {
  e2e = await startE2E({ modules: modules.map((m) => (m.name === "rooms" ? fastRooms : m)) });
  server = e2e.server;
  await importSentences(server.ctx, THEME, SENTENCES, "e2e");
  roomId = (
    await createRoom(server.ctx, { name: "시험 타자 방", theme: THEME, description: "브라우저 시험용 방입니다." })
  ).id;
  member = await e2e.createUser(uniqueUser("타자"));
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
});

afterAll(() => e2e?.stop());

async function newPage(viewport: { width: number; height: number } = DESKTOP): Promise<Page> {
  const page = await e2e.newPage(viewport);
  page.setDefaultTimeout(20_000);
  return page;
}

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

const roomCard = (page: Page) => page.locator(`.room-card[data-room-id="${roomId}"]`);
const answerBox = (page: Page) => page.getByRole("textbox", { name: "답 입력" });
const chatBox = (page: Page) => page.getByRole("textbox", { name: "메시지 입력" });

/** Composition events around an insert, the way a Hangul IME delivers a syllable. */
async function composeSyllable(page: Page, syllable: string, end = true) {
  await page.evaluate(() =>
    document.activeElement?.dispatchEvent(new CompositionEvent("compositionstart", { data: "", bubbles: true })),
  );
  await page.keyboard.insertText(syllable);
  if (end) await endComposition(page, syllable);
}

const endComposition = (page: Page, syllable: string) =>
  page.evaluate(
    (data) => document.activeElement?.dispatchEvent(new CompositionEvent("compositionend", { data, bubbles: true })),
    syllable,
  );

/** An Enter that arrives while the IME is still composing (what Chrome sends before committing the syllable). */
const composingEnter = (page: Page) =>
  page.evaluate(() =>
    document.activeElement?.dispatchEvent(
      new KeyboardEvent("keydown", { key: "Enter", code: "Enter", isComposing: true, bubbles: true, cancelable: true }),
    ),
  );

/** Types a sentence syllable by syllable at a human pace; the last syllable stays in composition. */
async function typeSentence(page: Page, text: string, pauseMs = 200) {
  const chars = Array.from(text);
  for (const [i, char] of chars.entries()) {
    if (/[가-힣]/.test(char)) await composeSyllable(page, char, i < chars.length - 1);
    else await page.keyboard.insertText(char);
    await page.waitForTimeout(pauseMs);
  }
}

async function sendChat(page: Page, text: string) {
  await chatBox(page).fill(text);
  await chatBox(page).press("Enter");
}

describe("typing rooms in the browser", () => {
  test("home lists the rooms and follows joins live, without horizontal scroll at 375 px", async () => {
    const home = await newPage(PHONE);
    await home.goto(`${server.url}/`);
    await expect(home.title()).resolves.toBe("타자마당");
    await roomCard(home).waitFor();
    expect(await roomCard(home).textContent()).toContain("0/20명");
    expect(await roomCard(home).textContent()).toContain("대기 중");
    expect(await home.locator(".room-card").count()).toBeGreaterThanOrEqual(7);
    expect(await scrollWidth(home)).toBeLessThanOrEqual(PHONE.width);
    await shot(home, "phone-home");

    // Someone entering the room shows up on the open home page (room:list_update, no reload).
    const visitor = await newPage();
    await visitor.goto(`${server.url}/rooms/${roomId}`);
    await visitor.getByText("연결됨").waitFor();
    await home.waitForFunction(
      ([id]) => document.querySelector(`.room-card[data-room-id="${id}"]`)?.textContent?.includes("1/20명"),
      [roomId],
    );
    await visitor.close();
    await home.waitForFunction(
      ([id]) => document.querySelector(`.room-card[data-room-id="${id}"]`)?.textContent?.includes("0/20명"),
      [roomId],
    );

    await roomCard(home).click();
    await home.waitForURL(`${server.url}/rooms/${roomId}`);
    await home.getByRole("heading", { name: "시험 타자 방" }).waitFor();
    await home.goBack();
    await roomCard(home).waitFor();
    const desktopHome = await newPage();
    await desktopHome.goto(`${server.url}/`);
    await roomCard(desktopHome).waitFor();
    await shot(desktopHome, "desktop-home");
  });

  test("a member and a guest race: Korean input, IME Enter rule, results on both screens, 익명 tag", async () => {
    const memberPage = await newPage();
    await signIn(memberPage, server.url, member);
    const guestPage = await newPage();
    await guestPage.goto(`${server.url}/rooms/${roomId}`);
    await memberPage.goto(`${server.url}/rooms/${roomId}`);

    // Both are listed; the guest carries the "익명" tag on both screens, the member a level.
    for (const page of [memberPage, guestPage]) {
      await page.locator(".participants .participant", { hasText: member.username }).waitFor();
      const guestRow = page.locator(".participants .participant-guest", { hasText: /guest_\d{4}/ });
      await guestRow.waitFor();
      expect(await guestRow.locator(".tag-anon").textContent()).toBe("익명");
      await page.getByText("연결됨").waitFor();
    }
    expect(
      await memberPage.locator(".participants .participant", { hasText: member.username }).textContent(),
    ).toContain("Lv.1");
    expect(await memberPage.locator(".room-occupants").textContent()).toContain("2/20");

    // The sentence comes out as the highlighted problem; the input now takes the answer.
    await memberPage.locator(".stage-in_progress .sentence").waitFor();
    const sentence = (await memberPage.locator(".stage-in_progress .sentence").textContent()) ?? "";
    expect(SENTENCES).toContain(sentence);
    expect(await memberPage.locator(".msg-problem.msg-current .msg-problem-text").textContent()).toBe(sentence);
    expect(await memberPage.locator(".badge.status-in_progress").textContent()).toBe("진행 중");
    await memberPage.locator(".timer").first().waitFor();

    // The guest starts typing too (a player who never typed does not hold the round's early end).
    const part = Array.from(sentence)
      .slice(0, Math.ceil((Array.from(sentence).length * 2) / 3))
      .join("")
      .trimEnd();
    const [firstSyllable, ...restOfPart] = Array.from(part);
    await answerBox(guestPage).focus();
    await composeSyllable(guestPage, firstSyllable);

    await answerBox(memberPage).focus();
    await typeSentence(memberPage, sentence);
    const live = await memberPage.getByTestId("live-speed").textContent();
    expect(Number.parseInt(live ?? "0", 10)).toBeGreaterThan(0);
    expect(await memberPage.getByTestId("live-accuracy").textContent()).toBe("100%");
    await shot(memberPage, "desktop-room-typing");

    // Enter while the last syllable is still being composed does not send.
    await composingEnter(memberPage);
    await memberPage.waitForTimeout(300);
    expect(await answerBox(memberPage).inputValue()).toBe(sentence);
    expect(await memberPage.getByTestId("personal-feedback").count()).toBe(0);
    await endComposition(memberPage, Array.from(sentence).at(-1)!);
    await memberPage.keyboard.press("Enter");

    const feedback = memberPage.getByTestId("personal-feedback");
    await feedback.waitFor();
    expect(await feedback.textContent()).toContain("1위");
    const speed = Number(await memberPage.getByTestId("my-speed").textContent());
    const seconds = Number((await feedback.locator(".feedback-time").textContent())?.replace("초", ""));
    // The Korean rule: 2 keystrokes per syllable, 3 with a final consonant, 1 for a space; over the time taken.
    expect(Math.abs(speed - (keystrokes(sentence) * 60) / seconds)).toBeLessThan(3);
    expect(speed).toBeGreaterThan(50);
    expect(speed).toBeLessThan(1_500);

    // The guest sends two thirds of the sentence (an answer, too short for a place; a line under 50 % accurate
    // would be chat), which ends the game (everyone present has submitted).
    await answerBox(guestPage).focus();
    await typeSentence(guestPage, restOfPart.join(""), 150);
    await endComposition(guestPage, Array.from(part).at(-1)!);
    await guestPage.keyboard.press("Enter");
    const guestFeedback = guestPage.getByTestId("personal-feedback");
    await guestFeedback.waitFor();
    expect(await guestFeedback.textContent()).toContain("순위 없음");

    for (const page of [memberPage, guestPage]) {
      const top = page.locator(".msg-result .result").first();
      await top.waitFor();
      const line = (await top.textContent()) ?? "";
      expect(line).toContain(member.username);
      expect(line).toContain(`${speed}타/분`);
      expect(await top.locator(".medal-badge-1").getAttribute("aria-label")).toBe("1위");
      await page.locator(".stage-results .result", { hasText: member.username }).waitFor();
      // The finished problem is marked as such.
      await page.locator(".msg-problem.msg-finalized").first().waitFor();
    }
    await shot(memberPage, "desktop-room-results");
    await shot(guestPage, "desktop-room-guest");

    // Six chat lines within 3 s: the sixth is refused and the refusal is shown in red inside the chat.
    for (let i = 1; i <= 6; i++) await sendChat(guestPage, `안녕하세요 ${i}`);
    const refusal = guestPage.locator(".msg-error");
    await refusal.waitFor();
    expect(await refusal.textContent()).toStartWith("메시지를 너무 빠르게");
    await memberPage.locator(".msg-chat", { hasText: "안녕하세요 5" }).waitFor();
    expect(await memberPage.locator(".msg-chat .tag-anon").first().textContent()).toBe("익명");

    // Back home inside the app (no reload): the navbar's figures came live from user:stats_update.
    await memberPage.getByRole("link", { name: "방 목록으로" }).click();
    await memberPage.waitForURL(`${server.url}/`);
    const stored = (await accountsApi(server.ctx).service.findById(member.id))!;
    expect(stored.coins).toBeGreaterThan(0);
    expect(await memberPage.locator(".stat-coins dd").textContent()).toBe(stored.coins.toLocaleString("ko-KR"));

    // Leaving took the member out of the room for the others.
    await guestPage.waitForFunction(
      (name) => !document.querySelector(".participants")?.textContent?.includes(name),
      member.username,
    );
    expect(await guestPage.locator(".room-occupants").textContent()).toContain("1/20");
  });

  test("the room at 375 px: no horizontal scroll, participants fold away, the tip shows once", async () => {
    const phone = await newPage(PHONE);
    await phone.goto(`${server.url}/rooms/${roomId}`);
    await phone.getByText("연결됨").waitFor();
    await phone.getByRole("note").waitFor();
    await phone.reload();
    await phone.getByText("연결됨").waitFor();
    expect(await phone.getByRole("note").count()).toBe(0);
    const toggle = phone.getByRole("button", { name: /참가자/ });
    await toggle.waitFor();
    expect(await phone.locator(".participants-list").isVisible()).toBe(false);
    await toggle.click();
    await phone.locator(".participants-list .tag-anon").first().waitFor();
    expect(await scrollWidth(phone)).toBeLessThanOrEqual(PHONE.width);
    await phone.locator(".stage-in_progress .sentence, .countdown, .stage-results").first().waitFor();
    await shot(phone, "phone-room");
  });

  test("an unknown room says so, with a way home", async () => {
    const page = await newPage(PHONE);
    await page.goto(`${server.url}/rooms/99999`);
    await page.getByRole("heading", { name: "방을 찾을 수 없습니다." }).waitFor();
    await page.getByRole("link", { name: "방 목록으로" }).last().click();
    await page.waitForURL(`${server.url}/`);
    await page.goto(`${server.url}/rooms/abc`);
    await page.getByRole("heading", { name: "방을 찾을 수 없습니다." }).waitFor();
  });
});
