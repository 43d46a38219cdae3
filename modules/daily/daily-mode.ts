import type { GameContext, GameMode, GamePlayer, MoveResult, Transition } from "../kernel/game-mode";
import { appendStep, judgeSteps, type RaceStep, serverCompletionSeconds } from "../kernel/race-steps";
import { normalizeAnswer, round2, scoreTyping } from "../kernel/typing";
import { DEFAULT_RACE_SETTINGS, gameDurationFor, type RaceResult, type Sentence } from "../rooms";

/**
 * 오늘의 문장 (product-rules "Live race and replays"), a pure game mode: one player's attempts at the day's
 * sentence, each a solo round timed by the server exactly like a room's round (the same race-steps and scoring):
 *
 *   ready → (start) countdown (3 s: 3, 2, 1) → in_progress (the sentence, game_duration seconds)
 *         → finished (a result, an attempt refused as implausible, or the time ran out) → (start) countdown …
 *
 * One game per player and Seoul day (the source `<day>:<player key>`), so every round is one attempt; the game
 * holds the player's tabs as one member.
 */
export type DailyStatus = "ready" | "countdown" | "in_progress" | "finished";

export interface DailySettings {
  countdownSeconds: number;
  /** Faster than this (타/분) is implausible, as in a room. */
  maxPlausibleSpeed: number;
  /** An answer sooner than this after the start cannot have seen the sentence. */
  minReactionMs: number;
}

export const DEFAULT_DAILY_SETTINGS: DailySettings = {
  countdownSeconds: DEFAULT_RACE_SETTINGS.countdownSeconds,
  maxPlausibleSpeed: DEFAULT_RACE_SETTINGS.maxPlausibleSpeed,
  minReactionMs: DEFAULT_RACE_SETTINGS.minReactionMs,
};

export interface DailyPlayer extends GamePlayer {
  /** Public key (`u_<id>`, `g_<hash>`). */
  sessionId: string;
}

/** A room race's result (the same fields, timed and verified the same way), without a position: one player. */
export interface DailyResult extends Omit<RaceResult, "position"> {
  /** Refused as implausible (stored for the record only, never counted). */
  implausible: boolean;
}

export interface DailyState {
  day: string;
  sentence: Sentence;
  settings: DailySettings;
  player: DailyPlayer | null;
  status: DailyStatus;
  countdownEndsAt: number | null;
  countdownNumber: number | null;
  startedAt: number | null;
  gameDuration: number;
  endsAt: number | null;
  steps: readonly RaceStep[];
  /** The attempt of the round just finished (null: none yet, or the time ran out). */
  result: DailyResult | null;
}

export type DailyMove =
  | { type: "start" }
  | { type: "progress"; typedText: string }
  | { type: "submit"; typedText: string };

export type DailyEffect =
  | { type: "state" }
  | { type: "countdown_number"; number: number }
  | { type: "submitted"; result: DailyResult }
  | { type: "implausible"; result: DailyResult };

export interface DailyStateView {
  day: string;
  status: DailyStatus;
  /** The number on screen during the countdown, else the countdown's length. */
  countdown_seconds: number;
  /** Only once the attempt started (in_progress, finished). */
  sentence: Sentence | null;
  started_at: string | null;
  ends_at: string | null;
  game_duration: number;
}

export const DAILY_MESSAGES = {
  notStarted: "아직 시작하지 않았습니다. 시작 버튼을 누른 뒤 문장이 나오면 입력해주세요.",
  alreadyEnded: "이번 도전은 이미 끝났습니다. 다시 도전해주세요.",
  inProgress: "도전이 진행 중입니다.",
  empty: "입력한 내용이 없습니다.",
  implausible: "비정상적으로 빠른 입력이 감지되어 결과가 인정되지 않았습니다.",
} as const;

type T = Transition<DailyState, DailyEffect>;
const same = (state: DailyState): T => ({ state, effects: [] });
const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());
type Rejection = { ok: false; error: string; code: string };
const reject = (error: string, code: string): Rejection => ({ ok: false, error, code });

const ROUND_CLEARED = {
  countdownEndsAt: null,
  countdownNumber: null,
  startedAt: null,
  endsAt: null,
  steps: [],
  result: null,
} satisfies Partial<DailyState>;

function start(state: DailyState, ctx: GameContext): MoveResult<DailyState, DailyEffect> {
  if (state.status === "countdown" || state.status === "in_progress") return reject(DAILY_MESSAGES.inProgress, "busy");
  const seconds = state.settings.countdownSeconds;
  return {
    ok: true,
    state: {
      ...state,
      ...ROUND_CLEARED,
      status: "countdown",
      countdownEndsAt: ctx.now + seconds * 1000,
      countdownNumber: seconds,
    },
    effects: [{ type: "state" }, { type: "countdown_number", number: seconds }],
  };
}

function begin(state: DailyState, now: number): T {
  return {
    state: {
      ...state,
      status: "in_progress",
      countdownEndsAt: null,
      countdownNumber: null,
      startedAt: now,
      endsAt: now + state.gameDuration * 1000,
    },
    effects: [{ type: "state" }],
  };
}

/** The attempt ends without a result (the time ran out, the player left, the server stops). */
function timeOut(state: DailyState): T {
  return { state: { ...state, status: "finished", endsAt: null }, effects: [{ type: "state" }] };
}

function progress(state: DailyState, typedText: string, now: number) {
  if (state.status !== "in_progress" || now >= state.endsAt!) return { ok: true as const, state, effects: [] };
  const steps = appendStep(state.steps, now - state.startedAt!, typedText);
  return { ok: true as const, state: steps === state.steps ? state : { ...state, steps }, effects: [] };
}

function submit(state: DailyState, playerId: string, typedText: string, ctx: GameContext) {
  if (state.status === "ready" || state.status === "countdown") return reject(DAILY_MESSAGES.notStarted, "too_early");
  if (state.status === "finished" || ctx.now >= state.endsAt!) return reject(DAILY_MESSAGES.alreadyEnded, "too_late");
  if (normalizeAnswer(typedText) === "") return reject(DAILY_MESSAGES.empty, "empty");
  const { settings, sentence } = state;
  const serverMs = ctx.now - state.startedAt!;
  const elapsed = serverCompletionSeconds(serverMs, state.steps.at(-1), typedText);
  const score = scoreTyping(typedText, sentence.text, elapsed);
  const verdict = judgeSteps(state.steps, typedText, elapsed, settings.maxPlausibleSpeed);
  const player = state.player!;
  const tooFast = Math.max(score.wpm, score.raw_speed) > settings.maxPlausibleSpeed;
  const implausible =
    serverMs < settings.minReactionMs || !(elapsed > 0) || tooFast || (!verdict.verified && verdict.implausible);
  const result: DailyResult = {
    playerId,
    sessionId: player.sessionId,
    userId: player.userId,
    name: player.name,
    sentenceId: sentence.id,
    wpm: score.wpm,
    accuracy: score.accuracy,
    errorCount: score.error_count,
    completionTime: round2(Math.max(0, elapsed)),
    submittedAt: ctx.now,
    verified: verdict.verified && !implausible,
    steps: state.steps,
    implausible,
  };
  const next: DailyState = { ...state, status: "finished", endsAt: null, result };
  if (implausible) {
    // The attempt is used up (retrying slower would otherwise get through) and kept for the record only.
    return {
      ...reject(DAILY_MESSAGES.implausible, "implausible"),
      transition: { state: next, effects: [{ type: "state" }, { type: "implausible", result }] },
    };
  }
  return {
    ok: true as const,
    state: next,
    effects: [{ type: "state" } as const, { type: "submitted", result } as const],
  };
}

export const dailyMode = {
  id: "daily",

  setup(settings: { day: string; sentence: Sentence; settings?: Partial<DailySettings> }): DailyState {
    return {
      day: settings.day,
      sentence: settings.sentence,
      settings: { ...DEFAULT_DAILY_SETTINGS, ...settings.settings },
      player: null,
      status: "ready",
      gameDuration: gameDurationFor(settings.sentence.text),
      ...ROUND_CLEARED,
    };
  },

  move(state, playerId, move, ctx) {
    if (!state.player || state.player.id !== playerId) return reject("오늘의 문장에 먼저 입장해주세요.", "not_in_game");
    switch (move.type) {
      case "start":
        return start(state, ctx);
      case "progress":
        return progress(state, move.typedText, ctx.now);
      case "submit":
        return submit(state, playerId, move.typedText, ctx);
    }
  },

  tick(state, ctx) {
    if (state.status === "countdown") {
      if (ctx.now >= state.countdownEndsAt!) return begin(state, ctx.now);
      const number = Math.ceil((state.countdownEndsAt! - ctx.now) / 1000);
      if (number >= state.countdownNumber!) return same(state);
      return { state: { ...state, countdownNumber: number }, effects: [{ type: "countdown_number", number }] };
    }
    if (state.status === "in_progress" && ctx.now >= state.endsAt!) return timeOut(state);
    return same(state);
  },

  nextTickAt(state) {
    if (state.status === "countdown") return state.countdownEndsAt! - Math.max(0, state.countdownNumber! - 1) * 1000;
    if (state.status === "in_progress") return state.endsAt;
    return null;
  },

  onPlayerJoin: (state, player) => same(state.player ? state : { ...state, player: player as DailyPlayer }),

  /** The player left (last tab closed, or the reconnect grace ran out): an attempt in play ends without a result. */
  onPlayerLeave(state, playerId) {
    if (state.player?.id !== playerId) return same(state);
    const left = { ...state, player: null };
    if (state.status === "countdown") return { state: { ...left, ...ROUND_CLEARED, status: "ready" }, effects: [] };
    if (state.status === "in_progress") return { state: { ...left, status: "finished", endsAt: null }, effects: [] };
    return same(left);
  },

  onPlayerUpdate: (state, player) =>
    same(state.player?.id === player.id ? { ...state, player: { ...state.player, name: player.name } } : state),

  playerView: (state) => viewOf(state),

  /** An attempt is a round from the sentence's start until the next start. */
  roundStartedAt: (state) => (state.status === "in_progress" || state.status === "finished" ? state.startedAt : null),

  /** Shutdown or loss of ownership: an attempt in play ends without a result (no answer arrived). */
  finish: (state) => (state.status === "in_progress" ? timeOut(state) : same(state)),
} satisfies GameMode<
  DailyState,
  { day: string; sentence: Sentence; settings?: Partial<DailySettings> },
  DailyMove,
  DailyEffect,
  DailyStateView
>;

export type DailyMode = typeof dailyMode;

export function viewOf(state: DailyState): DailyStateView {
  const shown = state.status === "in_progress" || state.status === "finished";
  return {
    day: state.day,
    status: state.status,
    countdown_seconds: state.status === "countdown" ? (state.countdownNumber ?? 0) : state.settings.countdownSeconds,
    sentence: shown && state.startedAt !== null ? state.sentence : null,
    started_at: iso(state.startedAt),
    ends_at: iso(state.endsAt),
    game_duration: state.gameDuration,
  };
}
