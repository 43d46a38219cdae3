/**
 * Type-level checks of the web's side of the wire contract, run by `tsc` (`bun run typecheck`), never executed or
 * bundled: each `@ts-expect-error` line must stay an error (a wrong event name or payload, sent or listened to).
 */
import { socketManager, useSocketEvent } from "./socket";

export function sending() {
  socketManager.emit("join_room", { room_id: 1 });
  // @ts-expect-error: no such event
  socketManager.emit("join_rom", { room_id: 1 });
  // @ts-expect-error: a wrong payload (room_id is a number or a numeric string)
  socketManager.emit("join_room", { room_id: true });
  // @ts-expect-error: a server event is not sent by the web
  socketManager.emit("room:list", { rooms: [] });
  socketManager.emit("get_rooms");
  socketManager.emit("guild:kick_member", { guild_id: 1, member_id: 2 }, (answer) => {
    if (answer.success) void answer.user_id;
    // @ts-expect-error: the refusal carries no user
    else void answer.user_id;
  });
}

export function useListening() {
  socketManager.subscribe("room:left", (payload) => void payload.room_id);
  // @ts-expect-error: no such event
  socketManager.subscribe("room:lefts", () => {});
  // @ts-expect-error: the payload has no such field
  socketManager.subscribe("room:left", (payload) => void payload.roomId);
  useSocketEvent("duel:time_update", (payload) => void payload.remaining_time);
  // @ts-expect-error: a handler expecting another shape than the server sends
  useSocketEvent("duel:time_update", (payload: { remaining: number }) => void payload.remaining);
}
