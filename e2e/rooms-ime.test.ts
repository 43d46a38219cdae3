/**
 * What Korean players trip over in a typing room (issue 24, "Rooms"), typed as a player does: every line goes in
 * through the IME (CDP `Input.imeSetComposition` then `Input.insertText`), never with `fill`.
 *
 * - Chat typed into the answer box while the sentence is up is chat: it reaches the room's chat and the player
 *   keeps their one attempt.
 * - An answer refused as implausible is said inline (no blocking dialog), and the next round starts with an empty
 *   box, so the honest answer is not appended to the refused one.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { modules } from "../apps/server/modules";
import { createRoom, createRoomsModule, importSentences } from "../modules/rooms";
import { type E2E, imeCommit, imeType, signIn, startE2E } from "./helpers";

const THEME = "e2e-ime";
/** Long enough that pasting one at once is far above 1,500 타/분, short enough to type in a few seconds. */
const SENTENCES = ["가는 말이 고와야 오는 말이 곱다", "낮말은 새가 듣고 밤말은 쥐가 듣는다"];
/** Between two syllables: a human pace, well below the implausible speed. */
const PACE_MS = 120;

let e2e: E2E;
let rooms = 0;

const fastRooms = createRoomsModule({
  race: { waitMs: 2_000, countdownSeconds: 1, resultsMs: 2_000, endCountdownSeconds: 0, minDurationSeconds: 30 },
  listUpdateMs: 300,
});

beforeAll(async () => {
  e2e = await startE2E({ modules: modules.map((m) => (m.name === "rooms" ? fastRooms : m)) });
  await importSentences(e2e.server.ctx, THEME, SENTENCES, "e2e");
});
afterAll(() => e2e?.stop());

async function newRoom() {
  rooms++;
  return (await createRoom(e2e.server.ctx, { name: `입력기 시험 방 ${rooms}`, theme: THEME })).id;
}

/** A signed-in player in the room, with every dialog the page opens recorded (and dismissed). */
async function player(roomId: number) {
  const page = await e2e.newPage();
  page.setDefaultTimeout(25_000);
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await signIn(page, e2e.url, await e2e.createUser());
  await page.goto(`${e2e.url}/rooms/${roomId}`);
  await page.getByText("연결됨").waitFor();
  return { page, dialogs };
}

const answerBox = (page: Page) => page.getByRole("textbox", { name: "답 입력" });
const currentSentence = async (page: Page) => (await page.locator(".stage-in_progress .sentence").textContent()) ?? "";

describe("typing rooms, typed through the IME", () => {
  test("chat typed while the sentence is up reaches the chat and keeps the attempt", async () => {
    const roomId = await newRoom();
    const { page, dialogs } = await player(roomId);
    const other = await player(roomId);

    await answerBox(page).waitFor();
    const sentence = await currentSentence(page);
    await answerBox(page).focus();
    await imeType(page, "ㅋㅋ 어렵다", { pauseMs: PACE_MS });
    await page.keyboard.press("Enter");

    // The line is in the room's chat, on both screens.
    for (const p of [page, other.page]) await p.locator(".msg-chat .msg-text", { hasText: "ㅋㅋ 어렵다" }).waitFor();
    // The attempt is still there: no result, no "완료", the box still takes the answer.
    expect(await page.getByTestId("personal-feedback").count()).toBe(0);
    expect(await page.locator(".msg-system", { hasText: "완료!" }).count()).toBe(0);
    expect(await answerBox(page).inputValue()).toBe("");

    await imeType(page, sentence, { pauseMs: PACE_MS });
    await page.keyboard.press("Enter");
    const feedback = page.getByTestId("personal-feedback");
    await feedback.waitFor();
    expect(await feedback.textContent()).toContain("1위");
    expect(dialogs).toEqual([]);

    // The result card links the answer's replay (its server-stamped steps): it plays the sentence to the end.
    await feedback.getByRole("link", { name: "리플레이" }).click();
    await page.waitForURL(/\/replay\/[A-Za-z0-9_-]{22}$/);
    await page.getByRole("heading", { name: /의 리플레이$/ }).waitFor();
    await page.waitForFunction(
      (n) => document.querySelectorAll(".replay-stage .ch-ok").length === n,
      [...sentence].length,
      {
        timeout: 30_000,
      },
    );
  });

  test("an answer refused as implausible is said inline; the next round starts with an empty box", async () => {
    const roomId = await newRoom();
    const { page, dialogs } = await player(roomId);

    // The whole sentence at once the moment it shows (a paste): far above 1,500 타/분.
    await answerBox(page).waitFor();
    const first = await currentSentence(page);
    await answerBox(page).focus();
    await imeCommit(page, first);
    await page.keyboard.press("Enter");

    const refusal = page.locator(".msg-error", { hasText: "비정상적으로 빠른 입력" });
    await refusal.waitFor();
    expect(dialogs).toEqual([]);
    // The refusal used up this game's attempt: the box is the chat box now, and empty.
    await page.getByRole("textbox", { name: "메시지 입력" }).waitFor();

    // The next round: a new sentence, an empty box; the honest answer alone is judged, and placed.
    await page.waitForFunction(
      (text) => {
        const shown = document.querySelector(".stage-in_progress .sentence")?.textContent;
        return Boolean(shown) && shown !== text;
      },
      first,
      { timeout: 30_000 },
    );
    await answerBox(page).waitFor();
    expect(await answerBox(page).inputValue()).toBe("");
    const second = await currentSentence(page);
    await answerBox(page).focus();
    await imeType(page, second, { pauseMs: PACE_MS });
    expect(await answerBox(page).inputValue()).toBe(second);
    await page.keyboard.press("Enter");
    const feedback = page.getByTestId("personal-feedback");
    await feedback.waitFor();
    expect(await feedback.textContent()).toContain("1위");
    expect(dialogs).toEqual([]);
  });
});
