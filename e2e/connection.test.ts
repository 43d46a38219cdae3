import { afterAll, beforeAll, expect, test } from "bun:test";
import { type E2E, startE2E } from "./helpers";

let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E();
});

afterAll(async () => {
  await e2e?.stop();
});

test("a lost server connection shows the spec's connection text with a reload button", async () => {
  const page = await e2e.newPage();
  await page.goto(`${e2e.url}/`);
  await page.locator(".navbar").waitFor();
  const connected = async () => (await e2e.server.io.fetchSockets()).length > 0;
  for (let i = 0; i < 100 && !(await connected()); i++) await Bun.sleep(100);
  expect(await connected()).toBe(true);
  expect(await page.getByRole("alert").count()).toBe(0);

  await e2e.server.stop();
  const banner = page.getByRole("alert").filter({ hasText: /재연결에 실패했습니다\.|서버 연결에 실패했습니다/ });
  await banner.waitFor({ timeout: 20_000 });
  expect(await banner.getByRole("button", { name: "새로고침" }).isVisible()).toBe(true);
});
