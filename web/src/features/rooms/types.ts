/**
 * The rooms module's wire shapes, as the server declares them (modules/rooms/wire.ts, README "Socket events"):
 * type-only imports, erased from the bundle.
 */
import type { RoomView } from "../../../../modules/rooms";

export type { SocketErrorPayload as SocketError } from "../../../../modules/kernel/socket";
export type {
  ChatLine as ChatPayload,
  Counts,
  Feedback,
  GameResult,
  GameResults,
  GameState,
  JoinedPayload,
  RoomGuest,
  RoomUser,
  Sentence,
  SubmissionComplete,
  UsersUpdate,
} from "../../../../modules/rooms";

export type Room = RoomView;
export type GameStatus = Room["game_status"];
