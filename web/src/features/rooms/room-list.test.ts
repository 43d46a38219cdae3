import { describe, expect, test } from "bun:test";
import { initialRoomList, roomListReducer, roomsOf } from "./room-list";
import type { Room } from "./types";

const room = (id: number, total = 0): Room =>
  ({ id, name: `방${id}`, total_participants: total, max_users: 20, game_status: "waiting" }) as Room;

describe("home room list", () => {
  test("room:list replaces, room:list_update merges by id", () => {
    let state = roomListReducer(initialRoomList, { type: "list", rooms: [room(2), room(1)] });
    expect(state.rooms.map((r) => r.id)).toEqual([1, 2]);
    state = roomListReducer(state, { type: "update", rooms: [room(2, 5), room(3, 1)] });
    expect(state.rooms.map((r) => [r.id, r.total_participants])).toEqual([
      [1, 0],
      [2, 5],
      [3, 1],
    ]);
  });

  test("an HTTP answer after the socket's list is ignored; a failure after it too", () => {
    let state = roomListReducer(initialRoomList, { type: "list", rooms: [room(1, 4)] });
    state = roomListReducer(state, { type: "fetched", rooms: [room(1, 0)] });
    expect(state.rooms[0].total_participants).toBe(4);
    expect(roomListReducer(state, { type: "fetch_failed" }).status).toBe("ready");
  });

  test("updates pushed before the first HTTP answer win over it", () => {
    let state = roomListReducer(initialRoomList, { type: "update", rooms: [room(1, 7)] });
    state = roomListReducer(state, { type: "fetched", rooms: [room(1, 0), room(2, 0)] });
    expect(state.rooms.map((r) => r.total_participants)).toEqual([7, 0]);
  });

  test("a failed first load is reported", () => {
    expect(roomListReducer(initialRoomList, { type: "fetch_failed" }).status).toBe("failed");
  });

  test("payloads: {rooms} or a bare array", () => {
    expect(roomsOf({ rooms: [room(1)] })?.length).toBe(1);
    expect(roomsOf([room(1), room(2)])?.length).toBe(2);
    expect(roomsOf({ nope: 1 })).toBeNull();
  });
});
