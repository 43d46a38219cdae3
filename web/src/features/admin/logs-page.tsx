import { getRouteApi, Link } from "@tanstack/react-router";
import { ACTION_LABELS, actionLabel, describeDetails } from "../../../../modules/admin/labels";
import { useDocumentTitle } from "../../lib/title";
import { adminApi, LOG_PAGE_SIZE } from "./admin-api";
import { formatDateTime, resultRange, truncate } from "./format";
import { LoadError } from "./load-error";
import { Pagination } from "./pagination";
import type { AdminLog } from "./types";
import { useLoad } from "./use-load";

const route = getRouteApi("/admin/logs");
const DETAILS_MAX = 60;

/** The spec's three actions first (its legend), then the ones this product adds. */
const SPEC_ACTIONS = ["view_users", "view_user", "update_username"];
const LEGEND: [string, string, string][] = [
  ["view_users", ACTION_LABELS.view_users, "사용자 목록을 보거나 검색했습니다."],
  ["view_user", ACTION_LABELS.view_user, "한 사용자의 상세 정보를 열어 보았습니다."],
  ["update_username", ACTION_LABELS.update_username, "사용자명을 바꿨습니다 (이전 → 새 이름, 사유)."],
];
const OTHER_ACTIONS = Object.keys(ACTION_LABELS).filter((action) => !SPEC_ACTIONS.includes(action));

const badgeClass = (action: string) =>
  `admin-badge admin-action admin-action-${action in ACTION_LABELS ? action : "other"}`;

function Person({ name, id }: { name: string | null; id: number | null }) {
  if (!name && id === null) return <span className="muted">-</span>;
  return (
    <span className="admin-person">
      <span>{name ?? "-"}</span>
      <span className="muted admin-person-id">{id === null ? "ID 없음" : `ID ${id}`}</span>
    </span>
  );
}

export function LogsPage() {
  useDocumentTitle("관리자 로그");
  const page = route.useSearch().page ?? 1;
  const navigate = route.useNavigate();
  const logs = useLoad(
    (signal) => adminApi.logs(page, signal),
    `logs:${page}`,
    "관리자 로그를 가져오는데 실패했습니다.",
  );
  const data = logs.data;

  return (
    <section className="admin-page">
      <Link to="/admin/dashboard" className="admin-back">
        ← 대시보드로 돌아가기
      </Link>
      <header className="admin-header">
        <h1 className="page-title">관리자 로그</h1>
        <p className="muted">웹 콘솔과 CLI(madang)에서 한 관리자 작업이 최신순으로 남습니다.</p>
      </header>

      <section className="card admin-legend" aria-labelledby="legend-title">
        <h2 id="legend-title" className="admin-section-title">
          작업 종류
        </h2>
        <dl>
          {LEGEND.map(([action, label, text]) => (
            <div key={action} className="admin-fact">
              <dt>
                <span className={badgeClass(action)}>{label}</span>
              </dt>
              <dd>{text}</dd>
            </div>
          ))}
        </dl>
        <p className="muted admin-hint">
          그 밖의 작업: {OTHER_ACTIONS.map((action) => ACTION_LABELS[action]).join(", ")}. 모르는 작업은 이름 그대로
          보여줍니다.
        </p>
      </section>

      {logs.error && <LoadError message={logs.error.message} onRetry={logs.reload} />}
      {!logs.error && (
        <div className="card admin-table-wrap" aria-busy={logs.loading}>
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">시간</th>
                <th scope="col">관리자</th>
                <th scope="col">작업</th>
                <th scope="col">대상 사용자</th>
                <th scope="col">내용</th>
              </tr>
            </thead>
            <tbody>
              {data?.logs.map((entry: AdminLog) => {
                const details = describeDetails(entry.details);
                return (
                  <tr key={entry.id}>
                    <td>{formatDateTime(entry.created_at)}</td>
                    <td>
                      <Person name={entry.admin_username} id={entry.admin_id} />
                      {entry.source === "cli" && <span className="admin-badge admin-badge-muted">CLI</span>}
                    </td>
                    <td>
                      <span className={badgeClass(entry.action)}>{actionLabel(entry.action)}</span>
                    </td>
                    <td>
                      <Person name={entry.target_username} id={entry.target_user_id} />
                    </td>
                    <td className="admin-details" title={details || undefined}>
                      {details ? truncate(details, DETAILS_MAX) : <span className="muted">-</span>}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {data && data.logs.length === 0 && <p className="admin-empty muted">관리자 로그가 없습니다.</p>}
          {logs.loading && !data && <p className="admin-empty muted">불러오는 중...</p>}
        </div>
      )}

      {data && !logs.error && (
        <footer className="admin-list-footer">
          <span className="muted">
            {resultRange(data.total_count, data.current_page, LOG_PAGE_SIZE, data.logs.length, "건")}
          </span>
          <Pagination
            page={data.current_page}
            totalPages={data.total_pages}
            onPage={(next) => navigate({ search: { page: next } })}
            label="관리자 로그 페이지"
          />
        </footer>
      )}
    </section>
  );
}
