/**
 * Why the server ended a member's sessions, shared by accounts (which ends them) and the web client (which tells the
 * player). Without it a player on another device only learned "로그인이 필요합니다" and could not tell a password
 * change from a stolen session or an expired one (modules/accounts/README.md "Why a session ended").
 */

/** The machine-readable reasons, in the refresh answer (`reason`) and in `user:session_closed`. */
export const SESSION_END_REASONS = ["password_changed", "password_reset_required", "deactivated", "suspended"] as const;
export type SessionEndReason = (typeof SESSION_END_REASONS)[number];

/** What the player reads (the server sends it as `detail`; the client falls back to it). */
export const SESSION_END_TEXT: Record<SessionEndReason, string> = {
  password_changed: "다른 기기에서 비밀번호가 변경되어 로그아웃되었습니다. 새 비밀번호로 다시 로그인해주세요.",
  password_reset_required:
    "관리자가 비밀번호 재설정을 요청해 로그아웃되었습니다. 다시 로그인한 뒤 새 비밀번호를 설정해주세요.",
  deactivated: "비활성화된 계정입니다. 관리자에게 문의해주세요.",
  // The reason and the end are shown when the player tries to log in again (modules/moderation README).
  suspended: "관리자가 이용을 정지해 로그아웃되었습니다. 다시 로그인하면 정지 사유와 기간을 볼 수 있습니다.",
};

/** Sent to every socket of the user just before the server disconnects them: `SessionClosedPayload`. */
export const SESSION_CLOSED_EVENT = "user:session_closed";

/** The payload of `user:session_closed`, and the extra fields of a refused refresh (401 `{detail, reason}`). */
export interface SessionClosedPayload {
  reason: SessionEndReason;
  detail: string;
}

export const isSessionEndReason = (value: unknown): value is SessionEndReason =>
  typeof value === "string" && (SESSION_END_REASONS as readonly string[]).includes(value);

/** A payload from the wire (socket event or refresh answer), or null when it is not one. */
export function sessionClosedFrom(value: unknown): SessionClosedPayload | null {
  if (!value || typeof value !== "object") return null;
  const { reason, detail } = value as { reason?: unknown; detail?: unknown };
  if (!isSessionEndReason(reason)) return null;
  return { reason, detail: typeof detail === "string" && detail.trim() ? detail : SESSION_END_TEXT[reason] };
}
