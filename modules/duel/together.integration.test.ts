import { beforeAll, describe, expect, test } from "bun:test";
import type { TestServer } from "../../apps/server/testing";
import type { FakeClock } from "../kernel/clock";
import { sharedScheduler, WATCHER_FRAME_MS } from "../kernel/game-host";
import { duelRuntime } from "./index";
import {
  closeAndWait,
  type DuelClient,
  duelTestServer,
  matchAcrossGap,
  openDuelClient,
  startDuel,
} from "./test-support";

/**
 * Playing together (issue 27; README "Direct challenges", "Watching"): a member challenges another from the online
 * list, who accepts, declines or lets it expire; every refusal; a challenge duel counts toward the pair's daily
 * rating limit; watchers see the duel, cannot type and chat among themselves only. Real server (either engine:
 * TEST_DATABASE=postgres), real sockets, the server on a FakeClock.
 */
const suite = duelTestServer("함께");
let server: TestServer;
let clock: FakeClock;
beforeAll(() => {
  ({ server, clock } = suite);
});
const people = { member: () => suite.people.member(), guest: () => suite.people.guest() };

type Member = Awaited<ReturnType<typeof people.member>>;

/** Members in the duel menu (listed, so they can be challenged). */
async function inMenu(count: number): Promise<Member[]> {
  const members: Member[] = [];
  for (let i = 0; i < count; i++) {
    const member = await people.member();
    await member.send("duel_enter_menu");
    members.push(member);
  }
  return members;
}

const sidOf = (member: Member) => `u_${member.user.id}`;

/** `from` challenges `to`; `to` hears of it. */
async function challenge(from: Member, to: Member) {
  const sent = await from.send("duel_challenge", { sid: sidOf(to) });
  expect(sent).toMatchObject({ success: true, expires_in: 15 });
  const received = await to.next("duel:challenge_received", (p) => p.challenge_id === sent.challenge_id);
  return received.challenge_id as string;
}

/** A refused event: the acknowledgement's Korean text and the `error` event's code. */
async function refused(client: DuelClient, event: string, payload: unknown) {
  const answer = await client.send(event, payload);
  expect(answer.success).toBe(false);
  const error = await client.next("error", (e) => e.event === event && e.message === answer.error);
  return { message: answer.error as string, code: error.code as string };
}

/** Both matched by searching; answers [red, blue]. */
async function matched(a: Member, b: Member): Promise<[Member, Member]> {
  await a.send("duel_find_match");
  await b.send("duel_find_match");
  const [found] = await Promise.all([a.next("duel:match_found"), b.next("duel:match_found")]);
  return found.your_side === "red" ? [a, b] : [b, a];
}

/** The duel's players leave it (a forfeit before the end) and each other's result is awaited. */
async function endByLeave(leaver: DuelClient, stayer: DuelClient) {
  await leaver.send("duel_leave_game");
  const over = await stayer.next("duel:game_over", (p) => p.session_id === stayer.sessionId);
  await stayer.send("duel_leave_game");
  return over;
}

describe("a direct challenge", () => {
  test("accepted: a duel like a matched one, the challenger red; stored and rated as matched duels are", async () => {
    const [a, b] = await inMenu(2);
    const sent = await a.send("duel_challenge", { sid: sidOf(b) });
    const received = await b.next("duel:challenge_received");
    expect(received).toEqual({
      challenge_id: sent.challenge_id,
      from: { sid: sidOf(a), nickname: a.user.username, rating: 1500 },
      expires_in: 15,
    });
    const accepted = await b.send("duel_challenge_accept", { challenge_id: sent.challenge_id });
    expect(accepted).toMatchObject({ success: true });
    const [foundA, foundB] = await Promise.all([a.next("duel:match_found"), b.next("duel:match_found")]);
    expect(foundA).toMatchObject({ session_id: accepted.session_id, your_side: "red", opponent_sid: sidOf(b) });
    expect(foundB).toMatchObject({ your_side: "blue", opponent_nickname: a.user.username });
    for (const side of [a, b]) {
      expect(await side.next("duel:challenge_closed")).toMatchObject({
        challenge_id: sent.challenge_id,
        reason: "accepted",
      });
    }
    // Both are in game in the list; the same challenge cannot be accepted twice.
    expect((await a.send("duel_get_online_users")).users[0]).toMatchObject({ is_me: true, status: "in_game" });
    expect((await refused(b, "duel_challenge_accept", { challenge_id: sent.challenge_id })).code).toBe(
      "challenge_gone",
    );

    const state = await startDuel(clock, a, b);
    expect(state).toMatchObject({ red_nickname: a.user.username, red_rating: 1500, blue_rating: 1500 });
    clock.advance(12_000);
    const over = await endByLeave(b, a);
    expect(over.result).toMatchObject({ winner_side: "red", reason: "opponent_left", rated: true });
    const stats = await a.next("duel:stats_update");
    expect(stats).toMatchObject({ user_id: a.user.id, wins: 1, total_games: 1, rated: true });
    await sharedScheduler(server.ctx).drain();
    const ranking = await server.api("GET", "/api/rankings/duel/total-games?limit=100");
    const ids = ranking.body.map((e: { user_id: number }) => e.user_id);
    expect(ids).toEqual(expect.arrayContaining([a.user.id, b.user.id]));
    a.close();
    b.close();
  });

  test("declined: the challenger is told; cancelled: the challenged member's prompt goes", async () => {
    const [a, b] = await inMenu(2);
    const first = await challenge(a, b);
    expect(await b.send("duel_challenge_decline", { challenge_id: first })).toEqual({ success: true });
    expect(await a.next("duel:challenge_closed")).toEqual({
      challenge_id: first,
      reason: "declined",
      message: "도전이 거절되었습니다.",
    });
    expect((await refused(b, "duel_challenge_accept", { challenge_id: first })).message).toBe(
      "도전이 만료되었거나 이미 응답한 도전입니다.",
    );

    // Declined, the pair may be challenged again at once; this time the challenger takes it back.
    const second = await challenge(a, b);
    // Only the challenger can: the challenged member cannot cancel it, nor decline someone else's.
    expect((await refused(b, "duel_challenge_cancel", { challenge_id: second })).code).toBe("challenge_gone");
    expect(await a.send("duel_challenge_cancel", { challenge_id: second })).toEqual({ success: true });
    expect(await b.next("duel:challenge_closed", (p) => p.challenge_id === second)).toMatchObject({
      reason: "cancelled",
      message: "도전이 취소되었습니다.",
    });
    expect(a.all("duel:match_found")).toEqual([]);
    a.close();
    b.close();
  });

  test("unanswered for 15 s it expires on the server: both sides told, a late accept refused", async () => {
    const [a, b] = await inMenu(2);
    const id = await challenge(a, b);
    clock.advance(14_000);
    await a.sync();
    expect(a.all("duel:challenge_closed")).toEqual([]);
    clock.advance(1_000);
    const expired = await a.next("duel:challenge_closed");
    expect(expired).toMatchObject({ challenge_id: id, reason: "expired" });
    expect(expired.message).toContain("15초");
    expect(await b.next("duel:challenge_closed")).toMatchObject({ challenge_id: id, reason: "expired" });
    expect((await refused(b, "duel_challenge_accept", { challenge_id: id })).code).toBe("challenge_gone");
    expect(b.all("duel:match_found")).toEqual([]);
    a.close();
    b.close();
  });

  test("the challenger's socket goes: its pending challenge is taken back", async () => {
    const [a, b] = await inMenu(2);
    const id = await challenge(a, b);
    await closeAndWait(server, a);
    expect(await b.next("duel:challenge_closed")).toMatchObject({ challenge_id: id, reason: "cancelled" });
    b.close();
  });

  test("refused in Korean: guests on either side, oneself, a malformed sid", async () => {
    const [a] = await inMenu(1);
    const guest = await people.guest();
    await guest.send("duel_enter_menu");
    const { my_sid: guestSid } = await guest.send("duel_get_online_users");
    expect(await refused(guest, "duel_challenge", { sid: sidOf(a) })).toEqual({
      message: "회원만 대결을 신청하거나 받을 수 있습니다. 로그인해 주세요.",
      code: "members_only",
    });
    expect(await refused(a, "duel_challenge", { sid: guestSid })).toEqual({
      message: "손님에게는 대결을 신청할 수 없습니다. 회원에게만 신청할 수 있습니다.",
      code: "guest_target",
    });
    expect(await refused(a, "duel_challenge", { sid: sidOf(a) })).toEqual({
      message: "자기 자신에게는 대결을 신청할 수 없습니다.",
      code: "self",
    });
    expect((await refused(a, "duel_challenge", { sid: "친구" })).code).toBe("invalid_payload");
    expect((await refused(a, "duel_challenge", {})).code).toBe("invalid_payload");
    expect((await refused(guest, "duel_challenge_setting", { accept_challenges: true })).code).toBe("members_only");
    a.close();
    guest.close();
  });

  test("refused: a member not in the duel menu (never entered, or left it)", async () => {
    const [a, b] = await inMenu(2);
    const away = await people.member();
    expect(await refused(a, "duel_challenge", { sid: sidOf(away) })).toEqual({
      message: "상대가 대결 메뉴에 접속해 있지 않습니다.",
      code: "offline",
    });
    await b.send("duel_leave_menu");
    expect((await refused(a, "duel_challenge", { sid: sidOf(b) })).code).toBe("offline");
    for (const client of [a, b, away]) client.close();
  });

  test("refused: a member who turned challenges off (kept per member, read back)", async () => {
    const [a, b] = await inMenu(2);
    expect(await b.send("duel_challenge_setting", {})).toEqual({ success: true, accept_challenges: true });
    expect(await b.send("duel_challenge_setting", { accept_challenges: false })).toEqual({
      success: true,
      accept_challenges: false,
    });
    // Kept for the member: another socket of theirs reads it.
    const again = await openDuelClient(server, { token: b.user.token });
    expect(await again.send("duel_challenge_setting")).toEqual({ success: true, accept_challenges: false });
    expect(await refused(a, "duel_challenge", { sid: sidOf(b) })).toEqual({
      message: "상대가 대결 신청을 받지 않도록 설정했습니다.",
      code: "challenges_off",
    });
    expect((await refused(b, "duel_challenge_setting", { accept_challenges: "yes" })).code).toBe("invalid_payload");
    await b.send("duel_challenge_setting", { accept_challenges: true });
    await challenge(a, b);
    for (const client of [a, b, again]) client.close();
  });

  test("refused: a second pending challenge to the same member; answers from anyone but the challenged", async () => {
    const [a, b, c] = await inMenu(3);
    const guest = await people.guest();
    const pending = await challenge(a, b);
    expect(await refused(a, "duel_challenge", { sid: sidOf(b) })).toEqual({
      message: "이 상대에게 보낸 도전이 아직 응답을 기다리고 있습니다.",
      code: "challenge_pending",
    });
    // Another member may challenge b meanwhile, and a may challenge someone else.
    await challenge(c, b);
    await challenge(a, c);
    expect((await refused(c, "duel_challenge_accept", { challenge_id: pending })).code).toBe("challenge_gone");
    expect((await refused(c, "duel_challenge_decline", { challenge_id: pending })).code).toBe("challenge_gone");
    expect((await refused(guest, "duel_challenge_accept", { challenge_id: pending })).code).toBe("members_only");
    expect((await refused(c, "duel_challenge_accept", { challenge_id: "x".repeat(65) })).code).toBe("invalid_payload");
    for (const client of [a, b, c, guest]) client.close();
  });

  test("refused: a member in a game, either side; a challenge taken back when its socket starts a duel", async () => {
    const [a, b, c, d, e] = await inMenu(5);
    await matched(c, d);
    expect(await refused(a, "duel_challenge", { sid: sidOf(c) })).toEqual({
      message: "상대가 대결 중입니다. 대결이 끝난 뒤에 다시 신청해 주세요.",
      code: "target_in_game",
    });
    expect(await refused(d, "duel_challenge", { sid: sidOf(a) })).toEqual({
      message: "대결 중에는 대결을 신청할 수 없습니다. 대결이 끝난 뒤에 다시 신청해 주세요.",
      code: "already_in_game",
    });
    // a's challenge is taken back when that socket is seated in another duel.
    const withdrawn = await challenge(a, b);
    await matched(a, e);
    expect(await b.next("duel:challenge_closed", (p) => p.challenge_id === withdrawn)).toMatchObject({
      reason: "cancelled",
    });
    expect((await refused(b, "duel_challenge_accept", { challenge_id: withdrawn })).code).toBe("challenge_gone");
    for (const client of [a, b, c, d, e]) client.close();
  });

  test("accepting is refused once either side is in another duel; the challenge is over for both", async () => {
    const [a, b, c] = await inMenu(3);
    // The challenge comes from one tab of a while another tab of a starts a duel.
    const tab = await openDuelClient(server, { token: a.user.token });
    const late = await tab.send("duel_challenge", { sid: sidOf(b) });
    await matched(a, c);
    expect(await refused(b, "duel_challenge_accept", { challenge_id: late.challenge_id })).toEqual({
      message: "상대가 다른 대결을 시작해 도전을 수락할 수 없습니다.",
      code: "target_in_game",
    });
    expect(await tab.next("duel:challenge_closed")).toMatchObject({ challenge_id: late.challenge_id, reason: "busy" });
    expect(b.all("duel:match_found")).toEqual([]);

    // The challenged member started a duel of their own before answering.
    const [x, y, z] = await inMenu(3);
    const pending = await challenge(x, y);
    await matched(y, z);
    expect(await refused(y, "duel_challenge_accept", { challenge_id: pending })).toEqual({
      message: "대결 중에는 도전을 수락할 수 없습니다.",
      code: "already_in_game",
    });
    expect(await x.next("duel:challenge_closed")).toMatchObject({ challenge_id: pending, reason: "busy" });
    expect(x.all("duel:match_found")).toEqual([]);
    for (const client of [a, b, c, tab, x, y, z]) client.close();
  });

  test("a challenge duel counts toward the pair's daily rated-duel limit (the 4th of a Seoul day is unrated)", async () => {
    const [a, b] = await inMenu(2);
    // Three rated duels by searching (the ratings drift apart: the clock moves on until the gap is accepted).
    for (let duel = 0; duel < 3; duel++) {
      const [red, blue] = await matchAcrossGap(clock, a, b);
      await startDuel(clock, red, blue);
      clock.advance(12_000);
      expect((await endByLeave(blue, red)).result.rated).toBe(true);
      for (const player of [a, b]) expect((await player.next("duel:stats_update")).rated).toBe(true);
    }

    const id = await challenge(a, b);
    await b.send("duel_challenge_accept", { challenge_id: id });
    await Promise.all([a.next("duel:match_found"), b.next("duel:match_found")]);
    await startDuel(clock, a, b);
    clock.advance(12_000);
    const over = await endByLeave(b, a);
    expect(over.result.rated).toBe(true); // stored
    const stats = await a.next("duel:stats_update", (s) => s.rated === false);
    expect(stats).toMatchObject({ rating_change: 0, total_games: 3 });
    a.close();
    b.close();
  });
});

describe("watching a duel", () => {
  test("a guest watches live with names and ratings, cannot type, and chats with watchers only", async () => {
    const [a, b] = await inMenu(2);
    const [red, blue] = await matched(a, b);
    const watcher = await people.guest();
    await watcher.send("duel_enter_menu");
    const other = await people.member();
    await other.send("duel_enter_menu");

    // The list names the duel of each player in game: the watch button's target.
    const list = await watcher.send("duel_get_online_users");
    const playing = list.users.find((u: { sid: string }) => u.sid === sidOf(red));
    expect(playing).toMatchObject({ status: "in_game", session_id: red.sessionId });
    expect(list.users.find((u: { is_me: boolean }) => u.is_me).session_id).toBeUndefined();

    expect(await watcher.send("duel_watch", { session_id: red.sessionId })).toEqual({
      success: true,
      session_id: red.sessionId,
    });
    const seen = await watcher.next("duel:watch_state");
    expect(seen.state).toMatchObject({
      status: "waiting",
      red_nickname: red.user.username,
      blue_nickname: blue.user.username,
      red_rating: 1500,
      blue_rating: 1500,
      red_lives: 5,
    });
    expect(seen.result).toBeNull();
    await other.send("duel_watch", { session_id: red.sessionId });
    await other.next("duel:watch_state");

    // The duel goes on as if nobody watched; the watchers get every event of it.
    await startDuel(clock, red, blue);
    expect((await watcher.next("duel:countdown")).countdown).toBe(3);
    const started = await watcher.next("duel:game_start");
    expect(started.state.word_blocks).toHaveLength(8);
    const shot = red.word("static");
    await red.send("duel_word_typed", { typed_word: shot.word });
    // The watchers get it after the players, in their next frame (kernel game-host README "Watchers").
    expect(red.all("duel:bullet_fired")).toHaveLength(1);
    expect(watcher.all("duel:bullet_fired")).toHaveLength(0);
    clock.advance(WATCHER_FRAME_MS);
    expect((await watcher.next("duel:bullet_fired")).bullet).toEqual({ side: "red", target_block_id: shot.id });
    expect(await watcher.next("duel:word_position_update")).toMatchObject({ block_id: shot.id });
    clock.advance(1_000 - WATCHER_FRAME_MS);
    clock.advance(WATCHER_FRAME_MS);
    expect((await watcher.next("duel:time_update")).remaining_time).toBe(59);

    // A watcher never plays: words and ready are refused in Korean, and nothing moves.
    const word = red.word("static").word;
    expect(await refused(watcher, "duel_word_typed", { typed_word: word })).toEqual({
      message: "관전 중에는 입력할 수 없습니다.",
      code: "watching",
    });
    expect((await refused(other, "duel_player_ready", {})).code).toBe("watching");
    await red.sync();
    expect(red.all("duel:bullet_fired")).toHaveLength(1);

    // Watchers' chat reaches watchers, never the players; a player cannot send one.
    expect(await watcher.send("duel_watch_chat", { message: "  빨강 힘내요  " })).toEqual({ success: true });
    clock.advance(WATCHER_FRAME_MS);
    const line = await other.next("duel:watch_chat");
    expect(line).toMatchObject({ session_id: red.sessionId, message: "빨강 힘내요", sid: list.my_sid });
    expect(line.nickname).toMatch(/^guest_\d{4}$/);
    await watcher.next("duel:watch_chat");
    expect((await refused(red, "duel_watch_chat", { message: "안녕" })).message).toBe("관전 중인 대결이 없습니다.");
    await Promise.all([red.sync(), blue.sync()]);
    expect([...red.all("duel:watch_chat"), ...blue.all("duel:watch_chat")]).toEqual([]);
    expect(await refused(other, "duel_watch_chat", { message: "가".repeat(201) })).toEqual({
      message: "메시지는 200자 이하로 입력해주세요.",
      code: "too_long",
    });
    for (let i = 0; i < 5; i++) await other.send("duel_watch_chat", { message: `응원 ${i}` });
    expect((await refused(other, "duel_watch_chat", { message: "응원 6" })).code).toBe("rate_limited");

    // The end reaches the watchers; the duel closes when its players leave, watchers or not.
    clock.advance(11_000);
    await blue.send("duel_leave_game");
    clock.advance(WATCHER_FRAME_MS);
    expect((await watcher.next("duel:game_over")).result).toMatchObject({ winner_side: "red", rated: true });
    expect(watcher.all("duel:opponent_left")).toEqual([]);
    await red.send("duel_leave_game");
    expect(duelRuntime(server.ctx)?.duel(red.sessionId as string)).toBeUndefined();
    expect((await refused(watcher, "duel_watch_chat", { message: "끝" })).code).toBe("not_watching");
    for (const client of [a, b, watcher, other]) client.close();
  });

  test("joining mid-game shows the field as it is; leaving stops the events; the refusals", async () => {
    const [a, b, c] = await inMenu(3);
    const [red, blue] = await matched(a, b);
    await startDuel(clock, red, blue);
    await red.send("duel_word_typed", { typed_word: red.word("static").word });
    clock.advance(2_000);

    const watcher = await people.member();
    await watcher.send("duel_watch", { session_id: red.sessionId });
    const seen = await watcher.next("duel:watch_state");
    expect(seen.state.status).toBe("in_progress");
    expect(seen.state.remaining_time).toBe(58);
    const moving = seen.state.word_blocks.find((w: { status: string }) => w.status === "moving_right");
    expect(moving.x).toBe(500); // 2 s at 50 px/s from the middle

    // Refusals: an unknown duel, one's own duel, watching while playing another one.
    expect(await refused(watcher, "duel_watch", { session_id: "no-such-duel" })).toEqual({
      message: "관전할 수 있는 대결이 없습니다. 이미 끝났을 수 있습니다.",
      code: "no_duel",
    });
    expect(await refused(red, "duel_watch", { session_id: red.sessionId })).toEqual({
      message: "자신의 대결은 관전할 수 없습니다.",
      code: "own_duel",
    });
    const d = (await inMenu(1))[0];
    await matched(c, d);
    expect(await refused(c, "duel_watch", { session_id: red.sessionId })).toEqual({
      message: "대결 중에는 관전할 수 없습니다.",
      code: "already_in_game",
    });
    expect((await refused(watcher, "duel_watch", {})).code).toBe("invalid_payload");

    // Watching stops: no more events of the duel, no chat.
    await watcher.send("duel_watch_leave");
    const before = watcher.log.length;
    await blue.send("duel_word_typed", { typed_word: blue.word("static").word });
    await blue.next("duel:bullet_fired");
    await watcher.sync();
    expect(watcher.log.slice(before).filter((r) => r.event.startsWith("duel:"))).toEqual([]);
    expect((await refused(watcher, "duel_watch_chat", { message: "안녕" })).code).toBe("not_watching");
    for (const client of [a, b, c, d, watcher]) client.close();
  });
});
