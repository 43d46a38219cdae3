/**
 * /ranking in the browser (spec part 2 §2 "Rankings", §8, §9): the game tab's six cards from today's results and
 * the accounts' medals and levels, medals for ranks 1–3, the duel tab's notes and empty states, a card that fails
 * and its retry, and a phone without horizontal scroll.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createDuelStore } from "../modules/duel/store";
import { duelRecord } from "../modules/duel/test-support";
import { member, playResult, reward } from "../modules/rankings/test-support";
import { type E2E, PHONE, scrollWidth, startE2E, type TestUser } from "./helpers";

let e2e: E2E;
let fast: TestUser;
let steady: TestUser;

beforeAll(async () => {
  e2e = await startE2E();
  fast = await e2e.createUser({ username: "빠른손" });
  steady = await e2e.createUser({ username: "꾸준이" });
  const now = Date.now();
  await playResult(e2e.server.ctx, member(fast), { wpm: 520, accuracy: 98, at: now });
  for (const wpm of [200, 210, 220]) await playResult(e2e.server.ctx, member(steady), { wpm, accuracy: 95, at: now });
  await reward(e2e.server, steady.id, { medal: "gold", experience: 500 });
  // Three duels today, all won by 꾸준이 (red).
  const duels = createDuelStore(e2e.server.ctx.database);
  for (let i = 0; i < 3; i++) {
    await duels.recordDuel(duelRecord(`e2e-duel-${i}`, steady.id, fast.id, "red", now - (3 - i) * 60_000 + 40_000));
  }
});
afterAll(async () => {
  await e2e?.stop();
});

const card = (id: string) => `[data-card="${id}"]`;

test("the game tab: speed and games of today, medals and levels, ranks 1–3 with medals, the rules box", async () => {
  const page = await e2e.newPage();
  await page.goto(`${e2e.url}/ranking`);
  await page.getByRole("heading", { name: "랭킹", exact: true }).waitFor();
  const speed = page.locator(card("daily-wpm"));
  await speed.getByText("빠른손").waitFor();
  // Medals are drawn as the rooms draw them (a gold or silver badge with the place), never as emoji, which show as
  // empty boxes where no emoji font is installed.
  expect(await speed.locator(".ranking-row .ranking-name").allInnerTexts()).toEqual(["빠른손", "꾸준이"]);
  expect(await speed.locator(".ranking-row .ranking-figure").allInnerTexts()).toEqual(["520.0타/분", "210.0타/분"]);
  await speed.getByRole("img", { name: "1위" }).and(speed.locator(".medal-badge-1")).waitFor();
  await speed.getByRole("img", { name: "2위" }).and(speed.locator(".medal-badge-2")).waitFor();
  const games = page.locator(card("daily-games"));
  await games.getByText("꾸준이").waitFor();
  expect((await games.locator(".ranking-name").allInnerTexts())[0]).toBe("꾸준이");
  expect(await games.locator(".ranking-footer").textContent()).toBe("2명");
  const medals = page.locator(card("medals"));
  await medals.getByText("꾸준이").waitFor();
  const medalRow = medals.locator(".ranking-row", { hasText: "꾸준이" });
  expect(await medalRow.locator(".ranking-figure .medal-gold").textContent()).toBe("금메달 1");
  expect(await medalRow.locator(".ranking-figure .medal-silver").textContent()).toBe("은메달 0");
  expect(await medalRow.locator(".ranking-figure .medal-bronze").textContent()).toBe("동메달 0");
  expect(await page.locator("main").textContent()).not.toMatch(/[🥇🥈🥉]/u);
  expect(await page.locator(card("levels")).locator(".ranking-name").first().textContent()).toBe("꾸준이");
  await page.getByRole("heading", { name: "랭킹 규칙" }).waitFor();
});

test("the duel tab: total games, win streaks and recent activity with data; the 10-game win rate is empty", async () => {
  const page = await e2e.newPage();
  await page.goto(`${e2e.url}/ranking`);
  await page.getByRole("tab", { name: "1:1 대결 랭킹" }).click();
  await page.getByText("10판 이상 대결한 사용자만 집계합니다.").waitFor();
  await page.getByText("최근 7일 동안의 대결입니다.").waitFor();
  await page.locator(card("duel-total")).getByText("꾸준이").waitFor();
  expect(await page.locator(card("duel-total")).locator(".ranking-figure").allTextContents()).toEqual(["3판", "3판"]);
  expect(await page.locator(card("duel-streak")).locator(".ranking-row").first().textContent()).toContain("3연승");
  await page.locator(card("duel-recent")).getByText("빠른손").waitFor();
  await page.locator(card("duel-win-rate")).getByText("아직 기록이 없습니다.").waitFor();
});

test("a card that fails shows the spec's text and its retry loads it; 375 px has no horizontal scroll", async () => {
  const page = await e2e.newPage(PHONE);
  let failing = true;
  await page.route("**/api/rankings/levels**", (route) =>
    failing ? route.fulfill({ status: 500, body: "{}" }) : route.continue(),
  );
  await page.goto(`${e2e.url}/ranking`);
  const levels = page.locator(card("levels"));
  await levels.getByText("데이터를 불러오는데 실패했습니다.").waitFor();
  failing = false;
  await levels.getByRole("button", { name: "다시 시도" }).click();
  await levels.getByText("꾸준이").waitFor();
  expect(await scrollWidth(page)).toBeLessThanOrEqual(PHONE.width);
});
