/**
 * The home page's room list: `room:list` replaces it, `room:list_update` carries only the rooms that changed and
 * is merged by id (modules/rooms/README.md). Only what a summary carries is read here (no member lists: updates carry
 * none). Pure, for the unit tests.
 */
import type { RoomSummary as Room } from "./types";

export type RoomListState =
  | { status: "loading"; rooms: Room[]; live: boolean }
  | { status: "ready"; rooms: Room[]; live: boolean }
  | { status: "failed"; rooms: Room[]; live: boolean };

export const initialRoomList: RoomListState = { status: "loading", rooms: [], live: false };

export type RoomListAction =
  | { type: "fetched"; rooms: Room[] }
  | { type: "fetch_failed" }
  | { type: "list"; rooms: Room[] }
  | { type: "update"; rooms: Room[] };

const byId = (a: Room, b: Room) => a.id - b.id;

export function mergeRooms(current: Room[], changed: Room[]): Room[] {
  const merged = new Map(current.map((room) => [room.id, room]));
  for (const room of changed) merged.set(room.id, room);
  return [...merged.values()].sort(byId);
}

export function roomListReducer(state: RoomListState, action: RoomListAction): RoomListState {
  switch (action.type) {
    case "fetched":
      // The socket's list is newer than an HTTP answer that arrives after it; so are updates pushed meanwhile.
      if (state.live) return state;
      return { status: "ready", rooms: mergeRooms(action.rooms, state.rooms), live: false };
    case "fetch_failed":
      return state.live ? state : { ...state, status: "failed" };
    case "list":
      return { status: "ready", rooms: [...action.rooms].sort(byId), live: true };
    case "update":
      return { status: "ready", rooms: mergeRooms(state.rooms, action.rooms), live: state.live };
  }
}

/** Accepts both `{rooms: Room[]}` (this server) and a bare array (the spec leaves the shape open). */
export function roomsOf(payload: unknown): Room[] | null {
  if (Array.isArray(payload)) return payload as Room[];
  const rooms = (payload as { rooms?: unknown } | null)?.rooms;
  return Array.isArray(rooms) ? (rooms as Room[]) : null;
}
