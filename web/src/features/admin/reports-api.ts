/** The report queue's calls (modules/moderation README "The queue"), through the app's one API client. */
import type {
  Duration,
  ReportAction,
  ReportReason,
  RestrictionKind,
  TargetKind,
} from "../../../../modules/moderation/rules";
import { api } from "../../lib/api";

export const REPORT_PAGE_SIZE = 20;

export interface ChatEvidence {
  type: "chat";
  channel: "room" | "guild" | "duel";
  channel_id: string;
  line_id: string;
  lines: { id: string; user_id: number | null; name: string; message: string; at: string }[];
}
export interface ContentEvidence {
  type: "content";
  board: "free" | "guild" | "recruitment";
  post_id: number;
  comment_id?: number;
  guild_id?: number;
  title: string;
  content: string;
  created_at: string;
}
export interface PlayerEvidence {
  type: "player";
  user_id: number;
  username: string;
  replay: {
    key: string;
    mode: string;
    room_name: string;
    sentence: string;
    wpm: number;
    accuracy: number;
    position: number | null;
    completion_time: number;
    created_at: string;
  } | null;
}
export type Evidence = ChatEvidence | ContentEvidence | PlayerEvidence;

export interface Restriction {
  id: number;
  user_id: number;
  kind: RestrictionKind;
  reason: string;
  starts_at: string;
  ends_at: string | null;
  lifted_at: string | null;
  lifted_by: string | null;
  report_id: number | null;
  created_by: string;
}

export interface ReportGroup {
  target_key: string;
  target_kind: TargetKind;
  offender: { id: number | null; username: string } | null;
  status: "open" | "resolved";
  count: number;
  reasons: Record<string, number>;
  first_at: string;
  last_at: string;
  resolution: ReportAction | null;
  resolved_by: string | null;
  resolved_at: string | null;
  restrictions: Restriction[];
  reports: {
    id: number;
    reporter: { id: number | null; username: string };
    reason: ReportReason;
    note: string | null;
    evidence: Evidence;
    created_at: string;
  }[];
}

export interface ReportQueue {
  groups: ReportGroup[];
  total: number;
  page: number;
  size: number;
  total_pages: number;
}

export interface ActionInput {
  action: ReportAction;
  duration?: Duration;
  reason?: string;
  message?: string;
}

export const reportsApi = {
  queue: (status: "open" | "resolved", page: number, signal?: AbortSignal) =>
    api.get<ReportQueue>("/api/moderation/reports", { signal, query: { status, page, size: REPORT_PAGE_SIZE } }),
  summary: (signal?: AbortSignal) =>
    api.get<{ reports: number; targets: number }>("/api/moderation/summary", { signal }),
  resolve: (reportId: number, input: ActionInput) =>
    api.post<ReportGroup>(`/api/moderation/reports/${reportId}/resolve`, input),
  lift: (restrictionId: number) => api.post<Restriction>(`/api/moderation/restrictions/${restrictionId}/lift`),
};
