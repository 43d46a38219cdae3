/**
 * Guilds in the browser (issue 12, spec part 1 §2–§8), against the real server: a guild created through the form,
 * an invitation by e-mail accepted from /guilds/my in a second browser, recruitment (post, apply, approve), chat in
 * the guild room between two members, a role change and a kick (the kicked member's room ends at once), the guild
 * board (post and comment), a non-member refused, a bad guild id, the game tab's start, the game's lanes typed through
 * the IME with a member watching, a link that opens the room watching (`?watch=1`), and 375 px without a horizontal
 * scroll.
 *
 * Set GUILDS_SCREENSHOTS=/some/dir to also save screenshots of the pages (for a human look).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { createAccessTokens } from "../modules/accounts/tokens";
import {
  DESKTOP,
  type E2E,
  expectTitle,
  imeCommit,
  imeCompose,
  imeType,
  PHONE,
  scrollWidth,
  signIn,
  startE2E,
  type TestUser,
  uniqueUser,
} from "./helpers";

let e2e: E2E;
const SHOTS = process.env.GUILDS_SCREENSHOTS;

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

beforeAll(async () => {
  e2e = await startE2E();
});

afterAll(async () => {
  await e2e?.stop();
});

let guildCounter = 0;
const guildName = () => `길드${Date.now().toString(36).slice(-4)}${++guildCounter}`;

async function tokenFor(user: TestUser) {
  return createAccessTokens(e2e.server.ctx.config.jwtSecret, Date.now).sign(user.id, "full");
}

/** An HTTP call as `user`, expecting `status`. */
async function call(user: TestUser, method: string, path: string, body?: unknown, status = 200) {
  const res = await e2e.server.api(method, path, { token: await tokenFor(user), body });
  if (res.status !== status) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A guild made through the API, with `members` joined by invitation (for the tests that start from a guild). */
async function guildWith(admin: TestUser, members: TestUser[] = []) {
  const guild = await call(admin, "POST", "/api/guilds", { name: guildName() }, 201);
  for (const member of members) {
    const { invitations } = await call(
      admin,
      "POST",
      `/api/guilds/${guild.id}/invitations`,
      {
        invites: [{ email: member.email }],
      },
      201,
    );
    await call(member, "POST", `/api/guilds/invitations/${invitations[0].id}/accept`);
  }
  return guild as { id: number; name: string };
}

async function signedIn(user: TestUser, viewport: { width: number; height: number } = DESKTOP): Promise<Page> {
  const page = await e2e.newPage(viewport);
  await signIn(page, e2e.url, user);
  return page;
}

/** Opens the guild room and waits until the room's state arrived (the member list is shown). */
async function openRoom(page: Page, guildId: number) {
  await page.goto(`${e2e.url}/guilds/${guildId}/room`);
  await page.getByRole("tab", { name: "길드 채팅" }).waitFor();
}

/** A new guild's admin alone in its room, a game of `problem` started (1-s countdown) on the 길드 게임 tab. */
async function soloGuildGame(label: string, problem: string) {
  const admin = await e2e.createUser(uniqueUser(label));
  const guild = await guildWith(admin);
  await call(admin, "PUT", `/api/guilds/${guild.id}/problems`, { problems: [problem] });
  await call(admin, "PUT", `/api/guilds/${guild.id}/settings`, { countdown_seconds: 1 });
  const page = await signedIn(admin);
  await openRoom(page, guild.id);
  await page.getByRole("tab", { name: "길드 게임" }).click();
  await page.getByRole("button", { name: "게임 시작" }).click();
  return { admin, page };
}

const chatInput = (page: Page) => page.getByRole("textbox", { name: "메시지 입력" });
const memberRow = (page: Page, username: string) => page.locator(`.guild-member[data-username="${username}"]`);

function acceptDialogs(page: Page) {
  page.on("dialog", (dialog) => void dialog.accept());
}

describe("guilds in the browser", () => {
  test("create a guild, invite by e-mail, the invited member accepts from /guilds/my in another browser", async () => {
    const admin = await e2e.createUser(uniqueUser("관리"));
    const invited = await e2e.createUser(uniqueUser("초대"));
    const page = await signedIn(admin);
    await page.goto(`${e2e.url}/guilds`);
    await expectTitle(page, "길드 | 타자마당");
    await page.getByRole("link", { name: "길드 만들기" }).click();
    await expectTitle(page, "길드 만들기 | 타자마당");

    // Name required (spec §5), then a real one.
    await page.getByRole("button", { name: "만들기" }).click();
    await page.getByRole("alert").getByText("길드 이름을 입력해주세요.").waitFor();
    const name = guildName();
    await page.getByLabel("길드 이름").fill(name);
    await page.getByLabel("길드 소개 (선택)").fill("즐겁게 타자 치는 길드");
    await page.getByRole("button", { name: "만들기" }).click();
    await page.waitForURL(`${e2e.url}/guilds/my`);
    await page.getByRole("heading", { name }).waitFor();
    await page.getByText("1/30명").waitFor();
    await page.getByText(`${admin.username}님이 길드를 만들었습니다.`).waitFor();

    // The guild room's invite panel: the `@` rule and the duplicate rule, then the invitation.
    await page.getByRole("link", { name: "길드 방" }).click();
    await page.getByRole("heading", { name: "초대하기" }).waitFor();
    const email = page.getByRole("textbox", { name: "초대할 이메일" });
    await email.fill("no-at-sign");
    await page.getByRole("button", { name: "추가" }).last().click();
    await page.getByText("올바른 이메일 주소를 입력해주세요.").waitFor();
    await email.fill(invited.email);
    await page.getByRole("button", { name: "추가" }).last().click();
    await email.fill(invited.email.toUpperCase());
    await page.getByRole("button", { name: "추가" }).last().click();
    await page.getByText("이미 초대 목록에 있는 이메일입니다.").waitFor();
    await page.getByRole("button", { name: "초대 보내기" }).click();
    await page.getByText("1명에게 초대를 보냈습니다.").waitFor();

    const other = await signedIn(invited);
    await other.goto(`${e2e.url}/guilds/my`);
    await other.getByText("아직 가입한 길드가 없습니다.", { exact: false }).waitFor();
    const invitation = other.locator(".guild-row", { hasText: name });
    await invitation.getByText(`${admin.username}님의 초대`).waitFor();
    await invitation.getByRole("button", { name: "수락" }).click();
    await other.getByRole("heading", { name }).waitFor();
    await other.getByText("2/30명").waitFor();

    // The admin's room shows the new member (the state is pushed to the room after every change).
    await memberRow(page, invited.username).waitFor();
  });

  test("recruitment: a post with its view count, an application, approved by the guild's admin", async () => {
    const admin = await e2e.createUser(uniqueUser("모집"));
    const applicant = await e2e.createUser(uniqueUser("지원"));
    const guild = await guildWith(admin);
    const page = await signedIn(admin);
    await page.goto(`${e2e.url}/guilds/recruitment`);
    await expectTitle(page, "길드원 모집 | 타자마당");
    await page.getByRole("button", { name: "모집글 쓰기" }).click();
    await page.getByRole("button", { name: "등록" }).click();
    await page.getByText("모든 필드를 입력해주세요.").waitFor();
    await page.getByLabel("제목").fill("함께 달릴 길드원 모집");
    await page.getByLabel("내용").fill("매일 저녁 길드 게임을 합니다.");
    await page.getByRole("button", { name: "등록" }).click();
    await page.waitForURL(/\/guilds\/recruitment\/\d+$/);
    await page.getByRole("heading", { name: "함께 달릴 길드원 모집" }).waitFor();
    expect(await page.getByTestId("view-count").textContent()).toBe("1");
    const postUrl = page.url();

    const other = await signedIn(applicant);
    await other.goto(`${e2e.url}/guilds/recruitment`);
    const row = other.getByRole("row", { name: /함께 달릴 길드원 모집/ });
    await row.getByText(guild.name).waitFor();
    await row.getByRole("link", { name: "함께 달릴 길드원 모집" }).click();
    await other.getByRole("heading", { name: "함께 달릴 길드원 모집" }).waitFor();
    await other.getByTestId("view-count").getByText("2").waitFor();
    const applied = other.locator("article p", { hasText: "신청" });
    expect(await applied.textContent()).toMatch(/신청 0$/);
    await other.getByLabel("신청 메시지 (선택)").fill("열심히 하겠습니다!");
    await other.getByRole("button", { name: "가입 신청" }).click();
    await other.getByText("가입 신청을 보냈습니다.", { exact: false }).waitFor();
    // The post counts the application at once (issue 24: it kept showing "신청 0"), and the view is not counted again.
    await other.locator("article p", { hasText: /신청 1$/ }).waitFor();
    expect(await other.getByTestId("view-count").textContent()).toBe("2");

    await page.goto(postUrl);
    const application = page.locator(".guild-row", { hasText: applicant.username });
    await application.getByText("열심히 하겠습니다!").waitFor();
    await application.getByRole("button", { name: "승인" }).click();
    await page.getByText("대기 중인 가입 신청이 없습니다.").waitFor();

    await other.goto(`${e2e.url}/guilds/my`);
    await other.getByRole("heading", { name: guild.name }).waitFor();
    await other.getByText(`${applicant.username}님이 길드에 가입했습니다.`).waitFor();
  });

  test("guild room: chat between two members (IME-safe Enter), the admins' slash command, the last lines on join", async () => {
    const admin = await e2e.createUser(uniqueUser("채팅"));
    const member = await e2e.createUser(uniqueUser("회원"));
    const guild = await guildWith(admin, [member]);
    const a = await signedIn(admin);
    const b = await signedIn(member);
    await openRoom(a, guild.id);
    await openRoom(b, guild.id);

    await chatInput(a).fill("안녕하세요 여러분");
    await chatInput(a).press("Enter");
    await b.locator(".guild-msg-chat", { hasText: "안녕하세요 여러분" }).waitFor();
    await b.locator(".guild-msg-chat", { hasText: admin.username }).first().waitFor();

    // An Enter that ends a composition is the IME's: nothing is sent.
    await chatInput(b).fill("반가워요");
    await chatInput(b).dispatchEvent("keydown", { key: "Enter", keyCode: 229, isComposing: true });
    expect(await chatInput(b).inputValue()).toBe("반가워요");
    await chatInput(b).press("Enter");
    await a.locator(".guild-msg-chat", { hasText: "반가워요" }).waitFor();
    expect(await chatInput(b).inputValue()).toBe("");

    // Slash commands: the admin's changes the setting (a system line), a member's is refused in red.
    await chatInput(a).fill("/setcountdown 7");
    await chatInput(a).press("Enter");
    await b.locator(".guild-msg-system", { hasText: "시작 카운트다운을 7초로 바꿨습니다." }).waitFor();
    await chatInput(b).fill("/setendtime 100");
    await chatInput(b).press("Enter");
    await b.locator(".guild-msg-error", { hasText: "길드 관리자만 할 수 있습니다." }).waitFor();
    expect(await b.getByText("관리자 명령어:").count()).toBe(0);

    // A later visit shows the stored lines.
    await b.reload();
    await b.locator(".guild-msg-chat", { hasText: "안녕하세요 여러분" }).waitFor();
  });

  test("role change and kick by role; the kicked member's room ends at once", async () => {
    const admin = await e2e.createUser(uniqueUser("역할"));
    const mod = await e2e.createUser(uniqueUser("부관"));
    const plain = await e2e.createUser(uniqueUser("일반"));
    const guild = await guildWith(admin, [mod, plain]);
    const a = await signedIn(admin);
    const m = await signedIn(mod);
    const p = await signedIn(plain);
    acceptDialogs(a);
    acceptDialogs(m);
    await openRoom(a, guild.id);
    await openRoom(m, guild.id);
    await openRoom(p, guild.id);

    // A plain member sees neither role selects nor kick buttons, nor the admin panels.
    await memberRow(p, admin.username).waitFor();
    expect(await p.getByRole("button", { name: /추방$/ }).count()).toBe(0);
    expect(await p.getByRole("combobox", { name: /역할$/ }).count()).toBe(0);
    expect(await p.getByRole("region", { name: "길드 관리" }).count()).toBe(0);

    await a.getByRole("combobox", { name: `${mod.username} 역할` }).selectOption("moderator");
    await a.getByText(`${mod.username}님의 역할을 바꿨습니다.`).waitFor();
    await memberRow(m, mod.username).getByRole("img", { name: "부관리자" }).waitFor();
    await shot(a, "desktop-room-admin");
    // The moderator may kick plain members only; never the admin.
    expect(await m.getByRole("button", { name: `${admin.username} 추방` }).count()).toBe(0);
    expect(await m.getByRole("combobox", { name: /역할$/ }).count()).toBe(0);
    await m.getByRole("button", { name: `${plain.username} 추방` }).click();
    await m.getByText(`${plain.username}님을 추방했습니다.`).waitFor();

    await p.getByRole("heading", { name: "길드에서 추방되었습니다." }).waitFor();
    await memberRow(a, plain.username).waitFor({ state: "detached" });
    // Back in the room: refused by the server's membership check.
    await openRoomRefused(p, guild.id);
  });

  test("admin panels: settings ranges, problems by hand and by JSON file with the spec's errors", async () => {
    const admin = await e2e.createUser(uniqueUser("설정"));
    const member = await e2e.createUser(uniqueUser("보기"));
    const guild = await guildWith(admin, [member]);
    const a = await signedIn(admin);
    const b = await signedIn(member);
    await openRoom(a, guild.id);
    await openRoom(b, guild.id);

    // Out of range is not sent (spec §5): the range is said and nothing changes.
    const countdown = a.getByLabel("시작 카운트다운 (초)");
    await countdown.fill("11");
    await a.getByRole("button", { name: "설정 저장" }).click();
    await a.getByText("시작 카운트다운은 1~10초 사이여야 합니다.").waitFor();
    await countdown.fill("3");
    await a.getByLabel("종료 카운트다운 (초)").fill("90");
    await a.getByRole("button", { name: "설정 저장" }).click();
    await a.getByText("설정을 저장했습니다.").waitFor();
    const stored = await call(admin, "GET", `/api/guilds/${guild.id}`);
    expect([stored.countdown_seconds, stored.end_countdown_seconds]).toEqual([3, 90]);
    // Only admins see the panels.
    expect(await b.getByRole("region", { name: "길드 관리" }).count()).toBe(0);

    // By hand: an empty new problem is ignored.
    await a.getByRole("textbox", { name: "새 문제" }).fill("   ");
    await a.getByRole("button", { name: "추가" }).first().click();
    await a.getByText("등록된 문제가 없습니다.", { exact: true }).waitFor();
    // A problem under 10 characters is refused at once, with the server's text, and not added.
    await a.getByRole("textbox", { name: "새 문제" }).fill("아홉 글자 문제다");
    await a.getByRole("button", { name: "추가" }).first().click();
    await a.getByRole("alert").getByText("문제는 10자 이상이어야 합니다.").waitFor();
    await a.getByText("등록된 문제가 없습니다.", { exact: true }).waitFor();
    await a.getByRole("textbox", { name: "새 문제" }).fill("손으로 넣은 길드 게임 문제");
    await a.getByRole("button", { name: "추가" }).first().click();
    await a.getByRole("button", { name: "문제 저장" }).click();
    await a.getByText("문제 1개를 저장했습니다.").waitFor();

    // By file: not JSON, not an array of strings, then a good one (it replaces the list).
    const file = a.locator('input[type="file"]');
    await file.setInputFiles({ name: "problems.txt", mimeType: "text/plain", buffer: Buffer.from("문제") });
    await a.getByText("JSON 파일만 업로드 가능합니다.").waitFor();
    await file.setInputFiles({ name: "problems.json", mimeType: "application/json", buffer: Buffer.from("[1, 2]") });
    await a.getByText("유효한 문제 목록 형식이 아닙니다. 문자열 배열 형식이어야 합니다.").waitFor();
    const good = JSON.stringify(["첫 번째 길드 게임 문제", "두 번째 길드 게임 문제"]);
    await file.setInputFiles({ name: "problems.json", mimeType: "application/json", buffer: Buffer.from(good) });
    await a.getByText("문제 2개를 저장했습니다.").waitFor();
    expect((await call(admin, "GET", `/api/guilds/${guild.id}/problems`)).problems).toEqual([
      "첫 번째 길드 게임 문제",
      "두 번째 길드 게임 문제",
    ]);
  });

  test("guild board: a member writes a post and a comment; the other member reads both", async () => {
    const admin = await e2e.createUser(uniqueUser("게시"));
    const member = await e2e.createUser(uniqueUser("글쓴"));
    const guild = await guildWith(admin, [member]);
    const b = await signedIn(member);
    await b.goto(`${e2e.url}/guilds/${guild.id}/board`);
    await expectTitle(b, `${guild.name} 게시판 | 타자마당`);
    await b.getByRole("heading", { name: "AI 소식" }).waitFor();
    await b.getByText("아직 게시글이 없습니다.", { exact: false }).waitFor();
    await b.getByRole("button", { name: "글쓰기" }).click();
    await b.getByRole("button", { name: "등록" }).click();
    await b.getByText("제목과 내용을 모두 입력해주세요.").waitFor();
    await b.getByLabel("제목").fill("오늘의 연습 기록");
    await b.getByLabel("내용").fill("300타를 넘었습니다!");
    await b.getByRole("button", { name: "등록" }).click();
    await b.getByRole("heading", { name: "오늘의 연습 기록" }).waitFor();
    await b.getByRole("textbox", { name: "댓글 입력" }).fill("첫 댓글입니다");
    await b.getByRole("button", { name: "등록" }).click();
    await b.locator(".guild-comment", { hasText: "첫 댓글입니다" }).waitFor();

    const a = await signedIn(admin);
    await a.goto(`${e2e.url}/guilds/${guild.id}/board`);
    await a.getByRole("button", { name: /오늘의 연습 기록/ }).click();
    await a.getByText("300타를 넘었습니다!").waitFor();
    await a.locator(".guild-comment", { hasText: "첫 댓글입니다" }).waitFor();
    // The admin may delete the member's post (spec §6).
    await a.getByRole("button", { name: "삭제" }).first().waitFor();
  });

  test("a non-member is refused from the room and the board; a bad guild id says so; login is required", async () => {
    const admin = await e2e.createUser(uniqueUser("비회"));
    const outsider = await e2e.createUser(uniqueUser("외부"));
    const guild = await guildWith(admin);
    const page = await signedIn(outsider);
    await openRoomRefused(page, guild.id);
    await page.goto(`${e2e.url}/guilds/${guild.id}/board`);
    await page.getByRole("heading", { name: "길드 회원만 이용할 수 있습니다." }).waitFor();
    await page.goto(`${e2e.url}/guilds/abc/room`);
    await page.getByRole("heading", { name: "잘못된 길드 ID입니다." }).waitFor();

    const anonymous = await e2e.newPage();
    await anonymous.goto(`${e2e.url}/guilds/${guild.id}/room`);
    await anonymous.waitForURL(`${e2e.url}/login`);
  });

  test("guild game between two members: countdown, live progress bars, the exact-text rule, positions and results", async () => {
    const admin = await e2e.createUser(uniqueUser("겜장"));
    const member = await e2e.createUser(uniqueUser("겜원"));
    const guild = await guildWith(admin, [member]);
    const problem = "하나 둘 셋 넷 다섯";
    await call(admin, "PUT", `/api/guilds/${guild.id}/problems`, { problems: ["다른 문제도 열 글자 넘게", problem] });
    await call(admin, "PUT", `/api/guilds/${guild.id}/settings`, { countdown_seconds: 2 });
    const a = await signedIn(admin);
    const b = await signedIn(member);
    await openRoom(a, guild.id);
    await openRoom(b, guild.id);
    // A plain member has no start controls.
    await b.getByRole("tab", { name: "길드 게임" }).click();
    await b.getByText("길드 관리자가 게임을 시작하면", { exact: false }).waitFor();
    expect(await b.getByRole("button", { name: "게임 시작" }).count()).toBe(0);
    await b.getByRole("tab", { name: "길드 채팅" }).click();

    await a.getByRole("tab", { name: "길드 게임" }).click();
    await a.getByLabel("문제 선택").selectOption(problem);
    await a.getByRole("button", { name: "게임 시작" }).click();
    // Everyone in the room is taken to the game tab for the countdown, then sees the problem.
    await b.getByText(/\d초 후 게임이 시작됩니다!/).waitFor();
    for (const page of [a, b]) await page.getByTestId("guild-problem").getByText(problem).waitFor();

    // The member's progress reaches the admin's screen as a bar.
    const answerB = b.getByRole("textbox", { name: "답 입력" });
    await answerB.fill("하나 둘");
    const memberBar = a.getByRole("progressbar", { name: `${member.username} 진행률` });
    await a.waitForFunction(
      (name) => Number(document.querySelector(`[aria-label="${name} 진행률"]`)?.getAttribute("aria-valuenow")) > 0,
      member.username,
    );
    expect(Number(await memberBar.getAttribute("aria-valuenow"))).toBeLessThan(100);

    // Only the exact text counts: a wrong answer is refused and the player goes on.
    await answerB.fill("하나 둘 넷");
    await answerB.press("Enter");
    await b.getByRole("alert").getByText("입력한 내용이 문제와 일치하지 않습니다.").waitFor();
    // The admin has started typing too: a player who never typed would not hold the game's end.
    const answerA = a.getByRole("textbox", { name: "답 입력" });
    await answerA.pressSequentially([...problem][0], { delay: 150 });
    // Typed at a human pace: the server never counts an implausibly fast answer (over 1,500 keystrokes a minute).
    await answerB.fill("");
    await answerB.pressSequentially(problem, { delay: 150 });
    await answerB.press("Enter");
    await b.getByText("완료! 1위").waitFor();

    await answerA.pressSequentially([...problem].slice(1).join(""), { delay: 150 });
    await answerA.press("Enter");

    // Everyone present finished: the game ends with the results on both screens.
    for (const page of [a, b]) {
      const results = page.getByRole("region", { name: "게임 결과" });
      await results.waitFor();
      await results.locator(".guild-result", { hasText: member.username }).getByText("1위").waitFor();
      await results.locator(".guild-result", { hasText: admin.username }).getByText("2위").waitFor();
    }
    await shot(a, "desktop-room-game-results");
  });

  test("guild game: the rooms' typing panel (coloured characters, live 타/분 and accuracy), typed through the IME; 타/분 everywhere", async () => {
    const problem = "하나 둘 셋 넷 다섯";
    const { admin, page: a } = await soloGuildGame("패널", problem);
    const answer = a.getByRole("textbox", { name: "답 입력" });
    await answer.click();
    const sentence = a.getByTestId("guild-problem");
    await sentence.getByText(problem).waitFor();

    // Typed right so far: each character green, the next one marked, live speed in 타/분 and 100 % accuracy.
    await imeType(a, "하나 둘", { pauseMs: 150 });
    await a.waitForFunction(() => document.querySelectorAll("[data-testid=guild-problem] .ch-ok").length === 4);
    expect(await sentence.locator(".ch-next").textContent()).toBe(" ");
    await a.waitForFunction(() =>
      /^[1-9]\d*타\/분$/.test(document.querySelector("[data-testid=live-speed]")?.textContent ?? ""),
    );
    expect(await a.getByTestId("live-accuracy").textContent()).toBe("100%");
    // A syllable still composing is neither right nor wrong yet.
    await imeType(a, " 세", { leaveLast: true });
    expect(await sentence.locator(".ch-typing").textContent()).toBe("셋");
    expect(await sentence.locator(".ch-bad").count()).toBe(0);
    await imeCompose(a, "셋");
    await imeCommit(a, "셋");
    // A wrong syllable once committed is red and costs accuracy.
    await imeType(a, " 다", { pauseMs: 150 });
    await sentence.locator(".ch-bad").getByText("넷").waitFor();
    expect(await a.getByTestId("live-accuracy").textContent()).not.toBe("100%");
    await a.keyboard.press("Backspace");
    await imeType(a, "넷 다섯", { pauseMs: 150 });
    await answer.press("Enter");

    // The only player finished, so the game ends: the lane and the results both say 타/분.
    const results = a.getByRole("region", { name: "게임 결과" });
    await results
      .locator(".guild-result", { hasText: admin.username })
      .getByText(/\d+타\/분/)
      .waitFor();
    const lane = a.getByRole("progressbar", { name: `${admin.username} 진행률` });
    expect(await lane.getAttribute("aria-valuetext")).toMatch(/^100% · [1-9]\d*타\/분 · 1위$/);
  });

  test("guild game lanes: a member types through the IME and sees their lane with live 타/분; another member watches", async () => {
    const problem = "하나 둘 셋 넷 다섯";
    const admin = await e2e.createUser(uniqueUser("레인"));
    const player = await e2e.createUser(uniqueUser("선수"));
    const watcher = await e2e.createUser(uniqueUser("관전"));
    const guild = await guildWith(admin, [player, watcher]);
    await call(admin, "PUT", `/api/guilds/${guild.id}/problems`, { problems: [problem] });
    await call(admin, "PUT", `/api/guilds/${guild.id}/settings`, { countdown_seconds: 1 });
    const [a, p, w] = await Promise.all([signedIn(admin), signedIn(player), signedIn(watcher, PHONE)]);
    for (const page of [a, p, w]) {
      await openRoom(page, guild.id);
      await page.getByRole("tab", { name: "길드 게임" }).click();
    }
    // The watcher chooses to watch: said so, listed apart on every screen.
    await w.getByRole("button", { name: "관전하기" }).click();
    await w.getByRole("status").getByText("관전 중").waitFor();
    for (const page of [a, p, w]) await page.getByTestId("guild-watchers").getByText(watcher.username).waitFor();

    await a.getByRole("button", { name: "게임 시작" }).click();
    for (const page of [a, p, w]) await page.getByTestId("guild-problem").getByText(problem).waitFor();
    // Players get the answer box; the watcher none, and no lane of their own.
    expect(await w.getByRole("textbox", { name: "답 입력" }).count()).toBe(0);
    expect(await w.getByRole("progressbar", { name: `${watcher.username} 진행률` }).count()).toBe(0);

    const answer = p.getByRole("textbox", { name: "답 입력" });
    await answer.click();
    await imeType(p, "하나 둘", { pauseMs: 150 });
    // The player's own lane (marked 나) moves with live 타/분 from the server; the watcher sees the same lane.
    const live = /^(\d+)% · ([1-9]\d*)타\/분$/;
    const laneText = (page: Page) =>
      page.waitForFunction(
        ([name, pattern]) => {
          const text = document.querySelector(`[aria-label="${name} 진행률"]`)?.getAttribute("aria-valuetext") ?? "";
          return new RegExp(pattern).test(text) && !text.startsWith("0%") ? text : false;
        },
        [player.username, live.source],
      );
    await laneText(p);
    const mine = p.locator(".lane-mine");
    expect(await mine.locator(".lane-name").textContent()).toContain(player.username);
    await mine.getByText("나", { exact: true }).waitFor();
    expect(await mine.locator(".lane-wpm").textContent()).toMatch(/^[1-9]\d*타\/분$/);
    await laneText(w);
    expect(await w.locator(".lane-mine").count()).toBe(0);
    await shot(w, "phone-room-game-watching");

    await imeType(p, " 셋 넷 다섯", { pauseMs: 150 });
    await answer.press("Enter");
    // The admin never typed and the watcher does not play: the player's answer ends the game for everyone.
    for (const page of [a, p, w]) {
      const results = page.getByRole("region", { name: "게임 결과" });
      await results.locator(".guild-result", { hasText: player.username }).getByText("1위").waitFor();
    }
    expect(
      await w.getByRole("progressbar", { name: `${player.username} 진행률` }).getAttribute("aria-valuetext"),
    ).toMatch(/^100% · [1-9]\d*타\/분 · 1위$/);
    // Back to playing: the role bar offers 관전하기 again.
    await w.getByRole("button", { name: "참가하기" }).click();
    await w.getByRole("button", { name: "관전하기" }).waitFor();
    expect(await w.getByTestId("guild-watchers").count()).toBe(0);
    expect(await scrollWidth(w)).toBe(PHONE.width);
  });

  test("a link with ?watch=1 opens the guild room watching; 참가하기 drops it and plays; 관전하기 sets it again", async () => {
    const admin = await e2e.createUser(uniqueUser("링크"));
    const watcher = await e2e.createUser(uniqueUser("링크관전"));
    const other = await e2e.createUser(uniqueUser("링크참가"));
    const guild = await guildWith(admin, [watcher, other]);
    const [a, w, o] = await Promise.all([signedIn(admin), signedIn(watcher), signedIn(other)]);
    await openRoom(a, guild.id);
    await w.goto(`${e2e.url}/guilds/${guild.id}/room?watch=1`);
    // Anything but 1 plays: the route keeps only a valid role.
    await o.goto(`${e2e.url}/guilds/${guild.id}/room?watch=yes`);
    for (const page of [a, w, o]) await page.getByRole("tab", { name: "길드 게임" }).click();
    // Joined as a watcher straight away: the server lists them apart on everyone's screen.
    await w.getByRole("status").getByText("관전 중").waitFor();
    for (const page of [a, w, o]) await page.getByTestId("guild-watchers").getByText(watcher.username).waitFor();
    await o.getByRole("button", { name: "관전하기" }).waitFor();
    expect(await a.getByTestId("guild-watchers").textContent()).toBe(`관전 1명: ${watcher.username}`);

    await w.getByRole("button", { name: "참가하기" }).click();
    await w.getByRole("button", { name: "관전하기" }).waitFor();
    await a.getByTestId("guild-watchers").waitFor({ state: "detached" });
    expect(new URL(w.url()).pathname).toBe(`/guilds/${guild.id}/room`);
    expect(new URL(w.url()).searchParams.has("watch")).toBe(false);

    await w.getByRole("button", { name: "관전하기" }).click();
    await a.getByTestId("guild-watchers").getByText(watcher.username).waitFor();
    expect(new URL(w.url()).searchParams.get("watch")).toBe("1");
    await w.getByRole("status").getByText("관전 중").waitFor();
  });

  test("guild game: an answer typed implausibly fast is not counted and ends that player's input", async () => {
    const problem = "이 문장은 한 번에 붙여 넣으면 너무 빠릅니다";
    const { page: a } = await soloGuildGame("빠른", problem);
    const answer = a.getByRole("textbox", { name: "답 입력" });
    await answer.fill(problem);
    await answer.press("Enter");
    await a.getByRole("alert").getByText("비정상적으로 빠른 입력이 감지되어 결과가 인정되지 않았습니다.").waitFor();
    await answer.waitFor({ state: "detached" });
    expect(await a.getByText("완료!", { exact: false }).count()).toBe(0);
  });

  test("375 px: the guild pages have no horizontal scroll", async () => {
    const admin = await e2e.createUser(uniqueUser("폰"));
    const guild = await guildWith(admin);
    const page = await signedIn(admin, PHONE);
    // The guild list finds a guild by name.
    await page.goto(`${e2e.url}/guilds`);
    await page.getByRole("textbox", { name: "길드 이름 검색" }).fill(guild.name);
    await page.getByRole("button", { name: "검색" }).click();
    // The guild may already be on the unfiltered first page: wait for the search's answer to replace the list.
    await page.waitForFunction(() => document.querySelectorAll(".guild-list-item").length === 1);
    await page.locator(`.guild-list-item[data-guild-id="${guild.id}"]`).getByText(guild.name).waitFor();
    for (const path of [
      "/guilds",
      "/guilds/my",
      "/guilds/recruitment",
      `/guilds/${guild.id}/room`,
      `/guilds/${guild.id}/board`,
    ]) {
      await page.goto(`${e2e.url}${path}`);
      await page.locator(".guild-page").first().waitFor();
      await shot(page, `phone${path.replaceAll("/", "-")}`);
      expect({ path, width: await scrollWidth(page) }).toEqual({ path, width: PHONE.width });
    }
  });
});

async function openRoomRefused(page: Page, guildId: number) {
  await page.goto(`${e2e.url}/guilds/${guildId}/room`);
  await page.getByRole("heading", { name: "길드 회원만 이용할 수 있습니다." }).waitFor();
}
