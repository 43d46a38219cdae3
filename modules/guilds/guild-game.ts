import type { GameContext, GameMode, GamePlayer, MoveResult, Transition } from "../kernel/game-mode";
import {
  appendStep,
  correctPrefixShare,
  judgeSteps,
  progressAt,
  type RaceStep,
  roundProgress,
  serverCompletionSeconds,
} from "../kernel/race-steps";
import { normalizeAnswer, round2, scoreTyping } from "../kernel/typing";
import { GUILD_MSG, isPlayableProblem, PROBLEM_MIN_LENGTH } from "./rules";

/**
 * The guild game (spec part 1 §4 "Guild game", product-rules "Guilds"), a pure game mode on the generic host:
 *
 *   waiting → countdown (countdown_seconds, started by a guild admin) → in_progress (end_countdown_seconds at most)
 *   → finished (the results stay on screen until the next start) → countdown …
 *
 * Everyone present in the guild room when the countdown starts (and anyone who enters before the end) is a
 * participant, except the members who watch (`spectator`): they see the game and never play nor hold its end.
 * Progress and live speed are computed here from the text a player has typed (the correct prefix of the problem);
 * only a submission equal to the problem completes, with a position by finishing order and the time measured on
 * the server's clock from the announced start (kernel race-steps). The game ends when every present participant
 * who typed is done (everyone present, when nobody typed) or when end_countdown_seconds have passed.
 */
export type GuildGameStatus = "waiting" | "countdown" | "in_progress" | "finished";
export type GuildGameEndReason = "all_finished" | "time_up" | "stopped";

export interface GuildGameRules {
  /** Faster than this (타/분, unweighted) is implausible (product-rules "Typing speed and accuracy"). */
  maxPlausibleSpeed: number;
  /** A submission sooner than this after the start cannot have seen the problem. */
  minReactionMs: number;
}

export const DEFAULT_GUILD_GAME_RULES: GuildGameRules = {
  maxPlausibleSpeed: 1_500,
  minReactionMs: 200,
};

export interface GuildPlayer extends GamePlayer {
  userId: number;
  /** Watches the game without playing (`guild:join` with `spectate: true`): never a participant. */
  spectator?: boolean;
}

export interface Participant {
  playerId: string;
  userId: number;
  name: string;
  /** Share of the problem typed correctly so far (its correct prefix), 0–1. */
  progress: number;
  /** 타/분 from the start to the last step (kernel race-steps `progressAt`), as the rooms' lanes. */
  liveWpm: number;
  completed: boolean;
  /** Finishing order among the completed (1 = first). */
  position: number | null;
  wpm: number | null;
  accuracy: number | null;
  errorCount: number | null;
  /** Seconds from the start, the server's (kernel race-steps `serverCompletionSeconds`). */
  completionTime: number | null;
  finishedAt: number | null;
  /** The exact answer came implausibly fast: done, but never counted (no position, no reward). */
  rejected: boolean;
  /** The player's server-stamped steps this game: the result's replay. */
  steps: readonly RaceStep[];
  /** Whether the steps show the answer typed (false until completed, and for an answer sent without steps). */
  verified: boolean;
}

export interface GuildGameState {
  guildId: number;
  rules: GuildGameRules;
  status: GuildGameStatus;
  /** Members in the guild room who play (join order), including those inside the reconnect grace period. */
  players: readonly GuildPlayer[];
  /** Members in the guild room who watch (join order): never participants, never holding the end. */
  spectators: readonly GuildPlayer[];
  problem: string | null;
  /** The problem's place in the guild's list when it was drawn (0-based): the results' item id. */
  problemIndex: number | null;
  countdownSeconds: number;
  endCountdownSeconds: number;
  countdownEndsAt: number | null;
  countdownNumber: number | null;
  startedAt: number | null;
  endsAt: number | null;
  finishedAt: number | null;
  endReason: GuildGameEndReason | null;
  startedBy: string | null;
  participants: readonly Participant[];
}

export interface StartMove {
  type: "start";
  /** The guild's problem list as stored when the admin asked. */
  problems: readonly string[];
  /** A chosen problem (one of `problems`); absent, null or empty: a random one. */
  problem?: string | null;
  countdownSeconds: number;
  endCountdownSeconds: number;
  by: string;
}
export interface ProgressMove {
  type: "progress";
  typedText: string;
}
export interface SubmitMove {
  type: "submit";
  typedText: string;
  /** The client's own measurement in seconds: old clients send it; never used for the score. */
  elapsedTime?: number | null;
}
export type GuildGameMove = StartMove | ProgressMove | SubmitMove;

export interface FinishedGuildGame {
  guildId: number;
  problem: string;
  problemIndex: number | null;
  startedAt: number;
  finishedAt: number;
  reason: GuildGameEndReason;
  /** Completed and counted participants by position. */
  standings: Participant[];
}

export type GuildGameEffect =
  /** The state changed: the presenter sends `guild_game:state` (coalesced). */
  | { type: "state" }
  | { type: "countdown"; seconds: number }
  | { type: "started" }
  | { type: "completed"; participant: Participant }
  | {
      type: "implausible";
      participant: Participant;
      rawSpeed: number;
      serverSeconds: number;
      /** What the steps showed, when they decided it. */
      stepsReason: "burst" | "too_fast" | "answer_differs" | null;
    }
  | { type: "ended"; game: FinishedGuildGame };

export interface ParticipantView {
  user_id: number;
  username: string;
  /** The correct prefix's share, 0–1 (4 decimals). */
  progress: number;
  completed: boolean;
  position: number | null;
  /** Live 타/분 while typing (0 before the first step); the result's speed once completed. */
  wpm: number;
  accuracy: number | null;
  completion_time: number | null;
}

/** The Guild game state of spec part 1 §3, plus the times a client needs for its timers. */
export interface GuildGameView {
  guild_id: number;
  status: GuildGameStatus;
  problem: string | null;
  participants: ParticipantView[];
  /** Members watching (README "Watching"), listed apart from the participants. */
  spectators: { user_id: number; username: string }[];
  countdown_seconds: number;
  end_countdown_seconds: number;
  started_at: string | null;
  ends_at: string | null;
  finished_at: string | null;
  end_reason: GuildGameEndReason | null;
}

export const GUILD_GAME_MSG = {
  alreadyRunning: "이미 진행 중인 길드 게임이 있습니다.",
  noProblems: "등록된 문제가 없습니다. 먼저 문제를 등록해주세요.",
  noPlayableProblems: `${PROBLEM_MIN_LENGTH}자 이상인 문제가 없습니다. 문제를 다시 등록해주세요.`,
  unknownProblem: "길드 문제 목록에 없는 문제입니다.",
  noGame: "진행 중인 길드 게임이 없습니다.",
  notStarted: "게임이 아직 시작되지 않았습니다. 문제가 나온 뒤에 입력해주세요.",
  notParticipant: "이번 게임의 참가자가 아닙니다.",
  alreadyDone: "이미 완료했습니다.",
  mismatch: "입력한 내용이 문제와 일치하지 않습니다.",
  implausible: "비정상적으로 빠른 입력이 감지되어 결과가 인정되지 않았습니다.",
  /** The rooms' words for a spectator's input. */
  spectating: "관전 중에는 입력할 수 없습니다. 게임에 참여하려면 '참가하기'를 눌러주세요.",
} as const;

type T = Transition<GuildGameState, GuildGameEffect>;
type Rejection = { ok: false; error: string; code: string };
const reject = (error: string, code: string): Rejection => ({ ok: false, error, code });
const same = (state: GuildGameState): T => ({ state, effects: [] });
const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());

const newParticipant = (player: GuildPlayer): Participant => ({
  playerId: player.id,
  userId: player.userId,
  name: player.name,
  progress: 0,
  liveWpm: 0,
  completed: false,
  position: null,
  wpm: null,
  accuracy: null,
  errorCount: null,
  completionTime: null,
  finishedAt: null,
  rejected: false,
  steps: [],
  verified: false,
});

const isPresent = (state: GuildGameState, playerId: string) => state.players.some((p) => p.id === playerId);
const isSpectator = (state: GuildGameState, playerId: string) => state.spectators.some((p) => p.id === playerId);
const isDone = (p: Participant) => p.completed || p.rejected;
const isPlaying = (status: GuildGameStatus) => status === "countdown" || status === "in_progress";

/**
 * Every participant still in the room who typed has completed (or used up their answer): the game can end. One who
 * never typed does not hold it (product-rules "Live race and replays"); when nobody present typed, everyone does.
 */
function everyonePresentDone(state: GuildGameState): boolean {
  const present = state.participants.filter((p) => isPresent(state, p.playerId));
  const anyoneTyped = present.some((p) => p.steps.length > 0);
  return present.every((p) => isDone(p) || (anyoneTyped && p.steps.length === 0));
}

/** The share of `problem` typed correctly from its start, in characters (code points after NFC). */
export const progressOf = correctPrefixShare;

/** Only the exact text counts (both NFC-normalised and trimmed at the ends, as every mode compares answers). */
export const isExactAnswer = (typedText: string, problem: string) =>
  normalizeAnswer(typedText) === normalizeAnswer(problem);

/**
 * The game's problem: the chosen one, else one drawn at random among the playable ones. A problem shorter than
 * `PROBLEM_MIN_LENGTH` (saved before that rule) is never played: chosen → refused with the save's text, and the
 * draw skips it.
 */
function pickProblem(move: StartMove, ctx: GameContext): { problem: string; index: number } | Rejection {
  if (move.problems.length === 0) return reject(GUILD_GAME_MSG.noProblems, "no_problems");
  const chosen = move.problem?.trim();
  if (chosen) {
    const index = move.problems.indexOf(chosen);
    if (index < 0) return reject(GUILD_GAME_MSG.unknownProblem, "unknown_problem");
    return isPlayableProblem(chosen) ? { problem: chosen, index } : reject(GUILD_MSG.problemTooShort, "short_problem");
  }
  const playable = move.problems.flatMap((problem, index) => (isPlayableProblem(problem) ? [index] : []));
  if (playable.length === 0) return reject(GUILD_GAME_MSG.noPlayableProblems, "no_problems");
  const index = playable[ctx.random.int(0, playable.length - 1)];
  return { problem: move.problems[index], index };
}

function start(state: GuildGameState, move: StartMove, ctx: GameContext): MoveResult<GuildGameState, GuildGameEffect> {
  if (isPlaying(state.status)) return reject(GUILD_GAME_MSG.alreadyRunning, "game_running");
  const picked = pickProblem(move, ctx);
  if ("ok" in picked) return picked;
  const seconds = move.countdownSeconds;
  return {
    ok: true,
    state: {
      ...state,
      status: "countdown",
      problem: picked.problem,
      problemIndex: picked.index,
      countdownSeconds: seconds,
      endCountdownSeconds: move.endCountdownSeconds,
      countdownEndsAt: ctx.now + seconds * 1000,
      countdownNumber: seconds,
      startedAt: null,
      endsAt: null,
      finishedAt: null,
      endReason: null,
      startedBy: move.by,
      participants: state.players.map(newParticipant),
    },
    effects: [{ type: "state" }, { type: "countdown", seconds }],
  };
}

function begin(state: GuildGameState, now: number): T {
  return {
    state: {
      ...state,
      status: "in_progress",
      countdownEndsAt: null,
      countdownNumber: null,
      startedAt: now,
      endsAt: now + state.endCountdownSeconds * 1000,
    },
    effects: [{ type: "state" }, { type: "started" }],
  };
}

/** Ends the game: the counted results by finishing order are its standings. */
function end(state: GuildGameState, now: number, reason: GuildGameEndReason): T {
  const standings = state.participants
    .filter((p) => p.completed && p.position !== null)
    .sort((a, b) => a.position! - b.position!);
  const game: FinishedGuildGame = {
    guildId: state.guildId,
    problem: state.problem!,
    problemIndex: state.problemIndex,
    startedAt: state.startedAt!,
    finishedAt: now,
    reason,
    standings,
  };
  return {
    state: { ...state, status: "finished", endsAt: null, finishedAt: now, endReason: reason },
    effects: [{ type: "state" }, { type: "ended", game }],
  };
}

function tickCountdown(state: GuildGameState, now: number): T {
  if (now >= state.countdownEndsAt!) return begin(state, now);
  const seconds = Math.ceil((state.countdownEndsAt! - now) / 1000);
  if (seconds >= state.countdownNumber!) return same(state);
  return { state: { ...state, countdownNumber: seconds }, effects: [{ type: "countdown", seconds }] };
}

function checkTyping(state: GuildGameState, playerId: string, now: number): Rejection | Participant {
  if (isSpectator(state, playerId)) return reject(GUILD_GAME_MSG.spectating, "spectating");
  if (state.status === "countdown") return reject(GUILD_GAME_MSG.notStarted, "too_early");
  if (state.status !== "in_progress" || now >= state.endsAt!) return reject(GUILD_GAME_MSG.noGame, "no_game");
  const participant = state.participants.find((p) => p.playerId === playerId);
  if (!participant) return reject(GUILD_GAME_MSG.notParticipant, "not_participant");
  if (isDone(participant)) return reject(GUILD_GAME_MSG.alreadyDone, "already_done");
  return participant;
}

const replace = (state: GuildGameState, next: Participant): GuildGameState => ({
  ...state,
  participants: state.participants.map((p) => (p.playerId === next.playerId ? next : p)),
});

/**
 * A step of the player's typing: stamped with the server's time since the start, kept as the replay; the progress
 * (the correct prefix's share) and the live speed since the start, as the rooms' lanes.
 */
function progress(state: GuildGameState, playerId: string, move: ProgressMove, ctx: GameContext) {
  const checked = checkTyping(state, playerId, ctx.now);
  if ("ok" in checked) return checked;
  const steps = appendStep(checked.steps, ctx.now - state.startedAt!, move.typedText);
  if (steps === checked.steps) return { ok: true as const, ...same(state) };
  const value = progressOf(move.typedText, state.problem!);
  const liveWpm = progressAt(steps.at(-1)!, state.problem!).wpm;
  const next = replace(state, { ...checked, steps, progress: value, liveWpm });
  const changed = value !== checked.progress || liveWpm !== checked.liveWpm;
  return { ok: true as const, state: next, effects: changed ? [{ type: "state" as const }] : [] };
}

function submit(
  state: GuildGameState,
  playerId: string,
  move: SubmitMove,
  ctx: GameContext,
): MoveResult<GuildGameState, GuildGameEffect> {
  const checked = checkTyping(state, playerId, ctx.now);
  if ("ok" in checked) return checked;
  if (!isExactAnswer(move.typedText, state.problem!)) return reject(GUILD_GAME_MSG.mismatch, "mismatch");
  const serverMs = ctx.now - state.startedAt!;
  const elapsed = serverCompletionSeconds(serverMs, checked.steps.at(-1), move.typedText);
  const score = scoreTyping(move.typedText, state.problem!, elapsed);
  const verdict = judgeSteps(checked.steps, move.typedText, elapsed, state.rules.maxPlausibleSpeed);
  const scored: Participant = {
    ...checked,
    progress: 1,
    wpm: score.wpm,
    accuracy: score.accuracy,
    errorCount: score.error_count,
    completionTime: round2(Math.max(0, elapsed)),
    finishedAt: ctx.now,
    verified: verdict.verified,
  };
  const tooFast = Math.max(score.wpm, score.raw_speed) > state.rules.maxPlausibleSpeed;
  const stepsReason = !verdict.verified && verdict.implausible ? verdict.reason : null;
  if (serverMs < state.rules.minReactionMs || !(elapsed > 0) || tooFast || stepsReason) {
    const rejected: Participant = { ...scored, rejected: true };
    const effect: GuildGameEffect = {
      type: "implausible",
      participant: rejected,
      rawSpeed: score.raw_speed,
      serverSeconds: serverMs / 1000,
      stepsReason,
    };
    return {
      ...reject(GUILD_GAME_MSG.implausible, "implausible"),
      transition: afterDone(state, rejected, effect, ctx),
    };
  }
  const position = state.participants.filter((p) => p.completed).length + 1;
  const completed: Participant = { ...scored, completed: true, position };
  return { ok: true, ...afterDone(state, completed, { type: "completed", participant: completed }, ctx) };
}

/** A participant is done: the game ends when they were the last one present still typing. */
function afterDone(state: GuildGameState, participant: Participant, effect: GuildGameEffect, ctx: GameContext): T {
  const next = replace(state, participant);
  if (!everyonePresentDone(next)) return { state: next, effects: [effect, { type: "state" }] };
  const ended = end(next, ctx.now, "all_finished");
  return { state: ended.state, effects: [effect, ...ended.effects] };
}

export interface GuildGameSetup {
  guildId: number;
  /** The guild's settings (spec §9 defaults), shown while no game runs. */
  countdownSeconds: number;
  endCountdownSeconds: number;
  rules?: Partial<GuildGameRules>;
}

export const guildGame = {
  id: "guild_game",

  setup(settings: GuildGameSetup): GuildGameState {
    return {
      guildId: settings.guildId,
      rules: { ...DEFAULT_GUILD_GAME_RULES, ...settings.rules },
      status: "waiting",
      players: [],
      spectators: [],
      problem: null,
      problemIndex: null,
      countdownSeconds: settings.countdownSeconds,
      endCountdownSeconds: settings.endCountdownSeconds,
      countdownEndsAt: null,
      countdownNumber: null,
      startedAt: null,
      endsAt: null,
      finishedAt: null,
      endReason: null,
      startedBy: null,
      participants: [],
    };
  },

  move(state, playerId, move, ctx): MoveResult<GuildGameState, GuildGameEffect> {
    switch (move.type) {
      case "start":
        return start(state, move, ctx);
      case "progress":
        return progress(state, playerId, move, ctx);
      case "submit":
        return submit(state, playerId, move, ctx);
    }
  },

  tick(state, ctx) {
    if (state.status === "countdown") return tickCountdown(state, ctx.now);
    if (state.status === "in_progress" && ctx.now >= state.endsAt!) return end(state, ctx.now, "time_up");
    return same(state);
  },

  nextTickAt(state) {
    if (state.status === "countdown") return state.countdownEndsAt! - Math.max(0, state.countdownNumber! - 1) * 1000;
    if (state.status === "in_progress") return state.endsAt;
    return null;
  },

  /**
   * A member entering during a game takes part from now on (the same clock and end as everyone); one who watches is
   * listed apart and takes no part.
   */
  onPlayerJoin(state, player, _ctx: GameContext) {
    const guildPlayer = player as GuildPlayer;
    if (isPresent(state, player.id) || isSpectator(state, player.id)) return same(state);
    if (guildPlayer.spectator) {
      return { state: { ...state, spectators: [...state.spectators, guildPlayer] }, effects: [{ type: "state" }] };
    }
    const joined = { ...state, players: [...state.players, guildPlayer] };
    if (!isPlaying(state.status) || state.participants.some((p) => p.playerId === player.id)) return same(joined);
    const participants = [...state.participants, newParticipant(guildPlayer)];
    return { state: { ...joined, participants }, effects: [{ type: "state" }] };
  },

  /**
   * A member who leaves (or whose reconnect grace ran out) is out of the game, as in the rooms: a completed result
   * stays, an unfinished participant is dropped, and the game ends when everyone still present is done.
   */
  onPlayerLeave(state, playerId, ctx) {
    if (isSpectator(state, playerId)) {
      const spectators = state.spectators.filter((p) => p.id !== playerId);
      return { state: { ...state, spectators }, effects: [{ type: "state" }] };
    }
    if (!isPresent(state, playerId)) return same(state);
    const players = state.players.filter((p) => p.id !== playerId);
    const participants = state.participants.filter((p) => p.playerId !== playerId || isDone(p));
    const left: GuildGameState = { ...state, players, participants };
    if (left.status === "in_progress" && everyonePresentDone(left)) return end(left, ctx.now, "all_finished");
    return { state: left, effects: participants.length === state.participants.length ? [] : [{ type: "state" }] };
  },

  onPlayerUpdate(state, player) {
    const rename = <P extends { name: string }>(entry: P, id: string) =>
      id === player.id ? { ...entry, name: player.name } : entry;
    return same({
      ...state,
      players: state.players.map((p) => rename(p, p.id)),
      spectators: state.spectators.map((p) => rename(p, p.id)),
      participants: state.participants.map((p) => rename(p, p.playerId)),
    });
  },

  playerView: (state) => viewOf(state),

  /** A round is in play from the problem's start until the next start (its results stay on screen). */
  roundStartedAt: (state) => (state.status === "in_progress" || state.status === "finished" ? state.startedAt : null),

  /** Shutdown: the game in play ends now with the results so far. */
  finish: (state, ctx) => (state.status === "in_progress" ? end(state, ctx.now, "stopped") : same(state)),
} satisfies GameMode<GuildGameState, GuildGameSetup, GuildGameMove, GuildGameEffect, GuildGameView>;

export type GuildGameMode = typeof guildGame;

/** The `guild_game:state` payload; every member sees the same (the problem only once the game started). */
export function viewOf(state: GuildGameState): GuildGameView {
  const shown = state.status === "in_progress" || state.status === "finished";
  return {
    guild_id: state.guildId,
    status: state.status,
    problem: shown ? state.problem : null,
    participants: state.participants.map((p) => ({
      user_id: p.userId,
      username: p.name,
      progress: roundProgress(p.progress),
      completed: p.completed,
      position: p.position,
      wpm: p.completed ? (p.wpm ?? p.liveWpm) : p.liveWpm,
      accuracy: p.completed ? p.accuracy : null,
      completion_time: p.completed ? p.completionTime : null,
    })),
    spectators: state.spectators.map((p) => ({ user_id: p.userId, username: p.name })),
    countdown_seconds: state.status === "countdown" ? (state.countdownNumber ?? 0) : state.countdownSeconds,
    end_countdown_seconds: state.endCountdownSeconds,
    started_at: iso(state.startedAt),
    ends_at: iso(state.endsAt),
    finished_at: iso(state.finishedAt),
    end_reason: state.endReason,
  };
}
