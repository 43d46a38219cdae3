import { Elysia } from "elysia";
import type { ModuleContext } from "../kernel/define-module";
import { apiResponses } from "../kernel/http";
import { levelsRanking, medalsRanking, usersRanking } from "./api";
import { LimitQuery, UserRankingSchema, UsersRankingQuery } from "./model";

const response = apiResponses({ 200: UserRankingSchema }, { 422: true });

/**
 * The user rankings of spec part 2 §7, open to everyone (a token is not needed). Bad query values (a limit outside
 * 1–100, an unknown period or sort): 422 with Korean messages. The duel's four rankings live in the duel module.
 */
export function rankingsRoutes(ctx: ModuleContext) {
  return new Elysia({ name: "rankings.routes", prefix: "/rankings", detail: { tags: ["rankings"] } })
    .get("/users", ({ query }) => usersRanking(ctx, query), {
      query: UsersRankingQuery,
      response,
      detail: {
        summary: "타자 방 사용자 랭킹",
        description:
          "서울 기준 오늘(daily), 이번 주(weekly, 월요일부터) 또는 전체(all) 기간의 평균 타수(sort=wpm) 또는 게임 " +
          "수(sort=games) 순위입니다. 손님은 닉네임(anonymous_nickname)으로 나옵니다. 부정 의심 결과는 세지 않습니다.",
      },
    })
    .get("/medals", ({ query }) => medalsRanking(ctx, query.limit), {
      query: LimitQuery,
      response,
      detail: {
        summary: "메달 랭킹",
        description: "메달 점수(금 3, 은 2, 동 1), 금메달 수, 은메달 수 순입니다. 메달이 있는 회원만 나옵니다.",
      },
    })
    .get("/levels", ({ query }) => levelsRanking(ctx, query.limit), {
      query: LimitQuery,
      response,
      detail: { summary: "레벨 랭킹", description: "레벨, 경험치 순입니다." },
    });
}
