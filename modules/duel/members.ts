import { type GameHost, type GameMember, playerIdOf, playerKeyOf } from "../kernel/game-host";
import type { AppSocket, SocketIdentity } from "../kernel/socket";
import type { DuelMode, DuelPlayer } from "./duel-mode";

/** One duel on the generic game host (no per-member data, no commands: ready and words are moves). */
export type DuelGame = GameHost<DuelMode, DuelPlayer>;
export type DuelMember = GameMember<DuelPlayer>;

/** The player as others see it: the public key (the spec's `sid`) is the kernel's (a guest's is a hash). */
export function playerOf(identity: SocketIdentity): DuelPlayer {
  const id = playerIdOf(identity);
  const key = playerKeyOf(identity);
  if (identity.kind === "user") return { id, name: identity.username, userId: identity.userId, key };
  return { id, name: identity.nickname, userId: null, key };
}

/** What the duel keeps on a socket (`socket.data.state.duel`): the duel it is in, if any. */
const STATE_KEY = "duel";
export const duelOfSocket = (socket: AppSocket) => socket.data.state?.[STATE_KEY] as string | undefined;
/** `inMenu`: the socket is in the runtime's menu (it entered it and has not left), for the list room below. */
export function setDuelOfSocket(socket: AppSocket, sessionId: string | undefined, inMenu: boolean) {
  socket.data.state ??= {};
  socket.data.state[STATE_KEY] = sessionId;
  followList(socket, inMenu);
}

/** The socket.io room that gets the coalesced `duel:user_list_update`. */
export const MENU = "duel:menu";

/**
 * The coalesced list goes to the menu's sockets that are not in a duel. A player in a duel does not see the list (the
 * page shows the game) and asks for it itself after the end (spec part 2 §4 step 7: at 0.3 s and 1 s, and a forced
 * update), so thousands of players in duels are not each sent a list a second they never look at. A player in a
 * duel is still listed (status `in_game`); only the pushes stop.
 */
export function followList(socket: AppSocket, inMenu: boolean) {
  if (inMenu && !duelOfSocket(socket)) socket.join(MENU);
  else socket.leave(MENU);
}
