import { t } from "elysia";

const Entry = {
  user_id: t.Union([t.Integer(), t.Null()]),
  player_key: t.String(),
  nickname: t.String(),
  wpm: t.Integer({ description: "타/분" }),
  accuracy: t.Number({ description: "%" }),
  completion_time: t.Number({ description: "초 (서버 시각 기준)" }),
  created_at: t.String({ format: "date-time" }),
  replay_key: t.Union([t.String(), t.Null()], { description: "리플레이 키 (/replay/{key}), 없으면 null" }),
};

export const BoardEntrySchema = t.Object({ rank: t.Integer(), ...Entry });
export const BestEntrySchema = t.Object({ rank: t.Union([t.Integer(), t.Null()]), ...Entry });

export const DailyOverviewSchema = t.Object({
  day: t.String({ description: "서울 날짜 YYYY-MM-DD" }),
  board: t.Array(BoardEntrySchema, { description: "오늘 회원별 최고 기록 상위 10명" }),
  my_best: t.Union([BestEntrySchema, t.Null()], { description: "로그인한 회원 자신의 오늘 최고 기록" }),
  yesterday: t.Object({
    day: t.String(),
    winners: t.Array(
      t.Object({
        ...BoardEntrySchema.properties,
        medal: t.Union([t.Literal("gold"), t.Literal("silver"), t.Literal("bronze")]),
      }),
    ),
  }),
});

export const DailyQuery = t.Object({
  day: t.Optional(
    t.String({
      pattern: "^\\d{4}-\\d{2}-\\d{2}$",
      description: "서울 날짜 YYYY-MM-DD (기본: 오늘)",
      error: "날짜는 YYYY-MM-DD 형식이어야 합니다.",
    }),
  ),
});
