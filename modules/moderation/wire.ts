/**
 * The moderation module's socket events (kernel README "The wire contract"): server → client only. A muted member's
 * live sockets learn the mute at once, on every process (README "Enforcement").
 */

/** `moderation:muted`: the member may not chat, post or comment until `until`. */
export interface MutedPayload {
  until: string;
  reason: string;
  /** The Korean line to show (the same words a refused chat line gets). */
  detail: string;
}

export interface ModerationServerEvents {
  "moderation:muted": (payload: MutedPayload) => void;
  /** The member's mute was lifted (or ended): they may chat again. */
  "moderation:unmuted": (payload: Record<string, never>) => void;
}

declare module "../kernel/socket" {
  interface ServerEvents extends ModerationServerEvents {}
}
