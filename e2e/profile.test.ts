/**
 * /profile in the browser (spec part 2 §2 "Profile", §8, §9): login required; the four tabs from the member's
 * stored records — basic info, the three stats cards, the analysis with its charts and top rooms, and the records
 * table with the room filter, header sorting, 20 per page and Seoul times.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createDuelStore } from "../modules/duel/store";
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

test("the basic-info tab shows the member's 1:1 duel figures apart from the typing figures", async () => {
  const duelist = await e2e.createUser();
  const [first, second] = [await e2e.createUser(), await e2e.createUser()];
  const store = createDuelStore(e2e.server.ctx.database);
  const start = Date.now() - 3_600_000;
  // Won twice, a draw, a loss, won again: 3 wins, 1 loss, 1 draw; 1 win in a row now, 2 at most.
  const outcomes: [number, "red" | "blue" | "draw"][] = [
    [first.id, "red"],
    [first.id, "red"],
    [second.id, "draw"],
    [second.id, "blue"],
    [second.id, "red"],
  ];
  for (const [i, [opponent, winnerSide]] of outcomes.entries()) {
    const endedAt = start + i * 120_000;
    await store.recordDuel({
      sessionId: `profile-duel-${duelist.id}-${i}`,
      redUserId: duelist.id,
      blueUserId: opponent,
      winnerSide,
      reason: winnerSide === "draw" ? "time_up_draw" : "no_lives",
      redLives: winnerSide === "blue" ? 0 : 2,
      blueLives: winnerSide === "red" ? 0 : 2,
      redWordsTyped: 12,
      blueWordsTyped: 9,
      duration: 45,
      startedAt: endedAt - 45_000,
      endedAt,
    });
  }
  const rating = Math.round((await store.player(duelist.id))!.rating);
  expect(rating).not.toBe(1500);

  const page = await e2e.newPage();
  await signIn(page, e2e.url, duelist);
  await page.goto(`${e2e.url}/profile`);
  const card = page.getByRole("region", { name: "1:1 대결 기록" });
  await card.getByRole("heading", { name: "1:1 대결" }).waitFor();
  await card.locator(".profile-figure", { hasText: "레이팅" }).locator("dd", { hasText: /\d/ }).waitFor();
  const figure = (label: string) => card.locator(".profile-figure", { has: page.getByText(label, { exact: true }) });
  expect(await figure("레이팅").locator("dd").textContent()).toBe(rating.toLocaleString("ko-KR"));
  expect(await figure("승").locator("dd").textContent()).toBe("3");
  expect(await figure("패").locator("dd").textContent()).toBe("1");
  expect(await figure("무").locator("dd").textContent()).toBe("1");
  expect(await figure("현재 연속").locator("dd").textContent()).toBe("1연승");
  expect(await figure("최다 연승").locator("dd").textContent()).toBe("2");
  // The duels are not typing results: the typing figures and the records stay empty.
  const typing = page.locator(".profile-card", { has: page.getByRole("heading", { name: "타자 기록" }) });
  expect(await typing.locator(".profile-figure", { hasText: "게임 수" }).locator("dd").textContent()).toBe("0");
  await page.getByRole("tab", { name: "게임 기록" }).click();
  await page.getByText("총 0개", { exact: true }).waitFor();

  // A member before any rated duel: 1,500 and a note.
  const newcomer = await e2e.newPage();
  await signIn(newcomer, e2e.url, await e2e.createUser());
  await newcomer.goto(`${e2e.url}/profile`);
  await newcomer.getByText("아직 레이팅에 반영된 대결이 없습니다.").waitFor();
  expect(
    await newcomer
      .getByRole("region", { name: "1:1 대결 기록" })
      .locator(".profile-figure", { has: newcomer.getByText("레이팅", { exact: true }) })
      .locator("dd")
      .textContent(),
  ).toBe("1,500");
});
