/**
 * The live race in the browser (issue 26, "The race, live"): two players type Korean through the IME (CDP
 * `Input.imeSetComposition` then `Input.insertText`) and each sees the other's lane move, with 타/분 and the place;
 * a spectator who came from the home list's 관전하기 watches the lanes without an answer box and without counting.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { modules } from "../apps/server/modules";
import { createRoom, createRoomsModule, importSentences } from "../modules/rooms";
import { type E2E, imeType, PHONE, scrollWidth, signIn, startE2E } from "./helpers";

const THEME = "e2e-lanes";
const SENTENCE = "가는 말이 고와야 오는 말이 곱다";
/** Between two syllables: a human pace, well below the implausible speed. */
const PACE_MS = 120;

let e2e: E2E;

const fastRooms = createRoomsModule({
  race: { waitMs: 2_000, countdownSeconds: 1, resultsMs: 2_000, endCountdownSeconds: 0, minDurationSeconds: 40 },
  listUpdateMs: 300,
});

beforeAll(async () => {
  e2e = await startE2E({ modules: modules.map((m) => (m.name === "rooms" ? fastRooms : m)) });
  await importSentences(e2e.server.ctx, THEME, [SENTENCE], "e2e");
});
afterAll(() => e2e?.stop());

async function player(roomId: number, viewport?: { width: number; height: number }) {
  const page = await e2e.newPage(viewport);
  page.setDefaultTimeout(25_000);
  const user = await e2e.createUser();
  await signIn(page, e2e.url, user);
  await page.goto(`${e2e.url}/rooms/${roomId}`);
  await page.getByText("연결됨").waitFor();
  return { page, user };
}

const answerBox = (page: Page) => page.getByRole("textbox", { name: "답 입력" });
const lane = (page: Page, name: string) => page.getByRole("progressbar", { name: `${name} 진행률` });
const laneValue = async (page: Page, name: string) => Number(await lane(page, name).getAttribute("aria-valuenow"));

/** Waits until the lane of `name` on `page` shows more than `above` percent. */
async function laneMoves(page: Page, name: string, above: number) {
  await page.waitForFunction(
    ({ label, min }) => {
      const bar = document.querySelector(`[role="progressbar"][aria-label="${label}"]`);
      return Number(bar?.getAttribute("aria-valuenow") ?? 0) > min;
    },
    { label: `${name} 진행률`, min: above },
  );
}

describe("the live race", () => {
  test("two players see each other's lane move; a spectator watches without counting", async () => {
    const roomId = (await createRoom(e2e.server.ctx, { name: "실시간 경주 방", theme: THEME, maxUsers: 2 })).id;
    const a = await player(roomId);
    const b = await player(roomId, PHONE);

    // The spectator comes from the home list's 관전하기, though the room is full for players.
    const watcher = await e2e.newPage();
    watcher.setDefaultTimeout(25_000);
    await watcher.goto(e2e.url);
    await watcher.getByRole("link", { name: "실시간 경주 방 관전하기" }).click();
    await watcher.getByText("관전 중", { exact: true }).waitFor();
    await a.page.locator(".participants-watching", { hasText: "관전 1명" }).waitFor();

    await answerBox(a.page).waitFor();
    await answerBox(b.page).waitFor();
    // Every racer has a lane from the start, the player's own marked; the spectator has none and no answer box.
    await lane(watcher, a.user.username).waitFor();
    expect(await watcher.getByRole("textbox", { name: "답 입력" }).count()).toBe(0);
    expect(await a.page.locator(".lane-mine").textContent()).toContain(a.user.username);

    await answerBox(a.page).focus();
    await imeType(a.page, "가는 말이", { pauseMs: PACE_MS });
    await laneMoves(b.page, a.user.username, 0);
    await laneMoves(watcher, a.user.username, 0);
    expect(await laneValue(b.page, b.user.username)).toBe(0);

    await answerBox(b.page).focus();
    await imeType(b.page, SENTENCE, { pauseMs: PACE_MS });
    await laneMoves(a.page, b.user.username, 90);
    await b.page.keyboard.press("Enter");
    await b.page.getByTestId("personal-feedback").waitFor();
    // B's lane is finished with its place, on the other screens; the phone keeps the lanes inside the screen.
    await watcher.locator(".lane-done", { hasText: "1위" }).waitFor();
    expect(await scrollWidth(b.page)).toBeLessThanOrEqual(PHONE.width);

    await imeType(a.page, SENTENCE.slice("가는 말이".length), { pauseMs: PACE_MS });
    await a.page.keyboard.press("Enter");
    // The round ends with the two players' answers: the spectator neither counts nor holds it.
    await a.page.getByText("완료 2/2명").waitFor();
    await watcher.locator(".stage-results").waitFor();
    expect(await lane(watcher, a.user.username).getAttribute("aria-valuetext")).toContain("2위");
  }, 120_000);
});
