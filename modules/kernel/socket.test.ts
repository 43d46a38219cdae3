import { describe, expect, test } from "bun:test";
import { t } from "elysia";
import { DEFAULT_EVENT_COST, SOCKET_BUDGET, type SocketBudget, socketEvent, spendBudget } from "./socket";

const limits = { capacity: 10, refillPerSecond: 5 };

/** Spends `cost` `times` times at one instant; how many were allowed. */
function spendMany(budget: SocketBudget, cost: number, times: number, now: number) {
  let allowed = 0;
  for (let i = 0; i < times; i++) if (spendBudget(budget, cost, now, limits)) allowed++;
  return allowed;
}

describe("the per-socket token bucket (spendBudget)", () => {
  test("a fresh socket starts with a full bucket; past it, events are refused", () => {
    const budget: SocketBudget = {};
    expect(spendMany(budget, 1, 15, 1_000)).toBe(10);
    expect(spendMany({}, 3, 5, 1_000)).toBe(3);
  });

  test("it keeps exactly two numbers, so a socket carries no object of its own", () => {
    const budget: SocketBudget = {};
    spendBudget(budget, 4, 1_000, limits);
    expect(budget).toEqual({ budgetTokens: 6, budgetAt: 1_000 });
  });

  test("a refused event takes nothing from what is left", () => {
    const budget: SocketBudget = {};
    spendMany(budget, 4, 2, 0); // 2 left
    expect(spendBudget(budget, 3, 0, limits)).toBe(false);
    expect(spendBudget(budget, 2, 0, limits)).toBe(true);
    expect(budget.budgetTokens).toBe(0);
  });

  test("it refills continuously at the refill rate", () => {
    const budget: SocketBudget = {};
    spendMany(budget, 1, 10, 0);
    expect(spendBudget(budget, 1, 100, limits)).toBe(false); // 0.5 token
    expect(spendBudget(budget, 1, 200, limits)).toBe(true); // 1 token
    expect(spendBudget(budget, 1, 200, limits)).toBe(false);
    expect(spendMany(budget, 1, 10, 1_200)).toBe(5); // one second later: 5 tokens
  });

  test("it never holds more than its capacity, however long the pause", () => {
    const budget: SocketBudget = {};
    spendMany(budget, 1, 10, 0);
    expect(spendMany(budget, 1, 100, 3_600_000)).toBe(10);
  });

  test("a clock that goes back refills nothing, then or later", () => {
    const budget: SocketBudget = {};
    spendMany(budget, 1, 10, 10_000);
    expect(spendBudget(budget, 1, 5_000, limits)).toBe(false);
    expect(spendBudget(budget, 1, 10_100, limits)).toBe(false); // 0.5 token since 10,000
    expect(spendBudget(budget, 1, 10_200, limits)).toBe(true);
  });

  test("an event costing more than the capacity is never allowed; a free one always is", () => {
    expect(spendBudget({}, 11, 0, limits)).toBe(false);
    const empty: SocketBudget = {};
    spendMany(empty, 1, 10, 0);
    expect(spendBudget(empty, 0, 0, limits)).toBe(true);
  });

  test("the server's budget: a full room list (cost 5) 8 times at once, then one a second", () => {
    const budget: SocketBudget = {};
    let served = 0;
    for (let i = 0; i < 20; i++) if (spendBudget(budget, 5, 0)) served++;
    expect(served).toBe(8);
    expect(SOCKET_BUDGET).toEqual({ capacity: 40, refillPerSecond: 5 });
    expect(spendBudget(budget, 5, 999)).toBe(false);
    expect(spendBudget(budget, 5, 1_000)).toBe(true);
  });
});

describe("socketEvent", () => {
  test("declares its cost between schema and handler; an event without one costs the default", () => {
    const handle = () => "done";
    expect(socketEvent(t.Object({}), { cost: 5 }, handle)).toMatchObject({ cost: 5, handle });
    expect(socketEvent(t.Object({}), handle)).toMatchObject({ cost: DEFAULT_EVENT_COST, handle });
    expect(DEFAULT_EVENT_COST).toBe(1);
  });
});
