/** The moderation calls (modules/moderation README), through the app's one API client. */
import type { BlockList } from "../../../../modules/moderation/model";
import type { ReportReason } from "../../../../modules/moderation/rules";
import type { TargetInput } from "../../../../modules/moderation/targets";
import type { MutedPayload } from "../../../../modules/moderation/wire";
import { api } from "../../lib/api";

/** What a report names: its kind and the fields of that kind (modules/moderation README "Reports"). */
export type ReportTarget = TargetInput;

export type MuteState = MutedPayload;

/** One member the viewer blocked: who (their current name) and when. */
export type BlockedMember = BlockList["blocks"][number];

export interface Mine {
  notices: { id: number; message: string; created_at: string }[];
  mute: MuteState | null;
  blocked: number[];
}

export const moderationApi = {
  report: (target: ReportTarget, reason: ReportReason, note: string) =>
    api.post<{ id: number; detail: string }>("/api/reports", {
      ...target,
      reason,
      ...(note.trim() ? { note: note.trim() } : {}),
    }),
  mine: (signal?: AbortSignal) => api.get<Mine>("/api/moderation/me", { signal }),
  blocks: (signal?: AbortSignal) => api.get<BlockList>("/api/blocks", { signal }),
  seen: (noticeId: number) => api.post<{ detail: string }>(`/api/moderation/notices/${noticeId}/seen`),
};
