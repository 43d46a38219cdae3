import { type GameHost, type GameMember, playerIdOf, playerKeyOf, type WatcherOptions } from "../kernel/game-host";
import type { AppSocket, SocketIdentity } from "../kernel/socket";
import type { DuelMode, DuelPlayer } from "./duel-mode";

/** A watcher's chat line (the presenter's own input: ready and words are the mode's moves). */
export interface DuelCommand {
  type: "watch_chat";
  message: string;
}

/** One duel on the generic game host (no per-member data; its players' and its watchers' sockets are its members). */
export type DuelGame = GameHost<DuelMode, DuelPlayer, undefined, DuelCommand>;
export type DuelMember = GameMember<DuelPlayer>;

export const isWatcher = (member: DuelMember) => member.player.watcher === true;

/** The duel's own players among its members (watchers are members too, never players). */
export function playersIn(host: DuelGame): number {
  let players = 0;
  for (const member of host.members()) if (!isWatcher(member)) players++;
  return players;
}

/**
 * A duel's watchers (kernel game-host README "Watchers"): the duel's events reach them after its two players, at
 * most five frames a second; of the time left only the latest goes (every word, hit and life counts, in order).
 */
export const DUEL_WATCHERS: WatcherOptions<DuelPlayer> = {
  is: (player) => player.watcher === true,
  merges: { "duel:time_update": true },
};

/** The player as others see it: the public key (the spec's `sid`) is the kernel's (a guest's is a hash). */
export function playerOf(identity: SocketIdentity): DuelPlayer {
  const id = playerIdOf(identity);
  const key = playerKeyOf(identity);
  if (identity.kind === "user") return { id, name: identity.username, userId: identity.userId, key };
  return { id, name: identity.nickname, userId: null, key };
}

/**
 * What the duel keeps on a socket (`socket.data.state`): the duel it plays in (`duel`) and the one it watches
 * (`duel:watch`), if any. `inMenu`: the socket is in the runtime's menu (it entered it and has not left), for the
 * list room below.
 */
const PLAYS = "duel";
const WATCHES = "duel:watch";
export const duelOfSocket = (socket: AppSocket) => socket.data.state?.[PLAYS] as string | undefined;
export const watchOfSocket = (socket: AppSocket) => socket.data.state?.[WATCHES] as string | undefined;
export const setDuelOfSocket = (socket: AppSocket, sessionId: string | undefined, inMenu: boolean) =>
  setOnSocket(socket, PLAYS, sessionId, inMenu);
export const setWatchOfSocket = (socket: AppSocket, sessionId: string | undefined, inMenu: boolean) =>
  setOnSocket(socket, WATCHES, sessionId, inMenu);

function setOnSocket(socket: AppSocket, key: string, sessionId: string | undefined, inMenu: boolean) {
  socket.data.state ??= {};
  socket.data.state[key] = sessionId;
  followList(socket, inMenu);
}

/** The socket.io room that gets the coalesced `duel:user_list_update`. */
export const MENU = "duel:menu";

/**
 * The coalesced list goes to the menu's sockets that are not in a duel. A player in a duel does not see the list (the
 * page shows the game) and asks for it itself after the end (spec part 2 §4 step 7: at 0.3 s and 1 s, and a forced
 * update), so thousands of players in duels are not each sent a list a second they never look at. A player in a
 * duel is still listed (status `in_game`); only the pushes stop. A watcher's page shows the duel too: no pushes.
 */
export function followList(socket: AppSocket, inMenu: boolean) {
  if (inMenu && !duelOfSocket(socket) && !watchOfSocket(socket)) socket.join(MENU);
  else socket.leave(MENU);
}
