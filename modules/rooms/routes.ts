import { Elysia, t } from "elysia";
import { accountsApi } from "../accounts";
import type { ModuleContext } from "../kernel/define-module";
import { forbidden, notFound } from "../kernel/errors";
import {
  ErrorSchema,
  GameResultRecordSchema,
  RoomParams,
  RoomSchema,
  UserResultsParams,
  UserResultsQuery,
} from "./model";
import { presentIdleRoom } from "./room-host";
import type { RoomsRuntime } from "./runtime";
import { DEFAULT_RACE_SETTINGS } from "./sentence-race";
import { findRoomRow, listRoomRows, ROOM_NOT_FOUND, userResults } from "./service";

export const OTHERS_RECORDS_FORBIDDEN = "다른 사용자의 게임 기록은 관리자만 볼 수 있습니다.";

/** Without a socket server (e.g. an app built for a test without io) rooms are listed as empty. */
function roomReader(ctx: ModuleContext, runtime: () => RoomsRuntime | undefined) {
  const idle = DEFAULT_RACE_SETTINGS.countdownSeconds;
  return {
    list: () => runtime()?.list() ?? listRoomRows(ctx.db).map((row) => presentIdleRoom(row, idle)),
    get(id: number) {
      const live = runtime();
      if (live) return live.present(id);
      const row = findRoomRow(ctx.db, id);
      return row ? presentIdleRoom(row, idle) : null;
    },
  };
}

export function roomsRoutes(ctx: ModuleContext, runtime: () => RoomsRuntime | undefined) {
  const rooms = roomReader(ctx, runtime);
  const roomRoutes = new Elysia({ name: "rooms.routes.rooms", prefix: "/rooms", detail: { tags: ["rooms"] } })
    .get("/", () => rooms.list(), {
      response: { 200: t.Array(RoomSchema) },
      detail: {
        summary: "방 목록",
        description: "공개 타자 방과 현재 인원, 게임 상태. /api/rooms 와 /api/rooms/ 모두 응답합니다.",
      },
    })
    .get(
      "/:id",
      ({ params }) => {
        const id = /^[1-9][0-9]{0,9}$/.test(params.id) ? Number(params.id) : 0;
        const room = id ? rooms.get(id) : null;
        if (!room) throw notFound(ROOM_NOT_FOUND, "room_not_found");
        return room;
      },
      {
        params: RoomParams,
        response: { 200: RoomSchema, 404: ErrorSchema },
        detail: { summary: "방 정보", description: "방 하나의 현재 인원과 게임 상태." },
      },
    );
  const { guards } = accountsApi(ctx);
  const resultRoutes = new Elysia({ name: "rooms.routes.results", prefix: "/games", detail: { tags: ["rooms"] } }).get(
    "/results/user/:userId",
    async ({ params, query, headers }) => {
      // product-rules "Rankings and profile": one's own records; anyone's for administrators.
      const user = await guards.requireUser(headers);
      if (user.id !== params.userId && !user.isAdmin) throw forbidden(OTHERS_RECORDS_FORBIDDEN, "not_own_records");
      return userResults(ctx.db, params.userId, query.limit ?? 50).map((r) => ({
        id: r.id,
        room_name: r.roomName,
        wpm: r.wpm,
        accuracy: r.accuracy,
        completion_time: r.completionTime,
        position: r.position,
        created_at: r.createdAt.toISOString(),
      }));
    },
    {
      params: UserResultsParams,
      query: UserResultsQuery,
      response: {
        200: t.Array(GameResultRecordSchema),
        401: ErrorSchema,
        403: ErrorSchema,
        422: ErrorSchema,
      },
      detail: {
        summary: "사용자 게임 기록",
        description:
          "최신순 게임 결과 (limit 1~200, 기본 50). 본인의 기록만 볼 수 있고, 관리자는 모든 사용자의 기록을 볼 수 있습니다.",
        security: [{ bearerAuth: [] }],
      },
    },
  );
  return new Elysia({ name: "rooms.routes" }).use(roomRoutes).use(resultRoutes);
}
