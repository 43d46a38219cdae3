import { t } from "elysia";
import { BOARD_MAX_PAGE_SIZE, BOARD_PAGE_SIZE, COMMENT_MAX, CONTENT_MAX, SORT_COLUMNS, TITLE_MAX } from "./rules";

// Schemas bound types and sizes (a 10 MB title never reaches the service); the product rules with their exact
// Korean messages are checked by the service after trimming. Unknown body fields are refused (422).
const strict = { additionalProperties: false } as const;
// Generous bounds: surrounding whitespace is trimmed before the real limit is checked.
const slack = (max: number) => max * 2 + 1000;

export const MAX_PAGE = 1_000_000;
const Id = t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });

export const PostParams = t.Object({ postId: Id });
export const CommentParams = t.Object({ commentId: Id });

export const ListQuery = t.Object({
  page: t.Optional(t.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1 })),
  size: t.Optional(t.Integer({ minimum: 1, maximum: BOARD_MAX_PAGE_SIZE, default: BOARD_PAGE_SIZE })),
  sort_by: t.Optional(t.UnionEnum(SORT_COLUMNS, { default: "created_at" })),
  order: t.Optional(t.UnionEnum(["asc", "desc"], { default: "desc" })),
  q: t.Optional(t.String({ maxLength: 100 })),
  author: t.Optional(t.String({ maxLength: 50 })),
});

export const PostBody = t.Object(
  { title: t.String({ maxLength: slack(TITLE_MAX) }), content: t.String({ maxLength: slack(CONTENT_MAX) }) },
  strict,
);

export const CommentBody = t.Object(
  {
    content: t.String({ maxLength: slack(COMMENT_MAX) }),
    parent_id: t.Optional(t.Nullable(Id)),
  },
  strict,
);

export const CommentEditBody = t.Object({ content: t.String({ maxLength: slack(COMMENT_MAX) }) }, strict);

const Author = t.Object({ id: t.Integer(), username: t.String() });

export const PostSchema = t.Object({
  id: t.Integer(),
  title: t.String(),
  content: t.String(),
  user_id: t.Integer(),
  user: Author,
  view_count: t.Integer(),
  comment_count: t.Integer(),
  created_at: t.String({ format: "date-time" }),
  updated_at: t.String({ format: "date-time" }),
});

export const PostListSchema = t.Object({
  items: t.Array(PostSchema),
  total: t.Integer(),
  total_pages: t.Integer(),
  page: t.Integer(),
  size: t.Integer(),
});

const commentFields = {
  id: t.Integer(),
  content: t.String(),
  user_id: t.Integer(),
  user: Author,
  post_id: t.Integer(),
  parent_id: t.Nullable(t.Integer()),
  created_at: t.String({ format: "date-time" }),
  updated_at: t.String({ format: "date-time" }),
  is_deleted: t.Boolean(),
};

/** A reply: `replies` is always empty (one level only), kept so every comment has the same shape. */
export const ReplySchema = t.Object({ ...commentFields, replies: t.Array(t.Never()) });
export const CommentSchema = t.Object({ ...commentFields, replies: t.Array(ReplySchema) });

export const CommentListSchema = t.Array(CommentSchema);

export const ViewSchema = t.Object({ id: t.Integer(), view_count: t.Integer(), counted: t.Boolean() });

export const DetailResponse = t.Object({ detail: t.String() });
