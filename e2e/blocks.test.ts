/**
 * Blocks and implausible replays in the browser (issue 29, modules/moderation README "Blocks"; games README
 * "Replays"): a member blocks another from the guild board; that member's guild posts, comments and recruitment
 * posts are hidden from them; the blocks page (/profile/blocks, from the profile) lists the block with its time and
 * unblocks it, and the posts come back. An implausible result's replay, reported for cheating, is shown to the
 * administrator from the report queue and to nobody else (the player included).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { newReplayKey, recordResult } from "../modules/games";
import { type E2E, signIn, startE2E, type TestUser } from "./helpers";

let e2e: E2E;
let me: TestUser;
let noisy: TestUser;

beforeAll(async () => {
  e2e = await startE2E();
  me = await e2e.createUser({ username: "차단관리자" });
  noisy = await e2e.createUser({ username: "떠드는길드장" });
});
afterAll(() => e2e.stop());

/** An HTTP call as `user` (a fresh login), expecting `status`. */
async function call(user: TestUser, method: string, path: string, body?: unknown, status = 200) {
  const login = await e2e.server.api("POST", "/api/users/login", {
    body: { email: user.email, password: user.password },
  });
  const res = await e2e.server.api(method, path, { token: login.body.access_token, body });
  if (res.status !== status) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** `noisy`'s guild with `me` in it (by invitation), a post of each, noisy's comment on mine, a recruitment post. */
async function guildWithPosts() {
  const guild = await call(noisy, "POST", "/api/guilds", { name: "차단시험길드" }, 201);
  const { invitations } = await call(
    noisy,
    "POST",
    `/api/guilds/${guild.id}/invitations`,
    { invites: [{ email: me.email }] },
    201,
  );
  await call(me, "POST", `/api/guilds/invitations/${invitations[0].id}/accept`);
  await call(noisy, "POST", `/api/guilds/${guild.id}/board`, { title: "시끄러운 공지", content: "모두 모여라" }, 201);
  const mine = await call(me, "POST", `/api/guilds/${guild.id}/board`, { title: "조용한 질문", content: "질문" }, 201);
  await call(noisy, "POST", `/api/guilds/${guild.id}/board/${mine.id}/comments`, { content: "시끄러운 댓글" }, 201);
  await call(
    noisy,
    "POST",
    "/api/guilds/recruitment",
    {
      guild_id: guild.id,
      title: "시끄러운 모집글",
      content: "누구나 오세요",
    },
    201,
  );
  return guild as { id: number };
}

const postButton = (page: Page, title: string) => page.getByRole("button", { name: new RegExp(`^${title}`) });

describe("blocks", () => {
  test("a member blocked from the guild board: hidden there and in recruitment; the blocks page lists and unblocks", async () => {
    const guild = await guildWithPosts();
    const page = await e2e.newPage();
    await signIn(page, e2e.url, me);

    await page.goto(`${e2e.url}/guilds/recruitment`);
    await page.getByRole("link", { name: "시끄러운 모집글" }).waitFor();

    // Block the author from their post's report dialog.
    await page.goto(`${e2e.url}/guilds/${guild.id}/board`);
    await postButton(page, "조용한 질문").waitFor();
    await postButton(page, "시끄러운 공지").click();
    await page.getByRole("button", { name: '떠드는길드장님의 글: "시끄러운 공지" 신고' }).click();
    const dialog = page.getByRole("dialog", { name: "신고하기" });
    await dialog.getByRole("button", { name: "이 사용자 차단" }).click();
    await dialog.getByText("차단했습니다. 이 사용자의 채팅과 글이 보이지 않습니다.").waitFor();
    await dialog.getByRole("button", { name: "취소" }).click();

    // The list leaves their post out; their comment under my post keeps its place, not its text.
    await page.getByRole("button", { name: "목록으로" }).click();
    await postButton(page, "조용한 질문").waitFor();
    expect(await postButton(page, "시끄러운 공지").count()).toBe(0);
    await postButton(page, "조용한 질문").click();
    await page.getByText("차단한 사용자의 댓글입니다.").waitFor();
    expect(await page.getByText("시끄러운 댓글").count()).toBe(0);

    // Kept on the server: after a reload the recruitment list leaves their post out too.
    await page.goto(`${e2e.url}/guilds/recruitment`);
    await page.getByRole("heading", { name: "길드원 모집" }).waitFor();
    await page.getByText("아직 모집글이 없습니다.").waitFor();
    expect(await page.getByRole("link", { name: "시끄러운 모집글" }).count()).toBe(0);

    // The profile leads to the blocks page: the name and when, and the button to unblock.
    await page.goto(`${e2e.url}/profile`);
    await page.getByRole("link", { name: "차단한 사용자 관리" }).click();
    await page.waitForURL(`${e2e.url}/profile/blocks`);
    await page.getByRole("heading", { name: "차단한 사용자", level: 1 }).waitFor();
    const row = page.getByRole("row", { name: /떠드는길드장/ });
    await row.waitFor();
    expect(await row.textContent()).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    await page.getByRole("button", { name: "떠드는길드장 차단 풀기" }).click();
    await page.getByRole("status").getByText("떠드는길드장님의 차단을 풀었습니다.", { exact: false }).waitFor();
    await page.getByText("차단한 사용자가 없습니다.").waitFor();
    expect((await call(me, "GET", "/api/blocks")).blocks).toEqual([]);

    // Their posts are back, without a reload (the page's block list changed with the server's).
    await page.getByRole("link", { name: "프로필로 돌아가기" }).click();
    await page.goto(`${e2e.url}/guilds/recruitment`);
    await page.getByRole("link", { name: "시끄러운 모집글" }).waitFor();
    await page.goto(`${e2e.url}/guilds/${guild.id}/board`);
    await postButton(page, "시끄러운 공지").waitFor();
  }, 120_000);
});

describe("an implausible result's replay", () => {
  test("reported for cheating: the administrator watches it from the queue; the player and the reporter cannot", async () => {
    const [cheat, reporter, admin] = [
      await e2e.createUser({ username: "너무빠름" }),
      await e2e.createUser({ username: "부정신고" }),
      await e2e.createUser({ username: "리플운영" }),
    ];
    await e2e.accounts().setAdmin(admin.id, true);
    const key = newReplayKey();
    const at = Date.now();
    await recordResult(
      e2e.server.ctx,
      { mode: "sentence_race", sourceId: "1", sourceName: "부정 시험 방", round: 990_001, startedAt: at - 5_000 },
      {
        userId: cheat.id,
        playerKey: `u_${cheat.id}`,
        nickname: cheat.username,
        wpm: 2_400,
        accuracy: 100,
        completionTime: 0.4,
        position: null,
        errorCount: 0,
        implausible: true,
        replay: { key, sentence: "가는 말이 고와야", steps: [{ t: 400, text: "가는 말이 고와야" }] },
        createdAt: at,
      },
    );
    await call(reporter, "POST", "/api/reports", { kind: "player", replay_key: key, reason: "부정행위" }, 201);

    const adminPage = await e2e.newPage();
    await signIn(adminPage, e2e.url, admin);
    await adminPage.goto(`${e2e.url}/admin/reports`);
    const card = adminPage.locator(".report-group", { hasText: "너무빠름" }).first();
    await card.getByText("2400타/분", { exact: false }).waitFor();
    await card.getByRole("link", { name: "리플레이 보기" }).click();
    await adminPage.getByRole("heading", { name: "너무빠름의 리플레이" }).waitFor();

    for (const user of [cheat, reporter]) {
      const page = await e2e.newPage();
      await signIn(page, e2e.url, user);
      await page.goto(`${e2e.url}/replay/${key}`);
      await page.getByRole("alert").getByText("리플레이를 찾을 수 없습니다.", { exact: false }).waitFor();
    }
    // What the player can open leaves it out: their records have no link to it.
    expect((await call(cheat, "GET", `/api/games/results/user/${cheat.id}`)).map((r: { id: number }) => r.id)).toEqual(
      [],
    );
  }, 120_000);
});
