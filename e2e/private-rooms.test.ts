/**
 * Private rooms in the browser (issue 27, modules/rooms README "Private rooms"): a member makes one from the home
 * page with their own sentences; a guest opens its link in another browser context; both race, typing Korean through
 * the IME (CDP `Input.imeSetComposition` then `Input.insertText`); after the round the guest asks for another
 * ("다시 하기") and the owner starts it ("다음 라운드"). The room is never in the public list.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { modules } from "../apps/server/modules";
import { createRoomsModule } from "../modules/rooms";
import { type E2E, imeType, signIn, startE2E } from "./helpers";

const SENTENCES = ["가는 말이 고와야 오는 말이 곱다", "낮말은 새가 듣고 밤말은 쥐가 듣는다"];
/** Between two syllables: a human pace, well below the implausible speed. */
const PACE_MS = 120;

let e2e: E2E;

const fastRooms = createRoomsModule({
  race: { waitMs: 2_000, countdownSeconds: 1, resultsMs: 2_000, endCountdownSeconds: 0, minDurationSeconds: 40 },
  listUpdateMs: 300,
});

beforeAll(async () => {
  e2e = await startE2E({ modules: modules.map((m) => (m.name === "rooms" ? fastRooms : m)) });
});
afterAll(() => e2e?.stop());

const answerBox = (page: Page) => page.getByRole("textbox", { name: "답 입력" });
const sentenceOnStage = async (page: Page) => {
  await answerBox(page).waitFor();
  const text = await page.locator(".stage").textContent();
  const sentence = SENTENCES.find((s) => text?.includes(s));
  if (!sentence) throw new Error(`no sentence of the room on the stage: ${text}`);
  return sentence;
};

async function typeAnswer(page: Page, sentence: string) {
  await answerBox(page).focus();
  await imeType(page, sentence, { pauseMs: PACE_MS });
  await page.keyboard.press("Enter");
  await page.getByTestId("personal-feedback").waitFor();
}

describe("a private room with friends", () => {
  test("created from the home page with own sentences, opened by a guest's link, raced through the IME, played again", async () => {
    const owner = await e2e.newPage();
    owner.setDefaultTimeout(25_000);
    const member = await e2e.createUser();
    await signIn(owner, e2e.url, member);

    // The home page's form: a name, the size, the member's own sentences (pasted lines).
    await owner.getByRole("button", { name: "비공개 방 만들기" }).click();
    await owner.getByLabel("방 이름").fill("우리끼리 타자");
    await owner.getByLabel(/^인원/).fill("4");
    await owner.getByLabel(/한 줄에 한 문장/).fill(`${SENTENCES[0]}\n짧\n${SENTENCES[1]}`);
    await owner.getByRole("button", { name: "만들고 들어가기" }).click();
    // The server's rule, said before anything is sent: the second line is too short.
    await owner.getByRole("alert").filter({ hasText: "2번째 줄" }).waitFor();
    await owner.getByLabel(/한 줄에 한 문장/).fill(SENTENCES.join("\n"));
    await owner.getByRole("button", { name: "만들고 들어가기" }).click();
    await owner.waitForURL(/\/r\/[A-Za-z0-9_-]{22}$/);
    await owner.getByText("연결됨").waitFor();
    const link = await owner.getByLabel("초대 링크").inputValue();
    expect(link).toBe(owner.url());
    await owner.getByText("직접 넣은 문장 2개").waitFor();

    // Not in the public list, for anyone.
    const rooms = (await e2e.server.api("GET", "/api/rooms")).body as { name: string }[];
    expect(rooms.map((room) => room.name)).not.toContain("우리끼리 타자");

    // A guest opens the link in another browser (no account): in the room, without the owner's controls.
    const guest = await e2e.newPage();
    guest.setDefaultTimeout(25_000);
    await guest.goto(link);
    await guest.getByText("연결됨").waitFor();
    await guest.getByRole("heading", { name: "우리끼리 타자" }).waitFor();
    expect(await guest.getByRole("button", { name: "라운드 시작" }).count()).toBe(0);
    await owner.locator(".participant-guest").waitFor();
    await guest.getByText("방장이 라운드를 시작하면 문장이 나옵니다.").waitFor();

    // The owner starts the round; both race, typing through the IME.
    await owner.getByRole("button", { name: "라운드 시작" }).click();
    const first = await sentenceOnStage(owner);
    expect(await sentenceOnStage(guest)).toBe(first);
    await answerBox(guest).focus();
    await imeType(guest, first.slice(0, 3), { pauseMs: PACE_MS });
    await typeAnswer(owner, first);
    await imeType(guest, first.slice(3), { pauseMs: PACE_MS });
    await guest.keyboard.press("Enter");
    await guest.getByTestId("personal-feedback").waitFor();
    await owner.locator(".stage-results").waitFor();

    // 다시 하기: the guest asks, the owner sees it and starts the next round at once.
    await guest.getByRole("button", { name: "다시 하기" }).click();
    await guest.getByRole("button", { name: "다시 하기 누름" }).waitFor();
    await owner.getByText("다시 하기를 누른 사람 1/2명").waitFor();
    await owner.getByRole("button", { name: "다음 라운드" }).click();
    const second = await sentenceOnStage(guest);
    await sentenceOnStage(owner);
    await typeAnswer(guest, second);
    await guest.getByText("다시 하기 누름").waitFor({ state: "detached" });
  }, 120_000);
});
