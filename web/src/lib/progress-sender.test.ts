import { describe, expect, test } from "bun:test";
import { ProgressSender } from "./progress-sender";

/** A sender on a hand-moved clock; timers are real but short (the interval is 20 ms). */
function sender() {
  const sent: string[] = [];
  let now = 0;
  const progress = new ProgressSender(
    (text) => sent.push(text),
    20,
    () => now,
  );
  return {
    sent,
    progress,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe("ProgressSender", () => {
  test("the first change goes at once; changes within the interval wait and only the last is sent", async () => {
    const { sent, progress, advance } = sender();
    progress.update("ㄱ");
    progress.update("가");
    progress.update("각");
    expect(sent).toEqual(["ㄱ"]);
    advance(20);
    await Bun.sleep(40);
    expect(sent).toEqual(["ㄱ", "각"]);
  });

  test("flush sends the waiting change before the answer; the same text is never sent twice", () => {
    const { sent, progress } = sender();
    progress.update("가");
    progress.update("가나");
    progress.flush();
    progress.flush();
    progress.update("가나");
    expect(sent).toEqual(["가", "가나"]);
  });

  test("going back to the text last sent before the wait ends sends nothing more", async () => {
    const { sent, progress, advance } = sender();
    progress.update("가");
    progress.update("가나");
    progress.update("가");
    advance(20);
    await Bun.sleep(40);
    expect(sent).toEqual(["가"]);
  });

  test("reset forgets the round: the same text is sent again in the next one", () => {
    const { sent, progress } = sender();
    progress.update("가");
    progress.update("가나");
    progress.reset();
    progress.update("가");
    expect(sent).toEqual(["가", "가"]);
  });
});
