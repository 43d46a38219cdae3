import { t } from "elysia";
import { UserSchema } from "../accounts";
import { USERNAME_MAX } from "../kernel/account-rules";

// Bodies are strict (unknown fields refused with 422). The product rules with their Korean messages are checked
// by the service, so the console, the API and the CLI answer the same text.
const strict = { additionalProperties: false } as const;

export const PAGE_SIZE_MAX = 100;
export const REASON_MAX = 500;
export const SEARCH_MAX = 100;
/** A CLI operator's name is at most 64 characters (kernel/cli-output.ts), plus its `cli:` prefix. */
export const ADMIN_NAME_MAX = 80;

export const USER_SORT_FIELDS = ["username", "level", "games_played", "last_login_at", "created_at"] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];

const PageNumber = t.Numeric({ minimum: 1, maximum: 1_000_000 });
const PageSize = t.Numeric({ minimum: 1, maximum: PAGE_SIZE_MAX });

export const UserIdParams = t.Object({ userId: t.Numeric({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) });

export const UserListQuery = t.Object({
  page: t.Optional(PageNumber),
  size: t.Optional(PageSize),
  /** The other reading of the spec names the page size `page_size`; `size` wins when both are sent. */
  page_size: t.Optional(PageSize),
  search: t.Optional(t.String({ maxLength: SEARCH_MAX })),
  search_username: t.Optional(t.String({ maxLength: SEARCH_MAX })),
  /** "" (or absent) means every status: a select box's "all" option often sends an empty value. */
  is_active: t.Optional(t.Union([t.Literal("true"), t.Literal("false"), t.Literal("")])),
  sort_by: t.Optional(t.Union(USER_SORT_FIELDS.map((f) => t.Literal(f)))),
  sort_order: t.Optional(t.Union([t.Literal("asc"), t.Literal("desc")])),
});

export const PageQuery = t.Object({ page: t.Optional(PageNumber), size: t.Optional(PageSize) });

export const LogListQuery = t.Object({
  page: t.Optional(PageNumber),
  page_size: t.Optional(PageSize),
  /** Extra filters (not in the spec), combined with AND: one action, the entries about one user, one actor. */
  action: t.Optional(t.String({ maxLength: 50, description: "이 작업만 (예: update_username)" })),
  target_user_id: t.Optional(
    t.Numeric({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: "이 사용자가 대상인 항목만" }),
  ),
  admin_id: t.Optional(
    t.Numeric({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: "이 관리자(웹 계정 ID)의 작업만" }),
  ),
  admin_username: t.Optional(
    t.String({
      maxLength: ADMIN_NAME_MAX,
      description: "작업 당시의 관리자 이름이 정확히 이것인 항목만 (CLI 작업자는 cli:이름, ID가 없습니다)",
    }),
  ),
});

/** The actors of the log, for the console's administrator filter. */
export const LogAdminsResponse = t.Object({
  admins: t.Array(
    t.Object({
      /** null for a CLI operator, who is known by name only. */
      admin_id: t.Nullable(t.Integer()),
      /** A web administrator's latest name in the log; a CLI operator's `cli:name`. */
      admin_username: t.String(),
      source: t.Union([t.Literal("web"), t.Literal("cli")]),
      count: t.Integer(),
      last_at: t.String({ format: "date-time" }),
    }),
  ),
});

export const RenameBody = t.Object(
  {
    new_username: t.String({ maxLength: USERNAME_MAX * 4 }),
    reason: t.Optional(t.Nullable(t.String({ maxLength: REASON_MAX }))),
  },
  strict,
);

/** Optional body of the account actions: a reason kept in the log. */
export const ActionBody = t.Optional(
  t.Object({ reason: t.Optional(t.Nullable(t.String({ maxLength: REASON_MAX }))) }, strict),
);

/** The administrator view of a user (spec part 2 §3): accounts' user object, one schema for both. */
export const AdminUserSchema = UserSchema;

export const UserListResponse = t.Object({
  users: t.Array(AdminUserSchema),
  total: t.Integer(),
  total_count: t.Integer(),
  total_pages: t.Integer(),
  current_page: t.Integer(),
  page_size: t.Integer(),
});

export const LoginHistoryResponse = t.Object({
  logs: t.Array(
    t.Object({
      id: t.Integer(),
      login_time: t.String({ format: "date-time" }),
      ip_address: t.Nullable(t.String()),
      user_agent: t.Nullable(t.String()),
    }),
  ),
  total_count: t.Integer(),
  current_page: t.Integer(),
  page_size: t.Integer(),
  total_pages: t.Integer(),
});

export const AdminLogSchema = t.Object({
  id: t.Integer(),
  admin_id: t.Nullable(t.Integer()),
  admin_username: t.String(),
  action: t.String(),
  target_user_id: t.Nullable(t.Integer()),
  target_username: t.Nullable(t.String()),
  /** A JSON object as text (e.g. {"old_username":"a","new_username":"b","reason":"…"}), or null. */
  details: t.Nullable(t.String()),
  source: t.Union([t.Literal("web"), t.Literal("cli")]),
  created_at: t.String({ format: "date-time" }),
});

export const LogListResponse = t.Object({
  logs: t.Array(AdminLogSchema),
  total_count: t.Integer(),
  current_page: t.Integer(),
  page_size: t.Integer(),
  total_pages: t.Integer(),
});

export const DashboardResponse = t.Object({
  total_users: t.Integer(),
  active_users_today: t.Integer(),
  total_games_played: t.Integer(),
  games_played_today: t.Integer(),
  total_admin_actions: t.Integer(),
  recent_registrations: t.Integer(),
  /** The last 30 Seoul calendar days, oldest first, today last. */
  daily: t.Array(t.Object({ date: t.String(), registrations: t.Integer(), games: t.Integer() })),
});
