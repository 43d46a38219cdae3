import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../../apps/server/testing";
import { newReplayKey } from "../games";
import { FakeClock } from "../kernel/clock";
import { sharedScheduler } from "../kernel/game-host";
import { keystrokes } from "../kernel/typing";
import { createRoom, importSentences } from "../rooms";
import { closeAndWait, member, openClient } from "../rooms/test-support";
import { playResult, member as rankedPlayer } from "./test-support";

/**
 * Only verified results are ranked (product-rules "Live race and replays"); an unverified one — a room answer sent
 * without steps, as an old client or a script sends it — is stored, counted and rewarded as before: in the
 * member's figures and records, never in the rankings (README "What counts"). Each ranking entry links the replay
 * of its fastest ranked result. A whole server: real rooms over socket.io, real HTTP, a fake clock.
 */
let server: TestServer;
let clock: FakeClock;
const SENTENCE = "가는 말이 고와야 오는 말이 곱다";

beforeAll(async () => {
  clock = new FakeClock(Date.now());
  server = await startTestServer({ clock });
});
afterAll(() => server.stop());

const ranks = async (path: string) => {
  const res = await server.api("GET", path);
  expect(res.status).toBe(200);
  return res.body as { user_id: number | null; games_played: number; replay_key: string | null }[];
};

describe("an unverified result", () => {
  test("is rewarded and in the records, but not in the rankings", async () => {
    await importSentences(server.ctx, "verified", [SENTENCE]);
    const room = await createRoom(server.ctx, { name: "미확인 방", theme: "verified" });
    const player = await member(server, "옛클라");
    const client = await openClient(server, { token: player.token });
    try {
      await client.sync();
      client.emit("join_room", { room_id: room.id });
      await client.next("room:joined");
      clock.advance(5_000);
      await client.next("game:state", (s) => s.status === "countdown");
      clock.advance(3_000);
      const state = await client.next("game:state", (s) => s.status === "in_progress");
      // No `game:progress` on the way: only the answer, at a human pace (about 600 타/분).
      clock.advance(Math.ceil(keystrokes(SENTENCE) / 10) * 1000);
      client.emit("game:submission", { room_id: room.id, sentence_id: state.sentence.id, typed_text: SENTENCE });
      const complete = await client.next("game:submission_complete");
      expect(complete).toMatchObject({ position: 1, replay_key: null });
      await client.next("game:results");
      await sharedScheduler(server.ctx).drain();
    } finally {
      await closeAndWait(server, client);
    }

    const me = await server.api("GET", "/api/users/me", { token: player.token });
    expect(me.body).toMatchObject({ games_played: 1 });
    expect(me.body.experience).toBeGreaterThan(0);
    const records = await server.api("GET", `/api/games/results/user/${player.id}`, { token: player.token });
    expect(records.body).toEqual([expect.objectContaining({ room_name: "미확인 방", replay_key: null })]);
    for (const period of ["daily", "weekly", "all"]) {
      const board = await ranks(`/api/rankings/users?period=${period}&limit=100`);
      expect(board.map((e) => e.user_id)).not.toContain(player.id);
    }
    // Medals and levels rank rewards (the account's figures), which it earned as before.
    expect((await ranks("/api/rankings/levels?limit=100")).map((e) => e.user_id)).toContain(player.id);
  });
});

describe("a ranking entry", () => {
  test("links the replay of its fastest ranked result, in the period boards and the level ranking", async () => {
    const player = await server.createUser("링크");
    const at = clock.now();
    const fast = newReplayKey();
    const steps = [{ t: 1_000, text: "가" }];
    const replay = (key: string) => ({ key, sentence: SENTENCE, steps });
    await playResult(server.ctx, rankedPlayer(player), { wpm: 300, accuracy: 98, at, replay: replay(newReplayKey()) });
    await playResult(server.ctx, rankedPlayer(player), { wpm: 420, accuracy: 98, at: at + 1, replay: replay(fast) });
    await playResult(server.ctx, rankedPlayer(player), {
      wpm: 360,
      accuracy: 98,
      at: at + 2,
      replay: replay(newReplayKey()),
    });
    // Faster, but unverified: not ranked, so not the entry's best.
    await playResult(server.ctx, rankedPlayer(player), {
      wpm: 900,
      accuracy: 98,
      at: at + 3,
      verified: false,
      replay: replay(newReplayKey()),
    });
    for (const period of ["daily", "weekly", "all"]) {
      const entry = (await ranks(`/api/rankings/users?period=${period}&limit=100`)).find(
        (e) => e.user_id === player.id,
      );
      expect(entry).toMatchObject({ games_played: 3, replay_key: fast });
    }
    const level = (await ranks("/api/rankings/levels?limit=100")).find((e) => e.user_id === player.id);
    expect(level?.replay_key).toBe(fast);
  });
});
