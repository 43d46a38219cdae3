/** Board limits and messages (spec part 2 §5, §8, §9), shared by the server and the web pages. */
export const BOARD_PAGE_SIZE = 10;
export const BOARD_MAX_PAGE_SIZE = 50;
export const TITLE_MAX = 255;
export const CONTENT_MAX = 20_000;
export const COMMENT_MAX = 2_000;
/** A viewer's visits to one post are counted at most once per this window. */
export const VIEW_WINDOW_MS = 10 * 60 * 1000;
export const SORT_COLUMNS = ["created_at", "view_count", "comment_count", "title", "id"] as const;
export type SortColumn = (typeof SORT_COLUMNS)[number];

export const BOARD_MSG = {
  titleRequired: "제목을 입력해주세요.",
  titleTooLong: `제목은 ${TITLE_MAX}자 이내로 작성해주세요.`,
  contentRequired: "내용을 입력해주세요.",
  contentTooLong: `내용은 ${CONTENT_MAX.toLocaleString("en-US")}자 이내로 작성해주세요.`,
  commentRequired: "댓글 내용을 입력해주세요.",
  commentTooLong: `댓글은 ${COMMENT_MAX.toLocaleString("en-US")}자 이내로 작성해주세요.`,
  postNotFound: "게시글을 찾을 수 없습니다.",
  commentNotFound: "댓글을 찾을 수 없습니다.",
  parentNotFound: "답글을 달 댓글을 찾을 수 없습니다.",
  parentDeleted: "삭제된 댓글에는 답글을 달 수 없습니다.",
  replyToReply: "답글에는 답글을 달 수 없습니다. 원 댓글에 답글을 달아주세요.",
  postEditForbidden: "본인이 작성한 게시글만 수정할 수 있습니다.",
  postDeleteForbidden: "본인이 작성한 게시글만 삭제할 수 있습니다.",
  commentEditForbidden: "본인이 작성한 댓글만 수정할 수 있습니다.",
  commentDeleteForbidden: "본인이 작성한 댓글만 삭제할 수 있습니다.",
  deletedComment: "삭제된 댓글입니다.",
  postDeleted: "게시글이 삭제되었습니다.",
  commentDeleted: "댓글이 삭제되었습니다.",
} as const;

/** Length in characters as a person counts them (code points, so an emoji is one). */
export const charLength = (text: string) => {
  let n = 0;
  for (const _ of text) n++;
  return n;
};

export type CheckResult = { ok: true; value: string } | { ok: false; error: string };

export function checkTitle(raw: string): CheckResult {
  const value = raw.trim();
  if (!value) return { ok: false, error: BOARD_MSG.titleRequired };
  if (charLength(value) > TITLE_MAX) return { ok: false, error: BOARD_MSG.titleTooLong };
  return { ok: true, value };
}

export function checkContent(raw: string): CheckResult {
  const value = raw.trim();
  if (!value) return { ok: false, error: BOARD_MSG.contentRequired };
  if (charLength(value) > CONTENT_MAX) return { ok: false, error: BOARD_MSG.contentTooLong };
  return { ok: true, value };
}

export function checkComment(raw: string): CheckResult {
  const value = raw.trim();
  if (!value) return { ok: false, error: BOARD_MSG.commentRequired };
  if (charLength(value) > COMMENT_MAX) return { ok: false, error: BOARD_MSG.commentTooLong };
  return { ok: true, value };
}
