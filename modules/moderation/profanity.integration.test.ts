import { describe, expect, test } from "bun:test";
import { openDuelClient } from "../duel/test-support";
import { chatHistory } from "../kernel/chat-history";
import { WATCHER_FRAME_MS } from "../kernel/game-host";
import { moderationTestServer, type TestClient } from "./test-support";

/**
 * The profanity filter end to end (README "Profanity filter"): real server, real database of the run's engine
 * (TEST_DATABASE=postgres), real sockets. Chat lines are masked in what is broadcast and kept; posts, comments,
 * usernames and guild names are refused in Korean; administrators edit the list and nobody else may.
 */
const { clock, state, open, member, roomWith, api } = moderationTestServer();
const admin = () => state.admin.token;
const POST_REFUSED = "부적절한 표현이 포함되어 있습니다.";

/** `from`'s line as `to` receives it in their room. */
async function heard(from: TestClient, to: TestClient, roomId: number, message: string) {
  clock.advance(1_000); // chat's own limit is 5 lines in 3 s
  from.emit("chat_message", { room_id: roomId, message });
  return to.next("chat:message", (line) => line.user_id !== null && line.message_type === "chat" && !line.is_system);
}

const addWord = (word: string) => api("POST", "/api/moderation/profanity", { token: admin(), body: { word } });
const removeWord = (word: string) =>
  api("DELETE", `/api/moderation/profanity/${encodeURIComponent(word)}`, { token: admin() });

describe("chat", () => {
  test("a room's line is masked in the broadcast and in the kept history; an innocent line is untouched", async () => {
    const [speaker, listener] = [await member("말꾼"), await member("듣는이")];
    const { room, sockets } = await roomWith(speaker, listener);
    const [s, l] = sockets;

    const line = await heard(s, l, room.id, "아 시 발 진짜 ㅅㅂ tlqkf");
    expect(line.message).toBe("아 *** 진짜 *** ***");
    const kept = await chatHistory(state.server.ctx).around(`room:${room.id}`, line.line_id, 0);
    expect(kept?.[0].message).toBe("아 *** 진짜 *** ***");

    expect((await heard(s, l, room.id, "시발점부터 다시 하자")).message).toBe("시발점부터 다시 하자");
  });

  test("a guild's line is masked in the broadcast and in the stored lines a newcomer gets", async () => {
    const owner = await member("길장");
    const created = await api("POST", "/api/guilds", { token: owner.token, body: { name: "깨끗한길드" } });
    expect(created.status).toBe(201);
    const guildId = created.body.id;
    const speaker = await open({ token: owner.token });
    speaker.emit("guild:join", { guild_id: guildId });
    await speaker.next("guild:joined");
    speaker.emit("guild:message", { guild_id: guildId, message: "병신 같은 판정" });
    expect((await speaker.next("guild:message")).message).toBe("*** 같은 판정");

    const later = await open({ token: owner.token });
    later.emit("guild:join", { guild_id: guildId });
    const joined = await later.next("guild:joined");
    expect(JSON.stringify(joined)).toContain("*** 같은 판정");
    expect(JSON.stringify(joined)).not.toContain("병신");
  });

  test("a duel watcher's line is masked for the other watchers", async () => {
    const players = [await member("결투"), await member("결투")];
    const [red, blue] = await Promise.all(players.map((p) => openDuelClient(state.server, { token: p.token })));
    for (const c of [red, blue]) await c.send("duel_enter_menu");
    await red.send("duel_find_match");
    await blue.send("duel_find_match");
    const [found] = await Promise.all([red.next("duel:match_found"), blue.next("duel:match_found")]);
    const watchers = [
      await openDuelClient(state.server, { client_id: `watch-${crypto.randomUUID()}` }),
      await openDuelClient(state.server, { token: (await member("관전")).token }),
    ];
    for (const watcher of watchers) {
      await watcher.send("duel_watch", { session_id: found.session_id });
      await watcher.next("duel:watch_state");
    }
    expect(await watchers[0].send("duel_watch_chat", { message: "개새끼 잘한다" })).toEqual({ success: true });
    clock.advance(WATCHER_FRAME_MS); // the watchers' next frame (kernel game-host README "Watchers")
    expect((await watchers[1].next("duel:watch_chat")).message).toBe("*** 잘한다");
    for (const c of [red, blue, ...watchers]) c.close();
  });
});

describe("posts and comments", () => {
  test("the free board refuses a title, a body, an edit and a comment holding a listed word", async () => {
    const writer = await member("글쓴이");
    const refusedPost = await api("POST", "/api/board", {
      token: writer.token,
      body: { title: "질문", content: "이 ㅂ ㅅ 같은 게임" },
    });
    expect(refusedPost.status).toBe(400);
    expect(refusedPost.body.detail).toBe(POST_REFUSED);
    const refusedTitle = await api("POST", "/api/board", {
      token: writer.token,
      body: { title: "ｔｌｑｋｆ", content: "내용" },
    });
    expect(refusedTitle.body.detail).toBe(POST_REFUSED);

    const post = await api("POST", "/api/board", {
      token: writer.token,
      body: { title: "시발점", content: "오후 세 시 발표가 있습니다." },
    });
    expect(post.status).toBe(201);
    const edit = await api("PUT", `/api/board/${post.body.id}`, {
      token: writer.token,
      body: { title: "시발점", content: "존나 중요" },
    });
    expect(edit.status).toBe(400);
    expect(edit.body.detail).toBe(POST_REFUSED);
    const comment = await api("POST", `/api/board/${post.body.id}/comments`, {
      token: writer.token,
      body: { content: "씨 1 발" },
    });
    expect(comment.body.detail).toBe(POST_REFUSED);
    expect((await api("GET", `/api/board/${post.body.id}`)).body.content).toBe("오후 세 시 발표가 있습니다.");
  });

  test("the guild board and recruitment refuse them too", async () => {
    const owner = await member("모집장");
    const guild = await api("POST", "/api/guilds", { token: owner.token, body: { name: "모집길드" } });
    const post = await api("POST", `/api/guilds/${guild.body.id}/board`, {
      token: owner.token,
      body: { title: "공지", content: "좆같은 서버" },
    });
    expect(post.status).toBe(400);
    expect(post.body.detail).toBe(POST_REFUSED);
    const clean = await api("POST", `/api/guilds/${guild.body.id}/board`, {
      token: owner.token,
      body: { title: "공지", content: "내일 모여요" },
    });
    expect(clean.status).toBe(201);
    const comment = await api("POST", `/api/guilds/${guild.body.id}/board/${clean.body.id}/comments`, {
      token: owner.token,
      body: { content: "미친놈" },
    });
    expect(comment.body.detail).toBe(POST_REFUSED);
    const recruitment = await api("POST", "/api/guilds/recruitment", {
      token: owner.token,
      body: { guild_id: guild.body.id, title: "병신들 모집", content: "오세요" },
    });
    expect(recruitment.status).toBe(400);
    expect(recruitment.body.detail).toBe(POST_REFUSED);
  });
});

describe("names", () => {
  test("registration, an administrator's rename and a new guild refuse a listed word in Korean", async () => {
    const registered = await api("POST", "/api/users/register", {
      body: { username: "tlqkf왕", email: "rude@example.com", password: "test-pass-2026" },
    });
    expect(registered.status).toBe(400);
    expect(registered.body.detail).toBe("사용할 수 없는 단어가 포함된 아이디입니다.");

    const someone = await member("이름");
    const renamed = await api("PUT", `/api/admin/users/${someone.id}/username`, {
      token: admin(),
      body: { new_username: "개새끼01" },
    });
    expect(renamed.status).toBe(400);
    expect(renamed.body.detail).toBe("사용할 수 없는 단어가 포함된 아이디입니다.");

    const guild = await api("POST", "/api/guilds", { token: someone.token, body: { name: "시 발 길드" } });
    expect(guild.status).toBe(400);
    expect(guild.body.detail).toBe("사용할 수 없는 단어가 포함된 길드 이름입니다.");
  });
});

describe("the list, edited by administrators", () => {
  test("an added word is masked at once and a removed one no longer is; each change is in the admin log", async () => {
    const [speaker, listener] = [await member("편집"), await member("편집")];
    const { room, sockets } = await roomWith(speaker, listener);
    const [s, l] = sockets;

    const added = await addWord("멍청이");
    expect(added.status).toBe(201);
    expect(added.body).toEqual({ detail: "단어를 추가했습니다.", word: "멍청이" });
    expect((await heard(s, l, room.id, "이 멍청이야")).message).toBe("이 ***야");
    const listed = await api("GET", "/api/moderation/profanity", { token: admin() });
    expect(listed.body.words).toContainEqual(
      expect.objectContaining({ word: "멍청이", source: "admin", by: "관리자" }),
    );
    expect(listed.body.words).toContainEqual({ word: "시발", source: "file", by: null, at: null });

    expect((await removeWord("멍청이")).status).toBe(200);
    expect((await heard(s, l, room.id, "이 멍청이야")).message).toBe("이 멍청이야");

    // A word of the data file: removed, it is listed as removed; added back, it is masked again.
    expect((await removeWord("존나")).body).toEqual({ detail: "단어를 뺐습니다.", word: "존나" });
    expect((await heard(s, l, room.id, "존나 좋아")).message).toBe("존나 좋아");
    const afterRemoval = await api("GET", "/api/moderation/profanity", { token: admin() });
    expect(afterRemoval.body.removed).toContainEqual(expect.objectContaining({ word: "존나", by: "관리자" }));
    expect((await addWord("존나")).status).toBe(201);
    expect((await heard(s, l, room.id, "존나 좋아")).message).toBe("*** 좋아");

    const logs = await api("GET", "/api/admin/logs?page_size=50", { token: admin() });
    const actions = logs.body.logs
      .filter((log: { action: string }) => log.action.startsWith("profanity_"))
      .map((log: { action: string; details: string }) => [log.action, JSON.parse(log.details).word]);
    expect(actions).toEqual([
      ["profanity_add", "존나"],
      ["profanity_remove", "존나"],
      ["profanity_remove", "멍청이"],
      ["profanity_add", "멍청이"],
    ]);
  });

  test("refuses a malformed word, a word listed already and a word not listed", async () => {
    const spaced = await addWord("바 보");
    expect(spaced.status).toBe(400);
    expect(spaced.body.detail).toBe("단어는 띄어쓰기 없이 한글·영문·숫자 1~20자로 입력해주세요.");
    expect((await addWord("시발")).status).toBe(409);
    expect((await addWord("시발")).body.detail).toBe("이미 목록에 있는 단어입니다.");
    const unknown = await removeWord("안녕");
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toBe("목록에 없는 단어입니다.");
  });

  test("a member gets 403 and a guest 401 on every route of the list", async () => {
    const someone = await member();
    for (const [method, path, body] of [
      ["GET", "/api/moderation/profanity", undefined],
      ["POST", "/api/moderation/profanity", { word: "바보" }],
      ["DELETE", `/api/moderation/profanity/${encodeURIComponent("시발")}`, undefined],
    ] as const) {
      const refused = await api(method, path, { token: someone.token, body });
      expect(refused.status).toBe(403);
      expect(refused.body.detail).toBe("관리자 권한이 필요합니다.");
      expect((await api(method, path, { body })).status).toBe(401);
    }
    expect((await heard(...(await twoInRoom()), "시발")).message).toBe("***");
  });
});

/** Two members' sockets in a fresh room, and its id (to check the list is as it was). */
async function twoInRoom(): Promise<[TestClient, TestClient, number]> {
  const { room, sockets } = await roomWith(await member(), await member());
  return [sockets[0], sockets[1], room.id];
}
