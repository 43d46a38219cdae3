import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer, type TestUser } from "../../apps/server/testing";
import { accountsModule } from "../accounts";
import { FakeClock } from "../kernel/clock";
import type { RaceStep } from "../kernel/race-steps";
import { systemModule } from "../system";
import { createGamesModule, newReplayKey, pruneReplays, REPLAY_KEY, REPLAY_RULES, recordResult } from ".";
import { countRows, guestResult, kst, memberResult, race } from "./test-support";

/**
 * Replays over real HTTP and storage (README "Replays"): written once with their result however often the write
 * is retried, read by key by anyone, listed in the member's records, deleted after 90 days unless kept (a member's
 * personal best of the mode). The server's clock is injected, so the daily retention job runs when told.
 */
let server: TestServer;
let clock: FakeClock;
let player: TestUser;
let other: TestUser;
let admin: TestUser;
let round = 0;
const SENTENCE = "가는 말이 고와야 오는 말이 곱다";
/** The sentence's first words typed as the IME shows them: each syllable built over 2–3 keystrokes. */
const STEPS: RaceStep[] = [
  { t: 900, text: "ㄱ" },
  { t: 1_010, text: "가" },
  { t: 1_180, text: "가ㄴ" },
  { t: 1_260, text: "가느" },
  { t: 1_350, text: "가는" },
  { t: 1_500, text: "가는 " },
  { t: 1_640, text: "가는 ㅁ" },
  { t: 1_720, text: "가는 마" },
  { t: 1_830, text: "가는 말" },
];
const count = (where: string) => countRows(server.ctx, "games_replays", where);

beforeAll(async () => {
  clock = new FakeClock(kst("2026-06-01 12:00:00"));
  server = await startTestServer({
    clock,
    modules: [accountsModule, systemModule, createGamesModule({ serveRoutes: true })],
  });
  player = await server.createUser("리플레이어");
  other = await server.createUser("구경꾼");
  admin = await server.createUser("운영자", { admin: true });
});
afterAll(() => server.stop());

/** One result of a new race game with these figures, its steps as the replay under a new key. */
async function play(
  figures: { wpm: number; at: number; userId?: number | null; steps?: RaceStep[]; implausible?: boolean },
  key = newReplayKey(),
) {
  round += 1;
  const ref = race("7", round, figures.at - 20_000, "리플레이 방");
  const base =
    figures.userId === null
      ? guestResult("replayguest", "손님5678", { wpm: figures.wpm, accuracy: 97.5 })
      : memberResult(figures.userId ?? player.id, "리플레이어", { wpm: figures.wpm, accuracy: 97.5 });
  const result = {
    ...base,
    position: figures.implausible ? null : 1,
    completionTime: 12.34,
    createdAt: figures.at,
    implausible: figures.implausible ?? false,
    replay: { key, sentence: SENTENCE, steps: figures.steps ?? STEPS },
  };
  return { ref, result, outcome: await recordResult(server.ctx, ref, result) };
}

describe("writing a replay", () => {
  test("once per result, under its first key, however often the write is retried", async () => {
    const key = newReplayKey();
    expect(key).toMatch(REPLAY_KEY);
    const { ref, result, outcome } = await play({ wpm: 300, at: kst("2026-06-01 11:00:00") }, key);
    expect(outcome).toMatchObject({ recorded: true, replayKey: key });
    // The same write again (the host's queue retries it), and a write that drew another key for the same result.
    const again = await recordResult(server.ctx, ref, result);
    const redrawn = await recordResult(server.ctx, ref, {
      ...result,
      replay: { ...result.replay, key: newReplayKey() },
    });
    expect(again).toMatchObject({ recorded: false, replayKey: key });
    expect(redrawn).toMatchObject({ recorded: false, replayKey: key });
    expect(await count(`result_id IN (SELECT id FROM games_results WHERE game_id = ${outcome.gameId})`)).toBe(1);
  });

  test("a result without steps has no replay", async () => {
    const { outcome } = await play({ wpm: 280, at: kst("2026-06-01 11:05:00"), steps: [] });
    expect(outcome.replayKey).toBeNull();
  });

  test("keys are random and distinct (128 bits, base64url)", () => {
    const keys = new Set(Array.from({ length: 1_000 }, newReplayKey));
    expect(keys.size).toBe(1_000);
    for (const key of keys) expect(key).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });
});

describe("GET /api/replays/{key}", () => {
  test("anyone with the key watches it: the sentence, the player with their level, the result, the steps", async () => {
    const at = kst("2026-06-01 11:10:00");
    const { outcome } = await play({ wpm: 333, at });
    const res = await server.api("GET", `/api/replays/${outcome.replayKey}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      key: outcome.replayKey,
      mode: "sentence_race",
      room_name: "리플레이 방",
      sentence: SENTENCE,
      player: { name: "리플레이어", level: 1 },
      result: {
        wpm: 333,
        accuracy: 97.5,
        position: 1,
        completion_time: 12.34,
        created_at: new Date(at).toISOString(),
      },
      steps: STEPS,
    });
  });

  test("a guest's replay names the guest, without a level", async () => {
    const { outcome } = await play({ wpm: 210, at: kst("2026-06-01 11:15:00"), userId: null });
    const res = await server.api("GET", `/api/replays/${outcome.replayKey}`);
    expect(res.status).toBe(200);
    expect(res.body.player).toEqual({ name: "손님5678" });
  });

  test("an unknown or malformed key: 404 with a Korean detail", async () => {
    for (const key of [newReplayKey(), "short", "a".repeat(23), "%2E%2E%2Fetc%2Fpasswd0000000"]) {
      const res = await server.api("GET", `/api/replays/${key}`);
      expect(res.status).toBe(404);
      expect(res.body.detail).toBe("리플레이를 찾을 수 없습니다.");
    }
  });

  test("an implausible attempt's replay is evidence for administrators only: a 404 to everyone else", async () => {
    const { outcome } = await play({ wpm: 2_400, at: kst("2026-06-01 11:20:00"), implausible: true });
    expect(outcome.replayKey).toMatch(REPLAY_KEY);
    const path = `/api/replays/${outcome.replayKey}`;
    // A guest, another member and the player themself: the same answer as an unknown key.
    for (const token of [undefined, other.token, player.token]) {
      const res = await server.api("GET", path, { token });
      expect(res.status).toBe(404);
      expect(res.body.detail).toBe("리플레이를 찾을 수 없습니다.");
    }
    const seen = await server.api("GET", path, { token: admin.token });
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ key: outcome.replayKey, result: { wpm: 2_400 }, steps: STEPS });
    // No link is offered to it: the member's records leave the attempt out.
    const records = await server.api("GET", `/api/games/results/user/${player.id}?limit=200`, { token: player.token });
    expect(records.status).toBe(200);
    expect(records.body.map((r: { replay_key: string | null }) => r.replay_key)).not.toContain(outcome.replayKey);
  });
});

describe("the records", () => {
  test("carry each result's replay_key, null for a result without one", async () => {
    const records = await server.api("GET", `/api/games/results/user/${player.id}?limit=200`, { token: player.token });
    expect(records.status).toBe(200);
    const byWpm = new Map(records.body.map((r: { wpm: number; replay_key: string | null }) => [r.wpm, r.replay_key]));
    expect(byWpm.get(333)).toMatch(REPLAY_KEY);
    expect(byWpm.get(280)).toBeNull();
  });
});

describe("retention", () => {
  test("after 90 days a replay is deleted, unless it was the member's personal best of the mode", async () => {
    const now = clock.now();
    const old = now - REPLAY_RULES.keepMs - 60_000;
    // A new member: their first replayed result is their best so far (kept), a slower one is not, a faster one is.
    const keeper = await server.createUser("보관");
    const first = await play({ wpm: 200, at: old - 3_000, userId: keeper.id });
    const slower = await play({ wpm: 150, at: old - 2_000, userId: keeper.id });
    const faster = await play({ wpm: 260, at: old - 1_000, userId: keeper.id });
    const guest = await play({ wpm: 400, at: old, userId: null });
    const recent = await play({ wpm: 100, at: now - REPLAY_RULES.keepMs + 60_000, userId: keeper.id });
    const kept = async (key: string | null) => (await count(`key = '${key}' AND kept`)) === 1;
    expect(await kept(first.outcome.replayKey)).toBe(true);
    expect(await kept(slower.outcome.replayKey)).toBe(false);
    expect(await kept(faster.outcome.replayKey)).toBe(true);

    expect(await pruneReplays(server.ctx)).toBe(2);
    const status = async (key: string | null) => (await server.api("GET", `/api/replays/${key}`)).status;
    expect(await status(slower.outcome.replayKey)).toBe(404);
    expect(await status(guest.outcome.replayKey)).toBe(404);
    for (const left of [first, faster, recent]) expect(await status(left.outcome.replayKey)).toBe(200);
    // The result stays (only its replay went): its record has no link any more.
    const records = await server.api("GET", `/api/games/results/user/${keeper.id}`, { token: keeper.token });
    const links = new Map(records.body.map((r: { wpm: number; replay_key: string | null }) => [r.wpm, r.replay_key]));
    expect(links.get(150)).toBeNull();
    expect(links.get(260)).toBe(faster.outcome.replayKey);
    // A second run (another process, the next day) finds nothing more to delete.
    expect(await pruneReplays(server.ctx)).toBe(0);
  });

  test("the daily job runs on the server's clock", async () => {
    const expired = await play({ wpm: 120, at: clock.now() - REPLAY_RULES.keepMs - 1, userId: null });
    expect(await count(`key = '${expired.outcome.replayKey}'`)).toBe(1);
    clock.advance(REPLAY_RULES.everyMs + REPLAY_RULES.firstAfterMs);
    for (let i = 0; i < 100 && (await count(`key = '${expired.outcome.replayKey}'`)) > 0; i++) await Bun.sleep(20);
    expect(await count(`key = '${expired.outcome.replayKey}'`)).toBe(0);
  });
});
