/**
 * The rooms module's wire shapes, as the server declares them (modules/rooms/wire.ts, README "Socket events"):
 * type-only imports, erased from the bundle.
 */
import type { PrivateRoomView, RoomSummary as RoomSummaryView, RoomView } from "../../../../modules/rooms";

export type { SocketErrorPayload as SocketError } from "../../../../modules/kernel/socket";
export type {
  ChatLine as ChatPayload,
  Counts,
  Feedback,
  GameResult,
  GameResults,
  GameState,
  JoinedPayload,
  Lane,
  PrivateRoomView,
  ProgressUpdate,
  Rematch,
  RoomGone,
  RoomGuest,
  RoomUser,
  Sentence,
  SubmissionComplete,
  UsersUpdate,
} from "../../../../modules/rooms";

export type Room = RoomView;
/** A private room as its link's page and its owner's list show it (`/api/rooms/invite/{code}`, `…/private/mine`). */
export interface PrivateRoomInfo {
  room: Room;
  private: PrivateRoomView;
}
/** A room as the home list shows it (`room:list_update` carries no member lists). */
export type RoomSummary = RoomSummaryView;
export type GameStatus = Room["game_status"];
