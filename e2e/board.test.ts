/**
 * The free board in the browser (issue 4, spec part 2 §2, §8): list, write, detail with threaded comments, edit,
 * delete, the write page's login paths, and an anonymous visitor who reads but gets no forms.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { createAccessTokens } from "../modules/accounts/tokens";
import { boardApi } from "../modules/board";
import { type E2E, expectTitle, PHONE, scrollWidth, signIn, startE2E, storedItem, type TestUser } from "./helpers";

let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E();
});

afterAll(async () => {
  await e2e?.stop();
});

const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/;

async function tokenFor(user: TestUser) {
  return createAccessTokens(e2e.server.ctx.config.jwtSecret, Date.now).sign(user.id, "full");
}

/** A post written straight through the API (for list and pager tests). */
async function apiPost(user: TestUser, title: string, content = "내용입니다.") {
  const { status, body } = await e2e.server.api("POST", "/api/board/", {
    body: { title, content },
    token: await tokenFor(user),
  });
  if (status !== 201) throw new Error(`post failed: ${status} ${JSON.stringify(body)}`);
  return body as { id: number };
}

/** Accepts the next confirm/alert and returns its text. */
function nextDialog(page: Page, accept = true): Promise<string> {
  return new Promise((resolve) => {
    page.once("dialog", async (dialog) => {
      const text = dialog.message();
      if (accept) await dialog.accept();
      else await dialog.dismiss();
      resolve(text);
    });
  });
}

/** The comment (or reply) whose own text is `text`. */
const commentWith = (page: Page, text: string) =>
  page.locator("li.board-comment").filter({
    has: page.locator(":scope > .board-comment-body .board-comment-content", { hasText: text }),
  });

/** Moves the single-page app to `path` without a page load (as a link would). */
async function clientNavigate(page: Page, path: string) {
  await page.evaluate((to) => {
    history.pushState(history.state, "", to);
    dispatchEvent(new PopStateEvent("popstate", { state: history.state }));
  }, path);
}

describe("free board in the browser", () => {
  // First, while the board is still empty.
  test("empty board: the empty text with a link to write the first post; a failed load says so", async () => {
    const page = await e2e.newPage();
    await page.goto(`${e2e.url}/board`);
    await expectTitle(page, "자유게시판 | 타자마당");
    await page.getByRole("heading", { name: "자유게시판" }).waitFor();
    await page.getByText("아직 게시글이 없습니다.").waitFor();
    expect(await page.getByRole("link", { name: "첫 게시글을 작성해보세요" }).getAttribute("href")).toBe(
      "/board/write",
    );
    expect(await page.getByRole("link", { name: "글쓰기", exact: true }).count()).toBe(0);

    const isList = (url: URL) => url.pathname === "/api/board/";
    await page.route(isList, (route) => route.abort());
    await page.reload();
    await page.getByText("게시글을 불러오는데 실패했습니다.").waitFor();
    await page.unroute(isList);
    await page.getByRole("button", { name: "다시 시도" }).click();
    await page.getByText("아직 게시글이 없습니다.").waitFor();
  });

  test("write, comment, reply, edit and delete a comment; an anonymous visitor only reads", async () => {
    const author = await e2e.createUser();
    const commenter = await e2e.createUser();
    const title = `<img src=x onerror="window.__xss=1">첫 글 <b>굵게</b>`;
    const content = "첫 줄\n<script>window.__xss=2</script>\n\n  들여쓴 넷째 줄";

    // The author writes a post; the client checks come first.
    const authorPage = await e2e.newPage();
    await signIn(authorPage, e2e.url, author);
    await authorPage.goto(`${e2e.url}/board`);
    await authorPage.getByRole("link", { name: "글쓰기", exact: true }).click();
    await authorPage.waitForURL(`${e2e.url}/board/write`);
    await expectTitle(authorPage, "글쓰기 | 타자마당");
    await authorPage.getByLabel("제목").fill("   ");
    await authorPage.getByRole("button", { name: "등록" }).click();
    await authorPage.getByText("제목을 입력해주세요.").waitFor();
    await authorPage.getByText("내용을 입력해주세요.").waitFor();
    await authorPage.getByLabel("제목").fill("가".repeat(256));
    await authorPage.getByRole("button", { name: "등록" }).click();
    await authorPage.getByText("제목은 255자 이내로 작성해주세요.").waitFor();

    await authorPage.getByLabel("제목").fill(title);
    await authorPage.getByLabel("내용").fill(content);
    await authorPage.getByRole("button", { name: "등록" }).click();
    await authorPage.waitForURL(/\/board\/\d+$/);
    const postId = Number(new URL(authorPage.url()).pathname.split("/").pop());
    const postPath = `/board/${postId}`;

    // Text is text: the title and content are shown literally and nothing ran.
    await authorPage.getByRole("heading", { level: 1 }).getByText(title, { exact: true }).waitFor();
    await expectTitle(authorPage, `${title} | 타자마당`);
    const body = authorPage.locator(".board-post-content");
    expect(await body.textContent()).toBe(content.trim());
    expect(await body.evaluate((el) => getComputedStyle(el).whiteSpace)).toBe("pre-wrap");
    expect(await authorPage.locator(".board-post img, .board-post script, .board-post b").count()).toBe(0);
    expect(await authorPage.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
    // One view for the visit, shown after the post is reloaded.
    await authorPage.getByText("조회 1", { exact: true }).waitFor();
    expect(await authorPage.locator(".board-post-meta time").textContent()).toMatch(DATE_TIME);
    await authorPage.getByRole("link", { name: "수정" }).waitFor();
    await authorPage.getByRole("button", { name: "삭제" }).waitFor();

    // Another user comments; the post's own buttons are not theirs.
    const commenterPage = await e2e.newPage();
    await signIn(commenterPage, e2e.url, commenter);
    await commenterPage.goto(`${e2e.url}${postPath}`);
    await commenterPage.getByRole("heading", { level: 1 }).waitFor();
    await commenterPage.getByText("조회 2", { exact: true }).waitFor();
    expect(await commenterPage.locator(".board-post-actions").count()).toBe(0);
    const commentBox = commenterPage.getByRole("textbox", { name: "댓글 작성" });
    const commentButton = commenterPage.getByRole("button", { name: "댓글 작성" });
    expect(await commentButton.isDisabled()).toBe(true);
    await commentBox.fill("  \n  ");
    expect(await commentButton.isDisabled()).toBe(true);
    await commentBox.fill("좋은 글이네요!\n잘 읽었습니다.");
    await commentButton.click();
    const first = commentWith(commenterPage, "좋은 글이네요!");
    await first.waitFor();
    expect(await commentBox.inputValue()).toBe("");
    expect(await first.locator(".board-comment-meta time").first().textContent()).toMatch(DATE_TIME);
    await commenterPage.getByRole("heading", { name: "댓글 1" }).waitFor();

    // The author replies to it (replies go one level deep: a reply has no reply button).
    await authorPage.reload();
    const theirComment = commentWith(authorPage, "좋은 글이네요!");
    await theirComment.waitFor();
    expect(await theirComment.getByRole("button", { name: "수정" }).count()).toBe(0);
    await theirComment.getByRole("button", { name: "답글", exact: true }).click();
    const replyBox = authorPage.getByRole("textbox", { name: "답글 작성" });
    await replyBox.fill("고마워요 :)");
    await authorPage.getByRole("button", { name: "답글 작성" }).click();
    const reply = theirComment.locator(".board-reply-list > li.board-reply");
    await reply.getByText("고마워요 :)").waitFor();
    expect(await replyBox.count()).toBe(0);
    expect(await reply.getByRole("button", { name: "답글" }).count()).toBe(0);

    // The author's own comment: edit mode, save, then delete after the confirmation.
    await authorPage.getByRole("textbox", { name: "댓글 작성" }).fill("곧 고칠 댓글");
    await authorPage.getByRole("button", { name: "댓글 작성" }).click();
    // Found by its text, then held by its id: in edit mode the text is inside the edit box.
    const ownId = await commentWith(authorPage, "곧 고칠 댓글").getAttribute("data-comment-id");
    const own = authorPage.locator(`li[data-comment-id="${ownId}"]`);
    await own.getByRole("button", { name: "수정" }).click();
    const editBox = own.getByRole("textbox", { name: "댓글 수정" });
    expect(await editBox.inputValue()).toBe("곧 고칠 댓글");
    await editBox.fill(" ");
    expect(await own.getByRole("button", { name: "저장" }).isDisabled()).toBe(true);
    await editBox.fill("고친 댓글");
    await own.getByRole("button", { name: "저장" }).click();
    const edited = commentWith(authorPage, "고친 댓글");
    await edited.waitFor();
    expect(await edited.getByRole("textbox").count()).toBe(0);
    await authorPage.getByRole("heading", { name: "댓글 3" }).waitFor();

    let confirm = nextDialog(authorPage, false);
    await edited.getByRole("button", { name: "삭제" }).click();
    expect(await confirm).toBe("이 댓글을 삭제하시겠습니까?");
    expect(await edited.count()).toBe(1);
    confirm = nextDialog(authorPage);
    await edited.getByRole("button", { name: "삭제" }).click();
    expect(await confirm).toBe("이 댓글을 삭제하시겠습니까?");
    await authorPage.getByRole("heading", { name: "댓글 2" }).waitFor();
    expect(await commentWith(authorPage, "고친 댓글").count()).toBe(0);

    // The commenter deletes the comment that has a reply: it stays as 삭제된 댓글입니다. with the reply.
    await commenterPage.reload();
    const mine = commentWith(commenterPage, "좋은 글이네요!");
    confirm = nextDialog(commenterPage);
    await mine.getByRole("button", { name: "삭제" }).click();
    expect(await confirm).toBe("이 댓글을 삭제하시겠습니까?");
    const tombstone = commentWith(commenterPage, "삭제된 댓글입니다.");
    await tombstone.waitFor();
    await tombstone.getByText("고마워요 :)").waitFor();
    expect(await tombstone.locator(":scope > .board-comment-body button").count()).toBe(0);

    // An anonymous visitor reads the list and the thread but gets no write button and no forms.
    const visitor = await e2e.newPage();
    await visitor.goto(`${e2e.url}/board`);
    const row = visitor.locator("tr.board-row").filter({ hasText: "첫 글" });
    await row.waitFor();
    expect(await row.locator(".board-row-title").textContent()).toBe(title);
    expect(await row.locator(".board-badge").textContent()).toBe("댓글 1개");
    expect(await row.locator(".col-author").textContent()).toBe(author.username);
    expect(await row.locator(".col-date").textContent()).toMatch(DATE_TIME);
    expect(await visitor.getByRole("link", { name: "글쓰기", exact: true }).count()).toBe(0);
    await row.getByRole("link").click();
    await visitor.waitForURL(`${e2e.url}${postPath}`);
    await visitor.getByText("고마워요 :)").waitFor();
    await visitor.getByText("삭제된 댓글입니다.").waitFor();
    expect(await visitor.locator(".board-post-content").textContent()).toBe(content.trim());
    expect(await visitor.locator("textarea, form.board-comment-form").count()).toBe(0);
    expect(await visitor.getByRole("button", { name: /답글|수정|삭제/ }).count()).toBe(0);
    expect(await visitor.getByRole("link", { name: "수정" }).count()).toBe(0);
    expect(await visitor.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
  });

  test("the author edits the post; someone else opening the edit page is sent to the post", async () => {
    const author = await e2e.createUser();
    const other = await e2e.createUser();
    const { id } = await apiPost(author, "수정 전 제목", "수정 전 내용");

    const page = await e2e.newPage();
    await signIn(page, e2e.url, author);
    await page.goto(`${e2e.url}/board/${id}`);
    await page.getByRole("link", { name: "수정" }).click();
    await page.waitForURL(`${e2e.url}/board/edit/${id}`);
    await expectTitle(page, "글 수정 | 타자마당");
    expect(await page.getByLabel("제목").inputValue()).toBe("수정 전 제목");
    expect(await page.getByLabel("내용").inputValue()).toBe("수정 전 내용");
    await page.getByLabel("내용").fill("");
    await page.getByRole("button", { name: "수정 완료" }).click();
    await page.getByText("내용을 입력해주세요.").waitFor();
    await page.getByLabel("제목").fill("수정한 제목");
    await page.getByLabel("내용").fill("수정한 내용\n둘째 줄");
    await page.getByRole("button", { name: "수정 완료" }).click();
    await page.waitForURL(`${e2e.url}/board/${id}`);
    await page.getByRole("heading", { name: "수정한 제목" }).waitFor();
    expect(await page.locator(".board-post-content").textContent()).toBe("수정한 내용\n둘째 줄");

    const otherPage = await e2e.newPage();
    await signIn(otherPage, e2e.url, other);
    await otherPage.goto(`${e2e.url}/board/edit/${id}`);
    await otherPage.waitForURL(`${e2e.url}/board/${id}`);
    await otherPage.getByRole("heading", { name: "수정한 제목" }).waitFor();

    const anonymous = await e2e.newPage();
    await anonymous.goto(`${e2e.url}/board/edit/${id}`);
    await anonymous.waitForURL(`${e2e.url}/board/${id}`);
  });

  test("the author deletes the post after the confirmation; the post is then not found", async () => {
    const author = await e2e.createUser();
    const { id } = await apiPost(author, "지워질 글");
    const page = await e2e.newPage();
    await signIn(page, e2e.url, author);
    await page.goto(`${e2e.url}/board/${id}`);

    let dialog = nextDialog(page, false);
    await page.getByRole("button", { name: "삭제" }).click();
    expect(await dialog).toBe("이 게시글을 삭제하시겠습니까?");
    expect(new URL(page.url()).pathname).toBe(`/board/${id}`);

    dialog = nextDialog(page);
    await page.getByRole("button", { name: "삭제" }).click();
    expect(await dialog).toBe("이 게시글을 삭제하시겠습니까?");
    await page.waitForURL(`${e2e.url}/board`);

    await page.goto(`${e2e.url}/board/${id}`);
    await page.getByRole("heading", { name: "게시글을 찾을 수 없습니다." }).waitFor();
    await page.getByRole("link", { name: "목록으로 돌아가기" }).click();
    await page.waitForURL(`${e2e.url}/board`);
    await page.goto(`${e2e.url}/board/not-a-number`);
    await page.getByRole("heading", { name: "게시글을 찾을 수 없습니다." }).waitFor();
  });

  test("a failed post delete shows the alert", async () => {
    const author = await e2e.createUser();
    const { id } = await apiPost(author, "지우기 실패");
    const page = await e2e.newPage();
    await signIn(page, e2e.url, author);
    await page.goto(`${e2e.url}/board/${id}`);
    await page.getByRole("button", { name: "삭제" }).waitFor();
    await page.route(`**/api/board/${id}`, (route) =>
      route.request().method() === "DELETE" ? route.fulfill({ status: 500, body: "{}" }) : route.fallback(),
    );
    const confirm = nextDialog(page);
    const alert = new Promise<string>((resolve) =>
      confirm.then(() => page.once("dialog", (d) => void d.accept().then(() => resolve(d.message())))),
    );
    await page.getByRole("button", { name: "삭제" }).click();
    expect(await alert).toStartWith("게시글 삭제에 실패했습니다.");
    expect(new URL(page.url()).pathname).toBe(`/board/${id}`);
  });

  test("write page: no token → login with the write text; a stored token is tried first", async () => {
    const page = await e2e.newPage();
    await page.goto(`${e2e.url}/board/write`);
    await page.waitForURL(`${e2e.url}/login`);
    await page.getByText("글을 작성하려면 로그인이 필요합니다.").waitFor();

    // A token stored after the app started (another tab logged in): the user is reloaded and the form shown.
    const user = await e2e.createUser();
    await page.goto(`${e2e.url}/board`);
    await page.getByRole("heading", { name: "자유게시판" }).waitFor();
    const token = await tokenFor(user);
    await page.evaluate((t) => localStorage.setItem("token", t), token);
    await clientNavigate(page, "/board/write");
    await page.getByLabel("제목").waitFor();
    await page.getByRole("link", { name: user.username }).waitFor();

    // A stored token that no longer works: login with the expired-session text, tokens gone.
    const other = await e2e.newPage();
    await other.goto(`${e2e.url}/board`);
    await other.getByRole("heading", { name: "자유게시판" }).waitFor();
    await other.evaluate(() => localStorage.setItem("token", "expired-or-bogus"));
    await clientNavigate(other, "/board/write");
    await other.waitForURL(`${e2e.url}/login`);
    await other.getByText("세션이 만료되었거나 로그인이 필요합니다. 다시 로그인해주세요.").waitFor();
    expect(await storedItem(other, "token")).toBeNull();
  });

  test("post create answered 401: the spec's text, and the stored token is removed", async () => {
    const user = await e2e.createUser();
    const page = await e2e.newPage();
    await signIn(page, e2e.url, user);
    await page.goto(`${e2e.url}/board/write`);
    await page.getByLabel("제목").fill("보내지 못할 글");
    await page.getByLabel("내용").fill("내용");
    await page.evaluate(() => {
      localStorage.setItem("token", "revoked");
      localStorage.removeItem("refresh_token");
    });
    await page.getByRole("button", { name: "등록" }).click();
    await page.getByText("인증에 실패했습니다. 로그아웃 후 다시 로그인해주세요.").waitFor();
    expect(new URL(page.url()).pathname).toBe("/board/write");
    expect(await storedItem(page, "token")).toBeNull();
    await page.getByRole("link", { name: "로그인", exact: true }).first().waitFor();

    // Any other failure has its own text.
    const again = await e2e.newPage();
    await signIn(again, e2e.url, user);
    await again.goto(`${e2e.url}/board/write`);
    await again.route("**/api/board/", (route) =>
      route.request().method() === "POST" ? route.fulfill({ status: 500, body: "{}" }) : route.fallback(),
    );
    await again.getByLabel("제목").fill("서버 오류");
    await again.getByLabel("내용").fill("내용");
    await again.getByRole("button", { name: "등록" }).click();
    await again.getByText("게시글 작성에 실패했습니다. 다시 시도해주세요.").waitFor();
  });

  test("pages of 10 with a window of 5, kept in the address; search by words and by author", async () => {
    const writer = await e2e.createUser({ username: `pager${Date.now().toString(36).slice(-5)}` });
    // 64 posts by one member: more than the HTTP write limit lets one member post (10 in 10 minutes), so they are
    // written through the board's service, as the route would.
    const board = boardApi(e2e.server.ctx).service;
    const author = { id: writer.id, isAdmin: false };
    for (let i = 1; i <= 64; i++) {
      await board.create(author, { title: `페이지 시험 글 ${i}`, content: i === 7 ? "고양이 이야기" : "내용" });
    }

    const page = await e2e.newPage();
    await page.goto(`${e2e.url}/board`);
    await page.locator("tr.board-row").first().waitFor();
    expect(await page.locator("tr.board-row").count()).toBe(10);
    const pager = page.getByRole("navigation", { name: "게시판 페이지" });
    const numbers = async () => (await pager.locator("a").allTextContents()).filter((t) => /^\d+$/.test(t));
    expect(await numbers()).toEqual(["1", "2", "3", "4", "5"]);

    await pager.getByRole("link", { name: "5 페이지" }).click();
    await page.waitForURL(/page=5/);
    expect(await numbers()).toEqual(["3", "4", "5", "6", "7"]);
    expect(await pager.locator("[aria-current=page]").textContent()).toBe("5");
    await pager.getByRole("link", { name: "다음 페이지" }).click();
    await page.waitForURL(/page=6/);
    await page.reload();
    expect(await pager.locator("[aria-current=page]").textContent()).toBe("6");

    await page.getByRole("searchbox", { name: "검색어" }).fill("고양이");
    await page.getByRole("button", { name: "검색" }).click();
    await page.waitForURL(/q=/);
    await page.getByText("검색 결과 1건").waitFor();
    await page.locator("tr.board-row").filter({ hasText: "페이지 시험 글 7" }).waitFor();
    expect(await page.locator("tr.board-row").count()).toBe(1);
    expect(new URL(page.url()).searchParams.get("page")).toBeNull();

    await page.getByLabel("검색 대상").selectOption("author");
    await page.getByRole("searchbox", { name: "검색어" }).fill(writer.username);
    await page.getByRole("button", { name: "검색" }).click();
    await page.waitForURL(/author=/);
    await page.getByText("검색 결과 64건").waitFor();
    expect(new URL(page.url()).searchParams.get("q")).toBeNull();

    await page.getByRole("searchbox", { name: "검색어" }).fill("아무도없는이름");
    await page.getByRole("button", { name: "검색" }).click();
    await page.getByText("검색 결과가 없습니다.").waitFor();
  });

  test("a failed comment write shows its alert; a comment load failure shows its text", async () => {
    const user = await e2e.createUser();
    const { id } = await apiPost(user, "댓글 실패 시험");
    const page = await e2e.newPage();
    await signIn(page, e2e.url, user);
    await page.route(`**/api/board/${id}/comments`, (route) =>
      route.request().method() === "POST" ? route.fulfill({ status: 500, body: "{}" }) : route.fallback(),
    );
    await page.goto(`${e2e.url}/board/${id}`);
    await page.getByRole("textbox", { name: "댓글 작성" }).fill("실패할 댓글");
    const alert = nextDialog(page);
    await page.getByRole("button", { name: "댓글 작성" }).click();
    expect(await alert).toStartWith("댓글 작성에 실패했습니다.");
    expect(await page.getByRole("textbox", { name: "댓글 작성" }).inputValue()).toBe("실패할 댓글");

    await page.route(`**/api/board/${id}/comments`, (route) => route.abort());
    await page.reload();
    await page.getByText("댓글을 불러오는데 실패했습니다.").waitFor();

    await page.route(`**/api/board/${id}`, (route) => route.abort());
    await page.reload();
    await page.getByRole("heading", { name: "게시글을 불러오는데 실패했습니다." }).waitFor();
    await page.getByRole("link", { name: "목록으로 돌아가기" }).waitFor();
  });

  test("one view request per visit, and the post is read again after it", async () => {
    const user = await e2e.createUser();
    const { id } = await apiPost(user, "조회수 시험");
    const page = await e2e.newPage();
    const calls: string[] = [];
    page.on("request", (request) => {
      const path = new URL(request.url()).pathname;
      if (path.startsWith(`/api/board/${id}`)) calls.push(`${request.method()} ${path}`);
    });
    await page.goto(`${e2e.url}/board/${id}`);
    await page.getByText("조회 1", { exact: true }).waitFor();
    await page.waitForLoadState("networkidle");
    const posts = calls.filter((c) => c === `GET /api/board/${id}`);
    expect(calls.filter((c) => c === `POST /api/board/${id}/view`)).toHaveLength(1);
    expect(posts).toHaveLength(2);
    expect(calls.indexOf(`POST /api/board/${id}/view`)).toBeLessThan(calls.lastIndexOf(`GET /api/board/${id}`));
  });

  test("phone width: list and post fit 375 px without sideways scrolling", async () => {
    const user = await e2e.createUser({ username: `긴이름사용자${Date.now().toString(36).slice(-4)}` });
    const long = "아주긴단어".repeat(40);
    const { id } = await apiPost(user, `모바일 ${long}`, `${long}\nhttps://example.com/${"a".repeat(200)}`);
    const page = await e2e.newPage(PHONE);
    await signIn(page, e2e.url, user);
    await page.goto(`${e2e.url}/board`);
    await page.locator("tr.board-row").first().waitFor();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(PHONE.width);

    await page.goto(`${e2e.url}/board/${id}`);
    await page.getByRole("textbox", { name: "댓글 작성" }).fill(`댓글 ${long}`);
    await page.getByRole("button", { name: "댓글 작성" }).click();
    await commentWith(page, "댓글").getByRole("button", { name: "답글", exact: true }).click();
    await page.getByRole("textbox", { name: "답글 작성" }).fill(`답글 ${long}`);
    await page.getByRole("button", { name: "답글 작성" }).click();
    await page.locator(".board-reply").waitFor();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(PHONE.width);

    await page.goto(`${e2e.url}/board/write`);
    await page.getByLabel("제목").waitFor();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(PHONE.width);
  });
});
