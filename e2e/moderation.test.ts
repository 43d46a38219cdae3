/**
 * Moderation in the browser (issue 29): a reporter reports a chat line, a post and a player; an administrator works
 * the queue (mute, warning, suspension); the offender sees each consequence — the mute refuses their chat with its
 * end, the warning shows once, the suspension ends the session and the login page says why and until when.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { createRoom } from "../modules/rooms";
import { type E2E, imeType, signIn, startE2E, type TestUser } from "./helpers";

let e2e: E2E;
let reporter: TestUser;
let offender: TestUser;
let admin: TestUser;

beforeAll(async () => {
  e2e = await startE2E();
  reporter = await e2e.createUser({ username: "신고하는이" });
  offender = await e2e.createUser({ username: "말썽쟁이" });
  admin = await e2e.createUser({ username: "운영자" });
  await e2e.accounts().setAdmin(admin.id, true);
});
afterAll(() => e2e.stop());

const chatBox = (page: Page) => page.getByRole("textbox", { name: "메시지 입력" });

/** A chat line typed as a Korean IME delivers it (every syllable committed), sent with Enter. */
async function sayInRoom(page: Page, text: string) {
  await chatBox(page).click();
  await imeType(page, text);
  await chatBox(page).press("Enter");
}

/** Picks a reason, writes the note through the IME and sends the report; the dialog says it was received. */
async function report(page: Page, buttonName: string | RegExp, reason: string, note: string) {
  await page.getByRole("button", { name: buttonName }).first().click();
  const dialog = page.getByRole("dialog", { name: "신고하기" });
  await dialog.getByLabel(reason).check();
  await dialog.getByLabel("설명 (선택)").click();
  await imeType(page, note);
  await dialog.getByRole("button", { name: "신고", exact: true }).click();
  await dialog.getByText("신고가 접수되었습니다. 관리자가 확인합니다.").waitFor();
  await dialog.getByRole("button", { name: "닫기" }).click();
}

/** Acts on the open group whose card shows `text`. */
async function resolve(page: Page, text: string, action: string, duration?: string) {
  await page.goto(`${e2e.url}/admin/reports`);
  const card = page.locator(".report-group", { hasText: text }).first();
  await card.getByLabel("조치").selectOption({ label: action });
  if (duration) await card.getByLabel("기간").selectOption({ label: duration });
  await card.getByRole("button", { name: "처리", exact: true }).click();
  await page.getByText(`처리했습니다: ${action}`).waitFor();
}

describe("reports and the administrator's queue", () => {
  test("a reported line gets its author muted, a reported post a warning, a reported player a suspension", async () => {
    const room = await createRoom(e2e.server.ctx, { name: "신고 시험 방", theme: "beginner", maxUsers: 10 });
    const post = await e2e.server.api("POST", "/api/board/", {
      token: (
        await e2e.server.api("POST", "/api/users/login", {
          body: { email: offender.email, password: offender.password },
        })
      ).body.access_token,
      body: { title: "광고합니다", content: "싸게 팔아요" },
    });
    expect(post.status).toBe(201);
    const offenderPage = await e2e.newPage();
    const reporterPage = await e2e.newPage();
    const adminPage = await e2e.newPage();
    await signIn(offenderPage, e2e.url, offender);
    await signIn(reporterPage, e2e.url, reporter);
    await signIn(adminPage, e2e.url, admin);

    for (const page of [offenderPage, reporterPage]) {
      await page.goto(`${e2e.url}/rooms/${room.id}`);
      await chatBox(page).waitFor();
    }
    await sayInRoom(offenderPage, "바보 같은 소리");
    await reporterPage.getByText("바보 같은 소리").waitFor();
    // One's own line has no report button; the others see one.
    expect(await offenderPage.getByRole("button", { name: /님의 채팅: .* 신고$/ }).count()).toBe(0);
    await report(reporterPage, '말썽쟁이님의 채팅: "바보 같은 소리" 신고', "욕설/비방", "계속 그래요");

    // The dashboard counts it; the queue shows the line as evidence.
    await adminPage.goto(`${e2e.url}/admin/dashboard`);
    await adminPage.getByText("처리 전 1건").waitFor();
    await adminPage.getByRole("link", { name: /신고 처리/ }).click();
    const card = adminPage.locator(".report-group", { hasText: "방 채팅" }).first();
    await card.getByText("신고된 줄", { exact: true }).waitFor();
    await card.getByText("메모: 계속 그래요").waitFor();
    await resolve(adminPage, "방 채팅", "채팅·글쓰기 제한", "1시간");

    // The offender's page learns it at once; a line is refused with the end.
    await offenderPage
      .getByTestId("mute-banner")
      .getByText(/까지 채팅이 제한되었습니다\. \(사유: 욕설\/비방\)/)
      .waitFor();
    await sayInRoom(offenderPage, "또 말하기");
    await offenderPage.locator(".msg-error", { hasText: "까지 채팅이 제한되었습니다" }).waitFor();
    expect(await reporterPage.getByText("또 말하기").count()).toBe(0);

    // A post written before the mute, reported and answered with a warning shown at the next visit.
    await reporterPage.goto(`${e2e.url}/board/${post.body.id}`);
    await report(reporterPage, '말썽쟁이님의 글: "광고합니다" 신고', "도배", "광고");
    await adminPage.goto(`${e2e.url}/admin/reports`);
    const postCard = adminPage.locator(".report-group", { hasText: "자유게시판 글" }).first();
    await postCard.getByLabel("조치").selectOption({ label: "경고" });
    await postCard.getByLabel("경고 문구 (선택)").click();
    await imeType(adminPage, "광고 글은 올리지 마세요");
    await postCard.getByRole("button", { name: "처리", exact: true }).click();
    await adminPage.getByText("처리했습니다: 경고").waitFor();

    await offenderPage.reload();
    const warning = offenderPage.getByRole("alertdialog", { name: "관리자 경고" });
    await warning.getByText("광고 글은 올리지 마세요").waitFor();
    await warning.getByRole("button", { name: "확인" }).click();
    await warning.waitFor({ state: "detached" });

    // A player reported from the participants list is suspended: the session ends, the login says why.
    await reporterPage.goto(`${e2e.url}/rooms/${room.id}`);
    await report(reporterPage, "플레이어 말썽쟁이 신고", "부적절한 닉네임", "이름이 이상해요");
    await resolve(adminPage, "플레이어", "이용 정지", "7일");
    await offenderPage.getByText("관리자가 이용을 정지해 로그아웃되었습니다.", { exact: false }).waitFor();
    await offenderPage.goto(`${e2e.url}/login`);
    await offenderPage.getByLabel("이메일").fill(offender.email);
    await offenderPage.getByLabel("비밀번호", { exact: true }).fill(offender.password);
    await offenderPage.getByRole("button", { name: "로그인", exact: true }).click();
    await offenderPage
      .getByRole("alert")
      .getByText(/이용이 정지된 계정입니다\. 사유: 부적절한 닉네임\. .+까지 로그인할 수 없습니다\./)
      .waitFor();

    // Every action is in the admin log with its report.
    await adminPage.goto(`${e2e.url}/admin/logs`);
    for (const label of ["채팅·글쓰기 제한", "경고", "이용 정지"]) {
      const row = adminPage.locator("tr", { has: adminPage.locator(".admin-badge", { hasText: label }) }).first();
      await row.waitFor();
      expect(await row.textContent()).toMatch(/신고: \d+/);
    }
  }, 120_000);

  test("a member blocks another from the report dialog: their chat lines are hidden, also after a reload", async () => {
    const [me, other] = [
      await e2e.createUser({ username: "차단하는이" }),
      await e2e.createUser({ username: "시끄러운이" }),
    ];
    const room = await createRoom(e2e.server.ctx, { name: "차단 시험 방", theme: "beginner", maxUsers: 10 });
    const mine = await e2e.newPage();
    const theirs = await e2e.newPage();
    await signIn(mine, e2e.url, me);
    await signIn(theirs, e2e.url, other);
    for (const page of [mine, theirs]) {
      await page.goto(`${e2e.url}/rooms/${room.id}`);
      await chatBox(page).waitFor();
    }
    await sayInRoom(theirs, "첫 번째 말");
    await mine.getByText("첫 번째 말").waitFor();
    await mine.getByRole("button", { name: '시끄러운이님의 채팅: "첫 번째 말" 신고' }).click();
    const dialog = mine.getByRole("dialog", { name: "신고하기" });
    await dialog.getByRole("button", { name: "이 사용자 차단" }).click();
    await dialog.getByText("차단했습니다. 이 사용자의 채팅과 글이 보이지 않습니다.").waitFor();
    await dialog.getByRole("button", { name: "취소" }).click();
    await mine.getByText("첫 번째 말").waitFor({ state: "detached" });

    // Their next line reaches the room (they see it) but not this member; kept on the server, so after a reload too.
    for (const round of ["두 번째 말", "세 번째 말"]) {
      if (round === "세 번째 말") {
        const blocksRead = mine.waitForResponse((r) => r.url().endsWith("/api/moderation/me"));
        await mine.reload();
        await blocksRead;
        await chatBox(mine).waitFor();
        await mine.waitForFunction(() => document.querySelectorAll(".msg-system").length > 0);
      }
      await sayInRoom(theirs, round);
      await theirs.getByText(round).waitFor();
      await sayInRoom(mine, `${round} 뒤`);
      await mine.getByText(`${round} 뒤`).waitFor();
      expect(await mine.getByText(round, { exact: true }).count()).toBe(0);
    }
  }, 120_000);
});

describe("the profanity filter", () => {
  test("an administrator adds a word on the console; a player's lines typed through the IME reach the room masked", async () => {
    const [speaker, listener] = [
      await e2e.createUser({ username: "입버릇" }),
      await e2e.createUser({ username: "듣는사람" }),
    ];
    const room = await createRoom(e2e.server.ctx, { name: "금칙어 시험 방", theme: "beginner", maxUsers: 10 });
    const adminPage = await e2e.newPage();
    await signIn(adminPage, e2e.url, admin);
    await adminPage.goto(`${e2e.url}/admin/dashboard`);
    await adminPage.getByRole("link", { name: /금칙어 관리/ }).click();
    await adminPage.getByRole("heading", { name: /쓰이는 금칙어 \d+개/ }).waitFor();
    await adminPage.getByLabel("더할 단어").click();
    await imeType(adminPage, "멍청이");
    await adminPage.getByRole("button", { name: "더하기", exact: true }).click();
    await adminPage.getByText("단어를 추가했습니다. (멍청이)").waitFor();
    await adminPage.getByRole("button", { name: "멍청이 빼기" }).waitFor();

    const speakerPage = await e2e.newPage();
    const listenerPage = await e2e.newPage();
    await signIn(speakerPage, e2e.url, speaker);
    await signIn(listenerPage, e2e.url, listener);
    for (const page of [speakerPage, listenerPage]) {
      await page.goto(`${e2e.url}/rooms/${room.id}`);
      await chatBox(page).waitFor();
    }
    await sayInRoom(speakerPage, "아 시발 진짜");
    await listenerPage.getByText("아 *** 진짜", { exact: true }).waitFor();
    await sayInRoom(speakerPage, "이 멍청이야");
    await listenerPage.getByText("이 ***야", { exact: true }).waitFor();
    await speakerPage.getByText("이 ***야", { exact: true }).waitFor();
    for (const page of [listenerPage, speakerPage]) {
      expect(await page.getByText("시발", { exact: false }).count()).toBe(0);
      expect(await page.getByText("멍청이", { exact: false }).count()).toBe(0);
    }
  }, 120_000);
});
