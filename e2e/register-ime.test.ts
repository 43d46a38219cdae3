/**
 * The register page's username checklist, typed as a Korean player does (issue 24, "What players trip over"): a
 * syllable still in composition is not judged (ㅎ on its way to 한 is not "특수문자"), only committed text is; a
 * real mistake still shows once it is committed. Typed through the IME over CDP (`imeCompose` / `imeCommit`).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { MSG } from "../modules/kernel/account-rules";
import { type E2E, imeCommit, imeCompose, imeType, startE2E } from "./helpers";

let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e?.stop());

/** The checklist item of a username rule: its class says ok (green), bad (red) or idle (not judged yet). */
const ruleState = async (page: Page, label: string) =>
  (await page.locator("#username-rules li", { hasText: label }).getAttribute("class"))?.replace("check ", "");
const redItems = (page: Page) => page.locator("#username-rules .check-bad").count();
const hint = (page: Page) => page.getByText(MSG.usernameInvalid).count();

test("a syllable in composition is not judged; committed text is, and a real error shows once committed", async () => {
  const page = await e2e.newPage();
  await page.goto(`${e2e.url}/register`);
  const username = page.getByLabel("아이디");
  await username.click();

  // The first jamo of 한: the field holds "ㅎ", which alone would fail the character rule.
  await imeCompose(page, "ㅎ");
  expect(await username.inputValue()).toBe("ㅎ");
  expect(await redItems(page)).toBe(0);
  expect(await ruleState(page, MSG.usernameCharacters)).toBe("check-idle");
  expect(await hint(page)).toBe(0);
  await imeCompose(page, "하");
  await imeCompose(page, "한");
  await imeCommit(page, "한");
  await page.locator("#username-rules .check-ok", { hasText: MSG.usernameCharacters }).waitFor();

  // A second syllable on its way (한 + ㄱ): the committed 한 stays green, nothing turns red.
  await imeCompose(page, "ㄱ");
  expect(await username.inputValue()).toBe("한ㄱ");
  expect(await ruleState(page, MSG.usernameCharacters)).toBe("check-ok");
  expect(await redItems(page)).toBe(0);
  await imeCompose(page, "그");
  await imeCompose(page, "글");
  await imeCommit(page, "글");
  await page.getByText(MSG.usernameOk).waitFor();

  // A lone jamo that is committed is a real mistake: it shows at once.
  await imeCompose(page, "ㅋ");
  expect(await redItems(page)).toBe(0);
  await imeCommit(page, "ㅋ");
  await page.locator("#username-rules .check-bad", { hasText: MSG.usernameCharacters }).waitFor();
  expect(await hint(page)).toBe(1);

  // So does a special character, which no IME composes.
  await username.fill("");
  await imeType(page, "타자!");
  await page.locator("#username-rules .check-bad", { hasText: MSG.usernameCharacters }).waitFor();
});
