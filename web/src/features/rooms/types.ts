/**
 * Wire shapes of the rooms module's socket events (modules/rooms/README.md "Socket events"). The Room entity is
 * the server's own type; the event payloads are written out here because the server builds them inline.
 */
import type { GameStateView, RoomView, Sentence } from "../../../../modules/rooms";

export type Room = RoomView;
export type RoomUser = Room["users"][number];
export type RoomGuest = Room["anonymous_users"][number];
export type GameStatus = Room["game_status"];

export type { Sentence };

/** `game:state`: the mode's view plus the server's clock; times are ISO 8601 UTC, `game_duration` in seconds. */
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

export interface Rewards {
  experience: number;
  coins: number;
  points: number;
  medal: "gold" | "silver" | "bronze" | null;
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
  rewards: Rewards | null;
}

export interface GameResults {
  room_id: number;
  sentence_id: number;
  participants: number;
  results: GameResult[];
}

export interface JoinedPayload {
  room_id: number;
  room: Room;
  game_state: GameState;
  session_id: string;
  my_result: Feedback | null;
  /** Members get `user`, guests `nickname`. */
  user?: { id: number; username: string };
  nickname?: string;
}

export interface UsersUpdate {
  room_id: number;
  max_users: number;
  user_count: number;
  anonymous_count: number;
  total_participants: number;
  users: RoomUser[];
  anonymous_users: RoomGuest[];
}

export interface Counts {
  room_id: number;
  user_count: number;
  anonymous_count: number;
  total_participants: number;
}

export interface ChatPayload {
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

export interface SubmissionComplete extends Feedback {
  user_id: number | null;
  username: string;
  nickname: string;
  is_anonymous: boolean;
  completed_count: number;
  total_players: number;
}

export interface SocketError {
  message: string;
  code?: string;
  event?: string;
}
