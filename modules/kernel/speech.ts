import type { ModuleContext } from "./define-module";
import type { AppError } from "./errors";

/**
 * Whether a member may speak now: chat lines (rooms, guilds, duel watchers) and posts and comments (both boards,
 * recruitment). The moderation module decides it (a mute: modules/moderation/README.md "Enforcement") and registers
 * its check here, so the modules that carry chat and posts call one kernel function and never depend on it. Without
 * a registered check (a test server without moderation, the CLI) everyone may speak.
 */
export type SpeechKind = "chat" | "post";

/** The refusal for this member and kind now (a 403 with the Korean reason and end time), or null. Synchronous. */
export type SpeechCheck = (userId: number, kind: SpeechKind) => AppError | null;

const checks = new WeakMap<ModuleContext, SpeechCheck>();

export function setSpeechCheck(ctx: ModuleContext, check: SpeechCheck) {
  checks.set(ctx, check);
}

/** The refusal of a member's line or post, or null (guests: null, they have nothing a mute could hold). */
export function speechRefusal(ctx: ModuleContext, userId: number | null | undefined, kind: SpeechKind) {
  if (userId === null || userId === undefined) return null;
  return checks.get(ctx)?.(userId, kind) ?? null;
}

/** Throws the refusal, if any (HTTP routes and socket handlers, whose thrown `AppError` becomes the answer). */
export function assertMaySpeak(ctx: ModuleContext, userId: number | null | undefined, kind: SpeechKind) {
  const refusal = speechRefusal(ctx, userId, kind);
  if (refusal) throw refusal;
}

/**
 * What a listed word does to a text (modules/moderation/README.md "Profanity filter"): a chat line is masked, a
 * post, comment or name is refused. The moderation module registers its filter here, like the mute check, so the
 * modules that carry the texts call one kernel function each and never depend on it. Without a registered filter
 * every text passes.
 */
export type TextKind = "post" | "username" | "guild_name";

export interface TextFilter {
  /** The line with each listed word replaced by `***` (synchronous: a room's input cannot wait). */
  mask(text: string): string;
  /** The refusal (a 400 with the Korean text of the kind) of texts holding a listed word, or null. */
  refusal(kind: TextKind, texts: readonly string[]): Promise<AppError | null>;
}

const filters = new WeakMap<ModuleContext, TextFilter>();

export function setTextFilter(ctx: ModuleContext, filter: TextFilter) {
  filters.set(ctx, filter);
}

/** A chat line as it is stored and broadcast. */
export function maskChat(ctx: ModuleContext, text: string) {
  return filters.get(ctx)?.mask(text) ?? text;
}

/** Throws the refusal of a post, comment or name holding a listed word. */
export async function assertCleanText(
  ctx: ModuleContext,
  kind: TextKind,
  texts: readonly (string | null | undefined)[],
) {
  const filter = filters.get(ctx);
  const written = texts.filter((text): text is string => typeof text === "string" && text.length > 0);
  const refusal = filter && written.length > 0 ? await filter.refusal(kind, written) : null;
  if (refusal) throw refusal;
}

/** The texts of a post or comment body: its string fields (a title, a content). */
export const textsOf = (body: object) =>
  Object.values(body).filter((value): value is string => typeof value === "string");

/** The documented 400 of a route whose texts the filter may refuse (kernel http.ts: the answer's description). */
export const TEXT_REFUSED = "금칙어가 들어 있어 받을 수 없습니다";
