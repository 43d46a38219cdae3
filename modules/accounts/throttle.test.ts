import { expect, test } from "bun:test";
import { FakeClock } from "../kernel/clock";
import { LoginThrottle } from "./throttle";

const limits = { windowMs: 60_000, perEmail: 3, perIp: 5 };

test("blocks an e-mail after repeated failures until the window passes", () => {
  const clock = new FakeClock();
  const throttle = new LoginThrottle(limits, () => clock.now());
  for (let i = 0; i < 3; i++) {
    expect(throttle.retryAfter("a@x.com", "1.1.1.1")).toBe(0);
    throttle.recordFailure("a@x.com", "1.1.1.1");
  }
  expect(throttle.retryAfter("a@x.com", "2.2.2.2")).toBe(60);
  clock.advance(60_001);
  expect(throttle.retryAfter("a@x.com", "1.1.1.1")).toBe(0);
});

test("blocks an IP that tries many e-mails", () => {
  const clock = new FakeClock();
  const throttle = new LoginThrottle(limits, () => clock.now());
  for (let i = 0; i < 5; i++) throttle.recordFailure(`u${i}@x.com`, "9.9.9.9");
  expect(throttle.retryAfter("fresh@x.com", "9.9.9.9")).toBeGreaterThan(0);
  expect(throttle.retryAfter("fresh@x.com", "8.8.8.8")).toBe(0);
});

test("a success clears the e-mail's failures", () => {
  const clock = new FakeClock();
  const throttle = new LoginThrottle(limits, () => clock.now());
  throttle.recordFailure("a@x.com", "1.1.1.1");
  throttle.recordFailure("a@x.com", "1.1.1.1");
  throttle.recordSuccess("a@x.com");
  throttle.recordFailure("a@x.com", "1.1.1.1");
  expect(throttle.retryAfter("a@x.com", "1.1.1.1")).toBe(0);
});
