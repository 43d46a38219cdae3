import { expect } from "bun:test";
import { modules as defaultModules } from "../../apps/server/modules";
import type { TestServer, TestUser } from "../../apps/server/testing";
import { openDuelClient } from "../duel/test-support";
import { openGuildClient } from "../guilds/test-support";
import type { FakeClock } from "../kernel/clock";
import { sharedScheduler } from "../kernel/game-host";
import { keystrokes } from "../kernel/typing";
import { rankingsSettled } from "../rankings";
import { createRoom, createRoomsModule } from "../rooms";
import { type RaceMode, sentenceRace } from "../rooms/sentence-race";
import { type Client, closeAndWait, openClient } from "../rooms/test-support";

/**
 * A mixed history played for real (sockets, a fake clock) by two members, for the tests of "one definition of
 * each player figure" (product-rules "Trust rules"): `figures.integration.test.ts` and `e2e/profile.test.ts`.
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

/** The server's modules with rooms whose step can be made to fail once (`faultyRoom`). */
export const figuresTestModules = () =>
  defaultModules.map((m) => (m.name === "rooms" ? createRoomsModule({ mode: faultyMode }) : m));

/** A plausible answer time: about 600 타/분, a different speed each game. */
const secondsFor = (text: string, extra = 0) => Math.max(2, Math.ceil(keystrokes(text) / 10)) + extra;
const iso = (at: number) => new Date(at).toISOString();

/**
 * Guild members typing `text` at once, each a character at a time spread evenly over their own `ms` (the server
 * stamps each change), in time order on the fake clock; each stops at its whole text, the clock at the last one's.
 */
async function typeTogether(
  clock: FakeClock,
  guildId: number,
  text: string,
  typists: { client: Client; ms: number }[],
) {
  const chars = [...text];
  const steps = typists.flatMap(({ client, ms }) =>
    chars.map((_, i) => ({
      client,
      at: Math.round(((i + 1) * ms) / chars.length),
      typed: chars.slice(0, i + 1).join(""),
    })),
  );
  steps.sort((a, b) => a.at - b.at);
  let now = 0;
  for (const step of steps) {
    clock.advance(step.at - now);
    now = step.at;
    step.client.emit("guild_game:progress", { guild_id: guildId, typed_text: step.typed });
    await step.client.sync();
  }
}

function submit(client: Client, roomId: number, sentence: { id: number; text: string }) {
  client.emit("game:submission", { room_id: roomId, sentence_id: sentence.id, typed_text: sentence.text });
}

/**
 * Plays, as `ace` against `rival` on a server made with `figuresTestModules()` and `clock`: 5 room races (first,
 * first, a round cut short by a fault after ace's answer was stored, first, second), an attempt of ace refused as
 * implausible, 2 guild games (first, second) and a rated duel won by ace. Answers ace's counted games in the order
 * played, each with whether it was a win (first place of a game with ≥ 2 counted results): 7 games, at most 2
 * wins in a row, none now.
 */
export async function playMixedHistory(server: TestServer, clock: FakeClock, ace: TestUser, rival: TestUser) {
  const played: { kind: string; won: boolean }[] = [];
  const drained = () => sharedScheduler(server.ctx).drain();

  /** From a waiting room (or a finished round), the clock moves to the next sentence: the in_progress state. */
  async function toSentence(a: Client) {
    for (let i = 0; i < 20; i++) {
      await a.sync();
      const latest = a.all("game:state").at(-1) ?? a.all("room:joined").at(-1)?.game_state;
      if (latest?.status === "waiting" && latest.next_game_at) {
        // Countdown at next_game_at, the sentence 3 s later: exactly then, so an answer now is 0 ms into the round.
        clock.advance(Date.parse(latest.next_game_at) + 3_000 - clock.now());
        const state = await a.next(
          "game:state",
          (s) => s.status === "in_progress" && s.started_at === iso(clock.now()),
        );
        return state as { sentence: { id: number; text: string } };
      }
      clock.advance(1_000);
    }
    throw new Error("the room never came back to waiting");
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
    // Both type the problem a character at a time (each change a step: verified results, ranked), the second
    // finishing a second later.
    const firstMs = secondsFor(PROBLEM, won ? 0 : 2) * 1_000;
    await typeTogether(clock, guild.id, PROBLEM, [
      { client: first, ms: firstMs },
      { client: second, ms: firstMs + 1_000 },
    ]);
    first.emit("guild_game:submission", { guild_id: guild.id, typed_text: PROBLEM });
    await first.sync();
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
  return played;
}
