/**
 * What a player sees of their own results and figures inside a typing room (issue 15): "내 기록" shows the medal
 * the server decided (none after a game of one), a result without a place shows plainly, chat spam gets one
 * refreshed notice and keeps the typed text, and the navbar's figures show in a compact form inside the room.
 * The server runs the real rooms module with short phases; each test has a room of its own.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { modules } from "../apps/server/modules";
import { createRoom, createRoomsModule, importSentences } from "../modules/rooms";
import {
  DESKTOP,
  type E2E,
  explainTimeout,
  imeType,
  PHONE,
  recordTraffic,
  signIn,
  startE2E,
  uniqueUser,
} from "./helpers";

const THEME = "e2e-ux";
const SENTENCES = ["타자 연습은 정말 즐겁다", "오늘도 힘차게 달려보자"];
/** Long enough after the sentence appears that a whole sentence is a plausible human speed (< 1,500 타/분). */
const THINKING_MS = 2_500;

let e2e: E2E;

const fastRooms = createRoomsModule({
  race: { waitMs: 2_000, countdownSeconds: 1, resultsMs: 4_000, endCountdownSeconds: 3, minDurationSeconds: 30 },
  listUpdateMs: 300,
});

beforeAll(async () => {
  e2e = await startE2E({ modules: modules.map((m) => (m.name === "rooms" ? fastRooms : m)) });
  await importSentences(e2e.server.ctx, THEME, SENTENCES, "e2e");
});

afterAll(() => e2e?.stop());

let roomCounter = 0;
const newRoom = async () =>
  (await createRoom(e2e.server.ctx, { name: `기록 시험 방 ${++roomCounter}`, theme: THEME })).id;

async function newPage(viewport: { width: number; height: number } = DESKTOP): Promise<Page> {
  const page = await e2e.newPage(viewport);
  page.setDefaultTimeout(25_000);
  // This file has failed now and then in full runs without a cause in sight: a failing wait shows the traffic.
  recordTraffic(page);
  return page;
}

const answerBox = (page: Page) => page.getByRole("textbox", { name: "답 입력" });
const chatBox = (page: Page) => page.getByRole("textbox", { name: "메시지 입력" });

/** Waits for the sentence of the game in play and returns it. */
async function sentenceOf(page: Page): Promise<string> {
  const sentence = page.locator(".stage-in_progress .sentence");
  await sentence.waitFor();
  return (await sentence.textContent()) ?? "";
}

/** Types the answer through the IME at a human pace (the server refuses a paste) and sends it. */
async function answer(page: Page, text: string) {
  await answerBox(page).focus();
  await imeType(page, text, { pauseMs: 60 });
  await answerBox(page).press("Enter");
}

/**
 * The sentence's length, its last third wrong: an answer at about 65 % accuracy, too poor for a place. (A line under
 * 50 % accurate is chat, not an answer: rooms README "Submissions".)
 */
const junkFor = (sentence: string) => {
  const chars = Array.from(sentence);
  return chars.map((char, i) => (i < Math.ceil((chars.length * 2) / 3) ? char : "ㅋ")).join("");
};

describe("results and figures inside a room", () => {
  test("a game of one: 내 기록 shows the place without a medal, as the server decided", async () => {
    const roomId = await newRoom();
    const player = await e2e.createUser(uniqueUser("혼자"));
    const page = await newPage();
    await signIn(page, e2e.url, player);
    await page.goto(`${e2e.url}/rooms/${roomId}`);
    const sentence = await sentenceOf(page);
    await page.waitForTimeout(THINKING_MS);
    await answer(page, sentence);

    const feedback = page.getByTestId("personal-feedback");
    await explainTimeout([page], feedback.waitFor());
    expect(await feedback.textContent()).toContain("1위");
    // The only player ends the game; its results say what the server awarded: no medal for a game of one.
    await page.locator(".stage-results .result", { hasText: player.username }).waitFor();
    expect(await feedback.locator(".medal-badge").count()).toBe(0);
    expect(await page.locator(".stage-results .medal-badge").count()).toBe(0);
    expect((await e2e.accounts().findById(player.id))?.goldMedals).toBe(0);
  });

  test("two players: the gold medal comes with the results; a junk answer shows plainly; the navbar's coins follow", async () => {
    const roomId = await newRoom();
    const winner = await e2e.createUser(uniqueUser("일등"));
    const winnerPage = await newPage();
    await signIn(winnerPage, e2e.url, winner);
    const guestPage = await newPage(PHONE);
    await guestPage.goto(`${e2e.url}/rooms/${roomId}`);
    await guestPage.getByText("연결됨").waitFor();
    await winnerPage.goto(`${e2e.url}/rooms/${roomId}`);

    // Inside the room the navbar keeps a compact line of the member's figures.
    const coins = winnerPage.locator(".navbar .stat-coins dd");
    await coins.waitFor();
    expect(await coins.textContent()).toBe("0");
    expect(await winnerPage.locator(".navbar .stat-level dd").textContent()).toBe("Lv.1");

    const sentence = await sentenceOf(winnerPage);
    await sentenceOf(guestPage);
    // The guest starts typing first (a player who never typed does not hold the round's early end).
    const [junkStart, ...junkRest] = Array.from(junkFor(sentence));
    await answerBox(guestPage).focus();
    await imeType(guestPage, junkStart);
    await winnerPage.waitForTimeout(THINKING_MS);
    await answer(winnerPage, sentence);
    const feedback = winnerPage.getByTestId("personal-feedback");
    await explainTimeout([winnerPage], feedback.waitFor());
    expect(await feedback.textContent()).toContain("1위");
    // First so far is not a medal yet: the guest may still answer and the server decides at the end.
    expect(await feedback.locator(".medal-badge").count()).toBe(0);

    await answer(guestPage, junkRest.join(""));
    const junk = guestPage.getByTestId("personal-feedback");
    await explainTimeout([guestPage, winnerPage], junk.waitFor());
    const junkText = (await junk.textContent()) ?? "";
    expect(junkText).toContain("순위 없음");
    expect(junkText).toMatch(/\d+타\/분/);
    // Plain: no speed or accuracy icon, no number in bold as for a placed result.
    expect(await junk.locator(".tier-icon").count()).toBe(0);
    expect(await junk.locator("strong").count()).toBe(0);

    // The results: the server gave the winner gold, and 내 기록 now shows it.
    await feedback.locator(".medal-badge-1").waitFor();
    expect((await e2e.accounts().findById(winner.id))?.goldMedals).toBe(1);
    const guestRow = guestPage.locator(".stage-results .result-mine");
    await guestRow.waitFor();
    expect(await guestRow.locator(".tier-icon").count()).toBe(0);
    expect(await guestRow.locator("strong").count()).toBe(0);

    // The new coins show in the room's navbar at once (user:stats_update), without leaving the room.
    const stored = (await e2e.accounts().findById(winner.id))!;
    expect(stored.coins).toBeGreaterThan(0);
    await winnerPage.waitForFunction(
      (expected) => document.querySelector(".navbar .stat-coins dd")?.textContent === expected,
      stored.coins.toLocaleString("ko-KR"),
    );
    expect(new URL(winnerPage.url()).pathname).toBe(`/rooms/${roomId}`);
  });

  test("chat spam: one rate-limit notice, refreshed, and the refused text stays in the input", async () => {
    const roomId = await newRoom();
    const page = await newPage(PHONE);
    await page.goto(`${e2e.url}/rooms/${roomId}`);
    // Answer the game first: until then the input takes the answer; after it, chat (the next game starts later).
    const sentence = await sentenceOf(page);
    await page.waitForTimeout(THINKING_MS);
    await answer(page, junkFor(sentence));
    await page.getByTestId("personal-feedback").waitFor();
    await chatBox(page).waitFor();

    for (let i = 1; i <= 5; i++) {
      await chatBox(page).fill(`도배 ${i}`);
      await chatBox(page).press("Enter");
      await page.locator(".msg-chat", { hasText: `도배 ${i}` }).waitFor();
    }
    expect(await chatBox(page).inputValue()).toBe("");

    await chatBox(page).fill("여섯 번째 메시지");
    await chatBox(page).press("Enter");
    const notice = page.locator(".msg-error");
    await notice.waitFor();
    expect(await notice.textContent()).toStartWith("메시지를 너무 빠르게");
    await page.waitForFunction(() => document.querySelector<HTMLInputElement>(".composer-input")?.value !== "");
    expect(await chatBox(page).inputValue()).toBe("여섯 번째 메시지");

    // Two more refused sends: still one notice (refreshed at the end of the chat), the text still there.
    for (let i = 0; i < 2; i++) {
      const before = await notice.getAttribute("data-at");
      await chatBox(page).press("Enter");
      await page.waitForFunction((at) => document.querySelector(".msg-error")?.getAttribute("data-at") !== at, before);
      await page.waitForFunction(() => document.querySelector<HTMLInputElement>(".composer-input")?.value !== "");
    }
    expect(await page.locator(".msg-error").count()).toBe(1);
    expect(await page.locator(".messages > li").last().getAttribute("data-kind")).toBe("error");
    expect(await chatBox(page).inputValue()).toBe("여섯 번째 메시지");
    expect(await page.locator(".msg-chat", { hasText: "여섯 번째 메시지" }).count()).toBe(0);
  });
});
