/**
 * The session across tabs and under an administrator's hand (issue 15): a logout in one tab logs every tab out
 * (a room tab goes on as a guest, the member out of the room and off the socket); a login in one tab signs the
 * others in; a member deactivated while playing is told so and logged out; a member renamed while playing sees the
 * new name at once.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { LOGGED_OUT_ELSEWHERE } from "../web/src/features/session/machine";
import { type E2E, navbarLogin, signIn, startE2E, storedItem, type TestUser, uniqueUser } from "./helpers";

const INACTIVE = "비활성화된 계정입니다. 관리자에게 문의해주세요.";

let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E();
});

afterAll(() => e2e?.stop());

type Identity = { kind: string; userId?: number; clientId?: string };

async function socketsOf(check: (identity: Identity) => boolean) {
  const sockets = await e2e.server.io.fetchSockets();
  return sockets.filter((s) => check((s.data.identity ?? {}) as Identity));
}
const userSockets = (userId: number) => socketsOf((i) => i.kind === "user" && i.userId === userId);

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await Bun.sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

const participants = (page: Page) => page.locator(".participants");
const profileLink = (page: Page, user: TestUser) => page.getByRole("link", { name: user.username });

/** A member signed in, on the first seeded room, listed there. */
async function memberInRoom(user: TestUser): Promise<Page> {
  const page = await e2e.newPage();
  await signIn(page, e2e.url, user);
  await page.goto(`${e2e.url}/rooms/1`);
  await participants(page).locator(".participant", { hasText: user.username }).waitFor();
  await waitFor(async () => (await userSockets(user.id)).length === 1, "the member's socket");
  return page;
}

describe("one session for every tab", () => {
  test("logout in one tab: every tab is logged out; the room tab stays as a guest and the member leaves", async () => {
    const user = await e2e.createUser(uniqueUser("두탭"));
    const home = await e2e.newPage();
    await signIn(home, e2e.url, user);
    const room = await home.context().newPage();
    await room.goto(`${e2e.url}/rooms/1`);
    await participants(room).locator(".participant", { hasText: user.username }).waitFor();
    const profile = await home.context().newPage();
    await profile.goto(`${e2e.url}/profile`);
    await profileLink(profile, user).waitFor();
    await waitFor(async () => (await userSockets(user.id)).length === 3, "three member sockets");

    await home.getByRole("button", { name: "로그아웃" }).click();
    await navbarLogin(home).waitFor();

    // The room tab: logged out, told why, and in the room as a guest now (it earns nothing for the account).
    await navbarLogin(room).waitFor();
    await room.getByText(LOGGED_OUT_ELSEWHERE).waitFor();
    await room.waitForFunction(
      (name) => !document.querySelector(".participants")?.textContent?.includes(name),
      user.username,
    );
    await participants(room).locator(".participant-guest").first().waitFor();
    expect(new URL(room.url()).pathname).toBe("/rooms/1");
    // A page only members may see runs its guard again: to /login.
    await profile.waitForURL(`${e2e.url}/login`);
    // No socket of this browser is the member any more.
    await waitFor(async () => (await userSockets(user.id)).length === 0, "the member sockets to close");

    // Logging in again in one tab signs the room tab in again, back in the room as the member.
    await signIn(home, e2e.url, user);
    await profileLink(room, user).waitFor();
    await participants(room).locator(".participant", { hasText: user.username }).waitFor();
    await waitFor(async () => (await userSockets(user.id)).length >= 2, "member sockets again");
  });
});

describe("changes an administrator makes while the member plays", () => {
  test("deactivated: told so on the page, logged out, no reconnection as the account", async () => {
    const user = await e2e.createUser(uniqueUser("정지"));
    const page = await memberInRoom(user);
    const clientId = (await page.context().cookies()).find((c) => c.name === "anonymous_id")?.value;

    e2e.accounts().setActive(user.id, false);

    // Told where they are (the room is open to guests), with the login at hand.
    await page.getByRole("alert").filter({ hasText: INACTIVE }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/rooms/1");
    expect(await storedItem(page, "token")).toBeNull();
    expect(await storedItem(page, "refresh_token")).toBeNull();
    expect(await navbarLogin(page).count()).toBeGreaterThan(0);
    // The page goes on as a guest (like anyone logged out), not as the account, and shows no connection failure.
    await waitFor(
      async () => (await socketsOf((i) => i.kind === "guest" && i.clientId === clientId)).length === 1,
      "the guest socket",
    );
    expect(await userSockets(user.id)).toHaveLength(0);
    expect(await page.getByText(/서버 연결에 실패했습니다/).count()).toBe(0);
  });

  test("renamed: the navbar and the room show the new name at once", async () => {
    const user = await e2e.createUser(uniqueUser("개명"));
    const admin = await e2e.server.createUser(`admin${Date.now().toString(36).slice(-5)}`, { admin: true });
    const page = await memberInRoom(user);
    await profileLink(page, user).waitFor();
    const newName = `새이름${user.id}`;

    const renamed = await e2e.server.api("PUT", `/api/admin/users/${user.id}/username`, {
      token: admin.token,
      body: { new_username: newName, reason: "시험" },
    });
    expect(renamed.status).toBe(200);

    await participants(page).locator(".participant", { hasText: newName }).waitFor();
    await page.getByRole("link", { name: newName }).waitFor();
    expect(await page.getByRole("link", { name: user.username }).count()).toBe(0);
  });
});
