import { Elysia } from "elysia";
import { accountsApi } from "../accounts";
import type { ModuleContext } from "../kernel/define-module";
import { memberPlayerKey } from "../kernel/game-host";
import { apiResponses } from "../kernel/http";
import { dailyOverview } from "./api";
import { DailyOverviewSchema, DailyQuery } from "./model";

/** `GET /api/daily?day=`: today's board (or a past day's) (open to everyone; a member's token adds their own best). */
export function dailyRoutes(ctx: ModuleContext) {
  const { guards } = accountsApi(ctx);
  return new Elysia({ name: "daily.routes", prefix: "/daily", detail: { tags: ["daily"] } }).get(
    "",
    async ({ headers, query }) => {
      const user = await guards.optionalUser(headers);
      return dailyOverview(ctx, user ? memberPlayerKey(user.id) : null, query.day);
    },
    {
      query: DailyQuery,
      response: apiResponses({ 200: DailyOverviewSchema }, { 422: true }),
      detail: {
        summary: "오늘의 문장 순위표",
        description:
          "오늘(서울 날짜, 또는 day로 고른 날)의 순위표입니다: 회원마다 검증된 최고 기록(속도, 정확도, 먼저 세운 기록 순) 상위 10명, " +
          "로그인한 회원 자신의 최고 기록과 순위, 그 전날의 1–3위(금·은·동 메달)를 돌려줍니다. 손님의 기록은 순위표에 나오지 않습니다.",
      },
    },
  );
}
