import { Elysia, t } from "elysia";
import { accountsApi } from "../accounts";
import type { ModuleContext } from "../kernel/define-module";
import { forbidden } from "../kernel/errors";
import { apiResponses, loginRequired } from "../kernel/http";
import { bestOfUser, resultsOfUser } from "./api";
import { BestFiguresSchema, GameResultRecordSchema, UserResultsParams, UserResultsQuery } from "./model";
import type { UserResult } from "./store";

export const OTHERS_RECORDS_FORBIDDEN = "다른 사용자의 게임 기록은 관리자만 볼 수 있습니다.";

/** Both reads answer the same refusals: no login (401), another member's figures (403), a bad id (422). */
const READ_REFUSALS = { ...loginRequired(OTHERS_RECORDS_FORBIDDEN), 422: true } as const;

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
 * `GET /api/games/results/user/{userId}` and `GET /api/games/best/user/{userId}`: a member's own records and best
 * figures, any member's for administrators. Mounted with `createGamesModule({ serveRoutes: true })`.
 */
export function gamesRoutes(ctx: ModuleContext) {
  const { guards } = accountsApi(ctx);
  /** The caller, when they may read this member's records: themself or an administrator. */
  const readerOf = async (headers: Record<string, string | undefined>, userId: number) => {
    const user = await guards.requireUser(headers);
    if (user.id !== userId && !user.isAdmin) throw forbidden(OTHERS_RECORDS_FORBIDDEN, "not_own_records");
    return user;
  };
  return new Elysia({ name: "games.routes", prefix: "/games", detail: { tags: ["games"] } })
    .get(
      "/best/user/:userId",
      async ({ params, headers }) => {
        await readerOf(headers, params.userId);
        const best = await bestOfUser(ctx, params.userId);
        return { user_id: params.userId, best_wpm: best.bestWpm, best_accuracy: best.bestAccuracy };
      },
      {
        params: UserResultsParams,
        response: apiResponses({ 200: BestFiguresSchema }, READ_REFUSALS),
        detail: {
          summary: "사용자 최고 기록",
          description:
            "모든 타자 게임 모드(타자 방, 길드 게임)에서 인정된 결과 전체 중 최고 속도(타/분)와 최고 정확도(%)를 " +
            "돌려줍니다 (결과가 없으면 0). 1:1 대결과 비정상 결과는 들어가지 않습니다. 본인의 기록만 볼 수 있고, " +
            "관리자는 모든 사용자의 기록을 볼 수 있습니다.",
          security: [{ bearerAuth: [] }],
        },
      },
    )
    .get(
      "/results/user/:userId",
      async ({ params, query, headers }) => {
        await readerOf(headers, params.userId);
        return (await resultsOfUser(ctx, params.userId, query.limit)).map(presentRecord);
      },
      {
        params: UserResultsParams,
        query: UserResultsQuery,
        response: apiResponses({ 200: t.Array(GameResultRecordSchema) }, READ_REFUSALS),
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
