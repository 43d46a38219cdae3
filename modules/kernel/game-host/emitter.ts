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
