import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import type { GameFinishedEvent } from "../games";
import { sharedScheduler, WATCHER_FRAME_MS } from "../kernel/game-host";
import { progressAt } from "../kernel/race-steps";
import { keystrokes, scoreTyping } from "../kernel/typing";
import { computeRewards } from "../rooms";
import { GUILD_GAME_MSG } from "./guild-game";
import { GUILD_MSG } from "./rules";
import { type GuildClient, type GuildServer, openGuildClient, startGuildServer } from "./test-support";

/**
 * The guild game over real sockets on a fake clock (TEST_DATABASE=postgres runs it on PostgreSQL): what members see
 * (countdown, start, progress of the others, end, results), what is stored (results in the games module with the
 * guild's name, rewards on the accounts) and who may do what.
 */
let g: GuildServer;
let f: Awaited<ReturnType<GuildServer["guildWithRoles"]>>;
const open: GuildClient[] = [];
const PROBLEM = "가는 말이 고와야 오는 말이 곱다";
const OTHER = "하늘 천 따 지 검을 현 누를 황";
/** PROBLEM has 36 keystrokes: its games pay 36/60 of a room game's experience, coins and points. */
const SHARE = keystrokes(PROBLEM) / 60;
const scaled = (value: number) => Math.round(value * SHARE);
/** 68 keystrokes: a full room game's rewards. */
const LONG = "세 살 버릇 여든까지 간다, 천 리 길도 한 걸음부터 시작한다";

/** A server (and a guild with its five roles and two problems) per group: registrations are throttled per address. */
function ownServer(name: string) {
  beforeAll(async () => {
    g = await startGuildServer();
    f = await g.guildWithRoles(name);
    await g.ok(200, "PUT", `/api/guilds/${f.guild.id}/problems`, f.admin.token, { problems: [OTHER, PROBLEM] });
  });
  afterAll(() => g.server.stop());
}
afterEach(async () => {
  for (const client of open.splice(0)) client.close();
  // A game left running by a test must not leak into the next: let it run out.
  g.clock.advance(400_000);
  await sharedScheduler(g.server.ctx).drain();
});

/** A member's socket inside the guild room (after its `guild:joined` and the game's state); `spectate`: watching. */
async function inRoom(token: string, spectate?: boolean) {
  const c = await openGuildClient(g.server, token);
  open.push(c);
  c.emit("guild:join", spectate ? { guild_id: f.guild.id, spectate } : { guild_id: f.guild.id });
  await c.next("guild:joined");
  await c.next("guild_game:state");
  return c;
}

/** Lets the scheduler send what is due now (the coalesced state) and waits until `who` has received it. */
async function flush(...who: GuildClient[]) {
  g.clock.advance(100);
  for (const c of who) await c.sync();
}

/**
 * The admin starts a game with PROBLEM; everyone given sees the countdown, then (after it) the start. Watchers among
 * them get each after the players, in their next frame (kernel game-host README "Watchers").
 */
async function startGame(admin: GuildClient, players: GuildClient[], extra: Record<string, unknown> = {}) {
  admin.emit("guild_game:start_request", { guild_id: f.guild.id, problem: PROBLEM, ...extra });
  await admin.sync();
  g.clock.advance(WATCHER_FRAME_MS);
  for (const c of players) expect((await c.next("guild_game:countdown")).seconds).toBe(5);
  g.clock.advance(5_000 - WATCHER_FRAME_MS);
  for (const c of players) {
    const started = await c.next("guild_game:start");
    expect(started.state).toMatchObject({ status: "in_progress", problem: PROBLEM });
  }
}

/**
 * Types `text` as a person does: one more character every `everyMs` of the server's clock (each change a step),
 * from `from` characters on; the last step is the whole text.
 */
async function typeOut(c: GuildClient, text: string, from = 0, everyMs = 250) {
  const chars = [...text];
  for (let i = from + 1; i <= chars.length; i++) {
    g.clock.advance(everyMs);
    c.emit("guild_game:progress", { guild_id: f.guild.id, typed_text: chars.slice(0, i).join("") });
    await c.sync();
  }
}

const me = async (token: string) => g.ok(200, "GET", "/api/users/me", token);
const records = async (user: { id: number; token: string }) =>
  g.ok(200, "GET", `/api/games/results/user/${user.id}`, user.token);

describe("a whole guild game", () => {
  ownServer("타자길드");

  test("two members: countdown, the other's progress, exact answers by finishing order, results stored and rewarded", async () => {
    const admin = await inRoom(f.admin.token);
    const member = await inRoom(f.member.token);
    const [adminBefore, memberBefore] = [await me(f.admin.token), await me(f.member.token)];

    await startGame(admin, [admin, member]);
    admin.emit("guild_game:progress", { guild_id: f.guild.id, typed_text: "가" });
    await admin.sync();
    member.emit("guild_game:progress", { guild_id: f.guild.id, typed_text: "가는 말이" });
    await member.sync();
    await flush(admin);
    const seen = admin.all("guild_game:state").at(-1);
    expect(seen.participants.map((p: { username: string; progress: number }) => [p.username, p.progress])).toEqual([
      [f.admin.username, Math.round((1 / [...PROBLEM].length) * 10_000) / 10_000],
      [f.member.username, Math.round((5 / [...PROBLEM].length) * 10_000) / 10_000],
    ]);

    // Each types the rest one character every 250 ms (the page sends every change: the answer is the last step).
    g.clock.advance(3_650); // the frame took 100 ms
    await typeOut(member, PROBLEM, 5); // 13 characters: 7 s after the start
    member.emit("guild_game:submission", { guild_id: f.guild.id, typed_text: PROBLEM });
    await member.sync();
    await typeOut(admin, PROBLEM, 2, 125); // 16 characters: 9 s
    admin.emit("guild_game:submission", { guild_id: f.guild.id, typed_text: PROBLEM });
    const end = await admin.next("guild_game:end");
    expect(end.reason).toBe("all_finished");
    expect(end.state.participants.map((p: { position: number }) => p.position)).toEqual([2, 1]);

    await sharedScheduler(g.server.ctx).drain();
    const results = await member.next("guild_game:results");
    const memberWpm = scoreTyping(PROBLEM, PROBLEM, 7).wpm;
    const adminWpm = scoreTyping(PROBLEM, PROBLEM, 9).wpm;
    expect(
      results.results.map((r: Record<string, unknown>) => [r.position, r.username, r.wpm, r.completion_time]),
    ).toEqual([
      [1, f.member.username, memberWpm, 7],
      [2, f.admin.username, adminWpm, 9],
    ]);
    // The rooms' rewards scaled by the problem's keystrokes (36 of the 60 that pay in full).
    expect(SHARE).toBe(0.6);
    const memberRewards = computeRewards({ wpm: memberWpm, accuracy: 100, position: 1, participants: 2 });
    expect(results.results[0].rewards).toEqual({
      experience: scaled(memberRewards.experience),
      coins: 18,
      points: scaled(memberRewards.points),
      medal: "gold",
    });
    const stats = await member.next("user:stats_update");
    expect(stats).toMatchObject({ user_id: f.member.id, guild_id: f.guild.id, coins: memberBefore.coins + 18 });

    // Stored: the games module's records carry the guild's name; the accounts got the rooms' rewards.
    const [memberRecord] = await records(f.member);
    expect(memberRecord).toMatchObject({ room_name: "타자길드", mode: "guild_game", position: 1, medal: "gold" });
    expect((await records(f.admin))[0]).toMatchObject({ room_name: "타자길드", position: 2, medal: "silver" });
    expect(await me(f.member.token)).toMatchObject({
      coins: memberBefore.coins + 18,
      gold_medals: memberBefore.gold_medals + 1,
    });
    expect(await me(f.admin.token)).toMatchObject({
      coins: adminBefore.coins + 12,
      silver_medals: adminBefore.silver_medals + 1,
    });
    // …and the guild's recent activity tells of it.
    const my = await g.ok(200, "GET", "/api/guilds/my", f.member.token);
    expect(my.recent_activity[0]).toMatchObject({ type: "game" });
    expect(my.recent_activity[0].message).toContain(`1위 ${f.member.username}`);
  });

  test("progress is coalesced: fifteen keystrokes within one frame reach the others as ONE state with the last", async () => {
    const admin = await inRoom(f.admin.token);
    const member = await inRoom(f.member.token);
    await startGame(admin, [admin, member]);
    await flush(admin);
    const before = admin.all("guild_game:state").length;
    const letters = [...PROBLEM];
    for (let i = 1; i <= 15; i++) {
      member.emit("guild_game:progress", { guild_id: f.guild.id, typed_text: letters.slice(0, i).join("") });
    }
    await member.sync();
    await admin.sync();
    // Nothing is sent per keystroke: the one frame waits for the scheduler's next turn (the fake clock stands still).
    expect(admin.all("guild_game:state").length).toBe(before);
    await flush(admin);
    const frames = admin.all("guild_game:state").slice(before);
    expect(frames).toHaveLength(1);
    expect(frames[0].participants[1].progress).toBe(Math.round((15 / letters.length) * 10_000) / 10_000);
  });

  test("end by time: after end_countdown_seconds the game ends with whoever finished (a lone finisher: no medal)", async () => {
    const admin = await inRoom(f.admin.token);
    const member = await inRoom(f.member.token);
    const before = await me(f.member.token);
    await startGame(admin, [admin, member], { end_countdown_seconds: 30 });
    g.clock.advance(10_000);
    member.emit("guild_game:submission", { guild_id: f.guild.id, typed_text: PROBLEM, elapsed_time: 9.5 });
    await member.sync();
    g.clock.advance(19_999);
    await admin.sync();
    expect(admin.all("guild_game:end")).toHaveLength(0);
    g.clock.advance(1);
    const end = await admin.next("guild_game:end");
    expect(end.reason).toBe("time_up");
    await sharedScheduler(g.server.ctx).drain();
    const results = await admin.next("guild_game:results");
    // The server's time: the client's elapsed_time is not used (product-rules "Live race and replays").
    expect(results.results.map((r: Record<string, unknown>) => [r.position, r.username, r.completion_time])).toEqual([
      [1, f.member.username, 10],
    ]);
    expect(results.results[0].rewards).toMatchObject({ coins: scaled(5), medal: null });
    expect(await me(f.member.token)).toMatchObject({ coins: before.coins + 3, gold_medals: before.gold_medals });
    expect((await records(f.member))[0]).toMatchObject({ room_name: "타자길드", position: 1, medal: null });
    expect(await records(f.admin)).toHaveLength(1); // the admin's record of the first game only
  });
});

describe("live speed (lanes) and watching", () => {
  ownServer("관전길드");
  const names = (list: { username: string }[]) => list.map((p) => p.username);

  test("each participant's live 타/분 since the start is in the state, like the rooms' lanes; a finisher's is the result's", async () => {
    const admin = await inRoom(f.admin.token);
    const member = await inRoom(f.member.token);
    await startGame(admin, [admin, member]);
    g.clock.advance(2_000);
    member.emit("guild_game:progress", { guild_id: f.guild.id, typed_text: "가는 말이" });
    await member.sync();
    await flush(admin);
    const live = progressAt({ t: 2_000, text: "가는 말이" }, PROBLEM);
    expect(live.wpm).toBeGreaterThan(0);
    const [adminLane, memberLane] = admin.all("guild_game:state").at(-1).participants;
    expect(adminLane).toMatchObject({ progress: 0, wpm: 0, completed: false });
    expect(memberLane).toMatchObject({ progress: live.progress, wpm: live.wpm, completed: false, position: null });

    g.clock.advance(1_000);
    await typeOut(member, PROBLEM, 5);
    member.emit("guild_game:submission", { guild_id: f.guild.id, typed_text: PROBLEM });
    await member.sync();
    await flush(admin);
    const finished = admin.all("guild_game:state").at(-1).participants[1];
    expect(finished).toMatchObject({ progress: 1, completed: true, position: 1, completion_time: 6.35 });
    expect(finished.wpm).toBe(scoreTyping(PROBLEM, PROBLEM, 6.35).wpm);
  });

  test("a member watches: listed apart, sees the lanes, never plays nor holds the end; their input is refused", async () => {
    const admin = await inRoom(f.admin.token);
    const member = await inRoom(f.member.token);
    const watcher = await inRoom(f.moderator.token, true);
    expect(names(watcher.all("guild_game:state").at(-1).spectators)).toEqual([f.moderator.username]);

    await startGame(admin, [admin, member, watcher]);
    const started = watcher.all("guild_game:start").at(-1).state;
    expect(names(started.participants)).toEqual([f.admin.username, f.member.username]);
    expect(names(started.spectators)).toEqual([f.moderator.username]);

    // The watcher sees the players' lanes move (progress and live speed) like everyone.
    g.clock.advance(1_000);
    member.emit("guild_game:progress", { guild_id: f.guild.id, typed_text: "가는" });
    admin.emit("guild_game:progress", { guild_id: f.guild.id, typed_text: "가" });
    await member.sync();
    await admin.sync();
    await flush(watcher);
    const lane = watcher.all("guild_game:state").at(-1).participants[1];
    expect(lane).toMatchObject({
      username: f.member.username,
      wpm: progressAt({ t: 1_000, text: "가는" }, PROBLEM).wpm,
    });

    for (const event of ["guild_game:progress", "guild_game:submission"]) {
      watcher.emit(event, { guild_id: f.guild.id, typed_text: event.endsWith("progress") ? "가" : PROBLEM });
      expect(await watcher.next("error")).toMatchObject({
        message: GUILD_GAME_MSG.spectating,
        code: "spectating",
        event,
      });
    }

    // The two players finish: the game ends at once, the watcher holding nothing.
    g.clock.advance(4_000);
    await typeOut(member, PROBLEM, 2);
    member.emit("guild_game:submission", { guild_id: f.guild.id, typed_text: PROBLEM });
    await member.sync();
    await typeOut(admin, PROBLEM, 1);
    admin.emit("guild_game:submission", { guild_id: f.guild.id, typed_text: PROBLEM });
    await admin.next("guild_game:end");
    g.clock.advance(WATCHER_FRAME_MS);
    expect((await watcher.next("guild_game:end")).reason).toBe("all_finished");
    await sharedScheduler(g.server.ctx).drain();
    await admin.next("guild_game:results");
    g.clock.advance(WATCHER_FRAME_MS);
    const results = await watcher.next("guild_game:results");
    expect(results.participants).toBe(2);
    expect(names(results.results)).not.toContain(f.moderator.username);
    expect(await records(f.moderator)).toEqual([]);

    // Joining again without `spectate`: a player of the next game.
    watcher.emit("guild:join", { guild_id: f.guild.id });
    await flush(watcher);
    expect(watcher.all("guild_game:state").at(-1).spectators).toEqual([]);
    admin.emit("guild_game:start_request", { guild_id: f.guild.id, problem: PROBLEM });
    await admin.sync();
    await flush(watcher);
    expect(watcher.all("guild_game:state").at(-1).status).toBe("countdown");
    expect(names(watcher.all("guild_game:state").at(-1).participants)).toContain(f.moderator.username);
  });
});

describe("watchers' chat, and who may watch", () => {
  ownServer("구경길드");

  test("watchers chat with each other and with the players, as guild chat", async () => {
    const fourth = await g.user("관전");
    await g.addMember(f.guild.id, f.admin, fourth);
    const player = await inRoom(f.member.token);
    const one = await inRoom(f.moderator.token, true);
    const two = await inRoom(fourth.token, true);
    one.emit("guild:message", { guild_id: f.guild.id, message: "같이 구경해요" });
    for (const c of [player, one, two]) {
      expect(await c.next("guild:message", (m) => m.message === "같이 구경해요")).toMatchObject({
        username: f.moderator.username,
      });
    }
  });

  test("a non-member (or a guest) is refused watching, and sees nothing of the game", async () => {
    const outsider = await openGuildClient(g.server, f.outsider.token);
    const guest = await openGuildClient(g.server);
    open.push(outsider, guest);
    for (const [c, text] of [
      [outsider, GUILD_MSG.notMember],
      [guest, "로그인이 필요합니다."],
    ] as const) {
      c.emit("guild:join", { guild_id: f.guild.id, spectate: true });
      expect(await c.next("error")).toMatchObject({ message: text, event: "guild:join" });
      await c.sync();
      expect(c.all("guild_game:state")).toEqual([]);
      expect(c.all("guild:joined")).toEqual([]);
    }
  });
});

describe("rewards per Seoul day", () => {
  ownServer("보상길드");

  /** One game of `players` with LONG, each answering after `seconds[i]`; answers `guild_game:results`. */
  async function game(admin: GuildClient, players: GuildClient[], seconds: number[]) {
    admin.emit("guild_game:start_request", { guild_id: f.guild.id, problem: LONG, countdown_seconds: 1 });
    await admin.next("guild_game:countdown");
    g.clock.advance(1_000);
    for (const c of players) await c.next("guild_game:start");
    let at = 0;
    for (const [i, c] of players.entries()) {
      g.clock.advance((seconds[i] - at) * 1_000);
      at = seconds[i];
      c.emit("guild_game:submission", { guild_id: f.guild.id, typed_text: LONG });
      await c.sync();
    }
    await admin.next("guild_game:end");
    await sharedScheduler(g.server.ctx).drain();
    return admin.next("guild_game:results");
  }

  test("a problem of 60+ keystrokes pays a room game's rewards; from the 31st guild game of the day, nothing", async () => {
    await g.ok(200, "PUT", `/api/guilds/${f.guild.id}/problems`, f.admin.token, { problems: [LONG] });
    const admin = await inRoom(f.admin.token);
    const member = await inRoom(f.member.token);
    const before = await me(f.member.token);
    // 30 rewarded games of two: the member wins each (a gold medal and 30 coins, the rooms' full rewards).
    for (let i = 1; i <= 30; i++) {
      const results = await game(admin, [member, admin], [8, 9]);
      expect(results.results[0]).toMatchObject({ username: f.member.username, position: 1 });
      expect(results.results[0].rewards).toMatchObject({ coins: 30, medal: "gold" });
    }
    const after30 = await me(f.member.token);
    expect(after30).toMatchObject({ coins: before.coins + 900, gold_medals: before.gold_medals + 30 });

    // The 31st: played, shown and stored, but nothing paid (no experience, coins, points or medal).
    const capped = await game(admin, [member, admin], [8, 9]);
    expect(capped.results.map((r: { position: number; rewards: unknown }) => [r.position, r.rewards])).toEqual([
      [1, { experience: 0, coins: 0, points: 0, medal: null }],
      [2, { experience: 0, coins: 0, points: 0, medal: null }],
    ]);
    expect(await me(f.member.token)).toMatchObject({
      coins: after30.coins,
      experience: after30.experience,
      level: after30.level,
      gold_medals: after30.gold_medals,
      points: after30.points,
    });
    const [stored] = await records(f.member);
    expect(stored).toMatchObject({ room_name: "보상길드", position: 1, medal: null });

    // The next Seoul day pays again.
    g.clock.advance(24 * 3_600_000);
    const nextDay = await game(admin, [member, admin], [8, 9]);
    expect(nextDay.results[0].rewards).toMatchObject({ coins: 30, medal: "gold" });
  });
});

describe("three members", () => {
  ownServer("세명길드");

  test("progress of all three, exact answers by finishing order, a wrong text never finishes, the end by time-out", async () => {
    const admin = await inRoom(f.admin.token);
    const moderator = await inRoom(f.moderator.token);
    const member = await inRoom(f.member.token);
    await startGame(admin, [admin, moderator, member], { end_countdown_seconds: 30 });
    moderator.emit("guild_game:progress", { guild_id: f.guild.id, typed_text: "가는 말이 고와야" });
    member.emit("guild_game:progress", { guild_id: f.guild.id, typed_text: "가는" });
    await moderator.sync();
    await member.sync();
    await flush(admin);
    const progress = admin
      .all("guild_game:state")
      .at(-1)
      .participants.map((p: { progress: number }) => p.progress);
    expect(progress).toEqual(
      [0, 9 / [...PROBLEM].length, 2 / [...PROBLEM].length].map((x) => Math.round(x * 10_000) / 10_000),
    );

    g.clock.advance(3_250);
    await typeOut(member, PROBLEM, 2); // 7 s after the start
    member.emit("guild_game:submission", { guild_id: f.guild.id, typed_text: PROBLEM });
    await member.sync();
    g.clock.advance(2_000);
    admin.emit("guild_game:submission", { guild_id: f.guild.id, typed_text: PROBLEM });
    await admin.sync();
    // The moderator's answer has a typo: refused, and the game goes on for them.
    moderator.emit("guild_game:submission", { guild_id: f.guild.id, typed_text: `${PROBLEM}.` });
    expect((await moderator.next("error")).code).toBe("mismatch");
    expect(admin.all("guild_game:end")).toHaveLength(0);

    g.clock.advance(21_000); // 30 s after the start
    const end = await admin.next("guild_game:end");
    expect(end.reason).toBe("time_up");
    await sharedScheduler(g.server.ctx).drain();
    const results = await moderator.next("guild_game:results");
    expect(results.results.map((r: { position: number; username: string }) => [r.position, r.username])).toEqual([
      [1, f.member.username],
      [2, f.admin.username],
    ]);
  });
});

describe("who may start, and what counts", () => {
  ownServer("규칙길드");

  test("a non-admin's start is refused with the spec's text and nothing starts; bad starts are refused too", async () => {
    const admin = await inRoom(f.admin.token);
    const moderator = await inRoom(f.moderator.token);
    const member = await inRoom(f.member.token);
    const cases: [GuildClient, string, unknown, string][] = [
      [member, "guild_game:start_request", { guild_id: f.guild.id }, GUILD_MSG.adminOnly],
      [moderator, "guild_game:start_request", { guild_id: f.guild.id, problem: PROBLEM }, GUILD_MSG.adminOnly],
      [member, "guild:message", { guild_id: f.guild.id, message: "/start" }, GUILD_MSG.adminOnly],
      [
        admin,
        "guild_game:start_request",
        { guild_id: f.guild.id, problem: "없는 문제" },
        GUILD_GAME_MSG.unknownProblem,
      ],
      [admin, "guild_game:start_request", { guild_id: f.guild.id, countdown_seconds: 11 }, GUILD_MSG.countdownRange],
      [
        admin,
        "guild_game:start_request",
        { guild_id: f.guild.id, end_countdown_seconds: 10 },
        GUILD_MSG.endCountdownRange,
      ],
      [member, "guild_game:submission", { guild_id: f.guild.id, typed_text: PROBLEM }, GUILD_GAME_MSG.noGame],
    ];
    for (const [who, event, payload, message] of cases) {
      who.emit(event, payload);
      expect({ event, error: (await who.next("error")).message }).toEqual({ event, error: message });
    }
    g.clock.advance(10_000);
    await member.sync();
    expect(member.all("guild_game:countdown")).toEqual([]);

    // The admin's /start draws one of the guild's problems; one live game per guild.
    admin.emit("guild:message", { guild_id: f.guild.id, message: "/start" });
    await member.next("guild_game:countdown");
    admin.emit("guild_game:start_request", { guild_id: f.guild.id });
    expect((await admin.next("error")).message).toBe(GUILD_GAME_MSG.alreadyRunning);
    g.clock.advance(5_000);
    expect([OTHER, PROBLEM]).toContain((await member.next("guild_game:start")).state.problem);
  });

  test("a wrong text never finishes (the player goes on); progress counts only the correct prefix", async () => {
    const admin = await inRoom(f.admin.token);
    const member = await inRoom(f.member.token);
    await startGame(admin, [admin, member]);
    g.clock.advance(5_000);
    for (const wrong of [`${PROBLEM}!`, "가는 말이 고와야 오는 말이 곱따", PROBLEM.slice(0, -1)]) {
      member.emit("guild_game:submission", { guild_id: f.guild.id, typed_text: wrong });
      expect((await member.next("error")).message).toBe(GUILD_GAME_MSG.mismatch);
    }
    await typeOut(member, "가는 말니 고와야");
    await flush(admin);
    const state = admin.all("guild_game:state").at(-1);
    expect(state.status).toBe("in_progress");
    expect(state.participants[1]).toMatchObject({ completed: false, position: null });
    expect(state.participants[1].progress).toBe(Math.round((4 / [...PROBLEM].length) * 10_000) / 10_000);
    expect(await records(f.member)).toEqual([]);

    member.emit("guild_game:progress", { guild_id: f.guild.id, typed_text: "" });
    await typeOut(member, PROBLEM);
    member.emit("guild_game:submission", { guild_id: f.guild.id, typed_text: PROBLEM });
    await member.sync();
    await flush(admin);
    expect(admin.all("guild_game:state").at(-1).participants[1]).toMatchObject({ completed: true, position: 1 });
  });
});

describe("implausible results and late arrivals", () => {
  ownServer("검증길드");

  test("an exact answer 0.1 s after the start never counts: refused, no position, no reward, no counted record", async () => {
    const admin = await inRoom(f.admin.token);
    const member = await inRoom(f.member.token);
    const before = await me(f.member.token);
    await startGame(admin, [admin, member]);
    g.clock.advance(100);
    member.emit("guild_game:submission", { guild_id: f.guild.id, typed_text: PROBLEM });
    expect((await member.next("error")).message).toBe(GUILD_GAME_MSG.implausible);
    // Used up: a second try is refused too, and the game goes on for the admin.
    member.emit("guild_game:submission", { guild_id: f.guild.id, typed_text: PROBLEM });
    expect((await member.next("error")).message).toBe(GUILD_GAME_MSG.alreadyDone);
    g.clock.advance(9_900);
    admin.emit("guild_game:submission", { guild_id: f.guild.id, typed_text: PROBLEM });
    expect((await admin.next("guild_game:end")).reason).toBe("all_finished");
    await sharedScheduler(g.server.ctx).drain();
    const results = await admin.next("guild_game:results");
    expect(results.results.map((r: { username: string; position: number }) => [r.username, r.position])).toEqual([
      [f.admin.username, 1],
    ]);
    expect(await records(f.member)).toEqual([]);
    expect(await me(f.member.token)).toMatchObject({ coins: before.coins, experience: before.experience });
  });

  test("a member who enters during the game sees it at once and plays on the same clock", async () => {
    const admin = await inRoom(f.admin.token);
    await startGame(admin, [admin]);
    g.clock.advance(3_000);
    const late = await inRoom(f.member.token);
    const welcome = late.all("guild_game:state")[0];
    expect(welcome).toMatchObject({ status: "in_progress", problem: PROBLEM });
    expect(welcome.participants.map((p: { username: string }) => p.username)).toEqual([
      f.admin.username,
      f.member.username,
    ]);
    g.clock.advance(5_000);
    late.emit("guild_game:submission", { guild_id: f.guild.id, typed_text: PROBLEM });
    await late.sync();
    await flush(admin);
    expect(admin.all("guild_game:state").at(-1).participants[1]).toMatchObject({
      completed: true,
      position: 1,
      completion_time: 8,
    });
  });
});

describe("leaving mid-game", () => {
  ownServer("이탈길드");

  test("a member who leaves is out at once, a lost connection after the grace, a kicked one at once", async () => {
    const admin = await inRoom(f.admin.token);
    const moderator = await inRoom(f.moderator.token);
    const member = await inRoom(f.member.token);
    await startGame(admin, [admin, moderator, member]);
    g.clock.advance(8_000);
    admin.emit("guild_game:submission", { guild_id: f.guild.id, typed_text: PROBLEM });
    await admin.sync();

    // guild:leave: out of the game at once (unfinished: dropped from the participants).
    moderator.emit("guild:leave", { guild_id: f.guild.id });
    await moderator.sync();
    await flush(admin);
    const names = (state: { participants: { username: string }[] }) => state.participants.map((p) => p.username);
    expect(names(admin.all("guild_game:state").at(-1))).toEqual([f.admin.username, f.member.username]);

    // A lost connection keeps the place for the reconnect grace: the game waits for the member…
    member.close();
    await admin.sync();
    g.clock.advance(9_000);
    await admin.sync();
    expect(admin.all("guild_game:end")).toHaveLength(0);
    // …and a reconnect within it resumes the same game.
    const back = await inRoom(f.member.token);
    expect(back.all("guild_game:state")[0]).toMatchObject({ status: "in_progress" });
    expect(names(back.all("guild_game:state")[0])).toEqual([f.admin.username, f.member.username]);

    // Kicked mid-game: out at once; everyone left has finished, so the game ends.
    await g.ok(200, "DELETE", `/api/guilds/${f.guild.id}/members/${f.plainMember.id}`, f.admin.token);
    const end = await admin.next("guild_game:end");
    expect(end.reason).toBe("all_finished");
    expect(names(end.state)).toEqual([f.admin.username]);
    await sharedScheduler(g.server.ctx).drain();
    expect((await admin.next("guild_game:results")).results.map((r: { username: string }) => r.username)).toEqual([
      f.admin.username,
    ]);
  });

  test("a dropped connection that does not come back is out when the grace ends", async () => {
    const admin = await inRoom(f.admin.token);
    const moderator = await inRoom(f.moderator.token);
    await startGame(admin, [admin, moderator]);
    g.clock.advance(8_000);
    admin.emit("guild_game:submission", { guild_id: f.guild.id, typed_text: PROBLEM });
    await admin.sync();
    moderator.close();
    await admin.sync();
    g.clock.advance(10_000);
    expect((await admin.next("guild_game:end")).reason).toBe("all_finished");
  });
});

describe("server shutdown", () => {
  ownServer("종료길드");

  test("a running game ends as stopped: the players are told and the results so far are stored and closed", async () => {
    const admin = await inRoom(f.admin.token);
    const member = await inRoom(f.member.token);
    await startGame(admin, [admin, member]);
    g.clock.advance(9_000);
    member.emit("guild_game:submission", { guild_id: f.guild.id, typed_text: PROBLEM });
    await member.sync();
    const stored: GameFinishedEvent[] = [];
    g.server.ctx.events.on("games.game_finished", (event) => stored.push(event));

    await g.server.stop();
    expect((await admin.next("guild_game:end")).reason).toBe("stopped");
    expect(stored).toEqual([
      expect.objectContaining({
        mode: "guild_game",
        sourceId: String(f.guild.id),
        sourceName: "종료길드",
        participants: 1,
      }),
    ]);
  });
});
