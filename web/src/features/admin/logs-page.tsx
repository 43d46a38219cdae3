import { getRouteApi } from "@tanstack/react-router";
import { ACTION_LABELS, actionLabel, describeDetails } from "../../../../modules/admin/labels";
import { useDocumentTitle } from "../../lib/title";
import { adminApi, LOG_PAGE_SIZE } from "./admin-api";
import { AdminPageHeader } from "./admin-page-header";
import { formatDateTime, resultRange, truncate } from "./format";
import { LoadError } from "./load-error";
import { Pagination } from "./pagination";
import type { AdminLog, LogActor, LogSearch } from "./types";
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

/** The administrator filter's option value: a web administrator by id, a CLI operator (no id) by name. */
const actorValue = (search: { admin_id?: number | null; admin_username?: string }) =>
  search.admin_id ? `id:${search.admin_id}` : search.admin_username ? `name:${search.admin_username}` : "";

const actorSearch = (value: string): Pick<LogSearch, "admin_id" | "admin_username"> =>
  value.startsWith("id:")
    ? { admin_id: Number(value.slice(3)), admin_username: undefined }
    : value.startsWith("name:")
      ? { admin_id: undefined, admin_username: value.slice(5) }
      : { admin_id: undefined, admin_username: undefined };

const actorLabel = (actor: LogActor) =>
  `${actor.admin_username}${actor.admin_id === null ? "" : ` (ID ${actor.admin_id})`} · ${actor.count}건`;

/**
 * Filters by action and by administrator, kept in the address: routine entries (list views) no longer bury a
 * rename. The actors come from the log itself, so a CLI operator can be chosen too.
 */
function LogFilters({ search, onChange }: { search: LogSearch; onChange: (next: Partial<LogSearch>) => void }) {
  const actors = useLoad((signal) => adminApi.logActors(signal), "log-actors", "관리자 목록을 가져오지 못했습니다.");
  const selected = actorValue(search);
  const listed = actors.data?.admins ?? [];
  const known = listed.some((actor) => actorValue(actor) === selected);
  return (
    <form className="admin-toolbar" aria-label="관리자 로그 필터" onSubmit={(e) => e.preventDefault()}>
      <label className="field admin-log-filter">
        <span className="field-label">작업</span>
        <select
          className="input"
          name="action"
          value={search.action ?? ""}
          onChange={(e) => onChange({ action: e.target.value || undefined, page: undefined })}
        >
          <option value="">모든 작업</option>
          {Object.entries(ACTION_LABELS).map(([action, label]) => (
            <option key={action} value={action}>
              {label}
            </option>
          ))}
          {search.action && !(search.action in ACTION_LABELS) && <option value={search.action}>{search.action}</option>}
        </select>
      </label>
      <label className="field admin-log-filter">
        <span className="field-label">관리자</span>
        <select
          className="input"
          name="admin"
          value={selected}
          onChange={(e) => onChange({ ...actorSearch(e.target.value), page: undefined })}
        >
          <option value="">모든 관리자</option>
          {listed.map((actor) => (
            <option key={actorValue(actor)} value={actorValue(actor)}>
              {actorLabel(actor)}
            </option>
          ))}
          {selected && !known && <option value={selected}>{search.admin_username ?? `ID ${search.admin_id}`}</option>}
        </select>
      </label>
      {(search.action || selected) && (
        <button
          type="button"
          className="btn btn-ghost admin-log-filter-clear"
          onClick={() =>
            onChange({ action: undefined, admin_id: undefined, admin_username: undefined, page: undefined })
          }
        >
          필터 해제
        </button>
      )}
    </form>
  );
}

export function LogsPage() {
  useDocumentTitle("관리자 로그");
  const search = route.useSearch();
  const page = search.page ?? 1;
  const navigate = route.useNavigate();
  const logs = useLoad(
    (signal) => adminApi.logs(search, signal),
    `logs:${page}:${search.action ?? ""}:${actorValue(search)}`,
    "관리자 로그를 가져오는데 실패했습니다.",
  );
  const data = logs.data;
  const filtered = Boolean(search.action || actorValue(search));

  return (
    <section className="admin-page">
      <AdminPageHeader title="관리자 로그">
        <p className="muted">웹 콘솔과 CLI(madang)에서 한 관리자 작업이 최신순으로 남습니다.</p>
      </AdminPageHeader>

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

      <LogFilters search={search} onChange={(next) => navigate({ search: (prev) => ({ ...prev, ...next }) })} />

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
          {data && data.logs.length === 0 && (
            <p className="admin-empty muted">
              {filtered ? "조건에 맞는 관리자 로그가 없습니다." : "관리자 로그가 없습니다."}
            </p>
          )}
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
            onPage={(next) => navigate({ search: (prev) => ({ ...prev, page: next }) })}
            label="관리자 로그 페이지"
          />
        </footer>
      )}
    </section>
  );
}
