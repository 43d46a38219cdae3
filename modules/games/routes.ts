import { Elysia, t } from "elysia";
import { accountsApi } from "../accounts";
import type { ModuleContext } from "../kernel/define-module";
import { forbidden } from "../kernel/errors";
import { apiResponses, loginRequired } from "../kernel/http";
import { resultsOfUser } from "./api";
import { GameResultRecordSchema, UserResultsParams, UserResultsQuery } from "./model";
import type { UserResult } from "./store";

export const OTHERS_RECORDS_FORBIDDEN = "다른 사용자의 게임 기록은 관리자만 볼 수 있습니다.";

const presentRecord = (r: UserResult) => ({
  id: r.id,
  room_name: r.sourceName,
  wpm: r.wpm,
  accuracy: r.accuracy,
  completion_time: r.completionTime,
  position: r.position,
  created_at: new Date(r.createdAt).toISOString(),
  mode: r.mode,
  medal: r.medal,
});

/**
 * `GET /api/games/results/user/{userId}`: a member's own records, any member's for administrators. Not mounted
 * by default while rooms still serves the same path (see README "Routes").
 */
export function gamesRoutes(ctx: ModuleContext) {
  const { guards } = accountsApi(ctx);
  return new Elysia({ name: "games.routes", prefix: "/games", detail: { tags: ["games"] } }).get(
    "/results/user/:userId",
    async ({ params, query, headers }) => {
      const user = await guards.requireUser(headers);
      if (user.id !== params.userId && !user.isAdmin) throw forbidden(OTHERS_RECORDS_FORBIDDEN, "not_own_records");
      return (await resultsOfUser(ctx, params.userId, query.limit)).map(presentRecord);
    },
    {
      params: UserResultsParams,
      query: UserResultsQuery,
      response: apiResponses(
        { 200: t.Array(GameResultRecordSchema) },
        { ...loginRequired("다른 사용자의 기록은 관리자만 볼 수 있습니다"), 422: true },
      ),
      detail: {
        summary: "사용자 게임 기록",
        description:
          "모든 게임 모드(타자 방, 길드 게임 등)의 결과를 최신순으로 돌려줍니다 (limit 1~200, 기본 50). " +
          "본인의 기록만 볼 수 있고, 관리자는 모든 사용자의 기록을 볼 수 있습니다. room_name은 방이나 길드의 " +
          "당시 이름, mode는 게임 모드, medal은 받은 메달(gold·silver·bronze, 없으면 null)입니다.",
        security: [{ bearerAuth: [] }],
      },
    },
  );
}
