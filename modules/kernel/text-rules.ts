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
