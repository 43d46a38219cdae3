import { createHash } from "node:crypto";
import type { SocketIdentity } from "../socket";

/**
 * Who a player is, the same in every mode (rooms, guilds and the duel each had a copy). Two ids, two ideas:
 * - the game id (`u:<user id>`, `g:<client id>`): a member of a live game on the host; never sent to others, since a
 *   guest's client id is its credential;
 * - the public key (`u_<user id>`, `g_<hash>`): what others see and the games module stores as `player_key`; a
 *   guest's is a hash of the client id. Both formats are on the wire or in the tables: do not change them.
 */

/** The game id of a member (an account), for modes only members play. */
export const memberPlayerId = (userId: number) => `u:${userId}`;

/** The game id of a socket: members by user id, guests by their anonymous client id (never shown). */
export const playerIdOf = (identity: SocketIdentity) =>
  identity.kind === "user" ? memberPlayerId(identity.userId) : `g:${identity.clientId}`;

/** The public key of a member. */
export const memberPlayerKey = (userId: number) => `u_${userId}`;

/** The public key of a socket: a guest's is the first 12 hex digits of the SHA-256 of its client id. */
export const playerKeyOf = (identity: SocketIdentity) =>
  identity.kind === "user"
    ? memberPlayerKey(identity.userId)
    : `g_${createHash("sha256").update(identity.clientId).digest("hex").slice(0, 12)}`;
