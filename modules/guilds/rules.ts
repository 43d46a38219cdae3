import {
  type Check,
  charLength,
  checkText,
  checkTextList,
  type TextListRules,
  textListMessages,
  tooLongMessage,
} from "../kernel/text-rules";

/**
 * Guild limits, defaults and messages (spec part 1 §5, §6, §8, §9 and product-rules "Guilds"), shared by the server
 * and the web pages so the client's checks and the server's answers use the same numbers and texts. Length counting
 * and "required, at most N" are kernel/text-rules.ts, shared with the free board (the kernel, so guilds need no
 * dependency on board).
 */
export { type Check, charLength };
export const GUILD_ROLES = ["admin", "moderator", "member"] as const;
export type GuildRole = (typeof GUILD_ROLES)[number];
export const INVITATION_STATUSES = ["pending", "accepted", "declined", "cancelled"] as const;
export const APPLICATION_STATUSES = ["pending", "approved", "rejected", "cancelled"] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];
export const ACTIVITY_KINDS = ["created", "joined", "left", "kicked", "role_changed", "game", "post"] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

export const NAME_MIN = 2;
export const NAME_MAX = 20;
export const DESCRIPTION_MAX = 200;

/** Settings: spec §5 ranges, §9 defaults. */
export const SETTINGS_RANGES = {
  max_members: { min: 5, max: 100, default: 30 },
  countdown_seconds: { min: 1, max: 10, default: 5 },
  end_countdown_seconds: { min: 30, max: 300, default: 60 },
} as const;
export type SettingName = keyof typeof SETTINGS_RANGES;
export type GuildSettings = Record<SettingName, number>;

export const PROBLEMS_MAX = 200;
/**
 * A guild problem has at least this many characters (product-rules "Trust rules"): a one-letter problem made a
 * game last a second and farmed medals and levels.
 */
export const PROBLEM_MIN_LENGTH = 10;
export const PROBLEM_MAX_LENGTH = 500;
/**
 * Guild game rewards (product-rules "Trust rules"): a game pays the room formula's full rewards from this many
 * keystrokes of its problem (the 타수 rule of kernel/typing.ts), proportionally less below; a member is rewarded
 * for at most `REWARDED_GUILD_GAMES_PER_DAY` guild games per Seoul day (later ones are stored, unrewarded).
 */
/** A problem list's bounds: the kernel's rule of text lists (shared with private rooms' own sentences). */
export const PROBLEM_RULES: TextListRules = {
  minLength: PROBLEM_MIN_LENGTH,
  maxLength: PROBLEM_MAX_LENGTH,
  maxCount: PROBLEMS_MAX,
};
const problemMessages = textListMessages("문제는", PROBLEM_RULES);
export const FULL_REWARD_KEYSTROKES = 60;
export const REWARDED_GUILD_GAMES_PER_DAY = 30;
export const INVITES_PER_REQUEST = 20;
export const EMAIL_MAX = 254;
export const INVITE_USERNAME_MAX = 50;
export const RECRUITMENT_TITLE_MAX = 100;
export const RECRUITMENT_CONTENT_MAX = 2_000;
export const APPLICATION_MESSAGE_MAX = 500;
export const BOARD_TITLE_MAX = 200;
export const BOARD_CONTENT_MAX = 10_000;
export const COMMENT_MAX = 1_000;
export const CHAT_MAX = 200;
/** Guild chat keeps (and shows on join) this many messages per guild. */
export const CHAT_KEPT = 100;
/** The recent-activity list of /guilds/my. */
export const ACTIVITY_SHOWN = 20;
export const LIST_PAGE_SIZE = 20;
export const LIST_MAX_PAGE_SIZE = 50;
export const BOARD_PAGE_SIZE = 50;
export const BOARD_MAX_PAGE_SIZE = 100;
export const MAX_PAGE = 1_000_000;

export const GUILD_MSG = {
  // spec §8 (the guild room's failures) and §5
  noSocket: "소켓 연결이 없습니다.",
  settingsFailed: "설정을 저장하는데 실패했습니다.",
  roleFailed: "역할 변경에 실패했습니다.",
  kickFailed: "회원 추방에 실패했습니다.",
  invitesFailed: "초대 발송에 실패했습니다.",
  problemsFailed: "문제를 저장하는데 실패했습니다.",
  badGuildId: "잘못된 길드 ID입니다.",
  jsonOnly: "JSON 파일만 업로드 가능합니다.",
  problemsFormat: "유효한 문제 목록 형식이 아닙니다. 문자열 배열 형식이어야 합니다.",
  inviteDuplicate: "이미 초대 목록에 있는 이메일입니다.",
  titleAndContentRequired: "제목과 내용을 모두 입력해주세요.",
  allFieldsRequired: "모든 필드를 입력해주세요.",
  // guilds
  guildNotFound: "길드를 찾을 수 없습니다.",
  nameRequired: "길드 이름을 입력해주세요.",
  nameLength: `길드 이름은 ${NAME_MIN}~${NAME_MAX}자여야 합니다.`,
  nameTaken: "이미 사용 중인 길드 이름입니다.",
  descriptionTooLong: tooLongMessage("길드 소개는", DESCRIPTION_MAX),
  alreadyInGuild: "이미 길드에 가입되어 있습니다.",
  notMember: "길드 회원만 이용할 수 있습니다.",
  adminOnly: "길드 관리자만 할 수 있습니다.",
  staffOnly: "길드 관리자나 부관리자만 할 수 있습니다.",
  guildFull: "길드 인원이 가득 찼습니다.",
  lastAdmin: "마지막 관리자는 길드를 떠날 수 없습니다. 관리자 역할을 다른 회원에게 넘기거나 길드를 해산해주세요.",
  left: "길드를 탈퇴했습니다.",
  disbanded: "길드가 해산되었습니다.",
  // members
  memberNotFound: "길드 회원을 찾을 수 없습니다.",
  adminRoleLocked: "길드 관리자의 역할은 바꿀 수 없습니다.",
  adminNotKickable: "길드 관리자는 추방할 수 없습니다.",
  moderatorKicksMembersOnly: "부관리자는 일반 회원만 추방할 수 있습니다.",
  cannotKickSelf: "자기 자신은 추방할 수 없습니다. 탈퇴를 이용해주세요.",
  kicked: "회원을 추방했습니다.",
  // settings and problems
  maxMembersRange: "최대 인원은 5~100명 사이여야 합니다.",
  countdownRange: "시작 카운트다운은 1~10초 사이여야 합니다.",
  endCountdownRange: "종료 카운트다운은 30~300초 사이여야 합니다.",
  maxMembersBelowCount: "최대 인원을 현재 회원 수보다 적게 설정할 수 없습니다.",
  problemTooLong: problemMessages.tooLong,
  problemTooShort: problemMessages.tooShort,
  tooManyProblems: problemMessages.tooMany,
  // invitations
  inviteNone: "초대할 이메일을 입력해주세요.",
  inviteEmailInvalid: "올바른 이메일 주소를 입력해주세요.",
  inviteTooMany: `한 번에 ${INVITES_PER_REQUEST}명까지 초대할 수 있습니다.`,
  inviteAlreadyMember: "이미 길드에 가입한 회원입니다.",
  invitationNotFound: "초대를 찾을 수 없습니다.",
  invitationNotYours: "본인에게 온 초대만 처리할 수 있습니다.",
  invitationHandled: "이미 처리된 초대입니다.",
  invitationDeclined: "초대를 거절했습니다.",
  // recruitment and applications
  recruitmentNotFound: "모집글을 찾을 수 없습니다.",
  recruitmentTitleTooLong: tooLongMessage("제목은", RECRUITMENT_TITLE_MAX),
  recruitmentContentTooLong: tooLongMessage("내용은", RECRUITMENT_CONTENT_MAX),
  applicationNotFound: "가입 신청을 찾을 수 없습니다.",
  alreadyApplied: "이미 가입 신청한 길드입니다.",
  applicationHandled: "이미 처리된 가입 신청입니다.",
  applicantInGuild: "이미 다른 길드에 가입한 사용자입니다.",
  applicationMessageTooLong: tooLongMessage("신청 메시지는", APPLICATION_MESSAGE_MAX),
  applicationRejected: "가입 신청을 거절했습니다.",
  // board
  boardTitleTooLong: tooLongMessage("제목은", BOARD_TITLE_MAX),
  boardContentTooLong: tooLongMessage("내용은", BOARD_CONTENT_MAX),
  commentRequired: "댓글 내용을 입력해주세요.",
  commentTooLong: tooLongMessage("댓글은", COMMENT_MAX),
  postNotFound: "게시글을 찾을 수 없습니다.",
  commentNotFound: "댓글을 찾을 수 없습니다.",
  postEditForbidden: "작성자나 길드 관리자·부관리자만 수정할 수 있습니다.",
  postDeleteForbidden: "작성자나 길드 관리자·부관리자만 삭제할 수 있습니다.",
  commentDeleteForbidden: "작성자나 길드 관리자·부관리자만 댓글을 삭제할 수 있습니다.",
  postDeleted: "게시글이 삭제되었습니다.",
  commentDeleted: "댓글이 삭제되었습니다.",
} as const;

const ok = <T>(value: T): Check<T> => ({ ok: true, value });
const fail = <T>(error: string): Check<T> => ({ ok: false, error });

// Control characters (including line breaks) have no place in a name.
// biome-ignore lint/suspicious/noControlCharactersInRegex: that is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

export function checkGuildName(raw: string): Check<string> {
  const value = raw.trim();
  if (!value) return fail(GUILD_MSG.nameRequired);
  const length = charLength(value);
  if (length < NAME_MIN || length > NAME_MAX || CONTROL.test(value)) return fail(GUILD_MSG.nameLength);
  return ok(value);
}

export function checkDescription(raw: string | undefined | null): Check<string> {
  const value = (raw ?? "").trim();
  return charLength(value) > DESCRIPTION_MAX ? fail(GUILD_MSG.descriptionTooLong) : ok(value);
}

/** The case-insensitive identity of a guild name. */
export const nameKey = (name: string) => name.toLowerCase();

const rangeMessages: Record<SettingName, string> = {
  max_members: GUILD_MSG.maxMembersRange,
  countdown_seconds: GUILD_MSG.countdownRange,
  end_countdown_seconds: GUILD_MSG.endCountdownRange,
};

/**
 * The settings a request changes, each an integer inside its spec §5 range. The first value out of range refuses
 * the whole change (nothing is stored), so a request never half-applies.
 */
export function checkSettings(input: Partial<Record<SettingName, number>>): Check<Partial<GuildSettings>> {
  const out: Partial<GuildSettings> = {};
  for (const name of Object.keys(SETTINGS_RANGES) as SettingName[]) {
    const value = input[name];
    if (value === undefined) continue;
    const range = SETTINGS_RANGES[name];
    if (!Number.isInteger(value) || value < range.min || value > range.max) return fail(rangeMessages[name]);
    out[name] = value;
  }
  return ok(out);
}

/** Characters of a problem as the game counts them (code points after NFC, ends trimmed). */
const problemLength = (problem: string) => charLength(problem.normalize("NFC").trim());

/**
 * A problem a game may use: at least `PROBLEM_MIN_LENGTH` characters. Lists saved before that rule may still hold
 * shorter ones; a game never picks them.
 */
export const isPlayableProblem = (problem: string) => problemLength(problem) >= PROBLEM_MIN_LENGTH;

/**
 * A problem list: a JSON array of strings (spec §5). Each problem is trimmed and empty ones are dropped (the spec
 * ignores an empty new problem); anything that is not an array of strings is refused with the spec's text, and so
 * is a list holding a problem shorter than `PROBLEM_MIN_LENGTH` (nothing is stored).
 */
export function checkProblems(value: unknown): Check<string[]> {
  const check = checkTextList(value, PROBLEM_RULES, {
    format: GUILD_MSG.problemsFormat,
    tooMany: GUILD_MSG.tooManyProblems,
    tooLong: GUILD_MSG.problemTooLong,
    tooShort: GUILD_MSG.problemTooShort,
  });
  return check.ok ? check : fail(check.error);
}

/** A problems file: JSON by name or type, holding an array of strings. */
export function checkProblemsFile(fileName: string, type: string, text: string): Check<string[]> {
  const isJson = /\.json$/i.test(fileName) || /^application\/json\b/i.test(type);
  if (!isJson) return fail(GUILD_MSG.jsonOnly);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return fail(GUILD_MSG.problemsFormat);
  }
  return checkProblems(parsed);
}

export interface InviteInput {
  username?: string | null;
  email: string;
}

/** Invites: at least one, at most 20 a request, each e-mail with an "@" and no e-mail twice (spec §5). */
export function checkInvites(invites: readonly InviteInput[]): Check<{ username: string; email: string }[]> {
  if (invites.length === 0) return fail(GUILD_MSG.inviteNone);
  if (invites.length > INVITES_PER_REQUEST) return fail(GUILD_MSG.inviteTooMany);
  const seen = new Set<string>();
  const out: { username: string; email: string }[] = [];
  for (const invite of invites) {
    const email = invite.email.trim().toLowerCase();
    if (!email) return fail(GUILD_MSG.inviteNone);
    if (!/^[^\s@]+@[^\s@]+$/.test(email) || email.length > EMAIL_MAX) return fail(GUILD_MSG.inviteEmailInvalid);
    if (seen.has(email)) return fail(GUILD_MSG.inviteDuplicate);
    seen.add(email);
    out.push({ username: (invite.username ?? "").trim().slice(0, INVITE_USERNAME_MAX), email });
  }
  return ok(out);
}

/** A recruitment post: every field required (spec §5), then the lengths. */
export const checkRecruitment = (title: string, content: string) =>
  checkTitledPost(title, content, [RECRUITMENT_TITLE_MAX, RECRUITMENT_CONTENT_MAX], {
    required: GUILD_MSG.allFieldsRequired,
    titleTooLong: GUILD_MSG.recruitmentTitleTooLong,
    contentTooLong: GUILD_MSG.recruitmentContentTooLong,
  });

export function checkApplicationMessage(raw: string | undefined | null): Check<string> {
  const value = (raw ?? "").trim();
  return charLength(value) > APPLICATION_MESSAGE_MAX ? fail(GUILD_MSG.applicationMessageTooLong) : ok(value);
}

/** A guild board post: title and content both required (spec §5), then the lengths. */
export const checkBoardPost = (title: string, content: string) =>
  checkTitledPost(title, content, [BOARD_TITLE_MAX, BOARD_CONTENT_MAX], {
    required: GUILD_MSG.titleAndContentRequired,
    titleTooLong: GUILD_MSG.boardTitleTooLong,
    contentTooLong: GUILD_MSG.boardContentTooLong,
  });

/**
 * A title and a content, trimmed: both required with one message for either missing (checked before any length,
 * as spec §5 words it), then each within its maximum.
 */
function checkTitledPost(
  title: string,
  content: string,
  [titleMax, contentMax]: readonly [number, number],
  messages: { required: string; titleTooLong: string; contentTooLong: string },
): Check<{ title: string; content: string }> {
  const t = title.trim();
  const c = content.trim();
  if (!t || !c) return fail(messages.required);
  if (charLength(t) > titleMax) return fail(messages.titleTooLong);
  if (charLength(c) > contentMax) return fail(messages.contentTooLong);
  return ok({ title: t, content: c });
}

export const checkComment = (raw: string): Check<string> =>
  checkText(raw, COMMENT_MAX, { required: GUILD_MSG.commentRequired, tooLong: GUILD_MSG.commentTooLong });

/** Who may do what (spec §6, product-rules "Guilds"). */
export const isStaff = (role: GuildRole | null | undefined) => role === "admin" || role === "moderator";

/** An admin kicks moderators and members; a moderator kicks plain members; nobody kicks an admin or themself. */
export function kickRefusal(actorRole: GuildRole, targetRole: GuildRole, self: boolean): string | null {
  if (self) return GUILD_MSG.cannotKickSelf;
  if (targetRole === "admin") return GUILD_MSG.adminNotKickable;
  if (actorRole === "admin") return null;
  if (actorRole === "moderator") return targetRole === "member" ? null : GUILD_MSG.moderatorKicksMembersOnly;
  return GUILD_MSG.adminOnly;
}
