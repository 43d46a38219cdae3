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
