import { t } from "elysia";
import { RANKING_LIMIT } from "./rules";

/** Spec part 2 §3 "User ranking entry" (both names of the games count), with the rank and the player key. */
export const UserRankingEntrySchema = t.Object({
  rank: t.Integer({ description: "순위 (1부터)" }),
  user_id: t.Nullable(t.Integer()),
  username: t.Nullable(t.String({ description: "회원의 현재 이름 (손님은 null)" })),
  anonymous_nickname: t.Nullable(t.String({ description: "손님의 닉네임 (회원은 null)" })),
  player_key: t.String({ description: "u_<회원 id> 또는 g_<손님 해시>" }),
  games_played: t.Integer(),
  total_games: t.Integer(),
  avg_wpm: t.Number({ description: "평균 타수 (타/분, 소수 둘째 자리)" }),
  avg_accuracy: t.Number({ description: "평균 정확도 (%, 소수 둘째 자리)" }),
  gold_medals: t.Integer(),
  silver_medals: t.Integer(),
  bronze_medals: t.Integer(),
  level: t.Integer(),
  experience: t.Integer(),
  replay_key: t.Nullable(
    t.String({ description: "이 항목의 가장 빠른 인정 기록의 리플레이 키 (GET /api/replays/{key}; 없으면 null)" }),
  ),
});
export const UserRankingSchema = t.Array(UserRankingEntrySchema);

const Limit = t.Optional(
  t.Integer({
    minimum: RANKING_LIMIT.min,
    maximum: RANKING_LIMIT.max,
    description: `최대 인원 (${RANKING_LIMIT.min}~${RANKING_LIMIT.max}, 기본 ${RANKING_LIMIT.default})`,
  }),
);

export const LimitQuery = t.Object({ limit: Limit });
export const UsersRankingQuery = t.Object({
  limit: Limit,
  period: t.Optional(
    t.Union([t.Literal("daily"), t.Literal("weekly"), t.Literal("all")], {
      description: "기간 (서울 기준 오늘, 이번 주(월요일부터), 전체; 기본 daily)",
    }),
  ),
  sort: t.Optional(
    t.Union([t.Literal("wpm"), t.Literal("games")], { description: "정렬 (평균 타수, 게임 수; 기본 wpm)" }),
  ),
});
