import { describe, expect, test } from "bun:test";
import { type AttemptCounter, type CounterFactory, memoryCounters } from "./counters";
import type { Logger } from "./logger";
import { bracketsTooDeep, jsonTooDeep, MAX_BODY_DEPTH, WriteLimiter } from "./write-limits";

const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

describe("the depth scan", () => {
  test("counts arrays and objects alike, up to 32 levels", () => {
    expect(jsonTooDeep(nested(MAX_BODY_DEPTH))).toBe(false);
    expect(jsonTooDeep(nested(MAX_BODY_DEPTH + 1))).toBe(true);
    const objects = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
    expect(jsonTooDeep(objects(MAX_BODY_DEPTH))).toBe(false);
    expect(jsonTooDeep(objects(MAX_BODY_DEPTH + 1))).toBe(true);
    // Siblings do not add up: depth, not count.
    expect(jsonTooDeep(`[${Array.from({ length: 1000 }, () => nested(10)).join(",")}]`)).toBe(false);
  });

  test("skips strings, escaped quotes included", () => {
    expect(jsonTooDeep(JSON.stringify({ content: nested(500) }))).toBe(false);
    expect(jsonTooDeep(JSON.stringify({ content: `\\"${"[".repeat(100)}"` }))).toBe(false);
    // A quote escaped inside a string does not end it; the brackets after the real end count again.
    expect(jsonTooDeep(`["a\\"b", ${nested(40)}]`)).toBe(true);
  });

  test("multipart: every bracket counts, quoted or not", () => {
    expect(bracketsTooDeep(`name="x"\r\n\r\n${nested(MAX_BODY_DEPTH)}`)).toBe(false);
    expect(bracketsTooDeep(`name="x\r\n\r\n"${nested(MAX_BODY_DEPTH + 1)}`)).toBe(true);
  });
});

describe("write budgets", () => {
  test("one name is one budget: declaring it again with other figures is refused at boot", () => {
    const limiter = new WriteLimiter(
      memoryCounters(() => 0),
      null,
    );
    limiter.declare({ name: "x.post", account: 10, address: 200 });
    expect(() => limiter.declare({ name: "x.post", account: 10, address: 200 })).not.toThrow();
    expect(() => limiter.declare({ name: "x.post", account: 11, address: 200 })).toThrow(/declared twice/);
  });

  test("a failing count store lets the write through, logged, instead of answering 500", async () => {
    const logged: string[] = [];
    const log = { error: (message: string) => logged.push(message) } as unknown as Logger;
    const broken: CounterFactory = () =>
      ({
        take: () => Promise.reject(new Error("redis: connection refused")),
      }) as unknown as AttemptCounter;
    const limiter = new WriteLimiter(broken, null, log);
    const request = new Request("http://127.0.0.1/api/x", { method: "POST" });
    await limiter.admit({ name: "x.broken", account: 1, address: 1 }, request);
    expect(logged).toEqual(["write limit not counted"]);
  });

  test("over the budget is still refused with 429", async () => {
    const limiter = new WriteLimiter(
      memoryCounters(() => 0),
      null,
    );
    const limit = { name: "x.one", account: 1, address: 1 };
    const request = () => new Request("http://127.0.0.1/api/x", { method: "POST" });
    await limiter.admit(limit, request());
    await expect(limiter.admit(limit, request())).rejects.toMatchObject({ status: 429 });
  });
});
