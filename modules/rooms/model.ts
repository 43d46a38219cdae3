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
  is_private: t.Boolean({ description: "비공개 방 (초대 링크로만 들어올 수 있고 목록에 나오지 않음)" }),
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

// --- private rooms (README "Private rooms") ---------------------------------------------------------------------

const PrivateTextsSchema = t.Union([
  t.Object({ kind: t.Literal("theme"), theme: t.String(), label: t.String() }),
  t.Object({ kind: t.Literal("own"), count: t.Integer({ description: "방장이 넣은 문장 수" }) }),
]);

export const PrivateRoomViewSchema = t.Object({
  room_id: t.Integer(),
  code: t.String({ description: "초대 코드 (128비트, URL에 그대로 쓸 수 있음)" }),
  invite_path: t.String({ description: "초대 링크의 경로 /r/{code}" }),
  owner: t.Object({ id: t.Integer(), username: t.String() }),
  auto_start: t.Boolean({ description: "라운드가 저절로 시작되는지 (꺼져 있으면 방장이 시작)" }),
  texts: PrivateTextsSchema,
});

export const PrivateRoomInfoSchema = t.Object({ room: RoomSchema, private: PrivateRoomViewSchema });
export const PrivateRoomListSchema = t.Object({ rooms: t.Array(PrivateRoomInfoSchema) });
export const OwnTextsSchema = t.Object({ texts: t.Array(t.String()) });

/** Private room ids and codes: anything else is "not found" (404), never a 422 that would tell them apart. */
export const PrivateRoomParams = t.Object({ id: t.String() });
export const InviteCodeParams = t.Object({ code: t.String() });

const Texts = t.Array(t.String(), { description: "직접 넣는 문장 (한 줄에 한 문장, 5~300자, 200개까지)" });
const ThemeField = t.String({ description: "제품 문장의 주제 (beginner, proverbs, literature, news, english, free)" });

export const CreatePrivateBody = t.Object({
  name: t.String({ maxLength: 200 }),
  max_users: t.Integer({ description: "인원 2~20명" }),
  theme: t.Optional(t.Union([ThemeField, t.Null()])),
  texts: t.Optional(t.Union([Texts, t.Null()])),
  auto_start: t.Optional(t.Union([t.Boolean(), t.Null()])),
});

export const PrivateSettingsBody = t.Object({
  theme: t.Optional(t.Union([ThemeField, t.Null()])),
  texts: t.Optional(t.Union([Texts, t.Null()])),
  auto_start: t.Optional(t.Union([t.Boolean(), t.Null()])),
});

export const RemovePlayerBody = t.Object({
  session_id: t.String({ maxLength: 80, description: "내보낼 참가자의 session_id (u_<id> 또는 g_…)" }),
});
export const HandOverBody = t.Object({ user_id: t.Integer({ description: "새 방장 (지금 방에 있는 회원)" }) });
export const DetailSchema = t.Object({ detail: t.String() });
