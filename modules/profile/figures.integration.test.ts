import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { modules as defaultModules } from "../../apps/server/modules";
import { startTestServer, type TestServer, type TestUser } from "../../apps/server/testing";
import { openDuelClient } from "../duel/test-support";
import { openGuildClient } from "../guilds/test-support";
import { FakeClock } from "../kernel/clock";
import { sharedScheduler } from "../kernel/game-host";
import { average2, keystrokes } from "../kernel/typing";
import { rankingsSettled } from "../rankings";
import { createRoom, createRoomsModule } from "../rooms";
import { type RaceMode, sentenceRace } from "../rooms/sentence-race";
import { type Client, closeAndWait, openClient } from "../rooms/test-support";

/**
 * product-rules "Trust rules": one definition of each player figure (games played, average speed and accuracy,
 * best speed, win streak), the same on the profile, the navbar (`/api/users/me`), the admin pages and the
 * rankings. A member plays a mixed history over real sockets on a fake clock — room races (first places, a round
 * cut short by a fault after their answer was stored, an attempt refused as implausible), guild games and a duel —
 * and every place that shows their figures must show the same ones, those of their counted results (the records).
 * TEST_DATABASE=postgres runs it on PostgreSQL.
 */

/** The room whose next step throws (a fault mid-round): the host starts the room over and closes the round. */
let faultyRoom = 0;
const faultyMode: RaceMode = {
  ...sentenceRace,
  tick(state, ctx) {
    if (faultyRoom === state.roomId && state.status === "in_progress") {
      faultyRoom = 0;
      throw new Error("tick failed (test)");
    }
    return sentenceRace.tick(state, ctx);
  },
};

let server: TestServer;
let clock: FakeClock;
let ace: TestUser;
let rival: TestUser;
let admin: TestUser;
/** Each counted game of `ace` in the order played: won = first place in a game with ≥ 2 counted results. */
const played: { kind: string; won: boolean }[] = [];

const drained = () => sharedScheduler(server.ctx).drain();
/** A plausible answer time: about 600 타/분, a different speed each game. */
const secondsFor = (text: string, extra = 0) => Math.max(2, Math.ceil(keystrokes(text) / 10)) + extra;

// --- room races ----------------------------------------------------------------------------------------------------

/** From a waiting room (or a finished round), the clock moves to the next sentence: answers the in_progress state. */
async function toSentence(a: Client) {
  for (let i = 0; i < 20; i++) {
    await a.sync();
    const latest = a.all("game:state").at(-1) ?? a.all("room:joined").at(-1)?.game_state;
    if (latest?.status === "waiting" && latest.next_game_at) {
      // Countdown at next_game_at, the sentence 3 s later: exactly then, so an answer now is 0 ms into the round.
      clock.advance(Date.parse(latest.next_game_at) + 3_000 - clock.now());
      const state = await a.next("game:state", (s) => s.status === "in_progress" && s.started_at === iso(clock.now()));
      return state as { sentence: { id: number; text: string }; started_at: string; game_duration: number };
    }
    clock.advance(1_000);
  }
  throw new Error("the room never came back to waiting");
}
const iso = (at: number) => new Date(at).toISOString();

function submit(client: Client, roomId: number, sentence: { id: number; text: string }) {
  client.emit("game:submission", { room_id: roomId, sentence_id: sentence.id, typed_text: sentence.text });
}

/** One round where `first` answers, then `second` (both exact); the round ends when both have answered. */
async function race(roomId: number, first: Client, second: Client, a: Client, extra: number) {
  const { sentence } = await toSentence(a);
  clock.advance(secondsFor(sentence.text, extra) * 1_000);
  submit(first, roomId, sentence);
  await first.next("game:personal_feedback");
  clock.advance(1_000);
  submit(second, roomId, sentence);
  await second.next("game:personal_feedback");
  await a.next("game:results");
  await drained();
}

// --- the history -----------------------------------------------------------------------------------------------------

beforeAll(async () => {
  clock = new FakeClock(Date.UTC(2026, 4, 6, 3, 0, 0));
  const modules = defaultModules.map((m) => (m.name === "rooms" ? createRoomsModule({ mode: faultyMode }) : m));
  server = await startTestServer({ clock, modules });
  ace = await server.createUser("기록왕");
  rival = await server.createUser("맞수");
  admin = await server.createUser("운영자", { admin: true });

  // Room races.
  const room = await createRoom(server.ctx, { name: "한결같은 방", theme: "beginner" });
  const a = await openClient(server, { token: ace.token, client_id: "figures-ace-0001" });
  const b = await openClient(server, { token: rival.token, client_id: "figures-rival-01" });
  for (const c of [a, b]) {
    c.emit("join_room", { room_id: room.id });
    await c.next("room:joined");
  }
  await race(room.id, a, b, a, 0); // 1st place of two
  played.push({ kind: "room", won: true });
  await race(room.id, a, b, a, 2); // 1st again
  played.push({ kind: "room", won: true });

  // A round cut short by a fault: ace's answer was stored (it counts), the rival never answered.
  {
    const { sentence } = await toSentence(a);
    clock.advance(secondsFor(sentence.text, 1) * 1_000);
    submit(a, room.id, sentence);
    await a.next("game:personal_feedback");
    faultyRoom = room.id;
    for (let i = 0; i < 70 && faultyRoom !== 0; i++) clock.advance(1_000);
    expect(faultyRoom).toBe(0); // the fault happened
    await a.next("game:state", (s) => s.status === "waiting");
    await drained();
    played.push({ kind: "room (cut short)", won: false }); // alone in it: no place to win
  }

  await race(room.id, a, b, a, 3); // 1st
  played.push({ kind: "room", won: true });

  // An attempt refused as implausible (0 ms into the round): never counted anywhere.
  {
    const { sentence } = await toSentence(a);
    submit(a, room.id, sentence);
    expect(await a.next("error")).toMatchObject({ code: "implausible" });
    clock.advance(secondsFor(sentence.text) * 1_000);
    submit(b, room.id, sentence);
    await a.next("game:results");
    await drained();
  }

  await race(room.id, b, a, a, 1); // 2nd behind the rival: the streak ends
  played.push({ kind: "room", won: false });
  await closeAndWait(server, a);
  await closeAndWait(server, b);
  clock.advance(20_000);

  // Guild games: ace is the guild's admin, the rival a member.
  const ok = async (status: number, method: string, path: string, token: string, body?: unknown) => {
    const res = await server.api(method, path, { token, body });
    if (res.status !== status) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    // biome-ignore lint/suspicious/noExplicitAny: whatever JSON the route answers
    return res.body as any;
  };
  const guild = await ok(201, "POST", "/api/guilds", ace.token, { name: "연승길드", description: "함께" });
  const sent = await ok(201, "POST", `/api/guilds/${guild.id}/invitations`, ace.token, {
    invites: [{ username: rival.username, email: rival.email }],
  });
  await ok(200, "POST", `/api/guilds/invitations/${sent.invitations[0].id}/accept`, rival.token);
  const PROBLEM = "세 살 버릇 여든까지 간다, 천 리 길도 한 걸음부터 시작한다";
  await ok(200, "PUT", `/api/guilds/${guild.id}/problems`, ace.token, { problems: [PROBLEM] });
  const ga = await openGuildClient(server, ace.token);
  const gb = await openGuildClient(server, rival.token);
  for (const c of [ga, gb]) {
    c.emit("guild:join", { guild_id: guild.id });
    await c.next("guild:joined");
  }
  for (const [first, second, won] of [
    [ga, gb, true],
    [gb, ga, false],
  ] as const) {
    ga.emit("guild_game:start_request", { guild_id: guild.id, problem: PROBLEM, countdown_seconds: 1 });
    await ga.next("guild_game:countdown");
    clock.advance(1_000);
    for (const c of [ga, gb]) await c.next("guild_game:start");
    clock.advance(secondsFor(PROBLEM, won ? 0 : 2) * 1_000);
    first.emit("guild_game:submission", { guild_id: guild.id, typed_text: PROBLEM });
    await first.sync();
    clock.advance(1_000);
    second.emit("guild_game:submission", { guild_id: guild.id, typed_text: PROBLEM });
    await ga.next("guild_game:end");
    await drained();
    await ga.next("guild_game:results");
    played.push({ kind: "guild", won });
    clock.advance(10_000);
  }
  ga.close();
  gb.close();

  // A rated duel (won by ace when the rival leaves 12 s into play): its figures are apart, in none of the above.
  const da = await openDuelClient(server, { token: ace.token });
  const db = await openDuelClient(server, { token: rival.token });
  await da.send("duel_find_match");
  await db.send("duel_find_match");
  await Promise.all([da.next("duel:match_found"), db.next("duel:match_found")]);
  await da.send("duel_player_ready");
  await db.send("duel_player_ready");
  clock.advance(3_000);
  await Promise.all([da.next("duel:game_start"), db.next("duel:game_start")]);
  clock.advance(12_000);
  await db.send("duel_leave_game");
  expect((await da.next("duel:game_over")).result).toMatchObject({ reason: "opponent_left", rated: true });
  await da.send("duel_leave_game");
  await drained();
  da.close();
  db.close();

  await drained();
  await rankingsSettled(server.ctx);
});
afterAll(async () => {
  for (let i = 0; i < 8; i++) {
    clock.advance(5_000);
    await Bun.sleep(2);
  }
  await server.stop();
});

// --- the checks ------------------------------------------------------------------------------------------------------

type Figures = { games_played: number; avg_wpm: number; avg_accuracy: number };
const typingFigures = (x: Figures) => ({
  games_played: x.games_played,
  avg_wpm: x.avg_wpm,
  avg_accuracy: x.avg_accuracy,
});

/** The figures by their definition: the member's counted results (the records), duels apart. */
async function expected() {
  const res = await server.api("GET", `/api/games/results/user/${ace.id}?limit=200`, { token: ace.token });
  const records = res.body as { wpm: number; accuracy: number; mode: string }[];
  let streak = 0;
  let maxStreak = 0;
  for (const game of played) {
    streak = game.won ? streak + 1 : 0;
    maxStreak = Math.max(maxStreak, streak);
  }
  return {
    records,
    figures: {
      games_played: records.length,
      avg_wpm: average2(
        records.reduce((sum, r) => sum + r.wpm, 0),
        records.length,
      ),
      avg_accuracy: average2(
        records.reduce((sum, r) => sum + r.accuracy, 0),
        records.length,
      ),
    },
    bestWpm: Math.max(...records.map((r) => r.wpm)),
    bestAccuracy: Math.max(...records.map((r) => r.accuracy)),
    streak,
    maxStreak,
  };
}

describe("one definition of each player figure", () => {
  test("the history is what was played: 7 counted games of two typing modes, the implausible one and the duel apart", async () => {
    const { records } = await expected();
    expect(played).toHaveLength(7);
    expect(records).toHaveLength(7);
    expect(records.filter((r) => r.mode === "guild_game")).toHaveLength(2);
    expect(records.every((r) => r.mode === "sentence_race" || r.mode === "guild_game")).toBe(true);
    const duel = await server.api("GET", "/api/duel/stats/me", { token: ace.token });
    expect(duel.body).toMatchObject({ wins: 1, total_games: 1 });
  });

  test("the profile and the navbar (/api/users/me): games, averages and streaks of the counted results", async () => {
    const want = await expected();
    const me = (await server.api("GET", "/api/users/me", { token: ace.token })).body;
    expect(typingFigures(me)).toEqual(want.figures);
    expect({ win_streak: me.win_streak, max_win_streak: me.max_win_streak }).toEqual({
      win_streak: want.streak,
      max_win_streak: want.maxStreak,
    });
  });

  test("the profile's best figures come from the server: GET /api/games/best/user/{id}", async () => {
    const want = await expected();
    const best = await server.api("GET", `/api/games/best/user/${ace.id}`, { token: ace.token });
    expect(best.status).toBe(200);
    expect(best.body).toEqual({ user_id: ace.id, best_wpm: want.bestWpm, best_accuracy: want.bestAccuracy });
    // Another member's: administrators only; no token: 401.
    expect((await server.api("GET", `/api/games/best/user/${ace.id}`, { token: rival.token })).status).toBe(403);
    expect((await server.api("GET", `/api/games/best/user/${ace.id}`, { token: admin.token })).body).toEqual(best.body);
    expect((await server.api("GET", `/api/games/best/user/${ace.id}`)).status).toBe(401);
  });

  test("the admin pages: the user view and the user list show the same figures", async () => {
    const want = await expected();
    const view = await server.api("GET", `/api/admin/users/${ace.id}`, { token: admin.token });
    expect(view.status).toBe(200);
    expect(typingFigures(view.body)).toEqual(want.figures);
    expect(view.body.max_win_streak).toBe(want.maxStreak);
    const list = await server.api("GET", `/api/admin/users?search=${encodeURIComponent(ace.username)}`, {
      token: admin.token,
    });
    const row = list.body.users.find((u: { id: number }) => u.id === ace.id);
    expect(typingFigures(row)).toEqual(want.figures);
  });

  test("the rankings: the all-time board and the medal and level boards show the same figures", async () => {
    const want = await expected();
    const entryOf = async (path: string) => {
      const res = await server.api("GET", path);
      expect(res.status).toBe(200);
      return (res.body as (Figures & { user_id: number | null })[]).find((e) => e.user_id === ace.id)!;
    };
    for (const sort of ["wpm", "games"]) {
      const entry = await entryOf(`/api/rankings/users?period=all&sort=${sort}&limit=100`);
      expect(typingFigures(entry)).toEqual(want.figures);
    }
    expect(typingFigures(await entryOf("/api/rankings/medals?limit=100"))).toEqual(want.figures);
    expect(typingFigures(await entryOf("/api/rankings/levels?limit=100"))).toEqual(want.figures);
  });
});
