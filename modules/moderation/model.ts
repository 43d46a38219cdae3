import { t } from "elysia";
import {
  ACTION_REASON_MAX,
  NOTE_MAX,
  REPORT_ACTIONS,
  REPORT_REASONS,
  RESTRICTION_KINDS,
  SUSPEND_DURATIONS,
  TARGET_KINDS,
  WARNING_MAX,
  WORD_MAX,
} from "./rules";

// Bodies are strict (unknown fields refused with 422); the rules with their Korean texts are the service's, so the
// console, the API and the CLI answer the same words. String limits here are generous outer bounds.
const strict = { additionalProperties: false } as const;
const Id = t.Numeric({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
// Not t.UnionEnum: it gives every field the first value as its default (an absent duration became "1h"). The union
// of literals mapped from a list types as never here: `Unsafe` states its type (the schema is the union itself).
const literals = <const T extends string>(values: readonly T[]) =>
  t.Unsafe<T>(t.Union(values.map((v) => t.Literal(v))));

export const PAGE_SIZE_MAX = 50;

export const ReportBody = t.Object(
  {
    kind: literals(TARGET_KINDS),
    reason: literals(REPORT_REASONS),
    note: t.Optional(t.Nullable(t.String({ maxLength: NOTE_MAX * 4 }))),
    room_id: t.Optional(t.Integer({ minimum: 1 })),
    guild_id: t.Optional(t.Integer({ minimum: 1 })),
    session_id: t.Optional(t.String({ minLength: 1, maxLength: 100 })),
    line_id: t.Optional(t.String({ minLength: 1, maxLength: 64 })),
    post_id: t.Optional(t.Integer({ minimum: 1 })),
    comment_id: t.Optional(t.Integer({ minimum: 1 })),
    user_id: t.Optional(t.Integer({ minimum: 1 })),
    replay_key: t.Optional(t.String({ minLength: 1, maxLength: 64 })),
  },
  strict,
);

export const ReportAnswer = t.Object({ id: t.Integer(), detail: t.String() });

export const ActionBody = t.Object(
  {
    action: literals(REPORT_ACTIONS),
    duration: t.Optional(literals(SUSPEND_DURATIONS)),
    reason: t.Optional(t.Nullable(t.String({ maxLength: ACTION_REASON_MAX * 4 }))),
    message: t.Optional(t.Nullable(t.String({ maxLength: WARNING_MAX * 4 }))),
  },
  strict,
);

export const ReportParams = t.Object({ id: Id });
export const RestrictionParams = t.Object({ id: Id });
export const NoticeParams = t.Object({ id: Id });
export const UserParams = t.Object({ userId: Id });

export const QueueQuery = t.Object({
  status: t.Optional(t.Union([t.Literal("open"), t.Literal("resolved")])),
  page: t.Optional(t.Numeric({ minimum: 1, maximum: 1_000_000 })),
  size: t.Optional(t.Numeric({ minimum: 1, maximum: PAGE_SIZE_MAX })),
});

const Time = t.String({ description: "ISO 8601 (UTC)" });
const Who = t.Object({ id: t.Nullable(t.Integer()), username: t.String() });

export const RestrictionSchema = t.Object({
  id: t.Integer(),
  user_id: t.Integer(),
  kind: literals(RESTRICTION_KINDS),
  reason: t.String(),
  starts_at: Time,
  ends_at: t.Nullable(Time),
  lifted_at: t.Nullable(Time),
  lifted_by: t.Nullable(t.String()),
  report_id: t.Nullable(t.Integer()),
  created_by: t.String(),
});

export const GroupSchema = t.Object({
  target_key: t.String(),
  target_kind: literals(TARGET_KINDS),
  offender: t.Nullable(Who),
  status: t.Union([t.Literal("open"), t.Literal("resolved")]),
  count: t.Integer(),
  reasons: t.Record(t.String(), t.Number({ description: "사유별 신고 수" })),
  first_at: Time,
  last_at: Time,
  resolution: t.Nullable(literals(REPORT_ACTIONS)),
  resolved_by: t.Nullable(t.String()),
  resolved_at: t.Nullable(Time),
  restrictions: t.Array(RestrictionSchema),
  reports: t.Array(
    t.Object({
      id: t.Integer(),
      reporter: Who,
      reason: literals(REPORT_REASONS),
      note: t.Nullable(t.String()),
      evidence: t.Record(t.String(), t.Unknown(), {
        description: "신고 당시의 대상: 채팅(그 줄과 앞 20줄), 글·댓글, 플레이어와 리플레이",
      }),
      created_at: Time,
    }),
  ),
});

export const QueueSchema = t.Object({
  groups: t.Array(GroupSchema),
  total: t.Integer(),
  page: t.Integer(),
  size: t.Integer(),
  total_pages: t.Integer(),
});

export const SummarySchema = t.Object({ reports: t.Integer(), targets: t.Integer() });

export const MineSchema = t.Object({
  notices: t.Array(t.Object({ id: t.Integer(), message: t.String(), created_at: Time })),
  mute: t.Nullable(t.Object({ until: Time, reason: t.String(), detail: t.String() })),
  blocked: t.Array(t.Integer(), { description: "차단한 사용자 ID" }),
});

export const BlockListSchema = t.Object({
  blocks: t.Array(t.Object({ user_id: t.Integer(), username: t.String(), created_at: Time })),
});
/** `GET /api/blocks` (the web's blocks page reads it). */
export type BlockList = typeof BlockListSchema.static;

export const RestrictionListSchema = t.Object({ restrictions: t.Array(RestrictionSchema) });
export const DetailSchema = t.Object({ detail: t.String() });

// ---- the profanity list (administrators)

export const WordBody = t.Object({ word: t.String({ maxLength: WORD_MAX * 4 }) }, strict);
export const WordParams = t.Object({ word: t.String({ minLength: 1, maxLength: WORD_MAX * 12 }) });
const WordEntrySchema = t.Object({
  word: t.String(),
  source: t.UnionEnum(["file", "admin"]),
  by: t.Nullable(t.String()),
  at: t.Nullable(t.String({ format: "date-time" })),
});
export const WordListSchema = t.Object({
  words: t.Array(WordEntrySchema),
  removed: t.Array(WordEntrySchema),
  total: t.Integer(),
});
export const WordAnswer = t.Object({ detail: t.String(), word: t.String() });
