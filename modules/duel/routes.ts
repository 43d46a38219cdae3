import { Elysia } from "elysia";
import type { ModuleContext } from "../kernel/define-module";
import { apiResponses } from "../kernel/http";
import { duelRanking } from "./api";
import { DuelRankingSchema, RankingQuery, WinRateQuery } from "./model";

const response = apiResponses({ 200: DuelRankingSchema }, { 422: true });

/**
 * The four duel rankings of spec part 2 §7 (`/api/rankings/duel/…`), members only, open to everyone (a token is
 * not needed). `limit` 1–100 (default 50); `days` the recent figures' Seoul days (default 7); `min_games` for the
 * win rate (default 10). Anything else out of range: 422.
 */
export function duelRoutes(ctx: ModuleContext) {
  return new Elysia({ name: "duel.routes", prefix: "/rankings/duel", detail: { tags: ["rankings"] } })
    .get(
      "/win-rate",
      ({ query }) => duelRanking(ctx, "win_rate", { limit: query.limit, days: query.days, minGames: query.min_games }),
      {
        query: WinRateQuery,
        response,
        detail: {
          summary: "1:1 대결 승률 랭킹",
          description: "대결을 min_games번(기본 10) 이상 한 회원을 승률, 대결 수 순으로 돌려줍니다.",
        },
      },
    )
    .get("/total-games", ({ query }) => duelRanking(ctx, "total_games", query), {
      query: RankingQuery,
      response,
      detail: { summary: "1:1 대결 총 대결 수 랭킹", description: "저장된 대결 수가 많은 회원 순입니다." },
    })
    .get("/win-streak", ({ query }) => duelRanking(ctx, "win_streak", query), {
      query: RankingQuery,
      response,
      detail: { summary: "1:1 대결 최다 연승 랭킹", description: "최다 연승, 현재 연승 순입니다." },
    })
    .get("/recent-activity", ({ query }) => duelRanking(ctx, "recent_activity", query), {
      query: RankingQuery,
      response,
      detail: {
        summary: "1:1 대결 최근 활동 랭킹",
        description: "최근 days일(서울 날짜, 기본 7일) 동안 대결 수가 많은 회원 순입니다.",
      },
    });
}
