import { createHash } from "node:crypto";
import type { GameHost, GameMember } from "../kernel/game-host";
import type { AppSocket, SocketIdentity } from "../kernel/socket";
import type { DuelMode, DuelPlayer } from "./duel-mode";

/** One duel on the generic game host (no per-member data, no commands: ready and words are moves). */
export type DuelGame = GameHost<DuelMode, DuelPlayer>;
export type DuelMember = GameMember<DuelPlayer>;

/** The game identity of a socket: members by user id, guests by their anonymous client id (never shown). */
export const playerIdOf = (identity: SocketIdentity) =>
  identity.kind === "user" ? `u:${identity.userId}` : `g:${identity.clientId}`;

/** The player as others see it: the public key (the spec's `sid`) of a guest is a hash of the client id. */
export function playerOf(identity: SocketIdentity): DuelPlayer {
  const id = playerIdOf(identity);
  if (identity.kind === "user") {
    return { id, name: identity.username, userId: identity.userId, key: `u_${identity.userId}` };
  }
  const hash = createHash("sha256").update(identity.clientId).digest("hex").slice(0, 12);
  return { id, name: identity.nickname, userId: null, key: `g_${hash}` };
}

/** What the duel keeps on a socket (`socket.data.state.duel`): the duel it is in, if any. */
const STATE_KEY = "duel";
export const duelOfSocket = (socket: AppSocket) => socket.data.state?.[STATE_KEY] as string | undefined;
export function setDuelOfSocket(socket: AppSocket, sessionId: string | undefined) {
  socket.data.state ??= {};
  socket.data.state[STATE_KEY] = sessionId;
}
