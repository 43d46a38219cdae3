import { type AppServer, type EventPayload, type ServerEvents, untypedServer } from "../socket";

/**
 * The one way out of a game: every event a presenter sends and every channel change of a socket goes through
 * it. Sockets are named by id, not held, so a game can run on one process while its players' sockets live on
 * others: the multi-process change swaps this implementation (socket.io adapter, `io.in(id).socketsJoin`) and
 * nothing in the host or the presenters changes. Typed against the wire contract (`ServerEvents`); the kernel's own
 * tests pass a map of made-up events.
 */
export interface GameEmitter<Events = ServerEvents> {
  /** Everyone in a channel (the game's channel; any other socket.io room). */
  toChannel<E extends keyof Events & string>(channel: string, event: E, payload: EventPayload<Events, E>): void;
  /** Exactly these sockets (one player's tabs, or the one that just joined). */
  toSockets<E extends keyof Events & string>(
    socketIds: readonly string[],
    event: E,
    payload: EventPayload<Events, E>,
  ): void;
  /** Every socket of a member, in any game or none (`user:<id>`, joined by accounts at connection). */
  toUser<E extends keyof Events & string>(userId: number, event: E, payload: EventPayload<Events, E>): void;
  join(socketId: string, channel: string): void;
  leave(socketId: string, channel: string): void;
}

export const userChannel = (userId: number) => `user:${userId}`;

/**
 * The single-process emitter: broadcasts through `io.to(channel)` (one encode per broadcast, Bun's pub/sub via
 * apps/server/fast-broadcast.ts); a socket id that is not on this process is skipped.
 */
export function socketIoEmitter<Events = ServerEvents>(server: AppServer): GameEmitter<Events> {
  const io = untypedServer(server);
  const local = (socketId: string) => io.of("/").sockets.get(socketId);
  return {
    toChannel: (channel, event, payload) => {
      io.to(channel).emit(event, payload);
    },
    toSockets: (socketIds, event, payload) => {
      for (const id of socketIds) local(id)?.emit(event, payload);
    },
    toUser: (userId, event, payload) => {
      io.to(userChannel(userId)).emit(event, payload);
    },
    join: (socketId, channel) => {
      local(socketId)?.join(channel);
    },
    leave: (socketId, channel) => {
      local(socketId)?.leave(channel);
    },
  };
}

/**
 * The emitter for several processes (REDIS_URL): everything through socket.io's adapter, so it reaches sockets on
 * every process — `io.to(channel)`, `io.to(socketIds)` (every socket is in the adapter room of its own id),
 * `io.to("user:<id>")`, and `io.in(socketId).socketsJoin/socketsLeave(channel)`, which the adapter applies on the
 * process holding the socket. Ordering: with the Redis streams adapter, a join, the broadcasts after it and a leave
 * from one process travel on one stream and are applied in that order on every process.
 */
export function adapterEmitter<Events = ServerEvents>(server: AppServer): GameEmitter<Events> {
  const io = untypedServer(server);
  return {
    toChannel: (channel, event, payload) => {
      io.to(channel).emit(event, payload);
    },
    toSockets: (socketIds, event, payload) => {
      // `io.to([])` would be everyone.
      if (socketIds.length > 0) io.to([...socketIds]).emit(event, payload);
    },
    toUser: (userId, event, payload) => {
      io.to(userChannel(userId)).emit(event, payload);
    },
    join: (socketId, channel) => {
      io.in(socketId).socketsJoin(channel);
    },
    leave: (socketId, channel) => {
      io.in(socketId).socketsLeave(channel);
    },
  };
}

/**
 * The emitter for several processes of a mode whose channels are joined only through it (rooms, duels; not the guild
 * room, which sockets join themselves). It knows which of a channel's sockets live on other processes, so a game
 * whose players are all on its owner's process — what a load balancer with room affinity gives — broadcasts with
 * Bun's local pub/sub alone and writes nothing to the Redis stream; once a socket on another process joins, the
 * channel's broadcasts go through the adapter again until it leaves. A socket of a process that died is never seen
 * leaving: its channel keeps the adapter (correct, only slower). Ordering: a remote socket's join, the broadcasts
 * after it and its leave travel on the one stream, as with `adapterEmitter`.
 */
export function localFirstEmitter<Events = ServerEvents>(server: AppServer): GameEmitter<Events> {
  const io = untypedServer(server);
  const adapter = adapterEmitter<Events>(server);
  /** channel → ids of its sockets on other processes. */
  const remote = new Map<string, Set<string>>();
  const local = (socketId: string) => io.of("/").sockets.get(socketId);
  return {
    toChannel: (channel, event, payload) => {
      if (remote.has(channel)) io.to(channel).emit(event, payload);
      else io.local.to(channel).emit(event, payload);
    },
    toSockets: (socketIds, event, payload) => {
      const elsewhere: string[] = [];
      for (const id of socketIds) {
        const socket = local(id);
        if (socket) socket.emit(event, payload);
        else elsewhere.push(id);
      }
      adapter.toSockets(elsewhere, event, payload);
    },
    toUser: adapter.toUser,
    join: (socketId, channel) => {
      const socket = local(socketId);
      if (socket) {
        socket.join(channel);
        return;
      }
      const away = remote.get(channel) ?? new Set<string>();
      remote.set(channel, away.add(socketId));
      adapter.join(socketId, channel);
    },
    leave: (socketId, channel) => {
      const away = remote.get(channel);
      if (away?.delete(socketId)) {
        if (away.size === 0) remote.delete(channel);
        adapter.leave(socketId, channel);
      } else {
        local(socketId)?.leave(channel);
      }
    },
  };
}
