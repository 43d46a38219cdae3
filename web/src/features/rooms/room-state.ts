/**
 * The room screen's state, driven by the room's socket events (spec part 1 §4 "Room game status", §9). A pure
 * reducer: the page feeds it events with the local time of arrival, so timers, fading and the chat buffer are
 * tested without a browser.
 */
import { awardedMedal } from "./figures";
import type {
  ChatPayload,
  Counts,
  Feedback,
  GameResults,
  GameState,
  JoinedPayload,
  Lane,
  PrivateRoomView,
  ProgressUpdate,
  Rematch,
  Room,
  SubmissionComplete,
  UsersUpdate,
} from "./types";

/** The chat keeps this many messages; problems and results are never dropped (spec §9). */
export const CHAT_BUFFER = 200;
/** How long a system message stays before it fades. */
export const SYSTEM_TTL_MS = 5_000;
/** System messages fade out over this long after they expire, then they are removed. */
export const FADE_MS = 1_000;
/** A refusal's notice stays this long after the last refusal, then fades like a system message. */
export const RATE_NOTICE_MS = 5_000;
/** The default game length when a state carries none (spec §9). */
export const DEFAULT_GAME_SECONDS = 10;

export type EntryKind = "chat" | "system" | "problem" | "result" | "error";

export interface ChatEntry {
  id: number;
  kind: EntryKind;
  text: string;
  author: string | null;
  sessionId: string | null;
  isAnonymous: boolean;
  at: number;
  /** A player's line: its author's account (null for a guest) and its id, for a report (moderation). */
  userId?: number | null;
  lineId?: string;
  sentenceId?: number;
  /** A problem that is no longer the current one (a later problem came, or its game finished). */
  finalized?: boolean;
  /** The problem's time window in local milliseconds (the highlight timer). */
  startLocal?: number;
  durationMs?: number;
  results?: GameResults["results"];
  expiresAt?: number;
  fading?: boolean;
}

/** The current game's window in local time (server times shifted by the server's clock at arrival). */
export interface Timing {
  startLocal: number;
  endLocal: number;
  durationMs: number;
}

export interface RoomState {
  room: Room | null;
  joined: boolean;
  /** Entered with `spectate: true`: the room is watched, never answered. */
  spectating: boolean;
  sessionId: string | null;
  /** The player's lane key: the user id of a member, a guest's session id (as `game:progress_update` says it). */
  laneKey: string | null;
  myName: string | null;
  game: GameState | null;
  timing: Timing | null;
  nextGameLocal: number | null;
  countdown: number | null;
  endCountdown: number | null;
  feedback: Feedback | null;
  /** The replay of the player's own latest result (its `game:submission_complete`), by the sentence it answered. */
  myReplay: { sentenceId: number; key: string } | null;
  /** The sentence the player has sent an answer for and awaits feedback on. */
  pendingSentenceId: number | null;
  completed: { count: number; total: number } | null;
  results: GameResults | null;
  /** The round's lanes as `game:progress_update` last said them, in the order they first came. */
  lanes: Lane[];
  /** A private room's owner, link, automatic rounds and texts (null in a public room). */
  privateRoom: PrivateRoomView | null;
  /** Who asked for another round since the last one ("다시 하기", a private room's rematch). */
  rematch: Rematch | null;
  messages: ChatEntry[];
  seq: number;
}

export const initialRoomState: RoomState = {
  room: null,
  joined: false,
  spectating: false,
  sessionId: null,
  laneKey: null,
  myName: null,
  game: null,
  timing: null,
  nextGameLocal: null,
  countdown: null,
  endCountdown: null,
  feedback: null,
  myReplay: null,
  pendingSentenceId: null,
  completed: null,
  results: null,
  lanes: [],
  privateRoom: null,
  rematch: null,
  messages: [],
  seq: 0,
};

export type RoomAction =
  | { type: "room"; room: Room; privateRoom?: PrivateRoomView }
  | { type: "private"; payload: PrivateRoomView }
  | { type: "rematch"; payload: Rematch }
  | { type: "joined"; payload: JoinedPayload; now: number }
  | { type: "state"; payload: GameState; now: number }
  | { type: "chat"; payload: ChatPayload; now: number }
  | { type: "countdown_message"; message: string; seconds: number; now: number }
  | { type: "countdown_number"; number: number }
  | { type: "end_countdown_message"; message: string; seconds: number; now: number }
  | { type: "end_countdown_number"; number: number }
  | { type: "submission_complete"; payload: SubmissionComplete; now: number }
  | { type: "feedback"; payload: Feedback }
  | { type: "results"; payload: GameResults }
  | { type: "users"; payload: UsersUpdate }
  | { type: "lanes"; payload: ProgressUpdate }
  | { type: "counts"; payload: Counts }
  | { type: "submitting"; sentenceId: number }
  | { type: "submit_refused"; code?: string }
  | { type: "refused"; text: string; now: number }
  | { type: "tick"; now: number };

const time = (iso: string | null | undefined) => (iso ? Date.parse(iso) : Number.NaN);

/** Local time of a server instant, using the server's clock reading that arrived with it. */
function toLocal(iso: string | null, serverTime: string, now: number): number | null {
  const at = time(iso);
  const server = time(serverTime);
  if (Number.isNaN(at)) return null;
  return Number.isNaN(server) ? at : now + (at - server);
}

function timingOf(game: GameState, now: number): Timing | null {
  if (game.status !== "in_progress" && game.status !== "finished") return null;
  const durationMs = (game.game_duration || DEFAULT_GAME_SECONDS) * 1000;
  const startLocal = toLocal(game.started_at, game.server_time, now) ?? now;
  const endLocal = toLocal(game.ends_at, game.server_time, now) ?? startLocal + durationMs;
  return { startLocal, endLocal, durationMs: endLocal - startLocal };
}

/** Drops the oldest messages beyond the buffer, never a problem or a result. */
export function trimMessages(messages: ChatEntry[], limit = CHAT_BUFFER): ChatEntry[] {
  let excess = messages.length - limit;
  if (excess <= 0) return messages;
  return messages.filter((m) => {
    if (excess <= 0 || m.kind === "problem" || m.kind === "result") return true;
    excess--;
    return false;
  });
}

function push(state: RoomState, entry: Omit<ChatEntry, "id">): RoomState {
  const seq = state.seq + 1;
  return { ...state, seq, messages: trimMessages([...state.messages, { ...entry, id: seq }]) };
}

const finalizeProblems = (messages: ChatEntry[]) =>
  messages.some((m) => m.kind === "problem" && !m.finalized)
    ? messages.map((m) => (m.kind === "problem" && !m.finalized ? { ...m, finalized: true } : m))
    : messages;

const currentProblem = (state: RoomState) =>
  state.messages.findLast((m) => m.kind === "problem" && !m.finalized) ?? null;

/** Posts the sentence as the current problem (once per game) and marks the earlier one finalized. */
function postProblem(state: RoomState, sentenceId: number, text: string, timing: Timing, now: number): RoomState {
  if (currentProblem(state)?.sentenceId === sentenceId) return state;
  const finalized = { ...state, messages: finalizeProblems(state.messages) };
  return push(finalized, {
    kind: "problem",
    text,
    author: null,
    sessionId: null,
    isAnonymous: false,
    at: now,
    sentenceId,
    startLocal: timing.startLocal,
    durationMs: timing.durationMs,
  });
}

const system = (text: string, now: number, ttlMs = SYSTEM_TTL_MS): Omit<ChatEntry, "id"> => ({
  kind: "system",
  text,
  author: null,
  sessionId: null,
  isAnonymous: false,
  at: now,
  expiresAt: now + ttlMs,
});

/** `fromJoin`: the join's own `my_result` already says whether the player answered this game. */
function applyGame(state: RoomState, game: GameState, now: number, fromJoin = false): RoomState {
  const timing = timingOf(game, now);
  const previous = state.game;
  const next: RoomState = {
    ...state,
    game,
    timing,
    nextGameLocal: game.status === "waiting" ? toLocal(game.next_game_at, game.server_time, now) : null,
  };
  switch (game.status) {
    case "waiting":
      return { ...next, countdown: null, endCountdown: null };
    case "countdown":
      // A new round: the marks asking for it are spent.
      return { ...next, countdown: game.countdown_seconds, endCountdown: null, rematch: null };
    case "in_progress": {
      const newGame = previous?.status !== "in_progress" || previous.sentence?.id !== game.sentence?.id;
      let reset = next;
      if (newGame) reset = { ...reset, countdown: null, endCountdown: null, completed: null, results: null, lanes: [] };
      // Completion is reset for a new game (spec §4).
      if (newGame && !fromJoin) reset = { ...reset, feedback: null, pendingSentenceId: null };
      if (!game.sentence || !timing) return reset;
      return postProblem(reset, game.sentence.id, game.sentence.text, timing, now);
    }
    case "finished":
      return { ...next, countdown: null, endCountdown: null, messages: finalizeProblems(state.messages) };
  }
}

function applyChat(state: RoomState, chat: ChatPayload, now: number): RoomState {
  const base = {
    text: chat.message,
    author: chat.is_system ? null : chat.nickname || chat.username,
    sessionId: chat.session_id ?? null,
    isAnonymous: chat.is_anonymous,
    at: now,
  };
  switch (chat.message_type) {
    case "problem": {
      if (chat.sentence_id === undefined) return state;
      const durationMs = (chat.game_duration ?? DEFAULT_GAME_SECONDS) * 1000;
      const timing = state.timing ?? { startLocal: now, endLocal: now + durationMs, durationMs };
      return postProblem(state, chat.sentence_id, chat.message, timing, now);
    }
    case "result":
      return push(
        { ...state, messages: finalizeProblems(state.messages) },
        { ...base, kind: "result", sentenceId: chat.sentence_id, results: chat.results ?? [] },
      );
    case "system":
      return push(state, system(chat.message, now));
    default:
      return push(state, { ...base, kind: "chat", userId: chat.user_id, lineId: chat.line_id });
  }
}

/** Marks expired system messages as fading and removes faded ones; the same state when nothing changed. */
function expire(state: RoomState, now: number): RoomState {
  let changed = false;
  const messages: ChatEntry[] = [];
  for (const m of state.messages) {
    if (m.expiresAt === undefined || now < m.expiresAt) {
      messages.push(m);
    } else if (now >= m.expiresAt + FADE_MS) {
      changed = true;
    } else if (!m.fading) {
      changed = true;
      messages.push({ ...m, fading: true });
    } else {
      messages.push(m);
    }
  }
  return changed ? { ...state, messages } : state;
}

const withCounts = (room: Room | null, counts: Omit<Counts, "room_id">): Room | null =>
  room && {
    ...room,
    user_count: counts.user_count,
    anonymous_count: counts.anonymous_count,
    total_participants: counts.total_participants,
  };

/**
 * One notice however many lines were refused (the rate limit, an answer refused as implausible, …): a refusal
 * replaces the notice with a fresh one at the end of the chat (announced again, its time restarted), so a burst of
 * refusals is one line, not one per message, and the player keeps typing (never a blocking dialog).
 */
function refusalNotice(state: RoomState, text: string, now: number): RoomState {
  const others = state.messages.filter((m) => m.kind !== "error");
  return push(
    { ...state, messages: others },
    {
      kind: "error",
      text,
      author: null,
      sessionId: null,
      isAnonymous: false,
      at: now,
      expiresAt: now + RATE_NOTICE_MS,
    },
  );
}

export function roomReducer(state: RoomState, action: RoomAction): RoomState {
  switch (action.type) {
    case "room":
      return state.joined ? state : { ...state, room: action.room, privateRoom: action.privateRoom ?? null };
    case "private":
      return { ...state, privateRoom: action.payload };
    case "rematch":
      return { ...state, rematch: action.payload.ready.length > 0 ? action.payload : null };
    case "joined": {
      const { payload, now } = action;
      const joined: RoomState = {
        ...state,
        joined: true,
        spectating: payload.spectating === true,
        room: payload.room,
        sessionId: payload.session_id,
        laneKey: payload.user ? String(payload.user.id) : payload.session_id,
        // The server sends every lane of the round right after the join.
        lanes: [],
        myName: payload.user?.username ?? payload.nickname ?? null,
        feedback: payload.my_result,
        pendingSentenceId: null,
        privateRoom: payload.private ?? null,
        rematch: null,
      };
      return applyGame(joined, payload.game_state, now, true);
    }
    case "state":
      return applyGame(state, action.payload, action.now);
    case "chat":
      return applyChat(state, action.payload, action.now);
    case "countdown_message":
      return push({ ...state, countdown: action.seconds }, system(action.message, action.now, action.seconds * 1000));
    case "countdown_number":
      return { ...state, countdown: action.number };
    case "end_countdown_message":
      return push(state, system(action.message, action.now, action.seconds * 1000));
    case "end_countdown_number":
      return { ...state, endCountdown: action.number };
    case "submission_complete": {
      const { payload } = action;
      const completed = { count: payload.completed_count, total: payload.total_players };
      const name = payload.nickname || payload.username;
      const place = payload.position === null ? "순위 없음" : `${payload.position}위`;
      const mine = payload.session_id === state.sessionId && payload.replay_key;
      const myReplay = mine ? { sentenceId: payload.sentence_id, key: payload.replay_key! } : state.myReplay;
      return push(
        { ...state, completed, myReplay },
        system(`${name}님 완료! ${place} · ${payload.wpm}타/분`, action.now),
      );
    }
    case "feedback":
      return { ...state, feedback: action.payload, pendingSentenceId: null };
    case "results":
      return { ...state, results: action.payload, endCountdown: null };
    case "users":
      return state.room
        ? {
            ...state,
            room: {
              ...withCounts(state.room, action.payload)!,
              max_users: action.payload.max_users,
              spectators: action.payload.spectators,
              users: action.payload.users,
              anonymous_users: action.payload.anonymous_users,
            },
          }
        : state;
    case "counts":
      return { ...state, room: withCounts(state.room, action.payload) };
    case "lanes":
      return { ...state, lanes: mergeLanes(state.lanes, action.payload.participants) };
    case "submitting":
      return { ...state, pendingSentenceId: action.sentenceId };
    case "submit_refused":
      // An answer refused as implausible was the player's one attempt (the server counts it): no second try.
      return action.code === "implausible" ? state : { ...state, pendingSentenceId: null };
    case "refused":
      return refusalNotice(state, action.text, action.now);
    case "tick":
      return expire(state, action.now);
  }
}

/**
 * The medal the server awarded the player in the game of their feedback; null while that game's results have not
 * come (a place during the game is not yet a medal: a game of one awards none).
 */
export function myMedal(state: RoomState): 1 | 2 | 3 | null {
  const { results, feedback, sessionId } = state;
  if (!results || !feedback || results.sentence_id !== feedback.sentence_id) return null;
  const mine = results.results.find((r) => r.session_id === sessionId);
  return mine ? awardedMedal(mine, results.participants) : null;
}

/**
 * The sentence of the round in play, null between rounds: the page empties its input when it changes, so a new
 * round starts with an empty box (a line left over from the last round would be sent as part of the answer).
 */
export const roundSentenceId = (state: RoomState): number | null =>
  state.game?.status === "in_progress" ? (state.game.sentence?.id ?? null) : null;

/** The changed lanes replace theirs (by key); a new racer's lane goes last. */
export function mergeLanes(lanes: Lane[], changed: Lane[]): Lane[] {
  const next = [...lanes];
  for (const lane of changed) {
    const at = next.findIndex((l) => String(l.key) === String(lane.key));
    if (at >= 0) next[at] = lane;
    else next.push(lane);
  }
  return next;
}

/**
 * The lanes drawn while a round is up: every player present (at the line until their first step) and anyone with
 * figures this round (a racer who left), in the order the room lists them. A spectator has no lane.
 */
export function raceLanes(state: RoomState): Lane[] {
  const present: Lane[] = [
    ...(state.room?.users ?? []).map((u) => ({ key: String(u.id), name: u.username })),
    ...(state.room?.anonymous_users ?? []).map((g) => ({ key: g.session_id, name: g.nickname })),
  ].map((p) => ({ ...p, progress: 0, wpm: 0, completed: false }));
  return mergeLanes(present, state.lanes);
}

/** True while the player may still send this game's answer (the input then submits instead of chatting). */
export function canAnswer(state: RoomState): boolean {
  const { game } = state;
  if (state.spectating) return false;
  if (game?.status !== "in_progress" || !game.sentence) return false;
  if (state.feedback?.sentence_id === game.sentence.id) return false;
  return state.pendingSentenceId !== game.sentence.id;
}

/** Whether the signed-in member owns this private room (their id against the room's owner). */
export const isOwner = (state: RoomState, userId: number | null | undefined) =>
  userId != null && state.privateRoom?.owner.id === userId;

/**
 * Between two rounds of a private room (a round was played and the next has not started): the owner may start the
 * next one, a racer may ask for it ("다시 하기").
 */
export const betweenRounds = (state: RoomState) =>
  state.privateRoom !== null && (state.game?.status === "finished" || state.game?.status === "waiting");

/** Whether this player has asked for another round. */
export const askedRematch = (state: RoomState) =>
  state.sessionId !== null && (state.rematch?.ready.includes(state.sessionId) ?? false);
