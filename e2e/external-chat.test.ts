import { afterAll, describe, expect, test } from "bun:test";
import { type E2E, openMenuIfFolded, PHONE, signIn, startE2E } from "./helpers";

// The navbar's 채팅방 is the deployment's own chat room (EXTERNAL_CHAT_URL), never a generic home page.
const ROOM = "https://open.kakao.com/o/gTajamadang";
const running: E2E[] = [];
afterAll(async () => {
  for (const e2e of running) await e2e.stop();
});

async function start(env: Record<string, string> = {}) {
  const e2e = await startE2E({ env });
  running.push(e2e);
  return e2e;
}

describe("the navbar's chat link", () => {
  test("hidden while EXTERNAL_CHAT_URL is unset", async () => {
    const e2e = await start();
    const page = await e2e.newPage();
    await page.goto(e2e.url);
    await page.getByRole("link", { name: "랭킹", exact: true }).waitFor();
    // The page has asked the server for its settings by now (the link would appear with the answer).
    await page.waitForLoadState("networkidle");
    expect(await page.getByRole("link", { name: /채팅방/ }).count()).toBe(0);
  });

  test("with EXTERNAL_CHAT_URL set: opens that room in a new window, on a phone's menu too", async () => {
    const e2e = await start({ EXTERNAL_CHAT_URL: ROOM });
    const user = await e2e.createUser();
    const page = await e2e.newPage();
    await signIn(page, e2e.url, user);
    const chat = page.getByRole("link", { name: /채팅방/ });
    await chat.waitFor();
    expect(await chat.getAttribute("href")).toBe(ROOM);
    expect(await chat.getAttribute("target")).toBe("_blank");
    expect(await chat.getAttribute("rel")).toBe("noopener noreferrer");

    const phone = await e2e.newPage(PHONE);
    await phone.goto(e2e.url);
    await openMenuIfFolded(phone);
    await phone.getByRole("link", { name: /채팅방/ }).waitFor();
  });
});
