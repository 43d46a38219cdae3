import {
  charLength,
  checkTextList,
  type TextListCheck,
  type TextListRules,
  textListMessages,
} from "../kernel/text-rules";

/**
 * Private rooms' limits, texts and messages (product-rules "Playing together", README "Private rooms"), shared by
 * the server and the web page, so the form's checks and the server's answers use the same numbers and words. Pure:
 * the web bundles it (apps/server/boundaries.test.ts `SHARED_WITH_WEB`).
 */

export const PRIVATE_NAME_MAX = 30;
export const PRIVATE_SIZE = { min: 2, max: 20, default: 8 } as const;
/** The owner's own sentences: the kernel's rule of text lists, as a guild's problems, with the room's bounds. */
export const PRIVATE_TEXT_RULES: TextListRules = { minLength: 5, maxLength: 300, maxCount: 200 };
/** A member keeps at most this many private rooms open (closing one frees its place). */
export const OPEN_PRIVATE_ROOMS_MAX = 5;
/** A room with nobody in it for this long closes by itself. */
export const PRIVATE_IDLE_MS = 30 * 60_000;
/** An invitation code: 16 random bytes in base64url (128 bits), URL-safe. */
export const INVITE_CODE = /^[A-Za-z0-9_-]{22}$/;
/** A room's `theme` when it plays its owner's own sentences (stored under `ownTextsTheme(room id)`). */
export const OWN_TEXTS = "private";

/** The product's sentences a private room may play, by theme, with the words the form shows. */
export const PRIVATE_THEMES = [
  { theme: "beginner", label: "초보자 (짧고 쉬운 문장)" },
  { theme: "proverbs", label: "속담" },
  { theme: "literature", label: "문학" },
  { theme: "news", label: "뉴스" },
  { theme: "english", label: "영어" },
  { theme: "free", label: "자유 (여러 주제)" },
] as const;
export type PrivateTheme = (typeof PRIVATE_THEMES)[number]["theme"];
export const isPrivateTheme = (theme: string): theme is PrivateTheme => PRIVATE_THEMES.some((t) => t.theme === theme);
export const themeLabel = (theme: string) => PRIVATE_THEMES.find((t) => t.theme === theme)?.label ?? theme;

/** The link that opens a private room: anyone with it may enter (guests too), while the room has a place. */
export const invitePath = (code: string) => `/r/${code}`;

export const PRIVATE_MSG = {
  notFound: "비공개 방을 찾을 수 없습니다. 닫혔거나 초대 링크가 바뀌었을 수 있습니다.",
  invalidCode: "초대 링크가 올바르지 않거나 바뀌었습니다. 방장에게 새 링크를 받아주세요.",
  closed: "방장이 방을 닫았습니다.",
  removed: "방장이 이 방에서 내보냈습니다. 방장이 새 초대 링크를 만들기 전에는 이 링크로 다시 들어올 수 없습니다.",
  ownerOnly: "방장만 할 수 있습니다.",
  nameRequired: "방 이름을 입력해주세요.",
  nameTooLong: `방 이름은 ${PRIVATE_NAME_MAX}자 이내여야 합니다.`,
  sizeRange: `인원은 ${PRIVATE_SIZE.min}~${PRIVATE_SIZE.max}명이어야 합니다.`,
  themeUnknown: "고를 수 있는 문장 주제가 아닙니다.",
  textsOrTheme: "문장 주제를 고르거나 직접 넣을 문장을 입력해주세요. 둘 중 하나만 고를 수 있습니다.",
  textsFormat:
    "문장 목록 형식이 올바르지 않습니다. 한 줄에 한 문장인 텍스트(.txt)나 문자열 배열 JSON(.json)이어야 합니다.",
  textsRequired: "문장을 한 개 이상 넣어주세요.",
  ...textListMessages("문장은", PRIVATE_TEXT_RULES),
  tooManyOpen: `비공개 방은 ${OPEN_PRIVATE_ROOMS_MAX}개까지 열어 둘 수 있습니다. 쓰지 않는 방을 닫아주세요.`,
  removeSelf: "자기 자신은 내보낼 수 없습니다.",
  notHere: "지금 방에 있는 참가자가 아닙니다.",
  handOverSelf: "이미 방장입니다.",
  handOverGuest: "방장은 로그인한 회원에게만 넘길 수 있습니다. 지금 방에 있는 회원을 골라주세요.",
  removedLine: (name: string) => `${name}님을 내보냈습니다.`,
  handedOverLine: (name: string) => `${name}님이 이제 방장입니다.`,
} as const;

/** NFC, ends trimmed, inner whitespace runs as one space: what the room plays (and the rooms' sentences are). */
export const cleanText = (text: string) => text.normalize("NFC").replace(/\s+/g, " ").trim();

/**
 * The owner's own sentences: a list of strings (pasted lines, or a file's), each cleaned, empty ones dropped, 1–200
 * of them, each 5–300 characters. A refusal names the line that broke a rule ("3번째 줄: …").
 */
export function checkPrivateTexts(value: unknown): TextListCheck {
  const check = checkTextList(
    value,
    PRIVATE_TEXT_RULES,
    {
      format: PRIVATE_MSG.textsFormat,
      required: PRIVATE_MSG.textsRequired,
      tooMany: PRIVATE_MSG.tooMany,
      tooLong: PRIVATE_MSG.tooLong,
      tooShort: PRIVATE_MSG.tooShort,
    },
    cleanText,
  );
  if (check.ok || check.line === undefined) return check;
  return { ...check, error: `${check.line}번째 줄: ${check.error}` };
}

/** A room's name: 1–30 characters, trimmed, on one line. */
export function checkPrivateName(raw: string): { ok: true; value: string } | { ok: false; error: string } {
  const value = cleanText(raw);
  if (!value) return { ok: false, error: PRIVATE_MSG.nameRequired };
  if (charLength(value) > PRIVATE_NAME_MAX) return { ok: false, error: PRIVATE_MSG.nameTooLong };
  return { ok: true, value };
}

export const isPrivateSize = (size: number) =>
  Number.isInteger(size) && size >= PRIVATE_SIZE.min && size <= PRIVATE_SIZE.max;
