/**
 * Screenshots of shell pages at phone and desktop width, for a human look (not a test):
 *   bun scripts/build-web.ts && bun e2e/screenshots.ts [outdir] [path ...]
 * Default paths: / and /login, anonymous and signed in. Files go to outdir (default /tmp/tajamadang-screens).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { DESKTOP, PHONE, signIn, startE2E } from "./helpers";

const [outdir = "/tmp/tajamadang-screens", ...paths] = process.argv.slice(2);
const targets = paths.length ? paths : ["/", "/login", "/register"];
mkdirSync(outdir, { recursive: true });

const e2e = await startE2E();
try {
  const user = await e2e.createUser({ username: "타자왕김철수" });
  await e2e.accounts().setAdmin(user.id, true);
  for (const [label, viewport] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as const) {
    const page = await e2e.newPage(viewport);
    for (const path of targets) {
      await page.goto(`${e2e.url}${path}`);
      await page.locator(".navbar").waitFor();
      await page.evaluate(() => document.fonts.ready);
      const file = join(outdir, `${label}-anon${path.replaceAll("/", "_") || "_"}.png`);
      await page.screenshot({ path: file, fullPage: true });
      console.log(file);
    }
    await signIn(page, e2e.url, user);
    await page.evaluate(() => document.fonts.ready);
    await page.screenshot({ path: join(outdir, `${label}-member_.png`), fullPage: true });
    if (label === "phone") {
      await page.getByRole("button", { name: "메뉴 열기" }).click();
      await page.waitForTimeout(400);
      await page.screenshot({ path: join(outdir, `${label}-member-menu.png`), fullPage: true });
    }
  }
} finally {
  await e2e.stop();
}
