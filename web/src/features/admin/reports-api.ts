/** The report queue's calls (modules/moderation README "The queue"), through the app's one API client. */
import type { Duration, ReportAction, ReportReason, TargetKind } from "../../../../modules/moderation/rules";
import type { RestrictionView } from "../../../../modules/moderation/service";
import type { Evidence } from "../../../../modules/moderation/targets";
import { api } from "../../lib/api";

export const REPORT_PAGE_SIZE = 20;

export type { Evidence } from "../../../../modules/moderation/targets";
export type Restriction = RestrictionView;

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
