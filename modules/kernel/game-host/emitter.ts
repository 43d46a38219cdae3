import type { AppServer } from "../socket";

/**
 * The one way out of a game: every event a presenter sends and every channel change of a socket goes through
 * it. Sockets are named by id, not held, so a game can run on one process while its players' sockets live on
 * others: the multi-process change swaps this implementation (socket.io adapter, `io.in(id).socketsJoin`) and
 * nothing in the host or the presenters changes.
 */
export interface GameEmitter {
  /** Everyone in a channel (the game's channel; any other socket.io room). */
  toChannel(channel: string, event: string, payload: unknown): void;
  /** Exactly these sockets (one player's tabs, or the one that just joined). */
  toSockets(socketIds: readonly string[], event: string, payload: unknown): void;
  /** Every socket of a member, in any game or none (`user:<id>`, joined by accounts at connection). */
  toUser(userId: number, event: string, payload: unknown): void;
  join(socketId: string, channel: string): void;
  leave(socketId: string, channel: string): void;
}

export const userChannel = (userId: number) => `user:${userId}`;

/**
 * The single-process emitter: broadcasts through `io.to(channel)` (one encode per broadcast, Bun's pub/sub via
 * apps/server/fast-broadcast.ts); a socket id that is not on this process is skipped.
 */
export function socketIoEmitter(io: AppServer): GameEmitter {
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
export function adapterEmitter(io: AppServer): GameEmitter {
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
