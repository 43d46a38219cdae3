/**
 * Type-level checks of the wire contract, run by `tsc` (`bun run typecheck`), never executed: each `@ts-expect-error`
 * line must stay an error, so a contract that stopped catching a wrong event name or payload fails the type check.
 * The events come from the modules' wire.ts, merged into the kernel's maps (the kernel imports no module).
 */
import type { GameEmitter } from "./game-host";
import type { AppServer, AppSocket, ClientHandlers, ClientPayload, ServerPayload, SocketEvent } from "./socket";

export function serverSide(io: AppServer, socket: AppSocket, emitter: GameEmitter) {
  io.to("rooms:1").emit("game:countdown_number", { room_id: 1, number: 3 });
  // @ts-expect-error: no such event
  io.to("rooms:1").emit("game:countdown_numbr", { room_id: 1, number: 3 });
  // @ts-expect-error: a wrong payload (number is a number)
  io.to("rooms:1").emit("game:countdown_number", { room_id: 1, number: "3" });
  socket.emit("error", { message: "거절되었습니다.", code: "refused" });
  // @ts-expect-error: `message` is missing
  socket.emit("error", { code: "refused" });
  emitter.toChannel("duel:1", "duel:time_update", { session_id: "d1", remaining_time: 10 });
  // @ts-expect-error: a wrong payload for the event
  emitter.toChannel("duel:1", "duel:time_update", { session_id: "d1", remaining: 10 });
  // @ts-expect-error: a client event is not sent by the server
  emitter.toUser(1, "join_room", { room_id: 1 });
  io.serverSideEmit("guilds:member_removed", { guildId: 1, userId: 2 });
  // @ts-expect-error: no such event between processes
  io.serverSideEmit("guilds:member_gone", { guildId: 1, userId: 2 });
}

export function payloads(room: ServerPayload<"room:left">, join: ClientPayload<"join_room">) {
  const left: number | null = room.room_id;
  const id: number | string = join.room_id;
  // @ts-expect-error: the payload has no such field
  void join.roomId;
  return [left, id];
}

export function handlerTables(entry: SocketEvent) {
  const complete: ClientHandlers<{ ping: unknown; keep_alive: unknown }> = { ping: entry, keep_alive: entry };
  // @ts-expect-error: an event declared and not handled
  const missing: ClientHandlers<{ ping: unknown; keep_alive: unknown }> = { ping: entry };
  // @ts-expect-error: an event handled and not declared
  const extra: ClientHandlers<{ ping: unknown }> = { ping: entry, pong: entry };
  return [complete, missing, extra];
}
