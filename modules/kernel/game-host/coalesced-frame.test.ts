import { expect, test } from "bun:test";
import { CoalescedFrame } from "./coalesced-frame";
import { GameScheduler } from "./scheduler";
import { recordingLogger, TestClock } from "./test-support";

/** A frame of 100 ms on a test clock; `sent` notes the clock at each frame, `pending` is what `ready` answers. */
function setup() {
  const clock = new TestClock();
  const scheduler = new GameScheduler(clock, recordingLogger());
  const start = clock.now();
  const sent: number[] = [];
  const failures: unknown[] = [];
  const flags = { pending: true, throws: false };
  const frame = new CoalescedFrame(scheduler, {
    everyMs: 100,
    ready: () => flags.pending,
    send: () => {
      sent.push(clock.now() - start);
      if (flags.throws) throw new Error("broadcast failed");
    },
    failed: (error) => failures.push(error),
  });
  return { clock, frame, sent, failures, flags };
}

test("changes within a frame are one frame; the first after a quiet spell goes out at once", () => {
  const { clock, frame, sent } = setup();
  frame.request();
  frame.request();
  clock.advance(0);
  expect(sent).toEqual([0]);

  clock.advance(30);
  frame.request(); // 30 ms after the last frame: waits until 100
  clock.advance(40);
  frame.request();
  expect(sent).toEqual([0]);
  clock.advance(30);
  expect(sent).toEqual([0, 100]);

  clock.advance(500);
  frame.request(); // long after: at once
  clock.advance(0);
  expect(sent).toEqual([0, 100, 600]);
});

test("a cancelled frame never goes out; a frame with nothing to send does not count as the last", () => {
  const { clock, frame, sent, flags } = setup();
  frame.request();
  frame.cancel();
  clock.advance(200);
  expect(sent).toEqual([]);

  flags.pending = false;
  frame.request();
  clock.advance(0);
  flags.pending = true;
  frame.request(); // the skipped frame left no "last frame": this one goes out at once
  clock.advance(0);
  expect(sent).toEqual([200]);
});

test("a send that throws is reported, counts as sent, and the next frame still comes", () => {
  const { clock, frame, sent, failures, flags } = setup();
  flags.throws = true;
  frame.request();
  clock.advance(0);
  expect(failures).toHaveLength(1);
  flags.throws = false;
  frame.request();
  clock.advance(100);
  expect(sent).toEqual([0, 100]);
});

test("flush sends the queued frame now (once), and nothing when none is queued", () => {
  const { clock, frame, sent } = setup();
  frame.request();
  clock.advance(0);
  clock.advance(20);
  frame.request(); // due at 100
  frame.flush();
  expect(sent).toEqual([0, 20]);
  clock.advance(200);
  expect(sent).toEqual([0, 20]); // the queued one was the flushed one
  frame.flush();
  expect(sent).toEqual([0, 20]);
});
