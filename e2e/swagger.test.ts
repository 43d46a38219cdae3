import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type E2E, startE2E } from "./helpers";

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e.stop());

describe("/swagger", () => {
  test("renders its Korean texts in Noto Sans KR served by the app (no CDN)", async () => {
    const page = await e2e.newPage();
    const fonts: string[] = [];
    page.on("response", (response) => {
      if (response.url().includes("/swagger-assets/fonts/") && response.ok()) fonts.push(response.url());
    });
    await page.goto(`${e2e.url}/swagger`);
    const title = page.locator(".swagger-ui .info .title");
    await title.waitFor();
    expect(await title.textContent()).toContain("타자마당 API");
    expect(await title.evaluate((el) => getComputedStyle(el).fontFamily)).toContain("Noto Sans KR");
    await page.waitForFunction(() => document.fonts.check('16px "Noto Sans KR"', "타자마당"));
    await page.evaluate(() => document.fonts.ready);
    expect(fonts.length).toBeGreaterThan(0);
    expect(fonts.every((url) => url.startsWith(e2e.url))).toBe(true);
  });
});
