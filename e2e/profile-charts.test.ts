/**
 * The profile's trend chart (issue 24, "What players trip over"): speed (~870 타/분) and accuracy (~97 %) used to
 * share one 0–1000 axis, so accuracy was a flat line at the bottom. Speed has the left axis, accuracy its own
 * 0–100 axis on the right.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { recordResult } from "../modules/games";
import { type E2E, signIn, startE2E, type TestUser } from "./helpers";

let e2e: E2E;
let player: TestUser;
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  e2e = await startE2E();
  player = await e2e.createUser();
  const now = Date.now();
  // Three days of fast, accurate games.
  for (let i = 0; i < 3; i++) {
    const at = now - (2 - i) * DAY - 60_000;
    await recordResult(
      e2e.server.ctx,
      { mode: "sentence_race", sourceId: "고수방", sourceName: "고수방", round: i + 1, startedAt: at },
      {
        userId: player.id,
        playerKey: `u_${player.id}`,
        nickname: player.username,
        wpm: 860 + i * 10,
        accuracy: 96 + i,
        completionTime: 5,
        position: 1,
        errorCount: 0,
        createdAt: at,
      },
    );
  }
});
afterAll(() => e2e?.stop());

test("the trend chart draws speed on the left axis and accuracy on its own 0–100 axis on the right", async () => {
  const page = await e2e.newPage();
  await signIn(page, e2e.url, player);
  await page.goto(`${e2e.url}/profile`);
  await page.getByRole("tab", { name: "활동 분석" }).click();
  const chart = page.locator("figure[aria-label='최근 성과 추이']");
  await chart.locator(".recharts-yAxis-tick-labels text").first().waitFor();
  // Each y axis's tick labels (recharts draws them apart from the axis line): its side and its numbers.
  const axes = await chart.evaluate((figure) =>
    [...figure.querySelectorAll(".recharts-yAxis-tick-labels")].map((labels) => {
      const texts = [...labels.querySelectorAll("text")];
      return {
        side: texts[0]?.getAttribute("orientation"),
        ticks: texts.map((text) => Number((text.textContent ?? "").replace(/[^\d.]/g, ""))),
        unit: texts.every((text) => text.textContent?.endsWith("%")) ? "%" : "",
      };
    }),
  );
  expect(axes.map((axis) => axis.side).sort()).toEqual(["left", "right"]);
  const left = axes.find((axis) => axis.side === "left")!;
  const right = axes.find((axis) => axis.side === "right")!;
  // Speed (860–880 타/분) on the left; accuracy from 0 to 100 % on the right.
  expect(Math.max(...left.ticks)).toBeGreaterThanOrEqual(880);
  expect(left.unit).toBe("");
  expect(Math.min(...right.ticks)).toBe(0);
  expect(Math.max(...right.ticks)).toBe(100);
  expect(right.unit).toBe("%");
  // Speed is an area, accuracy a line (an area filled to ~97 % would cover the speed); both in the legend.
  await chart.getByText("평균 속도").waitFor();
  await chart.getByText("평균 정확도").waitFor();
  expect(await chart.locator(".recharts-area-curve").count()).toBe(1);
  expect(await chart.locator(".recharts-line-curve").count()).toBe(1);
});
