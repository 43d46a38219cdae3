import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestServer, type TestServer, type TestUser } from "../../apps/server/testing";
import { runCliOn } from "../../cli/testing";

// `madang reports …` as an operator runs it, in its own process on the running test server's database: what it does
// shows in the server's answers (README "CLI").
let server: TestServer;
let reporter: TestUser;
let offender: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  reporter = await server.createUser("cli신고자");
  offender = await server.createUser("cli말썽");
});
afterAll(() => server.stop());

const cli = (...args: string[]) => runCliOn(server.ctx.config, ...args);
const json = async (...args: string[]) => {
  const res = await cli(...args, "--json");
  expect(res.code, res.stderr).toBe(0);
  return JSON.parse(res.stdout);
};

/**
 * Asks until `check` holds (the server reads the mutes again every 2 s): at most 10 s, twice a second (each ask is
 * a write the write limits count).
 */
async function eventually(check: () => Promise<boolean>) {
  for (let i = 0; i < 20 && !(await check()); i++) await Bun.sleep(500);
  expect(await check()).toBe(true);
}

test("list, show and resolve a report; the mute reaches the server; refusals exit with Korean messages", async () => {
  const post = await server.api("POST", "/api/board/", {
    token: offender.token,
    body: { title: "광고글", content: "싸다" },
  });
  const report = await server.api("POST", "/api/reports", {
    token: reporter.token,
    body: { kind: "board_post", post_id: post.body.id, reason: "도배", note: "세 번째입니다" },
  });
  expect(report.status).toBe(201);

  const table = await cli("reports", "list");
  expect(table.code).toBe(0);
  expect(table.stdout).toContain("자유게시판 글");
  expect(table.stdout).toContain("cli말썽");
  const listed = await json("reports", "list", "--status", "open");
  expect(
    listed.groups.find((g: { target_key: string }) => g.target_key === `board_post:${post.body.id}`),
  ).toMatchObject({
    count: 1,
    offender: { id: offender.id },
  });

  const shown = await cli("reports", "show", String(report.body.id));
  expect(shown.stdout).toContain("제목: 광고글");
  expect(shown.stdout).toContain("메모: 세 번째입니다");

  const badAction = await cli("reports", "resolve", String(report.body.id), "--action", "ban");
  expect(badAction.code).toBe(2);
  expect(badAction.stderr).toContain("--action 값은 dismiss, delete, mute, suspend, exclude, warn 중 하나여야 합니다.");
  const unknown = await cli("reports", "resolve", "999999", "--action", "dismiss");
  expect(unknown.code).toBe(1);
  expect(unknown.stderr).toContain("신고를 찾을 수 없습니다.");

  const resolved = await json(
    "reports",
    "resolve",
    String(report.body.id),
    "--action",
    "mute",
    "--duration",
    "1h",
    "--as",
    "ops",
  );
  expect(resolved).toMatchObject({ status: "resolved", resolution: "mute", resolved_by: "cli:ops" });
  await eventually(async () => {
    const refused = await server.api("POST", "/api/board/", {
      token: offender.token,
      body: { title: "또", content: "글" },
    });
    return refused.status === 403 && refused.body.detail.includes("까지 글과 댓글을 쓸 수 없습니다.");
  });

  const [mute] = resolved.restrictions;
  const lifted = await cli("reports", "lift", String(mute.id));
  expect(lifted.code).toBe(0);
  expect(lifted.stdout).toContain("해제했습니다: ");
  await eventually(async () => {
    const path = `/api/board/${post.body.id}/comments`;
    const answer = await server.api("POST", path, { token: offender.token, body: { content: "다시 씁니다" } });
    return answer.status === 201;
  });
  const log = await server.api("GET", "/api/admin/logs?admin_username=cli:ops", {
    token: (await server.createUser("cli관리자", { admin: true })).token,
  });
  // The lift was by the OS user (no --as): only the mute is under cli:ops.
  expect(log.body.logs.map((l: { action: string }) => l.action)).toEqual(["mute_user"]);
});

test("profanity list, add and remove: the server follows, renames are checked, refusals exit with Korean messages", async () => {
  const writer = await server.createUser("cli글쓴이");
  // Posts and comments count toward their write limits (10 and 20 in 10 minutes): posts before, comments after.
  const post = (content: string) =>
    server.api("POST", "/api/board/", { token: writer.token, body: { title: "제목", content } });
  const clean = await post("먼저 쓴 글");
  const comment = (content: string) =>
    server.api("POST", `/api/board/${clean.body.id}/comments`, { token: writer.token, body: { content } });

  const added = await cli("profanity", "add", "멍텅구리", "--as", "ops");
  expect(added.code, added.stderr).toBe(0);
  expect(added.stdout).toContain("단어를 추가했습니다. (멍텅구리)");
  await eventually(async () => (await post("이 멍텅구리")).status === 400);
  expect((await post("이 멍텅구리")).body.detail).toBe("부적절한 표현이 포함되어 있습니다.");

  const listed = await json("profanity", "list");
  expect(listed.words).toContainEqual(expect.objectContaining({ word: "멍텅구리", source: "admin", by: "cli:ops" }));
  const table = await cli("profanity", "list");
  expect(table.stdout).toContain("관리자 추가");
  expect(table.stdout).toMatch(/금칙어 \d+개\./);

  // The CLI's own rename is checked against the list too (it boots no server).
  const renamed = await cli("users", "rename", String(writer.id), "멍텅구리왕");
  expect(renamed.code).toBe(2); // bad input (400)
  expect(renamed.stderr).toContain("사용할 수 없는 단어가 포함된 아이디입니다.");

  const badWord = await cli("profanity", "add", "멍 텅");
  expect(badWord.code).toBe(2);
  expect(badWord.stderr).toContain("단어는 띄어쓰기 없이 한글·영문·숫자 1~20자로 입력해주세요.");
  const unknown = await cli("profanity", "remove", "안녕하세요");
  expect(unknown.code).toBe(1);
  expect(unknown.stderr).toContain("목록에 없는 단어입니다.");

  expect(await json("profanity", "remove", "멍텅구리")).toMatchObject({ word: "멍텅구리" });
  await eventually(async () => (await comment("이 멍텅구리")).status === 201);
});
