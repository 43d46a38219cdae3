import type { RoomGame, RoomMember } from "./members";
import type { RoomRow } from "./schema";
import type { RaceState } from "./sentence-race";

/** What players see of a room and its game (spec part 1 §3 Room, §7 room events), read off the game host. */

export const iso = (at: number) => new Date(at).toISOString();

/** The game:state payload: what every player sees of the race, with the server's time for the client's timer. */
export const gameStateOf = (game: RoomGame) => ({ ...game.view(null), server_time: iso(game.clock.now()) });

/** Spectators are members of the room's host but no players: counted apart, never in the lists or `max_users`. */
export const isSpectator = (member: RoomMember) => member.player.spectator === true;

export function countsOf(game: RoomGame) {
  let users = 0;
  let guests = 0;
  for (const member of game.members()) {
    if (isSpectator(member)) continue;
    if (member.data.kind === "user") users++;
    else guests++;
  }
  return { user_count: users, anonymous_count: guests, total_participants: users + guests };
}

export const userEntry = (member: RoomMember) => ({
  id: member.player.userId!,
  username: member.player.name,
  ...member.data.profile,
  session_id: member.player.sessionId,
  joined_at: iso(member.joinedAt),
  is_anonymous: false,
});

export const guestEntry = (member: RoomMember) => ({
  session_id: member.player.sessionId,
  nickname: member.player.name,
  created_at: iso(member.joinedAt),
  is_anonymous: true,
});

function listsOf(game: RoomGame) {
  const users: ReturnType<typeof userEntry>[] = [];
  const anonymous_users: ReturnType<typeof guestEntry>[] = [];
  for (const member of game.members()) {
    if (isSpectator(member)) continue;
    if (member.data.kind === "user") users.push(userEntry(member));
    else anonymous_users.push(guestEntry(member));
  }
  return { users, anonymous_users };
}

/** room:users_update: everyone in the room, after every join and leave and after rewards. */
export function usersUpdateOf(room: RoomRow, game: RoomGame) {
  const counts = countsOf(game);
  return {
    room_id: room.id,
    max_users: room.maxUsers,
    ...counts,
    spectators: game.size - counts.total_participants,
    ...listsOf(game),
  };
}

/** The Room entity of spec part 1 §3, live. */
export function presentRoom(room: RoomRow, game: RoomGame): RoomView {
  const counts = countsOf(game);
  const view = game.view(null);
  return {
    ...presentRoomRow(room),
    ...counts,
    spectators: game.size - counts.total_participants,
    is_full: counts.total_participants >= room.maxUsers,
    game_status: view.status,
    countdown_seconds: view.countdown_seconds,
    next_game_at: view.next_game_at,
    ...listsOf(game),
  };
}

export type RoomView = ReturnType<typeof presentRoomRow> & {
  user_count: number;
  anonymous_count: number;
  total_participants: number;
  /** Sockets' identities watching without playing (`spectate: true`): not in the counts above nor in the lists. */
  spectators: number;
  is_full: boolean;
  game_status: RaceState["status"];
  countdown_seconds: number;
  next_game_at: string | null;
  users: ReturnType<typeof userEntry>[];
  anonymous_users: ReturnType<typeof guestEntry>[];
};

export function presentRoomRow(row: RoomRow) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    max_users: row.maxUsers,
    theme: row.theme,
    language: row.language,
    created_at: row.createdAt.toISOString(),
    /** Found through its invitation link only, never listed (README "Private rooms"). */
    is_private: row.kind === "private",
  };
}

/** A room nobody has entered since the server started. */
export function presentIdleRoom(row: RoomRow, countdownSeconds: number): RoomView {
  return {
    ...presentRoomRow(row),
    user_count: 0,
    anonymous_count: 0,
    total_participants: 0,
    spectators: 0,
    is_full: false,
    game_status: "waiting",
    countdown_seconds: countdownSeconds,
    next_game_at: null,
    users: [],
    anonymous_users: [],
  };
}

/** A room in `room:list_update`: the home page shows counts, status and countdown, never who is inside. */
export type RoomSummary = Omit<RoomView, "users" | "anonymous_users">;

export function summaryOf(room: RoomView): RoomSummary {
  const { users: _users, anonymous_users: _guests, ...summary } = room;
  return summary;
}
