/** The moderation calls (modules/moderation README), through the app's one API client. */
import type { ReportReason, TargetKind } from "../../../../modules/moderation/rules";
import { api } from "../../lib/api";

/** What a report names: its kind and the fields of that kind (modules/moderation README "Reports"). */
export interface ReportTarget {
  kind: TargetKind;
  room_id?: number;
  guild_id?: number;
  session_id?: string;
  line_id?: string;
  post_id?: number;
  comment_id?: number;
  user_id?: number;
  replay_key?: string;
}

export interface MuteState {
  until: string;
  reason: string;
  detail: string;
}

export interface Mine {
  notices: { id: number; message: string; created_at: string }[];
  mute: MuteState | null;
}

export const moderationApi = {
  report: (target: ReportTarget, reason: ReportReason, note: string) =>
    api.post<{ id: number; detail: string }>("/api/reports", {
      ...target,
      reason,
      ...(note.trim() ? { note: note.trim() } : {}),
    }),
  mine: (signal?: AbortSignal) => api.get<Mine>("/api/moderation/me", { signal }),
  seen: (noticeId: number) => api.post<{ detail: string }>(`/api/moderation/notices/${noticeId}/seen`),
};
