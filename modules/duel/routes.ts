import { Elysia } from "elysia";
import { accountsApi } from "../accounts";
import type { ModuleContext } from "../kernel/define-module";
import { apiResponses, loginRequired } from "../kernel/http";
import { duelRanking, ownDuelStats } from "./api";
import { DuelRankingSchema, DuelStatsSchema, RankingQuery, WinRateQuery } from "./model";

const response = apiResponses({ 200: DuelRankingSchema }, { 422: true });

/**
 * The four duel rankings of spec part 2 §7 (`/api/rankings/duel/…`), members only, open to everyone (a token is
 * not needed). `limit` 1–100 (default 50); `days` the recent figures' Seoul days (default 7); `min_games` for the
 * win rate (default 10). Anything else out of range: 422.
 */
export function duelRoutes(ctx: ModuleContext) {
  return new Elysia({ name: "duel.routes" }).use(rankingRoutes(ctx)).use(ownStatsRoutes(ctx));
}

/**
 * `GET /api/duel/stats/me`: the caller's own duel figures (rating, wins, losses, draws, streaks) — the profile's
 * basic-info tab. A duel is not a typing-speed result, so its figures are shown apart from the typing statistics.
 */
function ownStatsRoutes(ctx: ModuleContext) {
  const { guards } = accountsApi(ctx);
  return new Elysia({ name: "duel.stats.routes", prefix: "/duel", detail: { tags: ["duel"] } }).get(
    "/stats/me",
    async ({ headers }) => ownDuelStats(ctx, (await guards.requireUser(headers)).id),
    {
      response: apiResponses({ 200: DuelStatsSchema }, loginRequired()),
      detail: {
        summary: "내 1:1 대결 기록",
        description:
          "로그인한 회원의 1:1 대결 레이팅, 승·패·무, 현재 연승(음수는 연패)과 최다 연승을 돌려줍니다. " +
          "레이팅에 반영된 대결만 셉니다. 첫 대결 전에는 레이팅 1500과 0들입니다.",
        security: [{ bearerAuth: [] }],
      },
    },
  );
}

function rankingRoutes(ctx: ModuleContext) {
  return new Elysia({ name: "duel.rankings.routes", prefix: "/rankings/duel", detail: { tags: ["rankings"] } })
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
