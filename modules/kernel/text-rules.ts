/**
 * Text rules shared by the free board and the guild board (and any other module that takes written text): how a
 * length is counted, and "required, at most N characters" with the module's own Korean messages. They live in the
 * kernel, not in the board module, because they are generic and this keeps guilds free of a dependency on board.
 * Pure (no server imports): the web pages use them through each module's `rules.ts`.
 */

/** Length in characters as a person counts them (code points, so an emoji is one). */
export const charLength = (text: string) => {
  let n = 0;
  for (const _ of text) n++;
  return n;
};

export type Check<T> = { ok: true; value: T } | { ok: false; error: string };

/** `<subject> <max>자 이내로 작성해주세요.`, the max written with thousands separators (`제목은`, `2,000`). */
export const tooLongMessage = (subject: string, max: number) =>
  `${subject} ${max.toLocaleString("en-US")}자 이내로 작성해주세요.`;

/** The trimmed text when it is not empty and at most `max` characters; otherwise the matching message. */
export function checkText(raw: string, max: number, messages: { required: string; tooLong: string }): Check<string> {
  const value = raw.trim();
  if (!value) return { ok: false, error: messages.required };
  if (charLength(value) > max) return { ok: false, error: messages.tooLong };
  return { ok: true, value };
}

/**
 * The bounds of a list of texts typed one at a time (a guild's problems, a private room's own sentences): how many,
 * and how long each may be, in characters after cleaning.
 */
export interface TextListRules {
  minLength: number;
  maxLength: number;
  maxCount: number;
}

/** The refusals of a text list, in the words of the module that takes it. */
export interface TextListMessages {
  /** Not an array of strings (or a file that does not hold one). */
  format: string;
  tooMany: string;
  tooLong: string;
  tooShort: string;
  /** When given, an empty list is refused with it (a guild may clear its problems, a room needs a sentence). */
  required?: string;
}

/** A refused list says which entry broke a rule (1-based, counted in the list as sent, empty entries included). */
export type TextListCheck = { ok: true; value: string[] } | { ok: false; error: string; line?: number };

/**
 * "subject + 은/는" messages of the length and count rules (`문제는 500자 이내여야 합니다.`), so every list of texts
 * is refused in the same words, each module with its own subject.
 */
export const textListMessages = (subject: string, rules: TextListRules) => ({
  tooMany: `${subject} ${rules.maxCount}개까지 등록할 수 있습니다.`,
  tooLong: `${subject} ${rules.maxLength}자 이내여야 합니다.`,
  tooShort: `${subject} ${rules.minLength}자 이상이어야 합니다.`,
});

// Control characters (line breaks included) have no place in a text typed on one line.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * A list of texts: an array of strings, each cleaned by `clean` (trimmed by default) with the empty ones dropped;
 * at most `maxCount` of them, each `minLength`–`maxLength` characters (the minimum counted after NFC) and without
 * control characters. The first broken rule refuses the whole list (nothing half-stored).
 */
export function checkTextList(
  value: unknown,
  rules: TextListRules,
  messages: TextListMessages,
  clean: (text: string) => string = (text) => text.trim(),
): TextListCheck {
  if (!Array.isArray(value) || !value.every((entry) => typeof entry === "string")) {
    return { ok: false, error: messages.format };
  }
  const texts: string[] = [];
  const lines: number[] = [];
  (value as string[]).forEach((raw, index) => {
    const text = clean(raw);
    if (text.length === 0) return;
    texts.push(text);
    lines.push(index + 1);
  });
  if (texts.length === 0 && messages.required) return { ok: false, error: messages.required };
  if (texts.length > rules.maxCount) return { ok: false, error: messages.tooMany };
  const long = texts.findIndex((text) => charLength(text) > rules.maxLength || CONTROL.test(text));
  if (long >= 0) return { ok: false, error: messages.tooLong, line: lines[long] };
  const short = texts.findIndex((text) => charLength(text.normalize("NFC").trim()) < rules.minLength);
  if (short >= 0) return { ok: false, error: messages.tooShort, line: lines[short] };
  return { ok: true, value: texts };
}

/**
 * A file of texts as sent: a JSON array (by its name, its type, or a text that starts with `[`) or plain text with
 * one entry a line. Null when a JSON file cannot be read or holds no array: the caller refuses it in its words.
 */
export function parseTextListFile(name: string, type: string, file: string): unknown[] | null {
  const text = file.replace(/^\uFEFF/, ""); // a byte-order mark some editors write first
  const json = /\.json$/i.test(name) || /^application\/json\b/i.test(type) || text.trimStart().startsWith("[");
  if (!json) return text.split(/\r?\n/);
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed : null;
  } catch {
    return null;
  }
}
