import { Elysia, t } from "elysia";
import type { ModuleContext } from "../kernel/define-module";
import { notFound } from "../kernel/errors";
import { apiResponses } from "../kernel/http";
import { RoomParams, RoomSchema } from "./model";
import { privateRoomRoutes } from "./private-routes";
import { presentIdleRoom } from "./room-view";
import type { RoomsRuntime } from "./runtime";
import { DEFAULT_RACE_SETTINGS } from "./sentence-race";
import { findRoomRow, listRoomRows, ROOM_NOT_FOUND } from "./service";

/** Without a socket server (e.g. an app built for a test without io) rooms are listed as empty. */
function roomReader(ctx: ModuleContext, runtime: () => RoomsRuntime | undefined) {
  const idle = DEFAULT_RACE_SETTINGS.countdownSeconds;
  return {
    async list() {
      const live = runtime();
      if (live) return live.list();
      return (await listRoomRows(ctx.database)).map((row) => presentIdleRoom(row, idle));
    },
    async get(id: number) {
      const live = runtime();
      if (live) return live.room(id);
      const row = await findRoomRow(ctx.database, id);
      return row ? presentIdleRoom(row, idle) : null;
    },
  };
}

export function roomsRoutes(ctx: ModuleContext, runtime: () => RoomsRuntime | undefined) {
  const rooms = roomReader(ctx, runtime);
  const roomRoutes = new Elysia({ name: "rooms.routes.rooms", prefix: "/rooms", detail: { tags: ["rooms"] } })
    .get("/", () => rooms.list(), {
      response: apiResponses({ 200: t.Array(RoomSchema) }),
      detail: {
        summary: "방 목록",
        description: "공개 타자 방과 현재 인원, 게임 상태. /api/rooms 와 /api/rooms/ 모두 응답합니다.",
      },
    })
    .get(
      "/:id",
      async ({ params }) => {
        const id = /^[1-9][0-9]{0,9}$/.test(params.id) ? Number(params.id) : 0;
        const room = id ? await rooms.get(id) : null;
        if (!room) throw notFound(ROOM_NOT_FOUND, "room_not_found");
        return room;
      },
      {
        params: RoomParams,
        response: apiResponses({ 200: RoomSchema }, { 404: "방을 찾을 수 없습니다" }),
        detail: { summary: "방 정보", description: "방 하나의 현재 인원과 게임 상태." },
      },
    );
  // The private rooms' routes first: `/rooms/private/…` is theirs, not a room id's.
  return new Elysia({ name: "rooms.routes" }).use(privateRoomRoutes(ctx, runtime)).use(roomRoutes);
}
