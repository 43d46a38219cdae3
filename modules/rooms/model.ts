import { t } from "elysia";

const GameStatus = t.Union([
  t.Literal("waiting"),
  t.Literal("countdown"),
  t.Literal("in_progress"),
  t.Literal("finished"),
]);

export const RoomUserSchema = t.Object({
  id: t.Integer(),
  username: t.String(),
  level: t.Integer(),
  gold_medals: t.Integer(),
  silver_medals: t.Integer(),
  bronze_medals: t.Integer(),
  session_id: t.String(),
  joined_at: t.String({ format: "date-time" }),
  is_anonymous: t.Boolean(),
});

export const AnonymousUserSchema = t.Object({
  session_id: t.String(),
  nickname: t.String(),
  created_at: t.String({ format: "date-time" }),
  is_anonymous: t.Boolean(),
});

/** The Room entity of spec part 1 §3, with live occupancy and game status. */
export const RoomSchema = t.Object({
  id: t.Integer(),
  name: t.String(),
  description: t.String(),
  max_users: t.Integer(),
  theme: t.String(),
  language: t.String(),
  created_at: t.String({ format: "date-time" }),
  user_count: t.Integer(),
  anonymous_count: t.Integer(),
  total_participants: t.Integer(),
  spectators: t.Integer({ description: "관전 중인 사람 수 (max_users와 참가자 목록에 포함되지 않음)" }),
  is_full: t.Boolean(),
  game_status: GameStatus,
  countdown_seconds: t.Integer(),
  next_game_at: t.Nullable(t.String({ format: "date-time" })),
  users: t.Array(RoomUserSchema),
  anonymous_users: t.Array(AnonymousUserSchema),
});

/** Any text: an id that is not a room's (too long, not a number) is "방을 찾을 수 없습니다." (404), not a 422. */
export const RoomParams = t.Object({ id: t.String() });
