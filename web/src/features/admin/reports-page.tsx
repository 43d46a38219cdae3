import { getRouteApi, Link } from "@tanstack/react-router";
import { type FormEvent, useState } from "react";
import {
  ACTION_LABELS,
  DURATION_LABELS,
  type Duration,
  MUTE_DURATIONS,
  REPORT_ACTIONS,
  RESTRICTION_LABELS,
  type ReportAction,
  SUSPEND_DURATIONS,
  TARGET_LABELS,
  type TargetKind,
} from "../../../../modules/moderation/rules";
import { isApiError } from "../../lib/api";
import { useDocumentTitle } from "../../lib/title";
import { ErrorNotice } from "../../ui/error-notice";
import { formatDateTime } from "./format";
import { LoadError } from "./load-error";
import { Pagination } from "./pagination";
import { type Evidence, type ReportGroup, type Restriction, reportsApi } from "./reports-api";
import { useLoad } from "./use-load";

const route = getRouteApi("/admin/reports");

export const ACTION_FAILED = "신고를 처리하지 못했습니다.";
const DELETABLE: readonly TargetKind[] = [
  "board_post",
  "board_comment",
  "guild_post",
  "guild_comment",
  "recruitment_post",
  "guild_chat",
];
const ON_MEMBER: readonly ReportAction[] = ["mute", "suspend", "exclude", "warn"];
const CHANNEL_LABELS = { room: "방", guild: "길드", duel: "대결 관전" } as const;
const BOARD_LABELS = { free: "자유게시판", guild: "길드 게시판", recruitment: "길드원 모집" } as const;

const failureText = (failure: unknown, fallback: string) =>
  isApiError(failure) && failure.status !== 0 && failure.detail ? failure.detail : fallback;

function EvidenceView({ evidence }: { evidence: Evidence }) {
  switch (evidence.type) {
    case "chat":
      return (
        <div className="report-evidence">
          <p className="muted">
            {CHANNEL_LABELS[evidence.channel]} {evidence.channel_id} 채팅
            {evidence.lines.length > 1 ? ` · 신고된 줄과 그 앞 ${evidence.lines.length - 1}줄` : ""}
          </p>
          <ol className="report-chat">
            {evidence.lines.map((line) => {
              const reported = line.id === evidence.line_id;
              return (
                <li key={line.id} className={reported ? "report-chat-line is-reported" : "report-chat-line"}>
                  <time className="muted">{formatDateTime(line.at).slice(11)}</time> <strong>{line.name}</strong>:{" "}
                  <span>{line.message}</span>
                  {reported && <span className="admin-badge admin-badge-danger">신고된 줄</span>}
                </li>
              );
            })}
          </ol>
        </div>
      );
    case "content":
      return (
        <div className="report-evidence">
          <p className="muted">
            {BOARD_LABELS[evidence.board]} · {evidence.comment_id ? `글 "${evidence.title}"의 댓글` : "글"} ·{" "}
            {formatDateTime(evidence.created_at)}
          </p>
          {!evidence.comment_id && <p className="report-content-title">{evidence.title}</p>}
          <p className="report-content">{evidence.content}</p>
        </div>
      );
    case "player":
      return (
        <div className="report-evidence">
          <p>
            플레이어 <strong>{evidence.username}</strong> (ID {evidence.user_id})
          </p>
          {evidence.replay && (
            <p>
              {evidence.replay.room_name} · {evidence.replay.wpm}타/분 · 정확도 {evidence.replay.accuracy}% ·{" "}
              {formatDateTime(evidence.replay.created_at)} ·{" "}
              <Link to="/replay/$key" params={{ key: evidence.replay.key }}>
                리플레이 보기
              </Link>
            </p>
          )}
        </div>
      );
  }
}

function RestrictionRow({ restriction, onLifted }: { restriction: Restriction; onLifted: (text: string) => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function lift() {
    setBusy(true);
    try {
      await reportsApi.lift(restriction.id);
      onLifted(`${RESTRICTION_LABELS[restriction.kind]}을(를) 해제했습니다.`);
    } catch (failure) {
      setError(failureText(failure, "제재를 해제하지 못했습니다."));
      setBusy(false);
    }
  }
  return (
    <li>
      {RESTRICTION_LABELS[restriction.kind]} ·{" "}
      {restriction.ends_at ? `${formatDateTime(restriction.ends_at)}까지` : "해제할 때까지"} · 사유:{" "}
      {restriction.reason}{" "}
      <button type="button" className="btn btn-ghost btn-small" onClick={lift} disabled={busy}>
        해제
      </button>
      <ErrorNotice text={error} />
    </li>
  );
}

/** The action form of an open group: one action for every open report of its target. */
function ActionForm({ group, onDone }: { group: ReportGroup; onDone: (text: string) => void }) {
  const [action, setAction] = useState<ReportAction>("dismiss");
  const [duration, setDuration] = useState<Duration>("24h");
  const [reason, setReason] = useState("");
  const [message, setMessage] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const durations: readonly Duration[] = action === "mute" ? MUTE_DURATIONS : SUSPEND_DURATIONS;
  const available = REPORT_ACTIONS.filter(
    (a) => (a !== "delete" || DELETABLE.includes(group.target_kind)) && (!ON_MEMBER.includes(a) || group.offender),
  );
  const last = group.reports[group.reports.length - 1];
  const formId = `action-${last.id}`;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await reportsApi.resolve(last.id, {
        action,
        ...(action === "mute" || action === "suspend"
          ? { duration: durations.includes(duration) ? duration : durations[0] }
          : {}),
        ...(reason.trim() && ["mute", "suspend", "exclude"].includes(action) ? { reason: reason.trim() } : {}),
        ...(message.trim() && action === "warn" ? { message: message.trim() } : {}),
      });
      onDone(`처리했습니다: ${ACTION_LABELS[action]}`);
    } catch (failure) {
      setError(failureText(failure, ACTION_FAILED));
      setBusy(false);
    }
  }

  return (
    <form className="report-action-form" onSubmit={submit} aria-label={`신고 #${last.id} 처리`}>
      <label className="field">
        <span className="field-label">조치</span>
        <select
          className="input"
          name="action"
          id={`${formId}-action`}
          value={action}
          onChange={(e) => setAction(e.target.value as ReportAction)}
        >
          {available.map((a) => (
            <option key={a} value={a}>
              {ACTION_LABELS[a]}
            </option>
          ))}
        </select>
      </label>
      {(action === "mute" || action === "suspend") && (
        <label className="field">
          <span className="field-label">기간</span>
          <select
            className="input"
            name="duration"
            value={durations.includes(duration) ? duration : durations[0]}
            onChange={(e) => setDuration(e.target.value as Duration)}
          >
            {durations.map((d) => (
              <option key={d} value={d}>
                {DURATION_LABELS[d]}
              </option>
            ))}
          </select>
        </label>
      )}
      {(action === "mute" || action === "suspend" || action === "exclude") && (
        <label className="field">
          <span className="field-label">회원에게 보일 사유 (선택)</span>
          <input
            className="input"
            name="reason"
            value={reason}
            maxLength={500}
            placeholder={`비우면 신고 사유(${last.reason})`}
            onChange={(e) => setReason(e.target.value)}
          />
        </label>
      )}
      {action === "warn" && (
        <label className="field">
          <span className="field-label">경고 문구 (선택)</span>
          <textarea
            className="input admin-textarea"
            name="message"
            value={message}
            maxLength={500}
            rows={2}
            placeholder="다음 로그인 때 회원에게 보입니다."
            onChange={(e) => setMessage(e.target.value)}
          />
        </label>
      )}
      <ErrorNotice text={error} />
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {busy ? "처리 중..." : "처리"}
      </button>
    </form>
  );
}

function GroupCard({ group, onDone }: { group: ReportGroup; onDone: (text: string) => void }) {
  const reasons = Object.entries(group.reasons)
    .map(([reason, n]) => `${reason} ${n}`)
    .join(", ");
  return (
    <li className="card report-group" data-target={group.target_key}>
      <header className="report-group-head">
        <h2 className="admin-section-title">
          {TARGET_LABELS[group.target_kind]}
          {group.offender && (
            <>
              {" · "}
              {group.offender.id === null ? (
                group.offender.username
              ) : (
                <Link to="/admin/users/$userId" params={{ userId: String(group.offender.id) }}>
                  {group.offender.username}
                </Link>
              )}
            </>
          )}
        </h2>
        <p className="muted">
          신고 {group.count}건 · {reasons} · 최근 {formatDateTime(group.last_at)}
        </p>
        {group.status === "resolved" && group.resolution && (
          <p>
            <span className="admin-badge">{ACTION_LABELS[group.resolution]}</span> {group.resolved_by} ·{" "}
            {formatDateTime(group.resolved_at)}
          </p>
        )}
      </header>
      {group.restrictions.length > 0 && (
        <section aria-label="현재 제재">
          <h3 className="report-subtitle">현재 제재</h3>
          <ul className="report-restrictions">
            {group.restrictions.map((r) => (
              <RestrictionRow key={r.id} restriction={r} onLifted={onDone} />
            ))}
          </ul>
        </section>
      )}
      <ol className="report-list">
        {group.reports.map((report) => (
          <li key={report.id} className="report-item">
            <p>
              <strong>신고 #{report.id}</strong> · {report.reporter.username} · {report.reason} ·{" "}
              {formatDateTime(report.created_at)}
            </p>
            {report.note && <p className="report-note-text">메모: {report.note}</p>}
            <EvidenceView evidence={report.evidence} />
          </li>
        ))}
      </ol>
      {group.status === "open" && <ActionForm group={group} onDone={onDone} />}
    </li>
  );
}

/** /admin/reports: the report queue, open or resolved, grouped by target, with the evidence and the actions. */
export function ReportsPage() {
  useDocumentTitle("신고 처리");
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const status = search.status ?? "open";
  const page = search.page ?? 1;
  const [done, setDone] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const queue = useLoad(
    (signal) => reportsApi.queue(status, page, signal),
    `${status}:${page}:${version}`,
    "신고 목록을 불러오지 못했습니다.",
    { serverText: true },
  );
  const acted = (text: string) => {
    setDone(text);
    setVersion((v) => v + 1);
  };

  return (
    <section className="admin-page">
      <header className="admin-header">
        <h1 className="page-title">신고 처리</h1>
        <p className="muted">대상별로 묶인 신고와 증거를 보고 조치합니다. 모든 조치는 관리자 로그에 남습니다.</p>
      </header>
      <nav className="admin-toolbar report-tabs" aria-label="신고 상태">
        <Link
          to="/admin/reports"
          search={{ status: "open" }}
          className={status === "open" ? "btn btn-primary btn-small" : "btn btn-ghost btn-small"}
          aria-current={status === "open" ? "page" : undefined}
        >
          처리 전
        </Link>
        <Link
          to="/admin/reports"
          search={{ status: "resolved" }}
          className={status === "resolved" ? "btn btn-primary btn-small" : "btn btn-ghost btn-small"}
          aria-current={status === "resolved" ? "page" : undefined}
        >
          처리됨
        </Link>
      </nav>
      {done && (
        <p className="notice notice-success" role="status">
          {done}
        </p>
      )}
      {queue.error && <LoadError message={queue.error.message} onRetry={queue.reload} />}
      {queue.data && queue.data.groups.length === 0 && (
        <p className="muted">{status === "open" ? "처리할 신고가 없습니다." : "처리된 신고가 없습니다."}</p>
      )}
      {queue.data && (
        <ol className="report-groups" aria-busy={queue.loading}>
          {queue.data.groups.map((group) => (
            <GroupCard key={`${group.target_key}-${group.resolved_at ?? "open"}`} group={group} onDone={acted} />
          ))}
        </ol>
      )}
      {queue.data && (
        <Pagination
          page={page}
          totalPages={queue.data.total_pages}
          label="신고 목록 페이지"
          onPage={(next) => navigate({ search: { status, page: next } })}
        />
      )}
    </section>
  );
}
