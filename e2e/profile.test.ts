/**
 * /profile in the browser (spec part 2 §2 "Profile", §8, §9): login required; the four tabs from the member's
 * stored records — basic info, the three stats cards, the analysis with its charts and top rooms, and the records
 * table with the room filter, header sorting, 20 per page and Seoul times.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { recordResult } from "../modules/games";
import { type E2E, signIn, startE2E, type TestUser } from "./helpers";

let e2e: E2E;
let player: TestUser;

beforeAll(async () => {
  e2e = await startE2E();
  player = await e2e.createUser();
  const now = Date.now();
  // 25 games: 21 in 초보방 (speed 100–300), 4 in 고수방; first places every third game.
  for (let i = 0; i < 25; i++) {
    const room = i < 21 ? "초보방" : "고수방";
    await recordResult(
      e2e.server.ctx,
      { mode: "sentence_race", sourceId: room, sourceName: room, round: i + 1, startedAt: now - (25 - i) * 60_000 },
      {
        userId: player.id,
        playerKey: `u_${player.id}`,
        nickname: player.username,
        wpm: 100 + i * 8,
        accuracy: 90 + (i % 10),
        completionTime: 10 + i / 10,
        position: i % 3 === 0 ? 1 : 2,
        errorCount: 0,
        createdAt: now - (25 - i) * 60_000,
      },
    );
  }
});
afterAll(async () => {
  await e2e?.stop();
});

test("logged out, /profile sends to /login with the spec's reason", async () => {
  const page = await e2e.newPage();
  await page.goto(`${e2e.url}/profile`);
  await page.waitForURL(/\/login/);
  await page.getByText("프로필을 보려면 로그인이 필요합니다.").waitFor();
});

test("the four tabs: info, stats, analysis with charts and top rooms, records sorted and paged", async () => {
  const page = await e2e.newPage();
  await signIn(page, e2e.url, player);
  await page.goto(`${e2e.url}/profile`);
  await page.getByRole("heading", { name: "재화" }).waitFor();
  await page.getByText("누적 획득 포인트").waitFor();

  await page.getByRole("tab", { name: "게임 통계" }).click();
  await page.getByRole("heading", { name: "참여 현황" }).waitFor();
  expect(await page.locator(".profile-figure", { hasText: "총 게임 수" }).locator("dd").textContent()).toBe("25");
  expect(await page.locator(".profile-figure", { hasText: "최고 속도" }).locator("dd").textContent()).toBe("292타/분");

  await page.getByRole("tab", { name: "활동 분석" }).click();
  await page.getByRole("heading", { name: "순위 분석" }).waitFor();
  expect(await page.locator(".profile-figure", { hasText: "1위 횟수" }).locator("dd").textContent()).toBe("9");
  await page.locator("figure[aria-label='시간대별 게임 수'] svg").first().waitFor();
  await page.locator("[data-room='초보방']").waitFor();

  await page.getByRole("tab", { name: "게임 기록" }).click();
  await page.getByText("총 25개", { exact: true }).waitFor();
  expect(await page.locator(".profile-table tbody tr").count()).toBe(20);
  await page.getByRole("button", { name: "2", exact: true }).click();
  expect(await page.locator(".profile-table tbody tr").count()).toBe(5);
  // A click on 속도 sorts by speed, fastest first; a second click, slowest first.
  await page.getByRole("button", { name: /^속도/ }).click();
  expect(await page.locator(".profile-table tbody tr").first().locator("td").nth(1).textContent()).toBe("292타/분");
  await page.getByRole("button", { name: /^속도/ }).click();
  expect(await page.locator(".profile-table tbody tr").first().locator("td").nth(1).textContent()).toBe("100타/분");
  await page.getByRole("combobox", { name: "방 필터" }).selectOption("고수방");
  await page.getByText("총 4개", { exact: true }).waitFor();
  expect(await page.locator(".profile-table tbody tr").first().locator("td").nth(4).textContent()).toMatch(/^[12]위$/);
});
