import type { UserRow } from "../../db/core/schema";
import { type GameHost, type GameLifecycle, type GameMember, playerIdOf, playerKeyOf } from "../kernel/game-host";
import { addressLimitKey } from "../kernel/request-info";
import type { AppSocket, SocketIdentity } from "../kernel/socket";
import type { RaceMode, RacePlayer, SubmitMove } from "./sentence-race";

/** What the room shows of a member next to the name (the participants panel). */
export interface Profile {
  level: number;
  gold_medals: number;
  silver_medals: number;
  bronze_medals: number;
}

/** What a room keeps per player besides the race's player: the game host's member `data`. */
export interface MemberData {
  kind: "user" | "guest";
  /** The address a guest came from (the per-address guest cap); null for members. */
  address: string | null;
  profile: Profile;
  /** Times of the recent chat messages (rate limit); at most `chatBurst` entries. */
  chat: number[];
}

/**
 * A line a player sent: a chat line (with `isGameAnswer` it may be the player's attempt, see `isChatAnswer`), or,
 * with `submission`, a `game:submission` — the player's attempt unless it is a chat line (`isChatSubmission`).
 */
export interface ChatCommand {
  message: string;
  isGameAnswer: boolean;
  submission?: Omit<SubmitMove, "typedText">;
}

/** A `game:submission` as the room's command (what travels to the room's owner: plain data). */
export const submissionCommand = ({ typedText, ...submission }: SubmitMove): ChatCommand => ({
  message: typedText,
  isGameAnswer: true,
  submission,
});

/** One room's sentence race on the generic game host. */
export type RoomGame = GameHost<RaceMode, RacePlayer, MemberData, ChatCommand>;
export type RoomMember = GameMember<RacePlayer, MemberData>;
export type RoomLifecycle = GameLifecycle<RaceMode, RacePlayer, MemberData, ChatCommand>;

export const NO_PROFILE: Profile = { level: 1, gold_medals: 0, silver_medals: 0, bronze_medals: 0 };

export const profileOf = (row: Pick<UserRow, "level" | "goldMedals" | "silverMedals" | "bronzeMedals">): Profile => ({
  level: row.level,
  gold_medals: row.goldMedals,
  silver_medals: row.silverMedals,
  bronze_medals: row.bronzeMedals,
});

export const sameProfile = (a: Profile, b: Profile) =>
  a.level === b.level &&
  a.gold_medals === b.gold_medals &&
  a.silver_medals === b.silver_medals &&
  a.bronze_medals === b.bronze_medals;

/** Guests are counted per address, IPv6 by its /64 (one subscriber holds a whole /64), as accounts' limits do. */
export const addressOf = (socket: AppSocket) => (socket.data.ip ? addressLimitKey(socket.data.ip) : "unknown");

/** The player as others see it: its public session id is the kernel's public key (a guest's is a hash). */
export function playerOf(identity: SocketIdentity): RacePlayer {
  const id = playerIdOf(identity);
  const sessionId = playerKeyOf(identity);
  if (identity.kind === "user") return { id, name: identity.username, userId: identity.userId, sessionId };
  return { id, name: identity.nickname, userId: null, sessionId };
}

export const ROOM_STATE_KEY = "rooms";
const SPECTATE_STATE_KEY = "rooms:spectate";
/** Whether the socket entered its room with `spectate: true` (a change of role is a leave and a join). */
export const spectatingOf = (socket: AppSocket) => socket.data.state?.[SPECTATE_STATE_KEY] === true;
export function setSpectating(socket: AppSocket, spectate: boolean) {
  socket.data.state ??= {};
  socket.data.state[SPECTATE_STATE_KEY] = spectate;
}
/** The room a socket is in (a socket is in one room at most). */
export const roomOfSocket = (socket: AppSocket) => socket.data.state?.[ROOM_STATE_KEY] as number | undefined;
export function setRoomOfSocket(socket: AppSocket, roomId: number | undefined) {
  socket.data.state ??= {};
  socket.data.state[ROOM_STATE_KEY] = roomId;
}
