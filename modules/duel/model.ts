import { t } from "elysia";

/** Duel ranking entry of spec part 2 §3 (with `rating` and `draws` added). */
export const DuelRankingEntrySchema = t.Object({
  user_id: t.Integer(),
  username: t.String(),
  rating: t.Integer(),
  win_rate: t.Number({ description: "승률 (0–1)" }),
  wins: t.Integer(),
  losses: t.Integer(),
  draws: t.Integer(),
  total_games: t.Integer(),
  current_streak: t.Integer({ description: "양수는 연승, 음수는 연패" }),
  max_win_streak: t.Integer(),
  recent_games: t.Integer(),
  recent_wins: t.Integer(),
  recent_win_rate: t.Number(),
});
export const DuelRankingSchema = t.Array(DuelRankingEntrySchema);

const Limit = t.Optional(t.Integer({ minimum: 1, maximum: 100, description: "최대 인원 (기본 50)" }));
const Days = t.Optional(t.Integer({ minimum: 1, maximum: 365, description: "최근 며칠 (서울 날짜 기준, 기본 7)" }));
export const RankingQuery = t.Object({ limit: Limit, days: Days });
export const WinRateQuery = t.Object({
  limit: Limit,
  days: Days,
  min_games: t.Optional(t.Integer({ minimum: 0, maximum: 100_000, description: "최소 대결 수 (기본 10)" })),
});

/** A member's own duel figures (`GET /api/duel/stats/me`): the profile's basic-info tab shows them. */
export const DuelStatsSchema = t.Object(
  {
    user_id: t.Integer(),
    rating: t.Integer({ description: "레이팅 (Glicko-2, 첫 대결 전 1500)" }),
    wins: t.Integer(),
    losses: t.Integer(),
    draws: t.Integer(),
    total_games: t.Integer({ description: "레이팅에 반영된 대결 수" }),
    win_rate: t.Number({ description: "승률 (0–1)" }),
    current_streak: t.Integer({ description: "양수는 연승, 음수는 연패" }),
    max_win_streak: t.Integer(),
  },
  { description: "내 1:1 대결 기록" },
);
