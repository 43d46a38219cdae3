import { beforeAll, describe, expect, test } from "bun:test";
import type { TestServer } from "../../apps/server/testing";
import type { FakeClock } from "../kernel/clock";
import { sharedScheduler } from "../kernel/game-host";
import { rankingsSettled } from "../rankings";
import { duelStore } from "./api";
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
 * Real server (either engine: TEST_DATABASE=postgres), real socket.io clients. The server runs on a FakeClock: the
 * tests move game time (countdown, block flights, the 60 s, heartbeats, the coalesced list) with `clock.advance`.
 */
const suite = duelTestServer("결투자");
let server: TestServer;
let clock: FakeClock;
beforeAll(() => {
  ({ server, clock } = suite);
});
const people = { member: () => suite.people.member(), guest: () => suite.people.guest() };
const member = () => people.member();
const guest = () => people.guest();

/** Both find a match; each learns its side. Returns [red, blue]. */
async function match<A extends DuelClient, B extends DuelClient>(a: A, b: B): Promise<[A | B, A | B]> {
  await a.send("duel_find_match");
  await b.send("duel_find_match");
  const [foundA, foundB] = await Promise.all([a.next("duel:match_found"), b.next("duel:match_found")]);
  expect(foundA.session_id).toBe(foundB.session_id);
  return foundA.your_side === "red" ? [a, b] : [b, a];
}

/** Both ready, the countdown 3-2-1, the start. */
const start = (red: DuelClient, blue: DuelClient) => startDuel(clock, red, blue);

/** `shooter` fires at a static block and the block is left to fly into the other side's edge. */
async function hit(shooter: DuelClient, target: DuelClient) {
  const lives = target.all("duel:life_update").length;
  await shooter.send("duel_word_typed", { typed_word: shooter.word("static").word });
  clock.advance(9_000);
  return target.next("duel:life_update", () => target.all("duel:life_update").length > lives);
}

/** Every queued write of every duel has run (the store and the games module). */
const drained = () => sharedScheduler(server.ctx).drain();

describe("two members duel to a win", () => {
  test("menu, match, countdown, fire, defend, life loss, the end; stats, ratings and rankings stored", async () => {
    const a = await member();
    const b = await member();
    await a.send("duel_enter_menu");
    await b.send("duel_enter_menu");
    const listed = await a.send("duel_get_online_users");
    expect(listed.success).toBe(true);
    const me = listed.users.find((u: { is_me: boolean }) => u.is_me);
    expect(me).toMatchObject({ nickname: a.user.username, status: "idle", sid: `u_${a.user.id}` });
    expect(listed.users.map((u: { nickname: string }) => u.nickname)).toContain(b.user.username);

    const watcher = await member();
    await watcher.send("duel_enter_menu");
    const pushesBefore = a.all("duel:user_list_update").length;
    const [red, blue] = await match(a, b);
    expect(red.all("duel:match_found")[0]).toMatchObject({ opponent_nickname: blue.user.username });
    // The menu hears of it, coalesced: both in game now.
    clock.advance(1_000);
    const update = await watcher.next("duel:user_list_update", (p) =>
      p.users.some(
        (u: { nickname: string; status: string }) => u.nickname === a.user.username && u.status === "in_game",
      ),
    );
    expect(update.waiting_count).toBe(0);
    // The players themselves are in the duel: no list pushes until they leave it (they ask after the end).
    expect(a.all("duel:user_list_update").length).toBe(pushesBefore);
    expect((await a.send("duel_get_online_users")).users[0]).toMatchObject({ is_me: true, status: "in_game" });

    // A word before the start changes nothing (no error either).
    await red.send("duel_word_typed", { typed_word: "사과" });
    const state = await start(red, blue);
    expect(state).toMatchObject({ status: "in_progress", red_lives: 5, blue_lives: 5, remaining_time: 60 });
    expect(state.word_blocks).toHaveLength(8);
    expect(state.red_sid).toBe(`u_${red.user.id}`);

    // Red fires; blue defends it; the replacement is a new static block.
    const shot = red.word("static");
    await red.send("duel_word_typed", { typed_word: ` ${shot.word} ` });
    expect((await blue.next("duel:bullet_fired")).bullet).toEqual({ side: "red", target_block_id: shot.id });
    expect(await blue.next("duel:word_position_update")).toMatchObject({
      block_id: shot.id,
      status: "moving_right",
      speed: 50,
    });
    clock.advance(2_000);
    await blue.send("duel_word_typed", { typed_word: blue.word("incoming").word });
    const defended = await red.next("duel:block_defended");
    expect(defended.block_id).toBe(shot.id);
    expect(defended.new_blocks[0]).toMatchObject({ status: "static", x: 400 });
    // A wrong word is no error; nothing changes.
    await blue.send("duel_word_typed", { typed_word: "틀린단어" });
    expect(blue.all("error")).toEqual([]);

    // Five shots fly into blue's edge: five lives, the last one ends the duel.
    for (let lives = 4; lives >= 0; lives--) {
      const update = await hit(red, blue);
      expect(update).toMatchObject({ player_side: "blue", remaining_lives: lives });
    }
    const [overRed, overBlue] = await Promise.all([red.next("duel:game_over"), blue.next("duel:game_over")]);
    expect(overRed).toEqual(overBlue);
    expect(overRed.result).toMatchObject({
      winner_side: "red",
      reason: "no_lives",
      red_remaining_lives: 5,
      blue_remaining_lives: 0,
      red_words_typed: 6,
      blue_words_typed: 1,
      rated: true,
    });
    expect(overRed.result.game_duration).toBeGreaterThan(40);
    // After the end a word changes nothing.
    await red.send("duel_word_typed", { typed_word: red.word("static").word });
    expect(red.all("duel:bullet_fired")).toHaveLength(6);
    // Out of the duel, a player is back on the pushed list.
    await red.send("duel_leave_game");
    await watcher.send("duel_leave_menu");
    clock.advance(1_000);
    await red.next("duel:user_list_update", (p) =>
      p.users.every((u: { nickname: string }) => u.nickname !== watcher.user.username),
    );

    // Ratings and figures: each member hears their own.
    const [statsRed, statsBlue] = await Promise.all([red.next("duel:stats_update"), blue.next("duel:stats_update")]);
    expect(statsRed).toMatchObject({ user_id: red.user.id, wins: 1, losses: 0, current_streak: 1, total_games: 1 });
    expect(statsRed.rating).toBeGreaterThan(1500);
    expect(statsBlue).toMatchObject({ user_id: blue.user.id, wins: 0, losses: 1, current_streak: -1 });
    expect(statsBlue.rating).toBe(1500 - (statsRed.rating - 1500));

    const totals = await server.api("GET", "/api/rankings/duel/total-games?limit=50");
    expect(totals.status).toBe(200);
    const mine = totals.body.filter((e: { user_id: number }) => [red.user.id, blue.user.id].includes(e.user_id));
    expect(mine).toHaveLength(2);
    const winRate = await server.api("GET", "/api/rankings/duel/win-rate?limit=50&min_games=1");
    expect(winRate.body.find((e: { user_id: number }) => e.user_id === red.user.id)).toMatchObject({
      username: red.user.username,
      win_rate: 1,
      wins: 1,
      total_games: 1,
      max_win_streak: 1,
      recent_games: 1,
      recent_wins: 1,
    });
    // The default minimum of 10 games leaves them out.
    const strict = await server.api("GET", "/api/rankings/duel/win-rate");
    expect(strict.body.some((e: { user_id: number }) => e.user_id === red.user.id)).toBe(false);
    const recent = await server.api("GET", "/api/rankings/duel/recent-activity?limit=50&days=7");
    expect(recent.body.find((e: { user_id: number }) => e.user_id === blue.user.id)).toMatchObject({
      recent_games: 1,
      losses: 1,
    });

    // A duel is not a typing-speed result (product-rules "Trust rules"): no game record, not in the typing
    // rankings, not in the account's typing figures; its figures are the duel's own.
    await drained();
    await rankingsSettled(server.ctx);
    for (const player of [red, blue]) {
      const records = await server.api("GET", `/api/games/results/user/${player.user.id}`, {
        token: player.user.token,
      });
      expect(records.status).toBe(200);
      expect(records.body).toEqual([]);
      const me = await server.api("GET", "/api/users/me", { token: player.user.token });
      expect(me.body).toMatchObject({ games_played: 0, avg_wpm: 0, avg_accuracy: 0 });
    }
    for (const period of ["daily", "weekly", "all"]) {
      for (const sort of ["wpm", "games"]) {
        const typing = await server.api("GET", `/api/rankings/users?limit=100&period=${period}&sort=${sort}`);
        expect(typing.status).toBe(200);
        const ids = typing.body.map((e: { user_id: number | null }) => e.user_id);
        expect(ids).not.toContain(red.user.id);
        expect(ids).not.toContain(blue.user.id);
      }
    }
    const own = await server.api("GET", "/api/duel/stats/me", { token: red.user.token });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({
      user_id: red.user.id,
      rating: statsRed.rating,
      wins: 1,
      losses: 0,
      draws: 0,
      total_games: 1,
      current_streak: 1,
      max_win_streak: 1,
    });

    // Leaving after the end; the duel is closed once both are out.
    await red.send("duel_leave_game");
    await blue.send("duel_leave_game");
    expect(duelRuntime(server.ctx)?.duel(overRed.session_id)).toBeUndefined();
    red.close();
    blue.close();
  });
});

describe("matchmaking", () => {
  test("cancel: a cancelled search is never matched; a player is in one queue or game at a time", async () => {
    const a = await member();
    const b = await member();
    const c = await member();
    expect(await a.send("duel_find_match")).toMatchObject({ success: true, status: "waiting" });
    expect(await a.send("duel_cancel_match")).toMatchObject({ success: true, status: "idle" });
    await b.send("duel_find_match");
    await c.send("duel_find_match");
    const found = await b.next("duel:match_found");
    expect(found.opponent_nickname).toBe(c.user.username);
    expect(a.all("duel:match_found")).toEqual([]);
    // b is in a game now: another search is refused with a Korean error.
    const again = await b.send("duel_find_match");
    expect(again).toEqual({ success: false, error: "이미 대결 중입니다. 대결이 끝난 뒤에 다시 찾아주세요." });
    expect((await b.next("error")).code).toBe("already_in_game");
    await b.send("duel_leave_game");
    await c.next("duel:game_over");
    for (const client of [a, b, c]) client.close();
  });

  test("a word from a socket in no duel, or not its own, changes nothing and is answered with an error", async () => {
    const a = await member();
    const b = await member();
    const outsider = await member();
    const [red, blue] = await match(a, b);
    await start(red, blue);
    const word = red.word("static").word;
    const refused = await outsider.send("duel_word_typed", { typed_word: word });
    expect(refused).toEqual({ success: false, error: "진행 중인 대결이 없습니다." });
    const bad = await red.send("duel_word_typed", { typed_word: 42 });
    expect(bad.success).toBe(false);
    expect((await red.next("error")).code).toBe("invalid_payload");
    expect(blue.all("duel:bullet_fired")).toEqual([]);
    await red.send("duel_leave_game");
    await blue.next("duel:game_over");
    for (const client of [a, b, outsider]) client.close();
  });
});

describe("leaving and disconnecting mid-game", () => {
  test("a member who leaves loses; the other hears opponent_left and wins; the result is stored", async () => {
    const a = await member();
    const b = await member();
    const [red, blue] = await match(a, b);
    await start(red, blue);
    clock.advance(11_000);
    await blue.send("duel_leave_game");
    expect(await red.next("duel:opponent_left")).toMatchObject({ side: "blue" });
    const over = await red.next("duel:game_over");
    expect(over.result).toMatchObject({ winner_side: "red", reason: "opponent_left", game_duration: 11, rated: true });
    const stats = await red.next("duel:stats_update");
    expect(stats).toMatchObject({ wins: 1, total_games: 1 });
    // The leaver is free to search again at once.
    expect(await blue.send("duel_find_match")).toMatchObject({ success: true, status: "waiting" });
    await blue.send("duel_cancel_match");
    red.close();
    blue.close();
  });

  test("a member whose connection drops and stays away loses after the grace period: opponent_disconnected", async () => {
    const a = await member();
    const b = await member();
    const [red, blue] = await match(a, b);
    await start(red, blue);
    await closeAndWait(server, red);
    clock.advance(4_000);
    expect(blue.all("duel:game_over")).toEqual([]);
    clock.advance(1_000);
    expect(await blue.next("duel:opponent_disconnected")).toMatchObject({ side: "red" });
    const over = await blue.next("duel:game_over");
    expect(over.result).toMatchObject({ winner_side: "blue", reason: "opponent_disconnected" });
    expect(over.result.reason).toContain("disconnected");
    blue.close();
  });

  test("a member who reconnects within the grace period resumes the duel where it is", async () => {
    const a = await member();
    const b = await member();
    const [red, blue] = await match(a, b);
    await start(red, blue);
    await red.send("duel_word_typed", { typed_word: red.word("static").word });
    await closeAndWait(server, blue);
    clock.advance(2_000);
    const back = await openDuelClient(server, { token: blue.user.token });
    const found = await back.next("duel:match_found");
    expect(found).toMatchObject({ your_side: "blue", opponent_nickname: red.user.username });
    const resumed = await back.next("duel:game_start");
    expect(resumed.state.status).toBe("in_progress");
    const moving = resumed.state.word_blocks.find((w: { status: string }) => w.status === "moving_right");
    expect(moving.x).toBe(500); // 2 s at 50 px/s from the middle
    await back.send("duel_word_typed", { typed_word: moving.word });
    expect((await red.next("duel:block_defended")).block_id).toBe(moving.id);
    await red.send("duel_leave_game");
    expect((await back.next("duel:game_over")).result.reason).toBe("opponent_left");
    red.close();
    back.close();
  });
});

describe("guests", () => {
  test("a guest and a member play unrated: nothing is stored for either", async () => {
    const m = await member();
    const g = await guest();
    const [red, blue] = await match(m, g);
    await start(red, blue);
    clock.advance(60_000);
    const over = await m.next("duel:game_over");
    expect(over.result).toMatchObject({ winner_side: "draw", reason: "time_up_draw", rated: false });
    // The effect queues a stored duel's writes at once: none were queued.
    expect(duelRuntime(server.ctx)?.duel(over.session_id)?.pendingWrites).toBe(0);
    expect(m.all("duel:stats_update")).toEqual([]);
    const totals = await server.api("GET", "/api/rankings/duel/total-games?limit=100");
    expect(totals.body.some((e: { user_id: number }) => e.user_id === m.user.id)).toBe(false);
    expect(g.all("duel:match_found")[0].opponent_sid).toBe(`u_${m.user.id}`);
    expect(m.all("duel:match_found")[0].opponent_sid).toMatch(/^g_[0-9a-f]{12}$/);
    m.close();
    g.close();
  });
});

describe("the online list", () => {
  test("a socket without heartbeats for 15 s leaves the list; heartbeats keep one in it", async () => {
    const quiet = await guest();
    const lively = await guest();
    await quiet.send("duel_enter_menu");
    await lively.send("duel_enter_menu");
    const { my_sid: quietSid } = await quiet.send("duel_get_online_users");
    const { my_sid: livelySid } = await lively.send("duel_get_online_users");
    for (let i = 0; i < 4; i++) {
      clock.advance(5_000);
      await lively.send("duel_heartbeat", { timestamp: clock.now() });
    }
    clock.advance(1_000);
    const list = await lively.send("duel_get_online_users");
    const sids = list.users.map((u: { sid: string }) => u.sid);
    expect(sids).toContain(livelySid);
    expect(sids).not.toContain(quietSid);
    // The menu heard it too (coalesced update without the quiet socket).
    const update = lively.all("duel:user_list_update").at(-1);
    expect(update.users.map((u: { sid: string }) => u.sid)).not.toContain(quietSid);
    quiet.close();
    lively.close();
  });

  test("the list is validated and forced updates answer the socket itself", async () => {
    const g = await guest();
    await g.send("duel_update_user_list_force");
    const list = await g.next("duel:user_list_update");
    expect(list).toHaveProperty("waiting_count");
    const bad = await g.send("duel_heartbeat", { timestamp: { nested: true } });
    expect(bad.success).toBe(false);
    g.close();
  });
});

describe("rankings routes", () => {
  test("out-of-range queries are refused with 422", async () => {
    expect((await server.api("GET", "/api/rankings/duel/win-rate?limit=0")).status).toBe(422);
    expect((await server.api("GET", "/api/rankings/duel/recent-activity?days=999")).status).toBe(422);
    expect((await server.api("GET", "/api/rankings/duel/win-streak?limit=abc")).status).toBe(422);
    expect((await server.api("GET", "/api/rankings/duel/win-streak")).status).toBe(200);
  });

  test("a member's own figures need a login: 401 with a Korean detail; before any duel, 1500 and zeros", async () => {
    const anonymous = await server.api("GET", "/api/duel/stats/me");
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.detail).toBe("로그인이 필요합니다.");
    const user = await server.createUser("새결투자", { email: `new-duelist-${Date.now()}@example.com` });
    const own = await server.api("GET", "/api/duel/stats/me", { token: user.token });
    expect(own.body).toEqual({
      user_id: user.id,
      rating: 1500,
      wins: 0,
      losses: 0,
      draws: 0,
      total_games: 0,
      win_rate: 0,
      current_streak: 0,
      max_win_streak: 0,
    });
  });
});

describe('trust rules: early forfeits and the daily pair limit (product-rules "Trust rules")', () => {
  /** The two members' own duel figures, as their profile reads them. */
  const figures = async (...players: { user: { token: string } }[]) =>
    Promise.all(
      players.map(async (p) => (await server.api("GET", "/api/duel/stats/me", { token: p.user.token })).body),
    );

  const matchRated = <P extends DuelClient>(a: P, b: P) => matchAcrossGap(clock, a, b);

  /** A duel of a and b in which `leaver` leaves `afterMs` into play; answers the game_over both saw. */
  async function duelEndedByLeave<P extends DuelClient>(a: P, b: P, leaver: "red" | "blue", afterMs: number) {
    const [red, blue] = await matchRated(a, b);
    await start(red, blue);
    clock.advance(afterMs);
    const [going, staying] = leaver === "red" ? [red, blue] : [blue, red];
    await going.send("duel_leave_game");
    const over = await staying.next("duel:game_over", (p) => p.session_id === staying.sessionId);
    // Both out of the duel, ready for the next one.
    await staying.send("duel_leave_game");
    await drained();
    return { over, red, blue };
  }

  test("a leave 0.3 s into play and a disconnect 9 s into play store nothing and change no rating", async () => {
    const a = await member();
    const b = await member();
    // One rated duel first, so both have a rating that must not move.
    const first = await duelEndedByLeave(a, b, "blue", 12_000);
    expect(first.over.result).toMatchObject({ reason: "opponent_left", rated: true });
    await Promise.all([a.next("duel:stats_update"), b.next("duel:stats_update")]);
    const before = await figures(a, b);
    expect(before.map((f) => f.total_games)).toEqual([1, 1]);
    const statsSeen = a.all("duel:stats_update").length + b.all("duel:stats_update").length;

    const early = await duelEndedByLeave(a, b, "red", 300);
    expect(early.over.result).toMatchObject({ winner_side: "blue", reason: "opponent_left", played: true });
    expect(early.over.result.rated).toBe(false);
    expect(await duelStore(server.ctx).duelBySession(early.over.session_id)).toBeNull();

    // A connection that drops 9 s into play: the grace period ends the duel at 14 s, but the forfeit came at 9 s.
    const [red, blue] = await matchRated(a, b);
    await start(red, blue);
    clock.advance(9_000);
    await closeAndWait(server, red);
    clock.advance(5_000);
    const dropped = await blue.next("duel:game_over", (p) => p.session_id === blue.sessionId);
    expect(dropped.result).toMatchObject({ winner_side: "blue", reason: "opponent_disconnected", rated: false });
    await blue.send("duel_leave_game");
    await drained();
    expect(await duelStore(server.ctx).duelBySession(dropped.session_id)).toBeNull();

    expect(await figures(a, b)).toEqual(before);
    expect(a.all("duel:stats_update").length + b.all("duel:stats_update").length).toBe(statsSeen);
    const streaks = await server.api("GET", "/api/rankings/duel/win-streak?limit=100");
    const mine = streaks.body.filter((e: { user_id: number }) => [a.user.id, b.user.id].includes(e.user_id));
    expect(mine.map((e: { total_games: number }) => e.total_games)).toEqual([1]);
    a.close();
    b.close();
  });

  test("the 4th duel of the same two members in a Seoul day is stored but unrated; the next day rates again", async () => {
    const a = await member();
    const b = await member();
    // Three rated duels, the sides changing (the pair counts whichever side each plays).
    for (const [first, second] of [
      [a, b],
      [b, a],
      [a, b],
    ]) {
      const { over } = await duelEndedByLeave(first, second, "blue", 15_000);
      expect(over.result.rated).toBe(true);
    }
    const afterThree = await figures(a, b);
    expect(afterThree.map((f) => f.total_games)).toEqual([3, 3]);

    const fourth = await duelEndedByLeave(b, a, "blue", 15_000);
    const stats = await fourth.red.next("duel:stats_update", (p) => p.rated === false);
    expect(stats).toMatchObject({ rating_change: 0, total_games: 3 });
    // Stored (the duel's history), but neither the ratings nor the figures moved.
    expect(await duelStore(server.ctx).duelBySession(fourth.over.session_id)).not.toBeNull();
    expect(await figures(a, b)).toEqual(afterThree);

    // The next Seoul day (Seoul midnight is 15:00 UTC) the pair is rated again.
    clock.advance(24 * 3_600_000);
    const fifth = await duelEndedByLeave(a, b, "blue", 15_000);
    expect(fifth.over.result.rated).toBe(true);
    const rated = await fifth.red.next("duel:stats_update", (p) => p.rated === true && p.total_games === 4);
    expect(rated.rating_change).not.toBe(0);
    a.close();
    b.close();
  });
});
