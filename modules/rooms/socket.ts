import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { type ClientHandlers, socketEvent } from "../kernel/socket";
import type { RoomsRuntime } from "./runtime";
import type { RoomsClientEvents } from "./wire";

/**
 * Room ids arrive as numbers or, from a route parameter, as numeric strings. Fields the spec's client also
 * sends (user_id, username, nickname, session_id) are not declared: identity comes from the handshake only,
 * and undeclared fields are dropped by the shared dispatcher (modules/kernel/socket.ts) before the handler sees the payload.
 */
const RoomId = t.Union([
  Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
  t.String({ pattern: "^[1-9][0-9]{0,9}$" }),
]);
const toId = (value: number | string) => Number(value);

/**
 * `spectate: true` watches the room without playing (README "Spectators"); `code` is a private room's invitation
 * code (any text: a wrong one is answered in words, not as a malformed payload).
 */
export const JoinPayload = t.Object({
  room_id: RoomId,
  spectate: t.Optional(t.Union([t.Boolean(), t.Null()])),
  code: t.Optional(t.Union([t.String({ maxLength: 64 }), t.Null()])),
});
export const RematchPayload = t.Object({ room_id: RoomId });
export const LeavePayload = t.Object({ room_id: t.Optional(t.Union([RoomId, t.Null()])) });
/** Longer than any chat message or sentence, so a huge string fails here and never reaches the game. */
const TEXT_LIMIT = 1_000;
export const ChatPayload = t.Object({
  room_id: RoomId,
  message: t.String({ maxLength: TEXT_LIMIT }),
  is_game_answer: t.Optional(t.Union([t.Boolean(), t.Null()])),
});
export const SubmissionPayload = t.Object({
  room_id: RoomId,
  sentence_id: RoomId,
  typed_text: t.String({ maxLength: TEXT_LIMIT }),
  elapsed_time: t.Optional(t.Union([t.Number({ minimum: 0, maximum: 3_600 }), t.Null()])),
});
export const ProgressPayload = t.Object({ room_id: RoomId, typed_text: t.String({ maxLength: TEXT_LIMIT }) });
/** A step costs a quarter token: 10 a second is 2.5 of the 5 refilled, and it is broadcast coalesced, not as is. */
export const PROGRESS_COST = 0.25;
const Anything = t.Unknown();

/** The room events of spec part 1 §7 (client → server), answered by this server's rooms runtime. */
export function roomSocketEvents(runtime: RoomsRuntime): ClientHandlers<RoomsClientEvents> {
  // Costs (the kernel's SOCKET_BUDGET): 5 for a join or leave (broadcast to the whole room, answered with its
  // state) and for the full room list; 1 for chat (its own limit comes first) and the one submission of a game;
  // ¼ for a step (PROGRESS_COST).
  const join = socketEvent(JoinPayload, { cost: 5 }, (socket, { room_id, spectate, code }) =>
    runtime.join(socket, toId(room_id), spectate === true, code ?? undefined),
  );
  const leave = socketEvent(Anything, { cost: 5 }, (socket) => runtime.leave(socket));
  return {
    join_room: join,
    // Guests join with join_anonymous; the nickname a client sends is ignored (guest_NNNN comes from its id).
    join_anonymous: join,
    leave_room: socketEvent(t.Optional(LeavePayload), { cost: 5 }, (socket) => runtime.leave(socket)),
    disconnect_cleanup: leave,
    get_rooms: socketEvent(Anything, { cost: 5 }, (socket) => runtime.sendList(socket)),
    chat_message: socketEvent(ChatPayload, { cost: 1 }, (socket, { room_id, message, is_game_answer }) =>
      runtime.chat(socket, toId(room_id), message, is_game_answer === true),
    ),
    "game:submission": socketEvent(SubmissionPayload, { cost: 1 }, (socket, payload) =>
      runtime.submit(socket, toId(payload.room_id), {
        typedText: payload.typed_text,
        sentenceId: toId(payload.sentence_id),
        elapsedTime: payload.elapsed_time ?? undefined,
      }),
    ),
    "game:progress": socketEvent(ProgressPayload, { cost: PROGRESS_COST }, (socket, { room_id, typed_text }) =>
      runtime.progress(socket, toId(room_id), typed_text),
    ),
    // A private room's "다시 하기": the player asks for another round (broadcast to the room, so it costs a join's).
    "room:rematch": socketEvent(RematchPayload, { cost: 2 }, (socket, { room_id }) =>
      runtime.rematch(socket, toId(room_id)),
    ),
  };
}
