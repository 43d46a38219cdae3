import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer, type TestUser } from "../../apps/server/testing";
import { storeDb, tablesFor } from "../../db/store";
import { accountsApi } from "../accounts";
import { pruneReplays, REPLAY_RULES } from "../games";
import { createRandom, FakeClock } from "../kernel/clock";
import { sharedScheduler } from "../kernel/game-host";
import { DAY_MS, seoulDate } from "../kernel/seoul-time";
import { closeAndWait, openTestClient, type TestClient } from "../kernel/socket-testing";
import { scoreTyping } from "../kernel/typing";
import { rankingsSettled, rebuildRankings } from "../rankings";
import { sentencesOfThemes } from "../rooms";
import { closePastDays, dailyRuntime, dayOf } from ".";
import { DAILY_MESSAGES } from "./daily-mode";
import { DAILY_RULES, dayBefore } from "./rules";
import * as sqliteSchema from "./schema";
import * as pgSchema from "./schema.pg";
import { dailyStoreOf } from "./store";

/**
 * 오늘의 문장 over real sockets and HTTP on a fake clock (TEST_DATABASE=postgres runs it on PostgreSQL): the day's
 * sentence, attempts timed by the server, what is stored and paid, the board, the medals, and the rankings that
 * leave the mode out. The server's random source always picks the first candidate, so the sentence chosen is the
 * first sentence the rule allows.
 */
let server: TestServer;
let clock: FakeClock;
const open: TestClient[] = [];
// 12:00 in Seoul on 2026-04-01.
const START = Date.UTC(2026, 3, 1, 3, 0, 0);

beforeAll(async () => {
  clock = new FakeClock(START);
  server = await startTestServer({ clock, random: createRandom(() => 0) });
});
afterAll(() => server.stop());
afterEach(async () => {
  for (const c of open.splice(0)) await closeAndWait(server, c);
  clock.advance(120_000);
  await sharedScheduler(server.ctx).drain();
});

async function client(user?: TestUser, clientId = `guest-${crypto.randomUUID()}`) {
  const c = await openTestClient(server, user ? { token: user.token } : { client_id: clientId });
  open.push(c);
  const joined = await c.ack("daily:join");
  expect(joined).toMatchObject({ success: true, day: seoulDate(clock.now()) });
  await c.next("daily:state");
  return Object.assign(c, { best: joined.best });
}

/** One attempt: start, the countdown, one more character every `everyMs` (each a step), the answer at the last step. */
async function attempt(c: TestClient, everyMs = 250) {
  const sentence = (await dayOf(server.ctx)).sentenceText;
  c.emit("daily:start");
  await c.next("daily:countdown", (p) => p.number === 3);
  clock.advance(3_000);
  const state = await c.next("daily:state", (s) => s.status === "in_progress");
  expect(state.sentence.text).toBe(sentence);
  const chars = [...sentence];
  for (let i = 1; i <= chars.length; i++) {
    clock.advance(everyMs);
    c.emit("daily:progress", { typed_text: chars.slice(0, i).join("") });
    await c.sync();
  }
  c.emit("daily:submit", { typed_text: sentence });
  return { result: await c.next("daily:result"), seconds: (chars.length * everyMs) / 1000, sentence };
}

/** Noon (Seoul) of the day after the one containing `at`. */
const seoulNoonAfter = (at: number) => Date.parse(`${dayBefore(seoulDate(at), -1)}T12:00:00+09:00`);

/** A fresh token (the fake clock outlives the first one's). */
async function loginAgain(user: TestUser): Promise<TestUser> {
  const login = await server.api("POST", "/api/users/login", { body: { email: user.email, password: user.password } });
  return { ...user, token: login.body.access_token };
}

const me = async (user: TestUser) => (await server.api("GET", "/api/users/me", { token: user.token })).body;

describe("the day's sentence", () => {
  test("chosen once however many ask at once, never one of the 30 days before", async () => {
    const store = dailyStoreOf(server.ctx.database);
    const pool = await sentencesOfThemes(server.ctx, DAILY_RULES.themes);
    expect(pool.length).toBeGreaterThan(31);
    const today = seoulDate(clock.now());
    // The 30 days before used the first 30 sentences; the day 31 days before used the 31st (allowed again).
    for (let n = 1; n <= 31; n++) {
      const sentence = pool[n - 1]!;
      await store.chooseDay({
        day: dayBefore(today, n),
        sentenceId: sentence.id,
        sentenceText: sentence.text,
        chosenAt: 0,
      });
    }
    const days = await Promise.all([
      dayOf(server.ctx),
      dayOf(server.ctx),
      store.chooseDay({ day: today, sentenceId: pool[40]!.id, sentenceText: pool[40]!.text, chosenAt: 0 }),
      dayOf(server.ctx),
    ]);
    const chosen = new Set(days.map((d) => d.sentenceId));
    expect(chosen.size).toBe(1);
    const recent = pool.slice(0, 30).map((s) => s.id);
    expect(recent).not.toContain(days[0]!.sentenceId);
    expect((await dayOf(server.ctx)).sentenceId).toBe(days[0]!.sentenceId);
  });
});

describe("attempts", () => {
  let alice: TestUser;
  beforeAll(async () => {
    alice = await server.createUser("앨리스");
  });

  test("timed by the server's stamps; the first 3 of the day pay a room game's participation reward, the 4th nothing", async () => {
    const before = await me(alice);
    const c = await client(alice);
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await attempt(c));
    const { result, seconds, sentence } = results[0]!;
    const score = scoreTyping(sentence, sentence, seconds);
    expect(result).toMatchObject({
      stored: true,
      attempt: 1,
      verified: true,
      completion_time: seconds,
      wpm: score.wpm,
    });
    const participation = { coins: 5, points: Math.round((score.wpm * 100) / 1000), medal: null };
    for (const [i, r] of results.entries()) {
      expect(r.result.attempt).toBe(i + 1);
      if (i < 3) expect(r.result.rewards).toMatchObject(participation);
      else expect(r.result.rewards).toBeNull();
    }
    const after = await me(alice);
    expect(after.coins - before.coins).toBe(15);
    expect(after.games_played - before.games_played).toBe(4);
    // In the member's records, as mode `daily`.
    const records = await server.api("GET", `/api/games/results/user/${alice.id}`, { token: alice.token });
    expect(records.body.filter((r: { mode: string }) => r.mode === "daily")).toHaveLength(4);
    expect(records.body[0]).toMatchObject({ room_name: "오늘의 문장", mode: "daily" });
  });

  test("entering answers the player's best of the day, a guest's too (the page's own ghost)", async () => {
    const clientId = `guest-${crypto.randomUUID()}`;
    const first = await client(undefined, clientId);
    expect(first.best).toBeNull();
    const { result } = await attempt(first, 300);
    expect(result.best).toMatchObject({ rank: null, wpm: result.wpm });
    expect(result.best.replay_key).toHaveLength(22);
    const again = await client(undefined, clientId);
    expect(again.best).toEqual(result.best);
    const member = await client(alice);
    expect(member.best).toMatchObject({ nickname: "앨리스", rank: 1 });
  });

  test("daily results are not in the typing rankings, neither as they come nor after a rebuild", async () => {
    await rankingsSettled(server.ctx);
    const live = await server.api("GET", "/api/rankings/users?period=daily");
    expect(live.body.map((e: { user_id: number }) => e.user_id)).not.toContain(alice.id);
    await rebuildRankings(server.ctx);
    for (const period of ["daily", "weekly", "all"]) {
      const rebuilt = await server.api("GET", `/api/rankings/users?period=${period}`);
      expect(rebuilt.body.map((e: { user_id: number }) => e.user_id)).not.toContain(alice.id);
    }
  });
});

describe("the board and the medals", () => {
  test("members' best verified attempts by speed, guests not shown; medals once after midnight", async () => {
    const [fast, middle, slow] = [
      await server.createUser("빠름"),
      await server.createUser("보통"),
      await server.createUser("느림"),
    ];
    const guest = await client();
    const guestResult = await attempt(guest, 100);
    expect(guestResult.result.best).toMatchObject({ rank: null });
    for (const [user, everyMs] of [
      [slow, 400],
      [fast, 150],
      [middle, 250],
    ] as const) {
      const c = await client(user);
      await attempt(c, everyMs);
      if (user === slow) await attempt(c, 350); // a better second attempt replaces the best
    }
    const { body } = await server.api("GET", "/api/daily", { token: middle.token });
    const names = body.board.map((e: { nickname: string }) => e.nickname);
    expect(names.indexOf("빠름")).toBeLessThan(names.indexOf("보통"));
    // The same speed and accuracy as 앨리스 (an earlier test, 250 ms a character): the earlier attempt is ahead.
    expect(names.indexOf("앨리스")).toBe(names.indexOf("보통") - 1);
    expect(names.indexOf("보통")).toBeLessThan(names.indexOf("느림"));
    expect(body.board.every((e: { user_id: number | null }) => e.user_id !== null)).toBe(true);
    expect(body.my_best).toMatchObject({ nickname: "보통", rank: names.indexOf("보통") + 1 });
    const slowEntry = body.board.find((e: { nickname: string }) => e.nickname === "느림");
    expect(slowEntry.completion_time).toBe(([...guestResult.sentence].length * 350) / 1000);

    // Midnight, plus the delay for the last attempts of the day: the runtime gives the medals once.
    // Past the tokens' lifetime by then: the accounts are read directly.
    const medalsOf = async (id: number) => {
      const m = (await accountsApi(server.ctx).service.findById(id))!;
      return [m.goldMedals, m.silverMedals, m.bronzeMedals];
    };
    const podium: number[] = body.board.slice(0, 3).map((e: { user_id: number }) => e.user_id);
    const before = await Promise.all(podium.map(medalsOf));
    const today = body.day;
    // Midnight, plus the delay for the last attempts of the day: the runtime gives the medals, once.
    clock.advance(Date.parse(`${dayBefore(today, -1)}T00:00:00+09:00`) + 90_000 - clock.now());
    await dailyRuntime(server.ctx)!.closeSettled();
    const after = await Promise.all(podium.map(medalsOf));
    const gained = after.map((m, i) => m.map((n, k) => n - before[i]![k]!));
    expect(gained).toEqual([
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ]);
    // Again (another process, a restart after a crash before the day was marked): nobody is paid twice.
    expect(await closePastDays(server.ctx)).toEqual([]);
    const { days } = tablesFor(server.ctx.database, sqliteSchema, pgSchema);
    await storeDb(server.ctx.database).update(days).set({ medalsAt: null });
    const twice = await Promise.all([closePastDays(server.ctx), closePastDays(server.ctx)]);
    expect(twice.flat()).toContain(today);
    expect(await Promise.all(podium.map(medalsOf))).toEqual(after);
    const tomorrow = await server.api("GET", "/api/daily");
    expect(tomorrow.body.yesterday.day).toBe(today);
    expect(tomorrow.body.yesterday.winners.map((w: { medal: string }) => w.medal)).toEqual([
      "gold",
      "silver",
      "bronze",
    ]);
    expect(tomorrow.body.board).toEqual([]);
  });
});

describe("the board's replays are kept for ever", () => {
  test("an old board entry's replay survives the retention job; an old attempt off the board does not", async () => {
    const racer = await server.createUser("기록보관");
    const replay = async (key: string) => (await server.api("GET", `/api/replays/${key}`)).status;
    // Yesterday's faster attempt is the member's best replay of the mode (kept by games as a personal best), so
    // today's board entry is kept by the day's close or not at all.
    await attempt(await client(racer), 150);
    clock.advance(seoulNoonAfter(clock.now()) - clock.now());
    const again = await loginAgain(racer);
    const player = await client(again);
    const { result: entry } = await attempt(player, 300);
    await attempt(player, 350);
    const { result: guest } = await attempt(await client(), 200);
    const today = seoulDate(clock.now());
    const { body } = await server.api("GET", "/api/daily");
    const onBoard = body.board.find((e: { nickname: string }) => e.nickname === "기록보관");
    expect(onBoard).toMatchObject({ wpm: entry.wpm, replay_key: entry.best.replay_key });
    const records = await server.api("GET", `/api/games/results/user/${racer.id}`, { token: again.token });
    const offBoard = records.body.find(
      (r: { mode: string; replay_key: string | null }) => r.mode === "daily" && r.replay_key !== onBoard.replay_key,
    ).replay_key;

    // The day's close after midnight, then again on two processes at once (keeping twice changes nothing).
    clock.advance(Date.parse(`${dayBefore(today, -1)}T00:00:00+09:00`) + 90_000 - clock.now());
    await dailyRuntime(server.ctx)!.closeSettled();
    const { days } = tablesFor(server.ctx.database, sqliteSchema, pgSchema);
    await storeDb(server.ctx.database).update(days).set({ replaysKeptAt: null });
    expect((await Promise.all([closePastDays(server.ctx), closePastDays(server.ctx)])).flat()).toContain(today);

    clock.advance(REPLAY_RULES.keepMs + DAY_MS);
    await pruneReplays(server.ctx);
    expect(await replay(onBoard.replay_key)).toBe(200);
    expect(await replay(offBoard)).toBe(404);
    expect(await replay(guest.best.replay_key)).toBe(404);
  });
});

describe("who may move", () => {
  test("a socket that has not entered is refused every move, in Korean; a player's moves reach only their own attempt", async () => {
    const outsider = await openTestClient(server, { client_id: `guest-${crypto.randomUUID()}` });
    open.push(outsider);
    for (const [event, payload] of [
      ["daily:start", undefined],
      ["daily:progress", { typed_text: "가" }],
      ["daily:submit", { typed_text: "가" }],
    ] as const)
      expect(await outsider.ack(event, payload)).toEqual({ success: false, error: "오늘의 문장에 먼저 입장해주세요." });
    const player = await client();
    const other = await client();
    player.emit("daily:start");
    await player.next("daily:countdown", (p) => p.number === 3);
    // The other player's game is their own: still ready, so an answer there is too early.
    expect(await other.ack("daily:submit", { typed_text: "가" })).toEqual({
      success: false,
      error: DAILY_MESSAGES.notStarted,
    });
  });
});
