import { getRouteApi, Link } from "@tanstack/react-router";
import { type FormEvent, useEffect, useState } from "react";
import { useDocumentTitle } from "../../lib/title";
import { adminApi, USER_PAGE_SIZE } from "./admin-api";
import { AdminPageHeader } from "./admin-page-header";
import { formatDateTime, formatNumber, resultRange } from "./format";
import { LoadError } from "./load-error";
import { Pagination } from "./pagination";
import type { StatusFilter, UserListSearch, UserSortField } from "./types";
import { useLoad } from "./use-load";

const route = getRouteApi("/admin/users");

const COLUMNS: { field: UserSortField | null; label: string }[] = [
  { field: "username", label: "사용자명" },
  { field: null, label: "ID" },
  { field: null, label: "이메일" },
  { field: "level", label: "레벨" },
  { field: "games_played", label: "게임 수" },
  { field: "last_login_at", label: "마지막 로그인" },
  { field: "created_at", label: "가입일" },
  { field: null, label: "상태" },
  { field: null, label: "관리" },
];

export const DEFAULT_USER_SEARCH: UserListSearch = {
  page: 1,
  search: "",
  status: "all",
  sort_by: "created_at",
  sort_order: "desc",
};

const withDefaults = (search: Partial<UserListSearch>): UserListSearch => ({
  page: search.page ?? DEFAULT_USER_SEARCH.page,
  search: search.search ?? DEFAULT_USER_SEARCH.search,
  status: search.status ?? DEFAULT_USER_SEARCH.status,
  sort_by: search.sort_by ?? DEFAULT_USER_SEARCH.sort_by,
  sort_order: search.sort_order ?? DEFAULT_USER_SEARCH.sort_order,
});

/** Defaults are left out of the address, so /admin/users stays short. */
function compact(search: UserListSearch): Partial<UserListSearch> {
  const out: Partial<UserListSearch> = {};
  for (const key of Object.keys(search) as (keyof UserListSearch)[]) {
    if (search[key] !== DEFAULT_USER_SEARCH[key]) Object.assign(out, { [key]: search[key] });
  }
  return out;
}

export function UsersPage() {
  useDocumentTitle("사용자 관리");
  const search = withDefaults(route.useSearch());
  const navigate = route.useNavigate();
  const [text, setText] = useState(search.search);
  useEffect(() => setText(search.search), [search.search]);

  const list = useLoad(
    (signal) => adminApi.users(search, signal),
    JSON.stringify(search),
    "사용자 목록을 불러오는데 실패했습니다.",
  );
  const go = (next: Partial<UserListSearch>) => navigate({ search: compact({ ...search, ...next }) });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    go({ search: text.trim(), page: 1 });
  };
  const sortBy = (field: UserSortField) =>
    go({
      sort_by: field,
      sort_order: search.sort_by === field && search.sort_order === "desc" ? "asc" : "desc",
      page: 1,
    });

  const data = list.data;
  return (
    <section className="admin-page">
      <AdminPageHeader title="사용자 관리" />

      <form className="admin-toolbar" onSubmit={submit} aria-label="사용자 검색">
        <label className="field admin-search">
          <span className="sr-only">사용자 검색</span>
          <input
            className="input"
            type="search"
            name="search"
            placeholder="사용자명 또는 이메일로 검색"
            value={text}
            maxLength={100}
            onChange={(e) => setText(e.target.value)}
          />
        </label>
        <button type="submit" className="btn btn-primary">
          검색
        </button>
        <label className="field admin-status-filter">
          <span className="sr-only">상태</span>
          <select
            className="input"
            name="status"
            value={search.status}
            onChange={(e) => go({ status: e.target.value as StatusFilter, page: 1 })}
          >
            <option value="all">전체 상태</option>
            <option value="active">활성</option>
            <option value="inactive">비활성</option>
          </select>
        </label>
      </form>

      {list.error && <LoadError message={list.error.message} onRetry={list.reload} />}
      {!list.error && (
        <div className="card admin-table-wrap" aria-busy={list.loading}>
          <table className="admin-table">
            <thead>
              <tr>
                {COLUMNS.map(({ field, label }) => (
                  <th
                    key={label}
                    scope="col"
                    aria-sort={
                      field && search.sort_by === field
                        ? search.sort_order === "asc"
                          ? "ascending"
                          : "descending"
                        : undefined
                    }
                  >
                    {field ? (
                      <button type="button" className="admin-sort" onClick={() => sortBy(field)}>
                        {label}
                        <span aria-hidden="true">
                          {search.sort_by === field ? (search.sort_order === "asc" ? " ▲" : " ▼") : " ↕"}
                        </span>
                      </button>
                    ) : (
                      label
                    )}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {data?.users.map((user) => (
                <tr key={user.id}>
                  <td>
                    <span className="admin-username">{user.username}</span>
                    {user.is_admin && <span className="admin-badge admin-badge-admin">관리자</span>}
                  </td>
                  <td className="admin-num">{user.id}</td>
                  <td className="admin-email">{user.email}</td>
                  <td className="admin-num">{user.level}</td>
                  <td className="admin-num">{formatNumber(user.games_played)}</td>
                  <td>{formatDateTime(user.last_login_at)}</td>
                  <td>{formatDateTime(user.created_at)}</td>
                  <td>
                    <span
                      className={user.is_active ? "admin-badge admin-badge-active" : "admin-badge admin-badge-inactive"}
                    >
                      {user.is_active ? "활성" : "비활성"}
                    </span>
                  </td>
                  <td>
                    <Link
                      to="/admin/users/$userId"
                      params={{ userId: String(user.id) }}
                      className="btn btn-ghost btn-small"
                    >
                      상세
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {data && data.users.length === 0 && (
            <p className="admin-empty muted">
              {search.search || search.status !== "all" ? "조건에 맞는 사용자가 없습니다." : "사용자가 없습니다."}
            </p>
          )}
          {list.loading && !data && <p className="admin-empty muted">불러오는 중...</p>}
        </div>
      )}

      {data && !list.error && (
        <footer className="admin-list-footer">
          <span className="muted">{resultRange(data.total, data.current_page, USER_PAGE_SIZE, data.users.length)}</span>
          <Pagination
            page={data.current_page}
            totalPages={data.total_pages}
            onPage={(page) => go({ page })}
            label="사용자 목록 페이지"
          />
        </footer>
      )}
    </section>
  );
}
