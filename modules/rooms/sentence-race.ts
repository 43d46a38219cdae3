import type { GameRewardDelta } from "../accounts";
import type { GameContext, GameMode, GamePlayer, MoveResult, Transition } from "../kernel/game-mode";
import {
  appendStep,
  judgeSteps,
  progressAt,
  type RaceStep,
  type StepVerdict,
  serverCompletionSeconds,
} from "../kernel/race-steps";
import { CHAT_LINE_ACCURACY, isChatLine, keystrokes, normalizeAnswer, round2, scoreTyping } from "../kernel/typing";
import { computeRewards, isRankedGame } from "./rewards";

/**
 * The sentence race (product-rules.md "Typing rooms"), a pure game mode: the host feeds it joins, leaves,
 * submissions and clock ticks and turns its effects into socket events and database writes.
 *
 *   waiting (next_game_at = now + 5 s, only while someone is in the room)
 *   → countdown (3 s: 3, 2, 1) → in_progress (one sentence, game_duration seconds)
 *   → finished (results shown 5 s) → waiting
 */
export type GameStatus = "waiting" | "countdown" | "in_progress" | "finished";

export interface RaceSettings {
  waitMs: number;
  countdownSeconds: number;
  resultsMs: number;
  /** The last seconds of a game announced with game:end_countdown_*; 0 turns it off. */
  endCountdownSeconds: number;
  minDurationSeconds: number;
  maxDurationSeconds: number;
  /** game_duration = time to type the sentence at this speed (타/분) + slack, clamped to min–max. */
  referenceSpeed: number;
  durationSlackSeconds: number;
  /** Results at or above this accuracy get a position. */
  positionAccuracy: number;
  /** ...and only when the answer is at least this percentage of the sentence's length (a cut-short answer). */
  positionMinLengthPercent: number;
  /** A chat line sent as a game answer below this accuracy is ordinary chat (no attempt used). */
  chatAnswerMinAccuracy: number;
  /** Faster than this (타/분, unweighted) is implausible. */
  maxPlausibleSpeed: number;
  /** A submission sooner than this after the start cannot have seen the sentence. */
  minReactionMs: number;
  /** Sentences not repeated within this many games. */
  recentSentences: number;
  /**
   * Places pay (position bonuses, medals, win streaks) and results count in the rankings: false in a private room,
   * whose games pay the participation reward only (product-rules "Playing together").
   */
  ranked: boolean;
}

export const DEFAULT_RACE_SETTINGS: RaceSettings = {
  waitMs: 5_000,
  countdownSeconds: 3,
  resultsMs: 5_000,
  endCountdownSeconds: 5,
  minDurationSeconds: 10,
  maxDurationSeconds: 60,
  referenceSpeed: 200,
  durationSlackSeconds: 5,
  positionAccuracy: 80,
  positionMinLengthPercent: 90,
  chatAnswerMinAccuracy: CHAT_LINE_ACCURACY,
  maxPlausibleSpeed: 1_500,
  minReactionMs: 200,
  recentSentences: 5,
  ranked: true,
};

export interface Sentence {
  id: number;
  text: string;
}

export interface RacePlayer extends GamePlayer {
  /** Public id shown to others (`u_<id>`, `g_<hash>`): never the guest's client id. */
  sessionId: string;
  /**
   * Watches without playing (`spectate: true`): a member of the room's host who never enters the race's players, so
   * never counts toward a round's end, and whose steps and answers are refused.
   */
  spectator?: boolean;
}

export interface RaceResult {
  playerId: string;
  sessionId: string;
  userId: number | null;
  name: string;
  sentenceId: number;
  wpm: number;
  accuracy: number;
  errorCount: number;
  /** Seconds, as used for the speed: the server's, from the round's start (race-steps `serverCompletionSeconds`). */
  completionTime: number;
  position: number | null;
  submittedAt: number;
  /** Whether server-stamped steps show the answer typed (false: sent without steps; product-rules). */
  verified: boolean;
  /** The steps that led to the answer: the result's replay (empty when sent without steps). */
  steps: readonly RaceStep[];
}

/**
 * Who starts a private room's rounds (README "Private rooms"): its owner's player id, whether the owner is in the
 * room (as a racer or a spectator) and whether rounds start by themselves anyway (`auto`). Null in a public room.
 */
export interface RoomOwner {
  playerId: string;
  present: boolean;
  auto: boolean;
}

export interface RaceState {
  roomId: number;
  settings: RaceSettings;
  status: GameStatus;
  /** Players present (join order), including those inside the reconnect grace period. */
  players: readonly RacePlayer[];
  pool: readonly Sentence[];
  recent: readonly number[];
  sentence: Sentence | null;
  nextGameAt: number | null;
  countdownEndsAt: number | null;
  /** The countdown number last announced (3, 2, 1). */
  countdownNumber: number | null;
  startedAt: number | null;
  gameDuration: number | null;
  endsAt: number | null;
  endCountdownNumber: number | null;
  finishedAt: number | null;
  /** Results of the current game in arrival order. */
  results: readonly RaceResult[];
  /** Players of the current game whose one attempt was refused as implausible (no result, no retry). */
  rejected: readonly string[];
  /** Each player's steps in the current game, by player id (only players who typed have an entry). */
  steps: Readonly<Record<string, readonly RaceStep[]>>;
  /** Consecutive first places of the players present (guests have no stored streak); forgotten on leave. */
  streaks: Readonly<Record<string, number>>;
  owner: RoomOwner | null;
  /** Players who asked for another round ("다시 하기", a private room's rematch), cleared when one starts. */
  ready: readonly string[];
}

export interface StandingEntry extends RaceResult {
  /** Rewards for a registered player; null for guests. */
  rewards: GameRewardDelta | null;
  winStreak: number;
}

export interface FinishedGame {
  roomId: number;
  /** Whether places paid and the results count in the rankings (`RaceSettings.ranked`). */
  ranked: boolean;
  sentence: Sentence;
  startedAt: number;
  finishedAt: number;
  participants: number;
  /** Positioned results by position, then the others in arrival order. */
  standings: StandingEntry[];
}

/**
 * An attempt refused as implausible: it used up the player's one attempt and is recorded for the record only
 * (never counted), with what the log needs to judge it.
 */
export interface RejectedAttempt {
  /** The scored attempt as a result would be, without a position. */
  result: RaceResult;
  /** Unweighted keystrokes per minute of the text actually typed. */
  rawSpeed: number;
  serverSeconds: number;
  clientSeconds: number | null;
  typedLength: number;
  /** What the steps showed ("burst", "too_fast", "answer_differs"), when they decided it. */
  stepsVerdict: StepVerdict;
}

export type RaceEffect =
  | { type: "state" }
  | { type: "countdown_message"; seconds: number }
  | { type: "countdown_number"; number: number }
  | { type: "end_countdown_message"; seconds: number }
  | { type: "end_countdown_number"; number: number }
  | { type: "problem"; sentence: Sentence; gameDuration: number }
  | { type: "submitted"; result: RaceResult }
  | { type: "progress"; playerId: string; progress: number; wpm: number }
  | { type: "implausible"; attempt: RejectedAttempt }
  | { type: "finished"; game: FinishedGame }
  /** A private room's owner, or whether its rounds start by themselves, changed. */
  | { type: "owner" }
  /** Someone asked for another round (or the marks were cleared by the round starting). */
  | { type: "ready" };

export interface SubmitMove {
  type?: "submit";
  typedText: string;
  /** The sentence the client answered; omitted for a chat answer (is_game_answer). */
  sentenceId?: number;
  /** The client's own measurement in seconds: logged with a refused attempt, never used for the score. */
  elapsedTime?: number;
}

/** What the player's answer box holds now (`game:progress`), stamped with the server's time on arrival. */
export interface ProgressMove {
  type: "progress";
  typedText: string;
}

/**
 * A private room's moves (README "Private rooms"). `start` and `owner` are the room's, not a player's: the room
 * checks that its owner asked (the host plays them under a member's id, which the race does not look at). `ready`
 * is the player's own "다시 하기".
 */
export type RoomMove =
  | { type: "start" }
  | { type: "owner"; playerId: string; present: boolean; auto: boolean }
  | { type: "ready" };

export type RaceMove = SubmitMove | ProgressMove | RoomMove;

export interface GameStateView {
  room_id: number;
  status: GameStatus;
  sentence: Sentence | null;
  started_at: string | null;
  game_duration: number;
  countdown_seconds: number;
  next_game_at: string | null;
  ends_at: string | null;
}

export const RACE_MESSAGES = {
  notStarted: "게임이 아직 시작되지 않았습니다. 문장이 나온 뒤에 입력해주세요.",
  alreadyEnded: "이미 종료된 게임입니다. 다음 게임을 기다려주세요.",
  notInRoom: "방에 참여한 플레이어만 제출할 수 있습니다.",
  alreadySubmitted: "이번 게임에는 이미 제출했습니다.",
  wrongSentence: "현재 문제와 다른 문장입니다.",
  empty: "입력한 내용이 없습니다.",
  implausible: "비정상적으로 빠른 입력이 감지되어 결과가 인정되지 않았습니다.",
  spectating: "관전 중에는 입력할 수 없습니다. 게임에 참여하려면 '참가하기'를 눌러주세요.",
  publicRoom: "공개 방의 라운드는 저절로 시작됩니다.",
  roundInPlay: "라운드가 이미 진행 중입니다.",
  noPlayers: "참가자가 없어 라운드를 시작할 수 없습니다.",
  spectatorNotReady: "관전 중에는 다시 하기를 누를 수 없습니다. 게임에 참여하려면 '참가하기'를 눌러주세요.",
  countdownStarting: "게임이 곧 시작됩니다!",
  endingSoon: "게임 종료까지 얼마 남지 않았습니다!",
} as const;

/** A room's race: its id, sentences, settings and, in a private room, its owner (who starts the rounds). */
export interface RaceSetup {
  roomId: number;
  pool?: readonly Sentence[];
  settings?: Partial<RaceSettings>;
  owner?: { playerId: string; auto: boolean };
}

type T = Transition<RaceState, RaceEffect>;
const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());
const same = (state: RaceState): T => ({ state, effects: [] });

/** clamp(min, max, seconds to type the sentence at the reference speed + slack), whole seconds. */
export function gameDurationFor(text: string, settings: RaceSettings = DEFAULT_RACE_SETTINGS): number {
  const typingSeconds = (keystrokes(text) / settings.referenceSpeed) * 60;
  const seconds = Math.ceil(typingSeconds + settings.durationSlackSeconds);
  return Math.min(settings.maxDurationSeconds, Math.max(settings.minDurationSeconds, seconds));
}

/** The fields of a game in progress, cleared: the state between two games (states are never mutated). */
const NO_GAME = {
  sentence: null,
  nextGameAt: null,
  countdownEndsAt: null,
  countdownNumber: null,
  startedAt: null,
  gameDuration: null,
  endsAt: null,
  endCountdownNumber: null,
  finishedAt: null,
  results: [],
  rejected: [],
  steps: {},
} satisfies Partial<RaceState>;

/**
 * Whether rounds start by themselves: always in a public room; in a private room when its owner turned automatic
 * rounds on, or while the owner is not in the room (a group is never stuck waiting for someone who left).
 */
export const startsByItself = (state: RaceState) => !state.owner || state.owner.auto || !state.owner.present;

function toWaiting(state: RaceState, now: number): RaceState {
  return {
    ...state,
    status: "waiting",
    ...NO_GAME,
    nextGameAt: state.players.length > 0 && startsByItself(state) ? now + state.settings.waitMs : null,
  };
}

/**
 * While waiting, the next round is scheduled exactly when someone plays and rounds start by themselves: a racer
 * arriving, the owner leaving or turning automatic rounds on schedules it; the owner coming back (with automatic
 * rounds off) takes the start back into their hands.
 */
function reschedule(state: RaceState, now: number): T {
  if (state.status !== "waiting") return same(state);
  const wanted = state.players.length > 0 && startsByItself(state);
  if (wanted === (state.nextGameAt !== null)) return same(state);
  return { state: { ...state, nextGameAt: wanted ? now + state.settings.waitMs : null }, effects: [{ type: "state" }] };
}

function startCountdown(state: RaceState, now: number): T {
  const seconds = state.settings.countdownSeconds;
  const cleared: RaceEffect[] = state.ready.length > 0 ? [{ type: "ready" }] : [];
  return {
    state: {
      ...state,
      ready: [],
      status: "countdown",
      nextGameAt: null,
      countdownEndsAt: now + seconds * 1000,
      countdownNumber: seconds,
    },
    effects: [
      { type: "state" },
      { type: "countdown_message", seconds },
      { type: "countdown_number", number: seconds },
      ...cleared,
    ],
  };
}

function pickSentence(state: RaceState, ctx: GameContext): Sentence | null {
  if (state.pool.length === 0) return null;
  const fresh = state.pool.filter((s) => !state.recent.includes(s.id));
  return ctx.random.pick(fresh.length > 0 ? fresh : state.pool);
}

function startGame(state: RaceState, ctx: GameContext): T {
  const sentence = pickSentence(state, ctx);
  // No sentence to play (an empty corpus): wait and try again rather than start an empty game.
  if (!sentence) return { state: toWaiting(state, ctx.now), effects: [{ type: "state" }] };
  const gameDuration = gameDurationFor(sentence.text, state.settings);
  const recent = [...state.recent, sentence.id].slice(-state.settings.recentSentences);
  return {
    state: {
      ...state,
      status: "in_progress",
      sentence,
      recent,
      countdownEndsAt: null,
      countdownNumber: null,
      startedAt: ctx.now,
      gameDuration,
      endsAt: ctx.now + gameDuration * 1000,
      endCountdownNumber: null,
      results: [],
      rejected: [],
      steps: {},
    },
    effects: [{ type: "state" }, { type: "problem", sentence, gameDuration }],
  };
}

/** Positioned results by position, then the rest by arrival; rewards for members; streaks updated. */
function standingsOf(state: RaceState): { standings: StandingEntry[]; streaks: Record<string, number> } {
  const participants = state.results.length;
  const ordered = [
    ...state.results.filter((r) => r.position !== null).sort((a, b) => a.position! - b.position!),
    ...state.results.filter((r) => r.position === null),
  ];
  const streaks = streaksOfPresent(state);
  const { ranked } = state.settings;
  const standings = ordered.map((result) => {
    const won = ranked && result.position === 1 && isRankedGame(participants);
    const winStreak = won ? (state.streaks[result.playerId] ?? 0) + 1 : 0;
    // A player who answered and then left is shown with the streak but not remembered.
    if (isPresent(state, result.playerId)) streaks[result.playerId] = winStreak;
    const rewards =
      result.userId === null
        ? null
        : computeRewards({
            wpm: result.wpm,
            accuracy: result.accuracy,
            position: result.position,
            participants,
            ranked,
          });
    return { ...result, rewards, winStreak };
  });
  return { standings, streaks };
}

const isPresent = (state: RaceState, playerId: string) => state.players.some((p) => p.id === playerId);

/**
 * The streaks of the players in the room, copied: O(room), since a player's entry goes when they leave (a table
 * of every guest who ever played would grow for as long as the server runs, and be copied after every game).
 */
function streaksOfPresent(state: RaceState): Record<string, number> {
  const streaks: Record<string, number> = {};
  for (const { id } of state.players) if (id in state.streaks) streaks[id] = state.streaks[id];
  return streaks;
}

/** Ends the round in play: standings, rewards and streaks of the results so far. */
function finishRound(state: RaceState, now: number): T {
  const { standings, streaks } = standingsOf(state);
  const next: RaceState = { ...state, status: "finished", finishedAt: now, endsAt: null, streaks };
  const game: FinishedGame = {
    roomId: state.roomId,
    ranked: state.settings.ranked,
    sentence: state.sentence!,
    startedAt: state.startedAt!,
    finishedAt: now,
    participants: state.results.length,
    standings,
  };
  return { state: next, effects: [{ type: "state" }, { type: "finished", game }] };
}

const attempted = (state: RaceState, playerId: string) =>
  state.rejected.includes(playerId) || state.results.some((r) => r.playerId === playerId);
/**
 * Whether every player who holds the round has made their attempt. A player who never typed in the round does not
 * hold it (product-rules "Live race and replays") — as long as someone present typed: when nobody sent a step
 * (clients that send none), every player present holds it, as before steps existed.
 */
function everyoneSubmitted(state: RaceState): boolean {
  const anyoneTyped = state.players.some((p) => p.id in state.steps);
  return state.players.every((p) => attempted(state, p.id) || (anyoneTyped && !(p.id in state.steps)));
}

function tickCountdown(state: RaceState, ctx: GameContext): T {
  if (ctx.now >= state.countdownEndsAt!) return startGame(state, ctx);
  const number = Math.ceil((state.countdownEndsAt! - ctx.now) / 1000);
  if (number >= (state.countdownNumber ?? Number.POSITIVE_INFINITY)) return same(state);
  return { state: { ...state, countdownNumber: number }, effects: [{ type: "countdown_number", number }] };
}

function tickInProgress(state: RaceState, ctx: GameContext): T {
  if (ctx.now >= state.endsAt!) return finishRound(state, ctx.now);
  const remaining = Math.ceil((state.endsAt! - ctx.now) / 1000);
  const last = state.endCountdownNumber;
  if (remaining > state.settings.endCountdownSeconds || (last !== null && remaining >= last)) return same(state);
  const effects: RaceEffect[] = [];
  if (last === null) effects.push({ type: "end_countdown_message", seconds: remaining });
  effects.push({ type: "end_countdown_number", number: remaining });
  return { state: { ...state, endCountdownNumber: remaining }, effects };
}

const lengthOf = (text: string) => [...normalizeAnswer(text)].length;

/**
 * A result takes a place only when it is accurate enough AND not cut short: the first 80 % of a sentence sent
 * early is 80 % accurate, but it must not beat the players who typed it all. Lengths in characters after the
 * scoring's normalisation; integer arithmetic, so exactly 90 % passes.
 */
export function earnsPosition(typed: string, sentence: string, accuracy: number, settings: RaceSettings) {
  const longEnough = lengthOf(typed) * 100 >= lengthOf(sentence) * settings.positionMinLengthPercent;
  return accuracy >= settings.positionAccuracy && longEnough;
}

/**
 * Whether a chat line sent with is_game_answer is the player's attempt: only during in_progress, before the
 * player's attempt, and when it is at least 50 % accurate against the sentence. Anything else is ordinary chat,
 * so "ㅋㅋ 어렵다" sent with the answer flag neither uses up the attempt nor counts as an implausible result.
 */
export function isChatAnswer(state: RaceState, playerId: string, text: string): boolean {
  if (state.status !== "in_progress" || !state.sentence || attempted(state, playerId)) return false;
  return !isChatLine(text, state.sentence.text, state.settings.chatAnswerMinAccuracy);
}

/**
 * Whether a `game:submission` is a chat line: sent for the sentence now up, with something typed, and below 50 %
 * accurate against it. Such a line is posted to the room's chat like any chat line and the player keeps their
 * attempt, whichever event carried it: a page that sends every line of its answer box as `game:submission` must
 * not spend the attempt (nor be judged implausible) on "ㅋㅋ 어렵다".
 */
export function isChatSubmission(state: RaceState, sentenceId: number | undefined, text: string): boolean {
  if (state.status !== "in_progress" || !state.sentence) return false;
  if (sentenceId !== undefined && sentenceId !== state.sentence.id) return false;
  if (normalizeAnswer(text) === "") return false;
  return isChatLine(text, state.sentence.text, state.settings.chatAnswerMinAccuracy);
}

type Rejection = { ok: false; error: string; code: string };
const reject = (error: string, code: string): Rejection => ({ ok: false, error, code });

function checkSubmission(state: RaceState, playerId: string, move: SubmitMove, now: number): Rejection | null {
  if (state.status === "waiting" || state.status === "countdown") return reject(RACE_MESSAGES.notStarted, "too_early");
  if (state.status === "finished" || now >= state.endsAt!) return reject(RACE_MESSAGES.alreadyEnded, "too_late");
  if (!state.players.some((p) => p.id === playerId)) return reject(RACE_MESSAGES.notInRoom, "not_in_room");
  if (attempted(state, playerId)) return reject(RACE_MESSAGES.alreadySubmitted, "duplicate");
  if (move.sentenceId !== undefined && move.sentenceId !== state.sentence!.id) {
    return reject(RACE_MESSAGES.wrongSentence, "wrong_sentence");
  }
  if (normalizeAnswer(move.typedText) === "") return reject(RACE_MESSAGES.empty, "empty");
  return null;
}

function submit(
  state: RaceState,
  playerId: string,
  move: SubmitMove,
  ctx: GameContext,
): MoveResult<RaceState, RaceEffect> {
  const rejection = checkSubmission(state, playerId, move, ctx.now);
  if (rejection) return rejection;
  const settings = state.settings;
  const serverMs = ctx.now - state.startedAt!;
  const steps = state.steps[playerId] ?? [];
  const elapsed = serverCompletionSeconds(serverMs, steps.at(-1), move.typedText);
  const score = scoreTyping(move.typedText, state.sentence!.text, elapsed);
  const verdict = judgeSteps(steps, move.typedText, elapsed, settings.maxPlausibleSpeed);
  const player = state.players.find((p) => p.id === playerId)!;
  const result: RaceResult = {
    playerId,
    sessionId: player.sessionId,
    userId: player.userId,
    name: player.name,
    sentenceId: state.sentence!.id,
    wpm: score.wpm,
    accuracy: score.accuracy,
    errorCount: score.error_count,
    completionTime: round2(Math.max(0, elapsed)),
    position: null,
    submittedAt: ctx.now,
    verified: verdict.verified,
    steps,
  };
  // Too soon, too fast by the result's speed or by what was actually typed (a fast paste of a wrong text), or
  // steps that show no person typing this answer.
  const tooFast = Math.max(score.wpm, score.raw_speed) > settings.maxPlausibleSpeed;
  const stepsRefuse = !verdict.verified && verdict.implausible;
  if (serverMs < settings.minReactionMs || !(elapsed > 0) || tooFast || stepsRefuse) {
    const attempt: RejectedAttempt = {
      result,
      rawSpeed: score.raw_speed,
      serverSeconds: serverMs / 1000,
      clientSeconds: move.elapsedTime ?? null,
      typedLength: [...move.typedText].length,
      stepsVerdict: verdict,
    };
    return { ...reject(RACE_MESSAGES.implausible, "implausible"), transition: rejectAttempt(state, attempt, ctx.now) };
  }
  if (earnsPosition(move.typedText, state.sentence!.text, score.accuracy, settings)) {
    result.position = state.results.filter((r) => r.position !== null).length + 1;
  }
  const next: RaceState = { ...state, results: [...state.results, result] };
  const effects: RaceEffect[] = [{ type: "submitted", result }];
  if (everyoneSubmitted(next)) {
    const done = finishRound(next, ctx.now);
    return { ok: true, state: done.state, effects: [...effects, ...done.effects] };
  }
  return { ok: true, state: next, effects };
}

/**
 * A step of the player's typing: stamped with the server's time since the round started and kept as the answer's
 * replay; its figures go to the room's lanes. Only while the round is in play and before the player's attempt;
 * anything else is ignored without an answer (a late step crossing the round's end is no fault of the player).
 */
function recordProgress(
  state: RaceState,
  playerId: string,
  typedText: string,
  ctx: GameContext,
): MoveResult<RaceState, RaceEffect> {
  // The host plays moves of its members only: one that is not among the race's players is a spectator.
  if (!isPresent(state, playerId)) return reject(RACE_MESSAGES.spectating, "spectating");
  if (state.status !== "in_progress" || ctx.now >= state.endsAt! || attempted(state, playerId)) return ignored(state);
  const before = state.steps[playerId] ?? [];
  const steps = appendStep(before, ctx.now - state.startedAt!, typedText);
  if (steps === before) return ignored(state);
  const figures = progressAt(steps.at(-1)!, state.sentence!.text);
  const next: RaceState = { ...state, steps: { ...state.steps, [playerId]: steps } };
  return { ok: true, state: next, effects: [{ type: "progress", playerId, ...figures }] };
}

const ignored = (state: RaceState) => ({ ok: true as const, state, effects: [] });

/**
 * The refused attempt was the player's one attempt (retrying slower would otherwise get through); it is recorded
 * as implausible, and the round ends when it was the last attempt missing.
 */
function rejectAttempt(state: RaceState, attempt: RejectedAttempt, now: number): T {
  const next: RaceState = { ...state, rejected: [...state.rejected, attempt.result.playerId] };
  const effects: RaceEffect[] = [{ type: "implausible", attempt }];
  if (!everyoneSubmitted(next)) return { state: next, effects };
  const done = finishRound(next, now);
  return { state: done.state, effects: [...effects, ...done.effects] };
}

/**
 * The owner's "다음 라운드" (the room checked who asked): the countdown starts now, from the waiting phase or right
 * after a round's results. Only in a private room, between rounds, with someone to race.
 */
function startNow(state: RaceState, now: number): MoveResult<RaceState, RaceEffect> {
  if (!state.owner) return reject(RACE_MESSAGES.publicRoom, "unsupported");
  if (state.status === "countdown" || state.status === "in_progress") {
    return reject(RACE_MESSAGES.roundInPlay, "round_in_play");
  }
  if (state.players.length === 0) return reject(RACE_MESSAGES.noPlayers, "no_players");
  return { ok: true, ...startCountdown(toWaiting(state, now), now) };
}

/** A private room's owner or automatic rounds changed (the room checked that its owner asked). */
function setOwner(state: RaceState, owner: RoomOwner, now: number): MoveResult<RaceState, RaceEffect> {
  if (!state.owner) return reject(RACE_MESSAGES.publicRoom, "unsupported");
  const next = reschedule({ ...state, owner }, now);
  return { ok: true, state: next.state, effects: [{ type: "owner" }, ...next.effects] };
}

/**
 * A racer's "다시 하기" between rounds: marked ready (once), and when every racer present is ready the next round's
 * countdown starts at once. A racing owner starts it with "다음 라운드" instead, so the marks tell them who is in.
 */
function markReady(state: RaceState, playerId: string, now: number): MoveResult<RaceState, RaceEffect> {
  if (!state.owner) return reject(RACE_MESSAGES.publicRoom, "unsupported");
  if (!isPresent(state, playerId)) return reject(RACE_MESSAGES.spectatorNotReady, "spectating");
  if (state.status === "countdown" || state.status === "in_progress") {
    return reject(RACE_MESSAGES.roundInPlay, "round_in_play");
  }
  if (state.ready.includes(playerId)) return ignored(state);
  const next: RaceState = { ...state, ready: [...state.ready, playerId] };
  if (!everyoneReady(next)) return { ok: true, state: next, effects: [{ type: "ready" }] };
  return { ok: true, ...startCountdown(toWaiting(next, now), now) };
}

const everyoneReady = (state: RaceState) =>
  state.players.length > 0 && state.players.every((p) => state.ready.includes(p.id));

/** The owner came or went (as a racer or a spectator): whether rounds start by themselves may change. */
function ownerPresence(state: RaceState, playerId: string, present: boolean): RaceState {
  if (state.owner?.playerId !== playerId || state.owner.present === present) return state;
  return { ...state, owner: { ...state.owner, present } };
}

/** The number on screen during the countdown; otherwise the countdown's length. */
const countdownSecondsOf = (state: RaceState) =>
  state.status === "countdown" ? (state.countdownNumber ?? 0) : state.settings.countdownSeconds;

export const sentenceRace = {
  id: "sentence_race",

  setup(settings: RaceSetup): RaceState {
    return {
      roomId: settings.roomId,
      settings: { ...DEFAULT_RACE_SETTINGS, ...settings.settings },
      status: "waiting",
      players: [],
      pool: settings.pool ?? [],
      recent: [],
      ...NO_GAME,
      streaks: {},
      owner: settings.owner ? { ...settings.owner, present: false } : null,
      ready: [],
    };
  },

  move(state, playerId, move, ctx) {
    switch (move.type) {
      case "progress":
        return recordProgress(state, playerId, move.typedText, ctx);
      case "start":
        return startNow(state, ctx.now);
      case "owner":
        return setOwner(state, { playerId: move.playerId, present: move.present, auto: move.auto }, ctx.now);
      case "ready":
        return markReady(state, playerId, ctx.now);
      default:
        return submit(state, playerId, move, ctx);
    }
  },

  tick(state, ctx) {
    switch (state.status) {
      case "waiting":
        if (state.players.length === 0 || state.nextGameAt === null || ctx.now < state.nextGameAt) return same(state);
        return startCountdown(state, ctx.now);
      case "countdown":
        return tickCountdown(state, ctx);
      case "in_progress":
        return tickInProgress(state, ctx);
      case "finished":
        if (ctx.now < state.finishedAt! + state.settings.resultsMs) return same(state);
        return { state: toWaiting(state, ctx.now), effects: [{ type: "state" }] };
    }
  },

  nextTickAt(state) {
    switch (state.status) {
      case "waiting":
        return state.players.length > 0 ? state.nextGameAt : null;
      case "countdown":
        return state.countdownEndsAt! - Math.max(0, state.countdownNumber! - 1) * 1000;
      case "in_progress": {
        const { endsAt, endCountdownNumber: last, settings } = state;
        const beat = last === null ? endsAt! - settings.endCountdownSeconds * 1000 : endsAt! - (last - 1) * 1000;
        return settings.endCountdownSeconds > 0 ? Math.min(endsAt!, Math.max(beat, state.startedAt!)) : endsAt;
      }
      case "finished":
        return state.finishedAt! + state.settings.resultsMs;
    }
  },

  onPlayerJoin(state, player, ctx) {
    const seen = ownerPresence(state, player.id, true);
    // A spectator is no racer: not in the players, so it neither starts the loop nor holds a round.
    if ((player as RacePlayer).spectator || seen.players.some((p) => p.id === player.id)) {
      return reschedule(seen, ctx.now);
    }
    return reschedule({ ...seen, players: [...seen.players, player as RacePlayer] }, ctx.now);
  },

  onPlayerLeave(state, playerId, ctx) {
    const seen = ownerPresence(state, playerId, false);
    if (!seen.players.some((p) => p.id === playerId)) return reschedule(seen, ctx.now);
    const players = seen.players.filter((p) => p.id !== playerId);
    const ready = seen.ready.filter((id) => id !== playerId);
    const left = { ...seen, players, ready, streaks: streaksOfPresent({ ...seen, players }) };
    if (left.status === "in_progress" && everyoneSubmitted(left)) return finishRound(left, ctx.now);
    if (left.players.length === 0 && (left.status === "waiting" || left.status === "countdown")) {
      // Nobody left before the sentence came out: stop the loop until someone joins.
      return { state: toWaiting(left, ctx.now), effects: [{ type: "state" }] };
    }
    // The one who had not asked for another round left: the others may be all ready now.
    if (left.ready.length > 0 && everyoneReady(left) && (left.status === "waiting" || left.status === "finished")) {
      return startCountdown(toWaiting(left, ctx.now), ctx.now);
    }
    return reschedule(left, ctx.now);
  },

  onPlayerUpdate: (state, player) => same(renamePlayer(state, player.id, player.name)),

  playerView: (state, _playerId) => viewOf(state),

  /** A round is in play from the sentence's start until the next waiting phase (its results are shown). */
  roundStartedAt: (state) => (state.status === "in_progress" || state.status === "finished" ? state.startedAt : null),

  /** Shutdown: the round in play ends now with the results so far, exactly as when its time runs out. */
  finish: (state, ctx) => (state.status === "in_progress" ? finishRound(state, ctx.now) : same(state)),
} satisfies GameMode<RaceState, RaceSetup, RaceMove, RaceEffect, GameStateView>;

/** The sentence race as a value: hosts take the mode from their settings (a test may wrap it). */
export type RaceMode = typeof sentenceRace;

/** The game:state payload (spec part 1 §3 "Game state"); every player sees the same. */
export function viewOf(state: RaceState): GameStateView {
  return {
    room_id: state.roomId,
    status: state.status,
    sentence: state.sentence && (state.status === "in_progress" || state.status === "finished") ? state.sentence : null,
    started_at: iso(state.startedAt),
    game_duration: state.gameDuration ?? state.settings.minDurationSeconds,
    countdown_seconds: countdownSecondsOf(state),
    next_game_at: iso(state.nextGameAt),
    ends_at: iso(state.endsAt),
  };
}

/** A player's new display name (the account was renamed): in the players and this game's results alike. */
export function renamePlayer(state: RaceState, playerId: string, name: string): RaceState {
  const rename = <P extends { name: string }>(entry: P, id: string) => (id === playerId ? { ...entry, name } : entry);
  return {
    ...state,
    players: state.players.map((p) => rename(p, p.id)),
    results: state.results.map((r) => rename(r, r.playerId)),
  };
}

/** Replaces the sentence pool (the host refreshes it from the database before each game). */
export const withPool = (state: RaceState, pool: readonly Sentence[]): RaceState =>
  pool === state.pool ? state : { ...state, pool };
