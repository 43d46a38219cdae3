import { type Check, charLength, checkText, tooLongMessage } from "../kernel/text-rules";

/**
 * Board limits and messages (spec part 2 §5, §8, §9), shared by the server and the web pages. The text rules
 * themselves (length counting, required + at most N) are kernel/text-rules.ts, shared with the guild board; the kernel
 * rather than this module so guilds need no dependency on board.
 */
export { charLength };
export const BOARD_PAGE_SIZE = 10;
export const BOARD_MAX_PAGE_SIZE = 50;
export const TITLE_MAX = 255;
export const CONTENT_MAX = 20_000;
export const COMMENT_MAX = 2_000;
export const SORT_COLUMNS = ["created_at", "view_count", "comment_count", "title", "id"] as const;
export type SortColumn = (typeof SORT_COLUMNS)[number];

export const BOARD_MSG = {
  titleRequired: "제목을 입력해주세요.",
  titleTooLong: tooLongMessage("제목은", TITLE_MAX),
  contentRequired: "내용을 입력해주세요.",
  contentTooLong: tooLongMessage("내용은", CONTENT_MAX),
  commentRequired: "댓글 내용을 입력해주세요.",
  commentTooLong: tooLongMessage("댓글은", COMMENT_MAX),
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

export type CheckResult = Check<string>;

export const checkTitle = (raw: string): CheckResult =>
  checkText(raw, TITLE_MAX, { required: BOARD_MSG.titleRequired, tooLong: BOARD_MSG.titleTooLong });

export const checkContent = (raw: string): CheckResult =>
  checkText(raw, CONTENT_MAX, { required: BOARD_MSG.contentRequired, tooLong: BOARD_MSG.contentTooLong });

export const checkComment = (raw: string): CheckResult =>
  checkText(raw, COMMENT_MAX, { required: BOARD_MSG.commentRequired, tooLong: BOARD_MSG.commentTooLong });
