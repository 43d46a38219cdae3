import { describe, expect, test } from "bun:test";
import { createRandom } from "../kernel/clock";
import type { GameContext, GameMode } from "../kernel/game-mode";
import { scoreTyping } from "../kernel/typing";
import { gameDurationFor } from "../rooms";
import {
  type DailyEffect,
  type DailyMove,
  type DailyState,
  type DailyStateView,
  dailyMode as pureMode,
} from "./daily-mode";

/** The mode through its contract (the object's own methods are typed narrower). */
const dailyMode: GameMode<DailyState, Parameters<typeof pureMode.setup>[0], DailyMove, DailyEffect, DailyStateView> =
  pureMode;

const SENTENCE = { id: 7, text: "가는 말이 고와야 오는 말이 곱다" };
const player = { id: "u:1", name: "철수", userId: 1, sessionId: "u_1" };
const at = (now: number): GameContext => ({ now, random: createRandom(() => 0) });

function joined(): DailyState {
  const state = dailyMode.setup({ day: "2026-04-01", sentence: SENTENCE }, at(0));
  return dailyMode.onPlayerJoin(state, player, at(0)).state;
}

/** Runs every due tick up to `now`. */
function until(state: DailyState, now: number) {
  let next = dailyMode.nextTickAt(state);
  const effects = [];
  while (next !== null && next <= now) {
    const t = dailyMode.tick(state, at(next));
    effects.push(...t.effects);
    if (t.state === state) break;
    state = t.state;
    next = dailyMode.nextTickAt(state);
  }
  return { state, effects };
}

function started(startAt = 1_000) {
  const s = dailyMode.move(joined(), player.id, { type: "start" }, at(startAt));
  if (!s.ok) throw new Error(s.error);
  return until(s.state, startAt + 3_000).state;
}

/** Steps one character every `everyMs` from the start, then the answer at the last step's time. */
function typed(state: DailyState, text: string, everyMs = 250) {
  const chars = [...text];
  let now = state.startedAt!;
  for (let i = 1; i <= chars.length; i++) {
    now += everyMs;
    const r = dailyMode.move(state, player.id, { type: "progress", typedText: chars.slice(0, i).join("") }, at(now));
    if (!r.ok) throw new Error(r.error);
    state = r.state;
  }
  return { state, now };
}

describe("오늘의 문장, the pure mode", () => {
  test("a start counts down 3, 2, 1, then shows the sentence for the race's duration", () => {
    const s = dailyMode.move(joined(), player.id, { type: "start" }, at(1_000));
    expect(s.ok && s.effects).toEqual([{ type: "state" }, { type: "countdown_number", number: 3 }]);
    if (!s.ok) return;
    expect(dailyMode.playerView(s.state, player.id).sentence).toBeNull();
    const { state, effects } = until(s.state, 4_000);
    expect(effects).toEqual([
      { type: "countdown_number", number: 2 },
      { type: "countdown_number", number: 1 },
      { type: "state" },
    ]);
    expect(state.status).toBe("in_progress");
    expect(state.startedAt).toBe(4_000);
    expect(state.endsAt).toBe(4_000 + gameDurationFor(SENTENCE.text) * 1_000);
    expect(dailyMode.playerView(state, player.id).sentence).toEqual(SENTENCE);
    expect(dailyMode.roundStartedAt?.(state)).toBe(4_000);
  });

  test("the answer is timed by the server's stamps and verified by its steps", () => {
    const { state, now } = typed(started(), SENTENCE.text);
    const r = dailyMode.move(state, player.id, { type: "submit", typedText: SENTENCE.text }, at(now));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const seconds = ([...SENTENCE.text].length * 250) / 1000;
    const result = r.state.result!;
    expect(result.completionTime).toBe(seconds);
    expect(result.wpm).toBe(scoreTyping(SENTENCE.text, SENTENCE.text, seconds).wpm);
    expect(result.verified).toBe(true);
    expect(result.steps.length).toBe([...SENTENCE.text].length);
    expect(r.state.status).toBe("finished");
    expect(r.effects.map((e) => e.type)).toEqual(["state", "submitted"]);
    // Another attempt: a new round.
    const again = dailyMode.move(r.state, player.id, { type: "start" }, at(now + 10));
    expect(again.ok && again.state.status).toBe("countdown");
    expect(again.ok && dailyMode.roundStartedAt?.(again.state)).toBeNull();
  });

  test("a paste is implausible: refused, recorded, and the attempt is over", () => {
    const state = started();
    const pasted = dailyMode.move(state, player.id, { type: "progress", typedText: SENTENCE.text }, at(5_000));
    if (!pasted.ok) throw new Error("progress refused");
    const r = dailyMode.move(pasted.state, player.id, { type: "submit", typedText: SENTENCE.text }, at(5_000));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.code).toBe("implausible");
    expect(r.transition?.state.status).toBe("finished");
    expect(r.transition?.effects.map((e) => e.type)).toEqual(["state", "implausible"]);
    expect(r.transition?.state.result?.implausible).toBe(true);
  });

  test("an answer without steps is accepted unverified; before the start or after the time it is refused", () => {
    const state = started();
    const early = dailyMode.move(joined(), player.id, { type: "submit", typedText: "가" }, at(0));
    expect(!early.ok && early.code).toBe("too_early");
    const r = dailyMode.move(
      state,
      player.id,
      { type: "submit", typedText: SENTENCE.text },
      at(state.startedAt! + 20_000),
    );
    expect(r.ok && r.state.result?.verified).toBe(false);
    const late = until(state, state.endsAt!);
    expect(late.state.status).toBe("finished");
    expect(late.state.result).toBeNull();
    const tooLate = dailyMode.move(
      late.state,
      player.id,
      { type: "submit", typedText: SENTENCE.text },
      at(state.endsAt!),
    );
    expect(!tooLate.ok && tooLate.code).toBe("too_late");
  });

  test("leaving ends an attempt in play without a result; only the player may move", () => {
    const state = started();
    const left = dailyMode.onPlayerLeave(state, player.id, at(5_000)).state;
    expect(left.status).toBe("finished");
    expect(left.result).toBeNull();
    const other = dailyMode.move(state, "u:2", { type: "start" }, at(5_000));
    expect(!other.ok && other.code).toBe("not_in_game");
  });
});
