import { describe, expect, test } from "bun:test";
import type { Replay } from "../replays/types";
import { GHOST_LANE, ghostOptions, PLAYER_LANE, pickGhost, raceLanes } from "./ghost";
import type { BestEntry, BoardEntry } from "./types";

const SENTENCE = "가나다라";

const entry = (nickname: string, wpm: number, replayKey: string | null): BoardEntry => ({
  rank: 1,
  user_id: 1,
  player_key: "u_1",
  nickname,
  wpm,
  accuracy: 100,
  completion_time: 2,
  created_at: "2026-04-01T03:00:00.000Z",
  replay_key: replayKey,
});
const best = (wpm: number, replayKey: string | null): BestEntry => ({ ...entry("나", wpm, replayKey), rank: null });

const GHOST: Replay = {
  key: "k".repeat(22),
  mode: "daily",
  room_name: "오늘의 문장",
  sentence: SENTENCE,
  player: { name: "앨리스" },
  result: { wpm: 300, accuracy: 100, position: 1, completion_time: 2.2, created_at: "2026-04-01T03:00:00.000Z" },
  steps: [
    { t: 500, text: "가" },
    { t: 1_000, text: "가나" },
    { t: 2_000, text: "가나다라" },
  ],
};

describe("which ghost", () => {
  const both = ghostOptions(best(250, "mine-key"), entry("앨리스", 300, "leader-key"));

  test("the lanes are named for whose best they replay", () => {
    expect(both.mine).toEqual({ choice: "mine", replayKey: "mine-key", label: "내 최고 기록", wpm: 250 });
    expect(both.leader).toEqual({ choice: "leader", replayKey: "leader-key", label: "1위 앨리스", wpm: 300 });
    expect(ghostOptions(best(250, null), undefined)).toEqual({ mine: null, leader: null });
  });

  test("by default the player's own best, else the leader's, else none; a pick wins when it exists", () => {
    expect(pickGhost(both, null)?.replayKey).toBe("mine-key");
    expect(pickGhost(both, "leader")?.replayKey).toBe("leader-key");
    expect(pickGhost(both, "none")).toBeNull();
    const leaderOnly = ghostOptions(null, entry("앨리스", 300, "leader-key"));
    expect(pickGhost(leaderOnly, null)?.replayKey).toBe("leader-key");
    expect(pickGhost(leaderOnly, "mine")?.replayKey).toBe("leader-key");
    expect(pickGhost(ghostOptions(null, undefined), null)).toBeNull();
  });
});

describe("the lanes of an attempt", () => {
  const ghost = { label: "1위 앨리스", replay: GHOST };
  const at = (atMs: number, typed: string, result: { wpm: number; completion_time: number } | null = null) =>
    raceLanes({ sentence: SENTENCE, atMs, player: { name: "밥", typed, result }, ghost });

  test("the ghost replays its steps at the real pace and crosses the line at its answer's time", () => {
    const [, before] = at(400, "");
    expect(before).toMatchObject({ key: GHOST_LANE, name: "1위 앨리스", progress: 0, completed: false });
    expect(at(1_200, "")[1]!.progress).toBe(0.5);
    const running = at(2_100, "")[1]!;
    expect(running).toMatchObject({ progress: 1, completed: false });
    expect(at(2_200, "")[1]).toMatchObject({ progress: 1, completed: true, wpm: 300, position: 1 });
  });

  test("the player's lane follows the answer box; places by completion time once finished", () => {
    const [mine] = at(1_200, "가나다");
    expect(mine).toMatchObject({ key: PLAYER_LANE, name: "밥", progress: 0.75, completed: false });
    expect(mine!.position).toBeUndefined();
    // Ahead of the ghost: first at once, the ghost second when it arrives.
    const ahead = at(1_900, SENTENCE, { wpm: 400, completion_time: 1.9 });
    expect(ahead[0]).toMatchObject({ completed: true, wpm: 400, position: 1, progress: 1 });
    expect(ahead[1]).toMatchObject({ completed: false });
    expect(at(2_300, SENTENCE, { wpm: 400, completion_time: 1.9 })[1]).toMatchObject({ position: 2 });
    // Behind it: the ghost first, the player second.
    const behind = at(3_000, SENTENCE, { wpm: 200, completion_time: 3 });
    expect(behind.map((lane) => lane.position)).toEqual([2, 1]);
  });

  test("racing alone is one lane", () => {
    expect(
      raceLanes({ sentence: SENTENCE, atMs: 500, player: { name: "밥", typed: "가", result: null }, ghost: null }),
    ).toHaveLength(1);
  });
});
