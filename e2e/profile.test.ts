/**
 * /profile in the browser (spec part 2 §2 "Profile", §8, §9): login required; the four tabs — basic info, the
 * three stats cards, the analysis with its charts and top rooms, and the records table with the room filter,
 * header sorting, 20 per page and Seoul times — and the player's figures (games, average speed, best speed, win
 * streaks) the same on every tab as on every other page (product-rules "Trust rules").
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { TestUser as ServerUser } from "../apps/server/testing";
import { applyGameRewards } from "../modules/accounts";
import { createDuelStore } from "../modules/duel/store";
import { duelRecord } from "../modules/duel/test-support";
import { finishGame, recordResult } from "../modules/games";
import { FakeClock } from "../modules/kernel/clock";
import { average2 } from "../modules/kernel/typing";
import { figuresTestModules, playMixedHistory } from "../modules/profile/test-support";
import { computeRewards, countedGrants } from "../modules/rooms";
import { type E2E, signIn, startE2E, type TestUser } from "./helpers";

let e2e: E2E;
let player: TestUser;
let ace: ServerUser;

beforeAll(async () => {
  // A fake clock (from now) so the mixed history below is played for real without waiting; the pages read only.
  const clock = new FakeClock(Date.now());
  e2e = await startE2E({ clock, modules: figuresTestModules() });
  player = await e2e.createUser();
  const now = clock.now();
  // 25 games: 21 in 초보방 (speed 100–300), 4 in 고수방; first places every third game; each closed and paid as a
  // room's finish does (the account counts every counted result).
  for (let i = 0; i < 25; i++) {
    const room = i < 21 ? "초보방" : "고수방";
    const game = {
      mode: "sentence_race" as const,
      sourceId: room,
      sourceName: room,
      round: i + 1,
      startedAt: now - (25 - i) * 60_000,
    };
    await recordResult(e2e.server.ctx, game, {
      userId: player.id,
      playerKey: `u_${player.id}`,
      nickname: player.username,
      wpm: 100 + i * 8,
      accuracy: 90 + (i % 10),
      completionTime: 10 + i / 10,
      position: i % 3 === 0 ? 1 : 2,
      errorCount: 0,
      createdAt: now - (25 - i) * 60_000,
    });
    const closed = await finishGame(e2e.server.ctx, game, {
      endedAt: game.startedAt + 30_000,
      participants: 1,
      medals: [],
    });
    const grants = countedGrants(closed.counted, () => null).map(({ userId, delta }) => ({
      userId,
      delta: computeRewards({ wpm: delta.wpm, accuracy: delta.accuracy, position: 1, participants: 1 }),
    }));
    await applyGameRewards(e2e.server.ctx.database, { key: `games:${closed.gameId}`, at: game.startedAt }, grants);
  }
  // A member with a mixed history played for real: room races, a round cut short, an implausible attempt, guild
  // games and a duel (modules/profile/test-support.ts).
  ace = await e2e.server.createUser("기록왕");
  await playMixedHistory(e2e.server, clock, ace, await e2e.server.createUser("맞수"));
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
  // Medals are named in words, never emoji (an empty box where no emoji font is installed).
  const noEmoji = async () =>
    expect(await page.locator("main").textContent()).not.toMatch(/\p{Extended_Pictographic}/u);
  await page.locator(".profile-figure", { hasText: "금메달" }).waitFor();
  await noEmoji();

  await page.getByRole("tab", { name: "게임 통계" }).click();
  await page.getByRole("heading", { name: "참여 현황" }).waitFor();
  await noEmoji();
  expect(await page.locator(".profile-figure", { hasText: "게임 수" }).locator("dd").textContent()).toBe("25");
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

test("the three tabs show the same games count, average speed, best speed and win streak as every other page", async () => {
  const me = (await e2e.server.api("GET", "/api/users/me", { token: ace.token })).body;
  // 7 counted games (5 room races, one of them cut short, and 2 guild games; the implausible attempt and the duel
  // apart), at most 2 wins in a row.
  expect([me.games_played, me.max_win_streak, me.win_streak]).toEqual([7, 2, 0]);
  const speed = `${me.avg_wpm.toFixed(1)}타/분`;
  const best = (await e2e.server.api("GET", `/api/games/best/user/${ace.id}`, { token: ace.token })).body;
  const ranking = (await e2e.server.api("GET", "/api/rankings/users?period=all&limit=100")).body.find(
    (e: { user_id: number | null }) => e.user_id === ace.id,
  );
  // The all-time ranking counts the verified results (typed with steps: those with a replay; the room answers of
  // this history are sent without steps), the account every counted one (product-rules "Live race and replays").
  const records = (await e2e.server.api("GET", `/api/games/results/user/${ace.id}`, { token: ace.token })).body as {
    wpm: number;
    replay_key: string | null;
  }[];
  const ranked = records.filter((r) => r.replay_key !== null);
  expect([ranking.games_played, ranking.avg_wpm]).toEqual([
    ranked.length,
    average2(
      ranked.reduce((sum, r) => sum + r.wpm, 0),
      ranked.length,
    ),
  ]);

  const page = await e2e.newPage();
  await signIn(page, e2e.url, ace);
  await page.goto(`${e2e.url}/profile`);
  /** The figure of that label in the card of that heading, once shown. */
  const figure = async (card: string, label: string) => {
    const section = page.locator(".profile-card", { has: page.getByRole("heading", { name: card, exact: true }) });
    const value = section.locator(".profile-figure", { has: page.getByText(label, { exact: true }) }).locator("dd");
    await value.waitFor();
    return value.textContent();
  };

  expect(await figure("타자 기록", "게임 수")).toBe("7");
  expect(await figure("타자 기록", "평균 속도")).toBe(speed);
  expect(await figure("타자 기록", "최다 연승")).toBe("2");

  await page.getByRole("tab", { name: "게임 통계" }).click();
  expect(await figure("참여 현황", "게임 수")).toBe("7");
  expect(await figure("참여 현황", "평균 속도")).toBe(speed);
  expect(await figure("최고 기록", "최고 속도")).toBe(`${best.best_wpm}타/분`);

  await page.getByRole("tab", { name: "활동 분석" }).click();
  expect(await figure("최고 기록", "최고 속도")).toBe(`${best.best_wpm}타/분`);
  expect(await figure("최고 기록", "최다 연승")).toBe("2");
  expect(await figure("최고 기록", "현재 연승")).toBe("0");
  await page.getByText("최근 7판의 기록으로 계산합니다", { exact: false }).waitFor();
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
    await store.recordDuel(duelRecord(`profile-duel-${duelist.id}-${i}`, duelist.id, opponent, winnerSide, endedAt));
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
