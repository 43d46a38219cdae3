import { describe, expect, test } from "bun:test";
import { Matchmaker } from "./matchmaker";

const T0 = 1_000_000;
const ids = (pairs: { red: { playerId: string }; blue: { playerId: string } }[]) =>
  pairs.map((p) => [p.red.playerId, p.blue.playerId]);

describe("matchmaking", () => {
  test("the closest ratings are paired first; the one who queued first plays red", () => {
    const mm = new Matchmaker();
    mm.enqueue("a", 1500, T0, null);
    mm.enqueue("b", 1700, T0, null);
    mm.enqueue("c", 1560, T0, null);
    mm.enqueue("d", 1640, T0, null);
    // Gaps: a–c 60, c–d 80, d–b 60, a–d 140… → a–c and d–b (both 60), never c–d first.
    expect(ids(mm.match(T0))).toEqual([
      ["a", "c"],
      ["b", "d"],
    ]);
    expect(mm.waitingCount).toBe(0);
  });

  test("the accepted gap widens with the time waited: ±100 at once, +50 per 5 s, within both players' windows", () => {
    const mm = new Matchmaker();
    mm.enqueue("low", 1500, T0, null);
    expect(mm.match(T0)).toEqual([]);
    mm.enqueue("high", 1760, T0 + 10_000, null);
    expect(mm.acceptedGap({ since: T0 }, T0 + 10_000)).toBe(200);
    expect(mm.match(T0 + 10_000)).toEqual([]);
    // low accepts 300 at 20 s, but high (queued 10 s later) only 200: no pair yet.
    expect(mm.match(T0 + 20_000)).toEqual([]);
    expect(mm.nextWideningAt(T0 + 20_000)).toBe(T0 + 25_000);
    // At 35 s high has waited 25 s: 100 + 5 × 50 = 350 ≥ 260 … already at 30 s: 100 + 4 × 50 = 300 ≥ 260.
    expect(mm.match(T0 + 29_999)).toEqual([]);
    expect(ids(mm.match(T0 + 30_000))).toEqual([["low", "high"]]);
  });

  test("two waiting players always meet in the end, however far apart", () => {
    const mm = new Matchmaker();
    mm.enqueue("new", 1500, T0, null);
    mm.enqueue("pro", 2600, T0, null);
    let now = T0;
    while (mm.waitingCount > 0) {
      mm.match(now);
      now = mm.nextWideningAt(now) ?? now;
    }
    expect(now - T0).toBe(Math.ceil((1100 - 100) / 50) * 5_000);
  });

  test("a player is in at most one queue or game; cancel and release", () => {
    const mm = new Matchmaker();
    expect(mm.enqueue("a", 1500, T0, null)).toBe("queued");
    expect(mm.enqueue("a", 1500, T0, null)).toBe("already_waiting");
    expect(mm.status("a")).toBe("waiting");
    expect(mm.cancel("a")).toBe(true);
    expect(mm.cancel("a")).toBe(false);
    expect(mm.status("a")).toBe("idle");
    mm.enqueue("a", 1500, T0, null);
    mm.enqueue("b", 1500, T0, null);
    const [pair] = mm.match(T0);
    mm.assign("duel-1", pair.red.playerId, pair.blue.playerId);
    expect(mm.status("a")).toBe("in_game");
    expect(mm.gameOf("b")).toBe("duel-1");
    expect(mm.enqueue("a", 1500, T0, null)).toBe("in_game");
    mm.release("a");
    expect(mm.enqueue("a", 1500, T0, null)).toBe("queued");
    expect(mm.status("b")).toBe("in_game");
  });

  test("a cancelled player is never paired; equal gaps go to the longest-waiting pair", () => {
    const mm = new Matchmaker();
    mm.enqueue("x", 1500, T0, null);
    mm.enqueue("y", 1500, T0 + 1, null);
    mm.enqueue("z", 1500, T0 + 2, null);
    mm.cancel("x");
    expect(ids(mm.match(T0 + 2))).toEqual([["y", "z"]]);
    mm.enqueue("p", 1500, T0, null);
    mm.enqueue("q", 1500, T0, null);
    mm.enqueue("r", 1500, T0, null);
    expect(ids(mm.match(T0))).toEqual([["p", "q"]]);
    expect(mm.status("r")).toBe("waiting");
    expect(mm.nextWideningAt(T0)).toBeNull();
  });

  test("a crowd of 10,000 is paired in a few neighbour passes, not an all-pairs scan", () => {
    const mm = new Matchmaker();
    for (let i = 0; i < 10_000; i++) mm.enqueue(`p${i}`, 1000 + ((i * 7919) % 2000), T0, null);
    const pairs = mm.match(T0);
    expect(pairs).toHaveLength(5_000);
    for (const p of pairs) expect(p.gap).toBeLessThanOrEqual(100);
  });
});
