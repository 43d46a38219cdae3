/**
 * The rooms module's socket events (README "Socket events"): the client → server payloads are the `Static` of the
 * schemas that validate them (socket.ts), the server → client ones what the presenter and the runtime send. The web
 * imports these types (type-only) instead of writing them out again.
 */
import type { Static } from "@sinclair/typebox";
import type { PublicRewards } from "../accounts";
import type { ClientEvent } from "../kernel/socket";
import type { Profile } from "./members";
import type { PrivateRoomView } from "./private-room";
import type { guestEntry, RoomSummary, RoomView, userEntry } from "./room-view";
import type { GameStateView } from "./sentence-race";
import type {
  ChatPayload,
  JoinPayload,
  LeavePayload,
  ProgressPayload,
  RematchPayload,
  SubmissionPayload,
} from "./socket";

export type { PrivateRoomView } from "./private-room";

/**
 * Fields the spec's client also sends (identity, whose answer it is): the server never reads them (identity comes
 * from the handshake) and its dispatcher drops them, but the web keeps sending them as the spec's client does.
 */
interface SpecClientFields {
  user_id?: number;
  username?: string;
  nickname?: string;
  session_id?: string | null;
}

export interface RoomsClientEvents {
  join_room: ClientEvent<Static<typeof JoinPayload> & SpecClientFields>;
  join_anonymous: ClientEvent<Static<typeof JoinPayload> & SpecClientFields>;
  leave_room: ClientEvent<(Static<typeof LeavePayload> & SpecClientFields) | undefined>;
  /** Anything (the page is closing): the same as `leave_room`. */
  disconnect_cleanup: ClientEvent<unknown>;
  get_rooms: ClientEvent<unknown>;
  chat_message: ClientEvent<Static<typeof ChatPayload> & SpecClientFields>;
  "game:submission": ClientEvent<Static<typeof SubmissionPayload> & SpecClientFields & { is_game_answer?: boolean }>;
  /** What the answer box holds now, at most 10 a second while the round is in play (a step; README "Steps"). */
  "game:progress": ClientEvent<Static<typeof ProgressPayload>>;
  /** A private room's "다시 하기" between rounds (README "Private rooms"). */
  "room:rematch": ClientEvent<Static<typeof RematchPayload>>;
}

export type RoomUser = ReturnType<typeof userEntry>;
export type RoomGuest = ReturnType<typeof guestEntry>;

/** `game:state`: the race's view plus the server's clock; times are ISO 8601 UTC, `game_duration` in seconds. */
export type GameState = GameStateView & { server_time: string };

/** `game:personal_feedback` (and `my_result` of a join). */
export interface Feedback {
  room_id: number;
  sentence_id: number;
  position: number | null;
  wpm: number;
  accuracy: number;
  completion_time: number;
  error_count: number;
  session_id: string;
}

/** `game:submission_complete`: a submission, to the whole room. */
export interface SubmissionComplete extends Feedback {
  user_id: number | null;
  username: string;
  nickname: string;
  is_anonymous: boolean;
  completed_count: number;
  total_players: number;
  /** The result's replay (`/replay/{key}`), null when it has none (sent without steps, or not stored). */
  replay_key: string | null;
}

/** One line of `game:results`: positioned results by position, then the others in arrival order. */
export interface GameResult {
  position: number | null;
  user_id: number | null;
  username: string;
  nickname: string;
  session_id: string;
  is_anonymous: boolean;
  wpm: number;
  accuracy: number;
  completion_time: number;
  error_count: number;
  win_streak: number;
  rewards: PublicRewards | null;
}

export interface GameResults {
  room_id: number;
  sentence_id: number;
  participants: number;
  results: GameResult[];
}

/** `room:joined` (a member, with `user`) and `room:joined:anonymous` (a guest, with `nickname`). */
export interface JoinedPayload {
  room_id: number;
  room: RoomView;
  game_state: GameState;
  session_id: string;
  my_result: Feedback | null;
  /** Joined with `spectate: true`: the socket watches (lanes, chat, results) and cannot type an answer. */
  spectating: boolean;
  /** A private room's owner, link, automatic rounds and texts; null in a public room. */
  private: PrivateRoomView | null;
  user?: { id: number; username: string } & Profile;
  nickname?: string;
  created_at?: string;
}

/** `room:users_update`: everyone in the room, after every join and leave and after rewards. */
export interface UsersUpdate extends Counts {
  max_users: number;
  /** Watching without playing: never in the counts or the lists. */
  spectators: number;
  users: RoomUser[];
  anonymous_users: RoomGuest[];
}

/** The room's head count, with every `room:user_joined`/`_left` and `room:anonymous_joined`/`_left`. */
export interface Counts {
  room_id: number;
  user_count: number;
  anonymous_count: number;
  total_participants: number;
}

/** `chat:message`: a player's line, or a system line (a join, the problem, the results). */
export interface ChatLine {
  /** A player's line: its id in the server's chat history, which a report names (moderation). */
  line_id?: string;
  room_id: number;
  user_id: number | null;
  username: string;
  nickname: string;
  session_id?: string;
  is_anonymous: boolean;
  message: string;
  timestamp: string;
  is_system: boolean;
  is_private: boolean;
  message_type: "chat" | "system" | "problem" | "result";
  sentence_id?: number;
  game_duration?: number;
  results?: GameResult[];
}

/**
 * One racer's lane in `game:progress_update`. `key`: the member's user id, or the guest's public session id
 * (`g_…`); `progress` 0–1, the correct prefix's share of the sentence; `wpm` 타/분 so far (the result's once
 * completed); `position` once completed with a place.
 */
export interface Lane {
  key: number | string;
  name: string;
  progress: number;
  wpm: number;
  completed: boolean;
  position?: number;
}

/** The room's lanes that changed (at most 5 a second), or every lane for a socket that just entered. */
export interface ProgressUpdate {
  room_id: number;
  participants: Lane[];
}

/** A phase's announcement: `game:countdown_message`, `game:end_countdown_message`. */
export interface CountdownMessage {
  room_id: number;
  message: string;
  seconds: number;
}

/** A second of a countdown: `game:countdown_number`, `game:end_countdown_number`. */
export interface CountdownNumber {
  room_id: number;
  number: number;
}

/** `room:rematch`: who asked for another round (public session ids), of how many racers. */
export interface Rematch {
  room_id: number;
  ready: string[];
  players: number;
}

/** `room:removed` (to the removed player's sockets) and `room:closed` (to the room): why the room is gone for them. */
export interface RoomGone {
  room_id: number;
  message: string;
}

export interface RoomsServerEvents {
  "room:list": (payload: { rooms: RoomView[] }) => void;
  /** The lobby's coalesced changes: only the rooms that changed. */
  "room:list_update": (payload: { rooms: RoomSummary[] }) => void;
  "room:left": (payload: { room_id: number | null }) => void;
  "room:joined": (payload: JoinedPayload) => void;
  "room:joined:anonymous": (payload: JoinedPayload) => void;
  "room:users_update": (payload: UsersUpdate) => void;
  "room:user_joined": (payload: Counts & { user: RoomUser }) => void;
  "room:user_left": (payload: Counts & { user_id: number | null; username: string }) => void;
  "room:anonymous_joined": (payload: Counts & RoomGuest) => void;
  "room:anonymous_left": (payload: Counts & { session_id: string; nickname: string }) => void;
  "chat:message": (payload: ChatLine) => void;
  "game:state": (payload: GameState) => void;
  "game:countdown_message": (payload: CountdownMessage) => void;
  "game:countdown_number": (payload: CountdownNumber) => void;
  "game:end_countdown_message": (payload: CountdownMessage) => void;
  "game:end_countdown_number": (payload: CountdownNumber) => void;
  "game:submission_complete": (payload: SubmissionComplete) => void;
  "game:personal_feedback": (payload: Feedback) => void;
  "game:results": (payload: GameResults) => void;
  "game:progress_update": (payload: ProgressUpdate) => void;
  /** A private room's owner, link, automatic rounds or texts changed. */
  "room:private_update": (payload: PrivateRoomView) => void;
  "room:rematch": (payload: Rematch) => void;
  "room:removed": (payload: RoomGone) => void;
  "room:closed": (payload: RoomGone) => void;
}

declare module "../kernel/socket" {
  interface ClientEvents extends RoomsClientEvents {}
  interface ServerEvents extends RoomsServerEvents {}
}
