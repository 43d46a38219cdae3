import { t } from "elysia";
import {
  ACTIVITY_KINDS,
  APPLICATION_MESSAGE_MAX,
  APPLICATION_STATUSES,
  BOARD_CONTENT_MAX,
  BOARD_MAX_PAGE_SIZE,
  BOARD_PAGE_SIZE,
  BOARD_TITLE_MAX,
  COMMENT_MAX,
  DESCRIPTION_MAX,
  EMAIL_MAX,
  GUILD_ROLES,
  INVITATION_STATUSES,
  INVITES_PER_REQUEST,
  LIST_MAX_PAGE_SIZE,
  LIST_PAGE_SIZE,
  MAX_PAGE,
  NAME_MAX,
  PROBLEM_MAX_LENGTH,
  PROBLEMS_MAX,
  RECRUITMENT_CONTENT_MAX,
  RECRUITMENT_TITLE_MAX,
} from "./rules";

/**
 * HTTP schemas. They bound types and sizes (a 10 MB title never reaches the service); the product rules with their
 * exact Korean messages (blank fields, lengths after trimming, settings ranges, the problem list's format) are
 * checked by the service. Unknown body fields are refused (422).
 */
const strict = { additionalProperties: false } as const;
// Generous bounds: surrounding whitespace is trimmed before the real limit is checked.
const slack = (max: number) => max * 2 + 1000;

const Id = t.Integer({ minimum: 1, maximum: 2_147_483_647 });
export const GuildParams = t.Object({ id: Id });
export const MemberParams = t.Object({ id: Id, memberId: Id });
export const ApplicationParams = t.Object({ id: Id, applicationId: Id });
export const BoardPostParams = t.Object({ id: Id, postId: Id });
export const CommentParams = t.Object({ id: Id, postId: Id, commentId: Id });
export const RecruitmentParams = t.Object({ postId: Id });
export const InvitationParams = t.Object({ invitationId: Id });

const pageQuery = (size: number, maxSize: number) => ({
  page: t.Optional(t.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1 })),
  size: t.Optional(t.Integer({ minimum: 1, maximum: maxSize, default: size })),
});
export const GuildListQuery = t.Object({
  ...pageQuery(LIST_PAGE_SIZE, LIST_MAX_PAGE_SIZE),
  q: t.Optional(t.String({ maxLength: 100 })),
});
export const RecruitmentListQuery = t.Object(pageQuery(LIST_PAGE_SIZE, LIST_MAX_PAGE_SIZE));
export const BoardListQuery = t.Object(pageQuery(BOARD_PAGE_SIZE, BOARD_MAX_PAGE_SIZE));
// Literals, not t.UnionEnum: Elysia fills an absent UnionEnum query field with its first value.
export const ApplicationListQuery = t.Object({
  status: t.Optional(t.Union(APPLICATION_STATUSES.map((s) => t.Literal(s)))),
});

export const CreateGuildBody = t.Object(
  {
    name: t.String({ maxLength: slack(NAME_MAX) }),
    description: t.Optional(t.Nullable(t.String({ maxLength: slack(DESCRIPTION_MAX) }))),
  },
  strict,
);

/** Any integer: the spec §5 ranges are checked by the service with their Korean messages. */
const Setting = t.Optional(t.Integer({ minimum: -2_147_483_648, maximum: 2_147_483_647 }));
export const SettingsBody = t.Object(
  { max_members: Setting, countdown_seconds: Setting, end_countdown_seconds: Setting },
  strict,
);

/** `problems` is checked by the service, so a wrong shape gets the spec's Korean text. */
export const ProblemsBody = t.Object({ problems: t.Unknown() }, strict);
export const ProblemsFileBody = t.Object({ file: t.File({ maxSize: "256k" }) });
export const ProblemsSchema = t.Object({
  problems: t.Array(t.String({ maxLength: PROBLEM_MAX_LENGTH }), { maxItems: PROBLEMS_MAX }),
});

export const RoleBody = t.Object({ role: t.UnionEnum(GUILD_ROLES) }, strict);

export const InvitesBody = t.Object(
  {
    invites: t.Array(
      t.Object(
        {
          username: t.Optional(t.Nullable(t.String({ maxLength: 200 }))),
          email: t.String({ maxLength: slack(EMAIL_MAX) }),
        },
        strict,
      ),
      { maxItems: INVITES_PER_REQUEST * 5 },
    ),
  },
  strict,
);

export const RecruitmentBody = t.Object(
  {
    guild_id: Id,
    title: t.String({ maxLength: slack(RECRUITMENT_TITLE_MAX) }),
    content: t.String({ maxLength: slack(RECRUITMENT_CONTENT_MAX) }),
  },
  strict,
);
export const ApplyBody = t.Object(
  { message: t.Optional(t.Nullable(t.String({ maxLength: slack(APPLICATION_MESSAGE_MAX) }))) },
  strict,
);

export const BoardPostBody = t.Object(
  {
    title: t.String({ maxLength: slack(BOARD_TITLE_MAX) }),
    content: t.String({ maxLength: slack(BOARD_CONTENT_MAX) }),
  },
  strict,
);
export const CommentBody = t.Object({ content: t.String({ maxLength: slack(COMMENT_MAX) }) }, strict);

// ---- answers

const DateTime = t.String({ format: "date-time" });
const Role = t.UnionEnum(GUILD_ROLES);

export const GuildSchema = t.Object({
  id: t.Integer(),
  name: t.String(),
  description: t.String(),
  created_at: DateTime,
  max_members: t.Integer(),
  owner_id: t.Integer(),
  countdown_seconds: t.Integer(),
  end_countdown_seconds: t.Integer(),
  member_count: t.Integer(),
});
const pageOf = <T extends ReturnType<typeof t.Object>>(item: T) =>
  t.Object({
    items: t.Array(item),
    total: t.Integer(),
    total_pages: t.Integer(),
    page: t.Integer(),
    size: t.Integer(),
  });
export const GuildListSchema = pageOf(GuildSchema);

export const MemberSchema = t.Object({
  id: t.Integer(),
  user_id: t.Integer(),
  username: t.String(),
  role: Role,
  join_date: DateTime,
});
export const MemberListSchema = t.Array(MemberSchema);

export const MyRoleSchema = t.Object({
  guild_id: t.Integer(),
  user_id: t.Integer(),
  member_id: t.Nullable(t.Integer()),
  role: t.Nullable(Role),
  is_member: t.Boolean(),
  is_admin: t.Boolean(),
});

export const ActivitySchema = t.Object({
  id: t.Integer(),
  type: t.UnionEnum(ACTIVITY_KINDS),
  user_id: t.Nullable(t.Integer()),
  username: t.Nullable(t.String()),
  actor_id: t.Nullable(t.Integer()),
  actor_name: t.Nullable(t.String()),
  detail: t.String(),
  message: t.String(),
  created_at: DateTime,
});

export const MyInvitationSchema = t.Object({
  id: t.Integer(),
  guild_id: t.Integer(),
  guild_name: t.String(),
  invited_by: t.String(),
  invited_by_id: t.Integer(),
  created_at: DateTime,
});

export const MyGuildSchema = t.Object({
  guild: t.Nullable(GuildSchema),
  role: t.Nullable(Role),
  member_id: t.Nullable(t.Integer()),
  members: MemberListSchema,
  recent_activity: t.Array(ActivitySchema),
  invitations: t.Array(MyInvitationSchema),
});

export const SentInvitationSchema = t.Object({
  id: t.Integer(),
  guild_id: t.Integer(),
  username: t.String(),
  email: t.String(),
  status: t.UnionEnum(INVITATION_STATUSES),
  invited_by_id: t.Integer(),
  created_at: DateTime,
});
export const SentInvitationsSchema = t.Object({ invitations: t.Array(SentInvitationSchema) });

export const RecruitmentSchema = t.Object({
  id: t.Integer(),
  title: t.String(),
  content: t.String(),
  author_id: t.Integer(),
  author_name: t.String(),
  guild_id: t.Integer(),
  guild_name: t.String(),
  created_at: DateTime,
  view_count: t.Integer(),
  reply_count: t.Integer(),
});
export const RecruitmentListSchema = pageOf(RecruitmentSchema);
export const ViewSchema = t.Object({ id: t.Integer(), view_count: t.Integer(), counted: t.Boolean() });

export const ApplicationSchema = t.Object({
  id: t.Integer(),
  guild_id: t.Integer(),
  post_id: t.Nullable(t.Integer()),
  user_id: t.Integer(),
  username: t.String(),
  message: t.String(),
  status: t.UnionEnum(APPLICATION_STATUSES),
  created_at: DateTime,
  decided_at: t.Nullable(DateTime),
});

export const BoardPostSchema = t.Object({
  id: t.Integer(),
  guild_id: t.Integer(),
  title: t.String(),
  content: t.String(),
  author_id: t.Integer(),
  author_name: t.String(),
  created_at: DateTime,
  updated_at: DateTime,
  comment_count: t.Integer(),
});
export const CommentSchema = t.Object({
  id: t.Integer(),
  post_id: t.Integer(),
  content: t.String(),
  author_id: t.Integer(),
  author_name: t.String(),
  created_at: DateTime,
});

export const KickSchema = t.Object({ detail: t.String(), member_id: t.Integer(), user_id: t.Integer() });
export const DetailResponse = t.Object({ detail: t.String() });
