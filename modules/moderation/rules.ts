/**
 * Moderation's rules and texts (README "Rules"), pure: shared with the web app (the report dialog, the queue).
 */

/** Report reasons, exactly as product-rules "Moderation" names them (the wire values too). */
export const REPORT_REASONS = ["욕설/비방", "도배", "부정행위", "부적절한 닉네임", "기타"] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

/** What can be reported (`kind` of `POST /api/reports`). */
export const TARGET_KINDS = [
  "room_chat",
  "guild_chat",
  "duel_chat",
  "board_post",
  "board_comment",
  "guild_post",
  "guild_comment",
  "recruitment_post",
  "player",
] as const;
export type TargetKind = (typeof TARGET_KINDS)[number];

export const TARGET_LABELS: Record<TargetKind, string> = {
  room_chat: "방 채팅",
  guild_chat: "길드 채팅",
  duel_chat: "대결 관전 채팅",
  board_post: "자유게시판 글",
  board_comment: "자유게시판 댓글",
  guild_post: "길드 게시판 글",
  guild_comment: "길드 게시판 댓글",
  recruitment_post: "길드원 모집글",
  player: "플레이어",
};

export const CHAT_KINDS: readonly TargetKind[] = ["room_chat", "guild_chat", "duel_chat"];

/** A chat report keeps the reported line and this many lines before it. */
export const CHAT_CONTEXT_BEFORE = 20;
export const NOTE_MAX = 500;
export const ACTION_REASON_MAX = 500;
export const WARNING_MAX = 500;

/** What an administrator does with a report (and every other open report of its target). */
export const REPORT_ACTIONS = ["dismiss", "delete", "mute", "suspend", "exclude", "warn"] as const;
export type ReportAction = (typeof REPORT_ACTIONS)[number];

export const ACTION_LABELS: Record<ReportAction, string> = {
  dismiss: "기각",
  delete: "내용 삭제",
  mute: "채팅·글쓰기 제한",
  suspend: "이용 정지",
  exclude: "랭킹 제외",
  warn: "경고",
};

/** How long a mute or a suspension lasts; `permanent` (suspensions only) until an administrator lifts it. */
export const DURATIONS = { "1h": 3_600_000, "24h": 86_400_000, "7d": 7 * 86_400_000, "30d": 30 * 86_400_000 } as const;
export type Duration = keyof typeof DURATIONS | "permanent";
export const MUTE_DURATIONS = ["1h", "24h", "7d"] as const satisfies readonly Duration[];
export const SUSPEND_DURATIONS = ["1h", "24h", "7d", "30d", "permanent"] as const satisfies readonly Duration[];
export const DURATION_LABELS: Record<Duration, string> = {
  "1h": "1시간",
  "24h": "24시간",
  "7d": "7일",
  "30d": "30일",
  permanent: "해제할 때까지",
};

export const RESTRICTION_KINDS = ["mute", "suspend", "exclude"] as const;
export type RestrictionKind = (typeof RESTRICTION_KINDS)[number];
export const RESTRICTION_LABELS: Record<RestrictionKind, string> = {
  mute: "채팅·글쓰기 제한",
  suspend: "이용 정지",
  exclude: "랭킹 제외",
};

/** `YYYY-MM-DD HH:mm` in Seoul time (UTC+9, no DST), the product's display format. */
export const seoulMinute = (at: number) => new Date(at + 9 * 3_600_000).toISOString().slice(0, 16).replace("T", " ");

/** An administrator's change to the profanity list: a word added, or a word of the list removed. */
export const WORD_ACTIONS = ["add", "remove"] as const;
export type WordAction = (typeof WORD_ACTIONS)[number];
/** A listed word: Hangul (syllables or jamo), Latin letters or digits, 1 to `WORD_MAX` characters, no spaces. */
export const WORD_MAX = 20;
const LIST_WORD = /^[가-힣ㄱ-ㅣA-Za-z0-9]+$/;

/** The administrators' check of a word to add (null: fine), shared by the console's form, the API and the CLI. */
export function checkListWord(word: string): string | null {
  const value = word.normalize("NFC").trim();
  return value && [...value].length <= WORD_MAX && LIST_WORD.test(value) ? null : MODERATION_MSG.badWord;
}

/** A member blocks at most this many members. */
export const BLOCKS_MAX = 500;

export const MODERATION_MSG = {
  reported: "신고가 접수되었습니다. 관리자가 확인합니다.",
  selfReport: "자기 자신은 신고할 수 없습니다.",
  duplicate: "이미 신고한 대상입니다. 관리자가 확인할 때까지 기다려주세요.",
  badTarget: "신고 대상이 올바르지 않습니다.",
  chatNotFound: "신고할 채팅을 찾을 수 없습니다. 최근 채팅만 신고할 수 있습니다.",
  guestLine: "손님의 채팅은 신고할 수 없습니다.",
  contentNotFound: "신고할 글을 찾을 수 없습니다.",
  userNotFound: "신고할 사용자를 찾을 수 없습니다.",
  replayNotFound: "리플레이를 찾을 수 없습니다.",
  replayNotTheirs: "이 리플레이는 신고한 사용자의 기록이 아닙니다.",
  noteTooLong: `메모는 ${NOTE_MAX}자 이하로 입력해주세요.`,
  reportNotFound: "신고를 찾을 수 없습니다.",
  alreadyResolved: "이미 처리된 신고입니다.",
  nothingToDelete: "지울 수 있는 내용이 없습니다. 실시간 채팅과 플레이어 신고는 다른 조치를 골라주세요.",
  contentGone: "이미 삭제된 내용입니다. 기각이나 다른 조치를 골라주세요.",
  noOffender: "조치할 계정이 없습니다(탈퇴했거나 손님입니다). 기각하거나 내용을 삭제해주세요.",
  durationRequired: "기간을 골라주세요.",
  badDuration: (allowed: readonly Duration[]) =>
    `기간은 ${allowed.map((d) => DURATION_LABELS[d]).join(", ")} 중 하나여야 합니다.`,
  reasonTooLong: `사유는 ${ACTION_REASON_MAX}자 이하로 입력해주세요.`,
  warningTooLong: `경고 문구는 ${WARNING_MAX}자 이하로 입력해주세요.`,
  selfAction: "자기 자신에게는 조치할 수 없습니다.",
  restrictionNotFound: "제재를 찾을 수 없습니다.",
  alreadyLifted: "이미 해제되었거나 끝난 제재입니다.",
  noticeNotFound: "알림을 찾을 수 없습니다.",
  selfBlock: "자기 자신은 차단할 수 없습니다.",
  blockUserNotFound: "차단할 사용자를 찾을 수 없습니다.",
  tooManyBlocks: `차단은 ${BLOCKS_MAX}명까지 할 수 있습니다. 다른 차단을 풀고 다시 시도해주세요.`,
  notBlocked: "차단하지 않은 사용자입니다.",
  blocked: "차단했습니다. 이 사용자의 채팅과 글이 보이지 않습니다.",
  unblocked: "차단을 풀었습니다.",
  /** A post, comment or guild description holding a listed word. */
  profanePost: "부적절한 표현이 포함되어 있습니다.",
  profaneUsername: "사용할 수 없는 단어가 포함된 아이디입니다.",
  profaneGuildName: "사용할 수 없는 단어가 포함된 길드 이름입니다.",
  badWord: `단어는 띄어쓰기 없이 한글·영문·숫자 1~${WORD_MAX}자로 입력해주세요.`,
  wordListed: "이미 목록에 있는 단어입니다.",
  wordNotListed: "목록에 없는 단어입니다.",
  wordAdded: "단어를 추가했습니다.",
  wordRemoved: "단어를 뺐습니다.",
  /** A muted member's chat line (rooms, guilds, duel watchers). */
  mutedChat: (until: number, reason: string) => `${seoulMinute(until)}까지 채팅이 제한되었습니다. (사유: ${reason})`,
  /** A muted member's post or comment. */
  mutedPost: (until: number, reason: string) =>
    `${seoulMinute(until)}까지 글과 댓글을 쓸 수 없습니다. (사유: ${reason})`,
  /** A suspended member's login. */
  suspended: (until: number | null, reason: string) =>
    until === null
      ? `이용이 정지된 계정입니다. 사유: ${reason}. 관리자가 해제할 때까지 로그인할 수 없습니다.`
      : `이용이 정지된 계정입니다. 사유: ${reason}. ${seoulMinute(until)}까지 로그인할 수 없습니다.`,
} as const;
