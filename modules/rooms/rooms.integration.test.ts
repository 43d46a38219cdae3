import { describe, expect, test } from "bun:test";
import type { TestServer } from "../../apps/server/testing";
import { guestNickname } from "../accounts";
import { keystrokes, scoreTyping } from "../kernel/typing";
import { createRoom, DEFAULT_ROOMS_SETTINGS, type GameFinishedEvent, importSentences } from ".";
import { roomsRuntime } from "./api";
import { computeRewards } from "./rewards";
import { importSentences as addSentencesElsewhere } from "./service";
import { type Client, closeAndWait, member, roomsTestServer } from "./test-support";

/**
 * Real server, real SQLite, real socket.io clients. The server runs on a FakeClock: the tests move game time
 * explicitly (no sleeping, no timing assertions), and the server-measured elapsed times are exact.
 */
let server: TestServer;
const { clock, open } = roomsTestServer((started) => {
  server = started;
});
let roomCounter = 0;

/** A fresh room per test so tests never see each other's players. */
async function newRoom(maxUsers = 20) {
  roomCounter++;
  return createRoom(server.ctx, { name: `시험 방 ${roomCounter}`, theme: "beginner", maxUsers });
}

async function join(client: Client, roomId: number | string, event = "join_room") {
  client.emit(event, { room_id: roomId });
  return client.next(event === "join_room" ? "room:joined" : "room:joined:anonymous");
}

const roomInfo = async (id: number) => (await server.api("GET", `/api/rooms/${id}`)).body;

/** Advances game time to the sentence being out; every client sees the in_progress state. */
async function runToSentence(players: Client[]) {
  clock.advance(5_000);
  for (const p of players) await p.next("game:state", (s) => s.status === "countdown");
  clock.advance(1_000);
  clock.advance(1_000);
  clock.advance(1_000);
  const states = await Promise.all(players.map((p) => p.next("game:state", (s) => s.status === "in_progress")));
  return states[0];
}

describe("a whole game: two members and a guest", () => {
  test("join, countdown, sentence, three submissions, ordered results, rewards stored and announced", async () => {
    const room = await newRoom();
    const alice = await member(server, "앨리스");
    const bob = await member(server, "밥");
    const finished: GameFinishedEvent[] = [];
    const unsubscribe = server.ctx.events.on("rooms.game_finished", (e) => finished.push(e));

    const a = await open({ token: alice.token, client_id: "alice-client-0001" });
    const b = await open({ token: bob.token, client_id: "bob-client-00001" });
    const g = await open({ client_id: "guest-client-0001" });

    const joinedA = await join(a, room.id);
    expect(joinedA).toMatchObject({
      room_id: room.id,
      user: { id: alice.id, username: alice.username, level: 1 },
      room: { id: room.id, user_count: 1, total_participants: 1 },
      game_state: { room_id: room.id, status: "waiting", sentence: null },
    });
    expect(joinedA.game_state.next_game_at).toBe(new Date(clock.now() + 5000).toISOString());

    const joinedB = await join(b, String(room.id)); // a numeric string, as from a route parameter
    expect(joinedB.user).toMatchObject({ id: bob.id });
    expect(await a.next("room:user_joined", (j) => j.user.id === bob.id)).toMatchObject({
      room_id: room.id,
      user: { id: bob.id },
      user_count: 2,
    });

    g.emit("join_anonymous", { room_id: room.id, nickname: "사칭하는손님" });
    const joinedG = await g.next("room:joined:anonymous");
    expect(joinedG.nickname).toBe(guestNickname("guest-client-0001"));
    expect(joinedG.session_id).toMatch(/^g_[0-9a-f]{12}$/);
    const guestJoined = await a.next("room:anonymous_joined");
    expect(guestJoined).toMatchObject({ nickname: joinedG.nickname, session_id: joinedG.session_id });
    expect(guestJoined).not.toHaveProperty("client_id");
    const update = await a.next("room:users_update", (u) => u.total_participants === 3);
    expect(update).toMatchObject({ user_count: 2, anonymous_count: 1 });
    expect(update.anonymous_users[0]).toMatchObject({ session_id: joinedG.session_id, nickname: joinedG.nickname });

    const info = await roomInfo(room.id);
    expect(info).toMatchObject({ user_count: 2, anonymous_count: 1, total_participants: 3, game_status: "waiting" });
    expect(info.users.map((u: { id: number }) => u.id).sort()).toEqual([alice.id, bob.id].sort());

    // Countdown 3-2-1, then the sentence.
    clock.advance(5_000);
    expect(await g.next("game:countdown_message")).toMatchObject({ room_id: room.id, seconds: 3 });
    expect(await g.next("game:countdown_number")).toMatchObject({ number: 3 });
    clock.advance(1_000);
    expect(await g.next("game:countdown_number")).toMatchObject({ number: 2 });
    clock.advance(1_000);
    expect(await g.next("game:countdown_number")).toMatchObject({ number: 1 });
    const startedAt = clock.now() + 1000;
    clock.advance(1_000);
    const state = await a.next("game:state", (s) => s.status === "in_progress");
    expect(state.started_at).toBe(new Date(startedAt).toISOString());
    const sentence: { id: number; text: string } = state.sentence;
    expect(sentence.text.length).toBeGreaterThan(1);
    expect(state.game_duration).toBeGreaterThanOrEqual(10);
    const problem = await b.next("chat:message", (m) => m.message_type === "problem");
    expect(problem).toMatchObject({ message: sentence.text, sentence_id: sentence.id, is_system: true });

    // Bob first (exact), the guest second through chat with is_game_answer, Alice last with one typo.
    const seconds = Math.max(2, Math.ceil(keystrokes(sentence.text) / 10)); // about 600 타/분: plausible
    clock.advance(seconds * 1000);
    b.emit("game:submission", { room_id: room.id, sentence_id: sentence.id, typed_text: sentence.text });
    const feedbackB = await b.next("game:personal_feedback");
    const expectedB = scoreTyping(sentence.text, sentence.text, seconds);
    expect(feedbackB).toMatchObject({
      room_id: room.id,
      position: 1,
      wpm: expectedB.wpm,
      accuracy: 100,
      error_count: 0,
      completion_time: seconds,
      session_id: `u_${bob.id}`,
    });
    expect(await g.next("game:submission_complete")).toMatchObject({ username: bob.username, position: 1 });

    g.emit("chat_message", { room_id: room.id, message: sentence.text, is_game_answer: true });
    expect(await g.next("game:personal_feedback")).toMatchObject({ position: 2, session_id: joinedG.session_id });

    clock.advance(1000);
    const typo = `${sentence.text.slice(0, -1)}`;
    a.emit("game:submission", { room_id: room.id, sentence_id: sentence.id, typed_text: typo, elapsed_time: seconds });
    const feedbackA = await a.next("game:personal_feedback");
    // The server's time, whatever the client says (product-rules "Live race and replays").
    const expectedA = scoreTyping(typo, sentence.text, seconds + 1);
    expect(feedbackA).toMatchObject({ wpm: expectedA.wpm, accuracy: expectedA.accuracy, error_count: 1 });
    const longEnough = [...typo].length * 100 >= [...sentence.text].length * 90;
    expect(feedbackA.position).toBe(expectedA.accuracy >= 80 && longEnough ? 3 : null);

    // Everyone submitted: the game ends at once.
    expect(await g.next("game:state", (s) => s.status === "finished")).toMatchObject({ sentence });
    const results = await g.next("game:results");
    expect(results.results.map((r: { username: string }) => r.username)).toEqual([
      bob.username,
      joinedG.nickname,
      alice.username,
    ]);
    expect(results.results[0]).toMatchObject({ position: 1, is_anonymous: false, win_streak: 1, accuracy: 100 });
    expect(results.results[1]).toMatchObject({ position: 2, is_anonymous: true, win_streak: 0, rewards: null });
    expect(results.results[2]).toMatchObject({ is_anonymous: false, win_streak: 0 });

    // Rewards: announced to each member, stored in their account.
    const rewardB = computeRewards({ wpm: expectedB.wpm, accuracy: 100, position: 1, participants: 3 });
    const statsB = await b.next("user:stats_update");
    expect(statsB).toMatchObject({
      user_id: bob.id,
      coins: 30,
      gold_medals: 1,
      win_streak: 1,
      games_played: 1,
      points: rewardB.points,
      rewards: { coins: 30, medal: "gold", experience: rewardB.experience },
    });
    expect(statsB).not.toHaveProperty("email");
    const statsA = await a.next("user:stats_update");
    expect(statsA).toMatchObject({ user_id: alice.id, games_played: 1, win_streak: 0 });
    expect(g.all("user:stats_update")).toEqual([]);

    const meB = (await server.api("GET", "/api/users/me", { token: bob.token })).body;
    expect(meB).toMatchObject({
      coins: 30,
      gold_medals: 1,
      win_streak: 1,
      games_played: 1,
      points: rewardB.points,
      avg_wpm: expectedB.wpm,
    });
    expect(meB.level * 1000 + meB.experience).toBe(statsB.level * 1000 + statsB.experience);
    const meA = (await server.api("GET", "/api/users/me", { token: alice.token })).body;
    expect(meA.coins).toBe(feedbackA.position === 3 ? 10 : 5);

    const records = await server.api("GET", `/api/games/results/user/${bob.id}?limit=200`, { token: bob.token });
    expect(records.status).toBe(200);
    expect(records.body).toHaveLength(1);
    expect(records.body[0]).toMatchObject({
      room_name: room.name,
      wpm: expectedB.wpm,
      accuracy: 100,
      completion_time: seconds,
      position: 1,
    });

    expect(finished).toHaveLength(1);
    expect(finished[0]).toMatchObject({ roomId: room.id, participants: 3, sentenceId: sentence.id });
    expect(finished[0].results.map((r) => r.userId)).toEqual([bob.id, null, alice.id]);
    unsubscribe();

    // Results shown ~5 s, then waiting again with the next game scheduled.
    clock.advance(5_000);
    const waiting = await a.next("game:state", (s) => s.status === "waiting");
    expect(waiting.next_game_at).toBe(new Date(clock.now() + 5000).toISOString());
  });
});

describe("submissions", () => {
  test("early and duplicate submissions answer error; the game ends when time runs out", async () => {
    const room = await newRoom();
    const u = await member(server);
    const a = await open({ token: u.token });
    await join(a, room.id);
    a.emit("game:submission", { room_id: room.id, sentence_id: 1, typed_text: "너무 이른 답" });
    expect((await a.next("error")).message).toStartWith("게임이 아직 시작되지 않았습니다");

    const state = await runToSentence([a]);
    clock.advance(3000);
    // Two thirds of the sentence: an answer (a line under 50 % accurate would be chat), too short for a place.
    const partial = [...state.sentence.text].slice(0, Math.ceil((state.sentence.text.length * 2) / 3)).join("");
    a.emit("game:submission", { room_id: room.id, sentence_id: state.sentence.id, typed_text: partial });
    await a.next("game:personal_feedback");
    // The game waits for nobody else, so it ended; a second try is late.
    a.emit("game:submission", { room_id: room.id, sentence_id: state.sentence.id, typed_text: "또" });
    expect((await a.next("error")).message).toStartWith("이미 종료된 게임입니다");
    const results = await a.next("game:results");
    expect(results.results[0]).toMatchObject({ position: null, rewards: { coins: 5, medal: null } });
  });

  test("a game nobody answers ends after game_duration with no results", async () => {
    const room = await newRoom();
    const g = await open({ client_id: "idle-guest-0001" });
    await join(g, room.id, "join_anonymous");
    const state = await runToSentence([g]);
    clock.advance(state.game_duration * 1000);
    await g.next("game:state", (s) => s.status === "finished");
    expect((await g.next("game:results")).results).toEqual([]);
  });

  test("an implausibly fast answer is rejected and does not count", async () => {
    const room = await newRoom();
    const g = await open({ client_id: "fast-guest-0001" });
    await join(g, room.id, "join_anonymous");
    const state = await runToSentence([g]);
    clock.advance(100);
    g.emit("game:submission", { room_id: room.id, sentence_id: state.sentence.id, typed_text: state.sentence.text });
    expect(await g.next("error")).toMatchObject({ code: "implausible", event: "game:submission" });
    await g.sync();
    expect(g.all("game:personal_feedback")).toEqual([]);
  });
});

describe("game integrity", () => {
  const PROVERB = "천 리 길도 한 걸음부터 시작한다"; // 18 characters
  let theme = 0;
  /** A room whose only sentence is PROVERB. */
  async function proverbRoom() {
    theme++;
    const room = await createRoom(server.ctx, { name: `속담 시험 방 ${theme}`, theme: `integrity${theme}` });
    await importSentences(server.ctx, `integrity${theme}`, [PROVERB]);
    return room;
  }
  const submission = (roomId: number, sentenceId: number, text: string) => ({
    room_id: roomId,
    sentence_id: sentenceId,
    typed_text: text,
  });

  test("the first 80 % of the sentence sent early gets a result but no position; the whole sentence wins", async () => {
    const room = await proverbRoom();
    const alice = await member(server, "앞부분");
    const bob = await member(server, "끝까지");
    const a = await open({ token: alice.token });
    const b = await open({ token: bob.token });
    await join(a, room.id);
    await join(b, room.id);
    const state = await runToSentence([a, b]);
    expect(state.sentence.text).toBe(PROVERB);

    clock.advance(3_000);
    const cutShort = [...PROVERB].slice(0, 15).join(""); // 83 % accurate, 83 % of the length
    a.emit("game:submission", submission(room.id, state.sentence.id, cutShort));
    expect(await a.next("game:personal_feedback")).toMatchObject({ position: null, accuracy: 83.33 });
    clock.advance(2_000);
    b.emit("game:submission", submission(room.id, state.sentence.id, PROVERB));
    expect(await b.next("game:personal_feedback")).toMatchObject({ position: 1, accuracy: 100 });

    const results = await a.next("game:results");
    expect(results.results.map((r: { username: string; position: number | null }) => [r.username, r.position])).toEqual(
      [
        [bob.username, 1],
        [alice.username, null],
      ],
    );
    expect(results.results[0].rewards).toMatchObject({ coins: 30, medal: "gold" });
    expect(results.results[1].rewards).toMatchObject({ coins: 5, medal: null });
  });

  test("a player alone gets the participation reward; the results show it", async () => {
    const room = await proverbRoom();
    const solo = await member(server, "혼자");
    const a = await open({ token: solo.token });
    await join(a, room.id);
    const state = await runToSentence([a]);
    clock.advance(5_000);
    a.emit("game:submission", submission(room.id, state.sentence.id, PROVERB));
    const feedback = await a.next("game:personal_feedback");
    const expected = computeRewards({ wpm: feedback.wpm, accuracy: 100, position: 1, participants: 1 });
    expect(expected).toMatchObject({ coins: 5, medal: null, won: false });

    const results = await a.next("game:results");
    expect(results).toMatchObject({ participants: 1 });
    expect(results.results[0]).toMatchObject({
      position: 1,
      win_streak: 0,
      rewards: { experience: expected.experience, coins: 5, points: expected.points, medal: null },
    });
    expect(await a.next("user:stats_update")).toMatchObject({ coins: 5, gold_medals: 0, win_streak: 0 });
    const me = (await server.api("GET", "/api/users/me", { token: solo.token })).body;
    expect(me).toMatchObject({ coins: 5, gold_medals: 0, win_streak: 0, games_played: 1 });
  });

  test("a chat line far from the sentence sent as the answer is posted as chat and keeps the attempt", async () => {
    const room = await proverbRoom();
    const u = await member(server, "수다");
    const a = await open({ token: u.token });
    const g = await open({ client_id: "chatty-guest-0001" });
    await join(a, room.id);
    await join(g, room.id, "join_anonymous");
    const state = await runToSentence([a, g]);

    clock.advance(100); // sooner than any real answer: as an attempt it would be refused as implausible
    a.emit("chat_message", { room_id: room.id, message: "ㅋㅋㅋ 어렵네요", is_game_answer: true });
    expect(await g.next("chat:message", (m) => m.message_type === "chat")).toMatchObject({
      username: u.username,
      message: "ㅋㅋㅋ 어렵네요",
    });
    await a.sync();
    expect(a.all("error")).toEqual([]);
    expect(a.all("game:personal_feedback")).toEqual([]);

    clock.advance(4_000);
    a.emit("game:submission", submission(room.id, state.sentence.id, PROVERB));
    expect(await a.next("game:personal_feedback")).toMatchObject({ position: 1, accuracy: 100 });
  });

  test("a chat line sent as game:submission is chat too: posted to the room, the attempt kept", async () => {
    const room = await proverbRoom();
    const u = await member(server, "채팅");
    const a = await open({ token: u.token });
    const g = await open({ client_id: "chatty-guest-0002" });
    await join(a, room.id);
    await join(g, room.id, "join_anonymous");
    const state = await runToSentence([a, g]);

    // A page that sends every line of the answer box as the answer: "ㅋㅋ 어렵다" is far below 50 % accurate.
    clock.advance(3_000);
    a.emit("game:submission", submission(room.id, state.sentence.id, "ㅋㅋ 어렵다"));
    expect(await g.next("chat:message", (m) => m.message_type === "chat")).toMatchObject({
      username: u.username,
      message: "ㅋㅋ 어렵다",
      is_system: false,
    });
    await a.sync();
    expect(a.all("error")).toEqual([]);
    expect(a.all("game:personal_feedback")).toEqual([]);
    expect(g.all("game:submission_complete")).toEqual([]);

    clock.advance(2_000);
    a.emit("game:submission", submission(room.id, state.sentence.id, PROVERB));
    expect(await a.next("game:personal_feedback")).toMatchObject({ position: 1, accuracy: 100 });
  });
});

describe("sentence pools", () => {
  test("sentences another process adds are played once the pool is stale: reloaded when the countdown starts", async () => {
    const theme = "pooltheme";
    const [first, second] = ["처음부터 있던 문장입니다.", "나중에 들어온 문장입니다."];
    await importSentences(server.ctx, theme, [first]);
    const room = await createRoom(server.ctx, { name: "문장 풀 시험 방", theme });
    const g = await open({ client_id: "pool-guest-00001" });
    await join(g, room.id, "join_anonymous");
    expect((await runToSentence([g])).sentence.text).toBe(first);
    g.emit("leave_room", { room_id: room.id });
    await g.next("room:left");

    // Another process (the CLI) adds a sentence to the theme: this server's rooms are not told.
    await addSentencesElsewhere(server.ctx.database, theme, [second], "cli");
    clock.advance(DEFAULT_ROOMS_SETTINGS.cacheMs); // the pool this server holds is stale now
    await join(g, room.id, "join_anonymous");
    clock.advance(5_000);
    await g.next("game:state", (s) => s.status === "countdown");
    // The countdown's first step started the reload without waiting for it; it is in before the sentence is drawn.
    await roomsRuntime(server.ctx)!.settled();
    for (let i = 0; i < 3; i++) clock.advance(1_000);
    const state = await g.next("game:state", (s) => s.status === "in_progress");
    expect(state.sentence.text).toBe(second); // the first one was just played, so the new one comes next
  });
});

describe("game records (GET /api/games/results/user/{userId})", () => {
  test("one's own records, anyone's for administrators; 401 anonymous, 403 others, with Korean details", async () => {
    const room = await newRoom();
    const owner = await member(server, "기록주인");
    const other = await member(server, "남의기록");
    const admin = await server.createUser(`기록관리${roomCounter}`, {
      admin: true,
      email: `records-admin-${roomCounter}@example.com`,
    });
    const a = await open({ token: owner.token });
    await join(a, room.id);
    const state = await runToSentence([a]);
    clock.advance(5_000);
    a.emit("game:submission", { room_id: room.id, sentence_id: state.sentence.id, typed_text: state.sentence.text });
    await a.next("game:results");
    const path = `/api/games/results/user/${owner.id}`;

    const anonymous = await server.api("GET", path);
    expect(anonymous).toMatchObject({ status: 401, body: { detail: "로그인이 필요합니다." } });
    const stranger = await server.api("GET", path, { token: other.token });
    expect(stranger).toMatchObject({
      status: 403,
      body: { detail: "다른 사용자의 게임 기록은 관리자만 볼 수 있습니다." },
    });
    for (const token of [owner.token, admin.token]) {
      const allowed = await server.api("GET", path, { token });
      expect(allowed.status).toBe(200);
      // Served by the games module: the answer names the game mode and the medal (none for a lone player).
      expect(allowed.body).toEqual([
        expect.objectContaining({ room_name: room.name, position: 1, mode: "sentence_race", medal: null }),
      ]);
    }
  });
});

describe("account changes", () => {
  test("an administrator's rename reaches the room: its users list, the next chat line and the results", async () => {
    const room = await newRoom();
    const renamed = await member(server, "옛이름");
    const admin = await server.createUser(`관리자${roomCounter}`, {
      admin: true,
      email: `rename-admin-${roomCounter}@example.com`,
    });
    const p = await open({ token: renamed.token });
    const watcher = await open({ client_id: "rename-watcher-01" });
    await join(p, room.id);
    await join(watcher, room.id, "join_anonymous");

    const newName = `새이름${roomCounter}`;
    const res = await server.api("PUT", `/api/admin/users/${renamed.id}/username`, {
      token: admin.token,
      body: { new_username: newName, reason: "방 이름 반영 시험" },
    });
    expect(res.status).toBe(200);
    const update = await watcher.next("room:users_update", (u) =>
      u.users.some((x: { id: number; username: string }) => x.id === renamed.id && x.username === newName),
    );
    expect(update).toMatchObject({ room_id: room.id, user_count: 1, anonymous_count: 1 });
    expect((await roomInfo(room.id)).users[0]).toMatchObject({ id: renamed.id, username: newName });

    p.emit("chat_message", { room_id: room.id, message: "이름이 바뀌었어요" });
    expect(await watcher.next("chat:message", (m) => m.message === "이름이 바뀌었어요")).toMatchObject({
      user_id: renamed.id,
      username: newName,
      nickname: newName,
    });

    const state = await runToSentence([p, watcher]);
    clock.advance(5_000);
    p.emit("game:submission", { room_id: room.id, sentence_id: state.sentence.id, typed_text: state.sentence.text });
    expect(await watcher.next("game:submission_complete")).toMatchObject({ user_id: renamed.id, username: newName });
    const half = [...state.sentence.text].slice(0, Math.ceil((state.sentence.text.length * 2) / 3)).join("");
    watcher.emit("game:submission", { room_id: room.id, sentence_id: state.sentence.id, typed_text: half });
    const results = await watcher.next("game:results");
    expect(results.results[0]).toMatchObject({ user_id: renamed.id, username: newName, nickname: newName });
  });
});

describe("chat", () => {
  test("messages reach the room; empty ones are ignored; over 200 characters is refused", async () => {
    const room = await newRoom();
    const u = await member(server);
    const a = await open({ token: u.token });
    const g = await open({ client_id: "chat-guest-0001" });
    await join(a, room.id);
    await join(g, room.id, "join_anonymous");
    a.emit("chat_message", { room_id: room.id, message: "   " });
    a.emit("chat_message", { room_id: room.id, message: " 안녕하세요! " });
    const message = await g.next("chat:message", (m) => m.message_type === "chat");
    expect(message).toMatchObject({
      room_id: room.id,
      username: u.username,
      message: "안녕하세요!",
      is_system: false,
      is_private: false,
      message_type: "chat",
    });
    expect(Number.isNaN(Date.parse(message.timestamp))).toBe(false);

    a.emit("chat_message", { room_id: room.id, message: "가".repeat(201) });
    expect((await a.next("error")).message).toBe("메시지는 200자 이하로 입력해주세요.");
  });

  test("more than 5 messages in 3 s is the rate limit; it lifts after the window", async () => {
    const room = await newRoom();
    const g = await open({ client_id: "spam-guest-0001" });
    await join(g, room.id, "join_anonymous");
    for (let i = 1; i <= 6; i++) g.emit("chat_message", { room_id: room.id, message: `메시지 ${i}` });
    const error = await g.next("error");
    expect(error.message).toStartWith("메시지를 너무 빠르게 보내고 있습니다");
    await g.sync();
    expect(g.all("chat:message").filter((m) => m.message_type === "chat")).toHaveLength(5);
    clock.advance(3_001);
    g.emit("chat_message", { room_id: room.id, message: "이제 괜찮나요" });
    expect(await g.next("chat:message", (m) => m.message === "이제 괜찮나요")).toBeTruthy();
  });
});

describe("limits and bad input", () => {
  test("a full room refuses a join (guests count) and nothing changes", async () => {
    const room = await newRoom(2);
    const u = await member(server);
    const a = await open({ token: u.token });
    const g = await open({ client_id: "full-guest-0001" });
    const late = await open({ client_id: "full-guest-0002" });
    await join(a, room.id);
    await join(g, room.id, "join_anonymous");
    late.emit("join_anonymous", { room_id: room.id });
    expect(await late.next("error")).toMatchObject({ message: "방이 가득 찼습니다.", event: "join_anonymous" });
    expect(await roomInfo(room.id)).toMatchObject({ total_participants: 2, is_full: true });
    // Another tab of someone already inside still fits.
    const secondTab = await open({ token: u.token });
    await join(secondTab, room.id);
    expect((await roomInfo(room.id)).total_participants).toBe(2);
  });

  test("bad payloads answer error and change nothing", async () => {
    const room = await newRoom();
    const g = await open({ client_id: "bad-guest-00001" });
    const huge = "가".repeat(10_000);
    const cases: [string, unknown][] = [
      ["join_room", {}],
      ["join_room", { room_id: "abc" }],
      ["join_room", { room_id: -1 }],
      ["join_room", { room_id: 1.5 }],
      ["join_room", "1"],
      ["join_room", { room_id: huge }],
      ["join_anonymous", { room_id: null }],
      ["chat_message", { room_id: room.id }],
      ["chat_message", { room_id: room.id, message: 42 }],
      ["chat_message", { room_id: room.id, message: huge }],
      ["game:submission", { room_id: room.id, typed_text: "답" }],
      ["game:submission", { room_id: room.id, sentence_id: 1, typed_text: huge }],
      ["game:submission", { room_id: room.id, sentence_id: 1, typed_text: "답", elapsed_time: "fast" }],
      ["leave_room", { room_id: "x" }],
    ];
    for (const [event, payload] of cases) {
      g.emit(event, payload);
      const error = await g.next("error");
      expect(error).toMatchObject({ code: "invalid_payload", event });
    }
    g.emit("join_room", { room_id: 999_999 });
    expect(await g.next("error")).toMatchObject({ message: "방을 찾을 수 없습니다.", code: "room_not_found" });
    g.emit("chat_message", { room_id: room.id, message: "방 밖에서" });
    expect(await g.next("error")).toMatchObject({ code: "not_in_room" });
    g.emit("game:submission", { room_id: room.id, sentence_id: 1, typed_text: "답" });
    expect(await g.next("error")).toMatchObject({ code: "not_in_room" });
    expect(await roomInfo(room.id)).toMatchObject({ total_participants: 0, game_status: "waiting" });
    expect(g.all("room:joined:anonymous")).toEqual([]);
    // Still connected and served.
    await join(g, room.id, "join_anonymous");
  });

  test("identity comes from the handshake, never from the payload", async () => {
    const room = await newRoom();
    const victim = await member(server);
    const g = await open({ client_id: "imposter-guest-01" });
    g.emit("join_room", { room_id: room.id, user_id: victim.id, username: victim.username });
    const joined = await g.next("room:joined:anonymous");
    expect(joined.nickname).toBe(guestNickname("imposter-guest-01"));
    expect((await roomInfo(room.id)).users).toEqual([]);
  });
});

describe("membership", () => {
  test("leave_room and disconnect clean up the lists; the leaver gets room:left and a fresh list", async () => {
    const room = await newRoom();
    const u = await member(server);
    const a = await open({ token: u.token });
    const g = await open({ client_id: "leave-guest-0001" });
    await join(a, room.id);
    const joinedG = await join(g, room.id, "join_anonymous");

    a.emit("leave_room", { room_id: room.id, user_id: u.id });
    expect(await a.next("room:left")).toMatchObject({ room_id: room.id });
    const list = await a.next("room:list");
    expect(list.rooms.find((r: { id: number }) => r.id === room.id)).toMatchObject({ user_count: 0 });
    expect(await g.next("room:user_left")).toMatchObject({ user_id: u.id, username: u.username, user_count: 0 });
    expect((await roomInfo(room.id)).users).toEqual([]);

    const watcher = await open({ token: u.token });
    await join(watcher, room.id);
    await closeAndWait(server, g);
    // Inside the grace period the guest keeps the place...
    expect((await roomInfo(room.id)).anonymous_count).toBe(1);
    clock.advance(5_000);
    expect(await watcher.next("room:anonymous_left")).toMatchObject({ session_id: joinedG.session_id });
    expect(await roomInfo(room.id)).toMatchObject({ anonymous_count: 0, anonymous_users: [] });
  });

  test("a reconnect within the grace period keeps the player's place and result in the game", async () => {
    const room = await newRoom();
    const u = await member(server);
    const other = await member(server);
    const a = await open({ token: u.token });
    const b = await open({ token: other.token });
    await join(a, room.id);
    await join(b, room.id);
    const state = await runToSentence([a, b]);
    clock.advance(4000);
    a.emit("game:submission", { room_id: room.id, sentence_id: state.sentence.id, typed_text: state.sentence.text });
    await a.next("game:personal_feedback");
    await closeAndWait(server, a);
    clock.advance(2_000);
    const again = await open({ token: u.token });
    const joined = await join(again, room.id);
    expect(joined.my_result).toMatchObject({ position: 1 });
    expect(joined.game_state.status).toBe("in_progress");
    await b.sync();
    expect(b.all("room:user_left")).toEqual([]);
    clock.advance(5_000); // past the old grace period: still in
    expect((await roomInfo(room.id)).user_count).toBe(2);
  });

  test("a socket is in one room at a time", async () => {
    const first = await newRoom();
    const second = await newRoom();
    const g = await open({ client_id: "hopper-guest-01" });
    await join(g, first.id, "join_anonymous");
    await join(g, second.id, "join_anonymous");
    expect((await roomInfo(first.id)).total_participants).toBe(0);
    expect((await roomInfo(second.id)).total_participants).toBe(1);
    g.emit("disconnect_cleanup");
    await g.next("room:left");
    expect((await roomInfo(second.id)).total_participants).toBe(0);
  });

  test("the full room:list comes when asked (get_rooms), not with every connection", async () => {
    const room = await newRoom();
    const viewer = await open({ client_id: "list-viewer-01" });
    expect(viewer.all("room:list")).toEqual([]);
    viewer.emit("get_rooms");
    const list = await viewer.next("room:list");
    expect(list.rooms.find((r: { id: number }) => r.id === room.id)).toMatchObject({
      name: room.name,
      total_participants: 0,
      users: [],
      anonymous_users: [],
    });
  });

  test("the lobby gets coalesced room:list_update; players in a room do not", async () => {
    const room = await newRoom();
    const lobby = await open({ client_id: "lobby-viewer-01" });
    const p1 = await open({ client_id: "lobby-player-01" });
    const p2 = await open({ client_id: "lobby-player-02" });
    await join(p1, room.id, "join_anonymous");
    await join(p2, room.id, "join_anonymous");
    await p2.sync();
    clock.advance(1_000);
    const update = await lobby.next("room:list_update", (u) => u.rooms.some((r: { id: number }) => r.id === room.id));
    expect(update.rooms.filter((r: { id: number }) => r.id === room.id)).toEqual([
      expect.objectContaining({ id: room.id, anonymous_count: 2, total_participants: 2 }),
    ]);
    expect(lobby.all("room:list_update")).toHaveLength(1);
    await p1.sync();
    expect(p1.all("room:list_update")).toEqual([]);
  });

  test("GET /api/rooms lists every Room field live", async () => {
    const room = await newRoom();
    const g = await open({ client_id: "list-guest-0001" });
    await join(g, room.id, "join_anonymous");
    for (const path of ["/api/rooms", "/api/rooms/"]) {
      const res = await server.api("GET", path);
      expect(res.status).toBe(200);
      const entry = res.body.find((r: { id: number }) => r.id === room.id);
      expect(Object.keys(entry)).toEqual(
        expect.arrayContaining([
          "id",
          "name",
          "description",
          "max_users",
          "user_count",
          "anonymous_count",
          "total_participants",
          "game_status",
          "countdown_seconds",
          "users",
          "anonymous_users",
        ]),
      );
      expect(entry.anonymous_users[0]).toMatchObject({ nickname: guestNickname("list-guest-0001") });
      expect(Object.keys(entry.anonymous_users[0])).toEqual(
        expect.arrayContaining(["session_id", "nickname", "created_at"]),
      );
    }
    for (const id of ["123456", "abc", "9".repeat(40), "%EB%B0%A9"]) {
      const res = await server.api("GET", `/api/rooms/${id}`);
      expect({ id, status: res.status, detail: res.body.detail }).toEqual({
        id,
        status: 404,
        detail: "방을 찾을 수 없습니다.",
      });
    }
  });
});
