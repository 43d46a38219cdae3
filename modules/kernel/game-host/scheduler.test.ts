import { describe, expect, test } from "bun:test";
import { GameScheduler } from "./scheduler";
import { recordingLogger, TestClock } from "./test-support";

function setup() {
  const clock = new TestClock();
  const log = recordingLogger();
  const scheduler = new GameScheduler(clock, log);
  const start = clock.now();
  const ran: string[] = [];
  /** A job that notes its name when it runs. */
  const job = (name: string) => scheduler.job(() => ran.push(name));
  return { clock, log, scheduler, start, ran, job };
}

describe("one scheduler for every game", () => {
  test("jobs of many games wait on ONE clock timer and run in due order", () => {
    const { clock, scheduler, start, ran, job } = setup();
    scheduler.schedule(job("c"), start + 3_000);
    scheduler.schedule(job("a"), start + 1_000);
    scheduler.schedule(job("b"), start + 2_000);
    expect(clock.pendingTimers()).toBe(1);
    expect(scheduler.size).toBe(3);

    clock.advance(3_000);
    expect(ran).toEqual(["a", "b", "c"]);
    expect(scheduler.size).toBe(0);
    expect(clock.pendingTimers()).toBe(0);
  });

  test("an earlier job re-arms the timer; after each turn it is armed for the next job", () => {
    const { clock, scheduler, start, ran, job } = setup();
    scheduler.schedule(job("late"), start + 5_000);
    scheduler.schedule(job("early"), start + 2_000);
    expect(clock.pendingTimers()).toBe(1);

    clock.advance(2_000);
    expect(ran).toEqual(["early"]);
    expect(clock.pendingTimers()).toBe(1);
    expect(scheduler.nextDueAt).toBe(start + 5_000);

    clock.advance(3_000);
    expect(ran).toEqual(["early", "late"]);
  });

  test("a moved job runs once, at its new time; a cancelled job never runs", () => {
    const { clock, scheduler, start, ran, job } = setup();
    const moved = job("moved");
    scheduler.schedule(moved, start + 1_000);
    scheduler.schedule(moved, start + 4_000);
    const cancelled = job("cancelled");
    scheduler.schedule(cancelled, start + 2_000);
    scheduler.cancel(cancelled);

    clock.advance(3_000);
    expect(ran).toEqual([]);
    clock.advance(1_000);
    expect(ran).toEqual(["moved"]);
  });

  test("cancelling the last job leaves no timer behind", () => {
    const { clock, scheduler, start, job } = setup();
    const only = job("only");
    scheduler.schedule(only, start + 1_000);
    scheduler.cancel(only);
    expect(clock.pendingTimers()).toBe(0);
  });

  test("jobs due at the same time run in the order they were scheduled", () => {
    const { clock, scheduler, start, ran, job } = setup();
    for (const name of ["1", "2", "3", "4", "5"]) scheduler.schedule(job(name), start + 1_000);
    clock.advance(1_000);
    expect(ran).toEqual(["1", "2", "3", "4", "5"]);
  });

  test("late timers: overdue jobs and the steps they still owe run in due order", () => {
    const { clock, scheduler, start, ran, job } = setup();
    // "a" owes a second step, due before "b": it queues it while its first step runs.
    let stepsOfA = 0;
    const a = scheduler.job(() => {
      ran.push(`a${++stepsOfA}`);
      if (stepsOfA === 1) scheduler.schedule(a, start + 1_200);
    });
    scheduler.schedule(a, start + 1_000);
    scheduler.schedule(job("b"), start + 1_500);

    clock.stall(10_000); // the process was busy: both are 8.5 s and more overdue
    clock.advance(0);
    expect(ran).toEqual(["a1", "a2", "b"]);
  });

  test("a job queued for a past time while the timer fires runs on a later turn, never in the same one", () => {
    const clock = new (class extends TestClock {
      turnsArmed = 0;
      override setTimeout(fn: () => void, ms: number) {
        this.turnsArmed++;
        return super.setTimeout(fn, ms);
      }
    })();
    const scheduler = new GameScheduler(clock, recordingLogger());
    const turns: number[] = [];
    const owing = scheduler.job(() => {
      turns.push(clock.turnsArmed);
      if (turns.length < 4) scheduler.schedule(owing, clock.now() - 1); // owes another step at once
    });
    scheduler.schedule(owing, clock.now() + 10);
    clock.advance(10);
    expect(turns).toHaveLength(4);
    expect(new Set(turns).size).toBe(4); // each step on a timer armed after the previous step
  });

  test("a throwing job is logged and the other jobs of the turn still run", () => {
    const { clock, log, scheduler, start, ran, job } = setup();
    scheduler.schedule(
      scheduler.job(() => {
        throw new Error("boom");
      }),
      start + 1_000,
    );
    scheduler.schedule(job("after"), start + 1_000);
    clock.advance(1_000);
    expect(ran).toEqual(["after"]);
    expect(log.lines.some((l) => l.level === "error" && String(l.fields?.error).includes("boom"))).toBe(true);
  });

  test("wait() resolves on the scheduler's clock", async () => {
    const { clock, scheduler } = setup();
    let done = false;
    const waiting = scheduler.wait(500).then(() => {
      done = true;
    });
    clock.advance(499);
    await Promise.resolve();
    expect(done).toBe(false);
    clock.advance(1);
    await waiting;
    expect(done).toBe(true);
  });

  test("a due time that is not a number is refused", () => {
    const { scheduler, job } = setup();
    expect(() => scheduler.schedule(job("x"), Number.NaN)).toThrow(RangeError);
    expect(scheduler.size).toBe(0);
  });

  test("the heap keeps due order through many moves and cancellations", () => {
    const { clock, scheduler, start, ran } = setup();
    const jobs = Array.from({ length: 200 }, (_, i) => scheduler.job(() => ran.push(String(i))));
    // Deterministic shuffle of due times, then move every third job and cancel every fifth.
    const due = (i: number) => start + ((i * 7919) % 1000) + 1;
    for (const [i, j] of jobs.entries()) scheduler.schedule(j, due(i));
    for (const [i, j] of jobs.entries()) if (i % 3 === 0) scheduler.schedule(j, due(i) + 500);
    for (const [i, j] of jobs.entries()) if (i % 5 === 0) scheduler.cancel(j);
    clock.advance(2_000);

    const expected = jobs
      .map((_, i) => i)
      .filter((i) => i % 5 !== 0)
      .map((i) => ({ i, at: i % 3 === 0 ? due(i) + 500 : due(i) }))
      .sort((x, y) => x.at - y.at || x.i - y.i);
    // Same due time: scheduling order (a moved job was queued again later than the unmoved ones).
    expect(ran.map(Number).map((i) => (i % 3 === 0 ? due(i) + 500 : due(i)))).toEqual(expected.map((e) => e.at));
    expect(new Set(ran).size).toBe(expected.length);
  });
});
