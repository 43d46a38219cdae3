import { Link } from "@tanstack/react-router";
import { lazy, Suspense } from "react";
import { useDocumentTitle } from "../../lib/title";
import { adminApi } from "./admin-api";
import { formatNumber } from "./format";
import { LoadError } from "./load-error";
import { reportsApi } from "./reports-api";
import type { DashboardStats } from "./types";
import { useLoad } from "./use-load";

// recharts is about half of the app's script: it loads only when an administrator opens the dashboard.
const DailyChart = lazy(() => import("./daily-chart"));

const CARDS: { key: keyof Omit<DashboardStats, "daily">; label: string; hint: string }[] = [
  { key: "total_users", label: "전체 사용자", hint: "가입한 모든 계정" },
  { key: "active_users_today", label: "오늘 활성 사용자", hint: "오늘(서울 기준) 로그인한 사용자" },
  { key: "total_games_played", label: "전체 게임 수", hint: "지금까지 끝난 게임" },
  { key: "games_played_today", label: "오늘 게임 수", hint: "오늘(서울 기준) 끝난 게임" },
  { key: "total_admin_actions", label: "관리자 작업", hint: "관리자 로그에 남은 작업" },
  { key: "recent_registrations", label: "최근 가입자", hint: "최근 7일 동안 가입" },
];

export function DashboardPage() {
  useDocumentTitle("관리자 대시보드");
  const stats = useLoad((signal) => adminApi.dashboard(signal), "dashboard", "데이터를 불러오는데 실패했습니다.", {
    serverText: true,
  });
  const reports = useLoad((signal) => reportsApi.summary(signal), "report-summary", "신고 수를 불러오지 못했습니다.");
  return (
    <section className="admin-page">
      <header className="admin-header">
        <h1 className="page-title">관리자 대시보드</h1>
        <p className="muted">타자마당의 현재 상황을 한눈에 봅니다.</p>
      </header>

      {stats.error && <LoadError message={stats.error.message} onRetry={stats.reload} />}
      {!stats.error && (
        <ul className="admin-stat-grid" aria-busy={stats.loading}>
          {CARDS.map((card) => (
            <li key={card.key} className="card admin-stat-card">
              <span className="admin-stat-label">{card.label}</span>
              <strong className="admin-stat-value" data-stat={card.key}>
                {stats.data ? formatNumber(stats.data[card.key]) : "…"}
              </strong>
              <span className="admin-stat-hint muted">{card.hint}</span>
            </li>
          ))}
        </ul>
      )}

      {/* The card is there from the first paint, at the chart's height: appearing with the answer it pushed the
          links below it down (a layout shift of 0.13 on a phone). */}
      {!stats.error && (
        <section className="card admin-chart-card" aria-labelledby="admin-chart-title" aria-busy={!stats.data}>
          <h2 id="admin-chart-title" className="admin-section-title">
            최근 30일 가입자와 게임 수
          </h2>
          {stats.data ? (
            <Suspense fallback={<ChartPlaceholder />}>
              <DailyChart daily={stats.data.daily} />
            </Suspense>
          ) : (
            <ChartPlaceholder />
          )}
        </section>
      )}

      <ul className="admin-link-grid">
        <li>
          <Link to="/admin/reports" className="card admin-link-card">
            <strong>
              신고 처리{" "}
              <span className="admin-badge admin-badge-danger" data-stat="open_reports">
                {reports.data ? `처리 전 ${formatNumber(reports.data.reports)}건` : reports.error ? "알 수 없음" : "…"}
              </span>
            </strong>
            <span className="muted">대상별로 묶인 신고와 증거, 제한·정지·랭킹 제외·경고</span>
          </Link>
        </li>
        <li>
          <Link to="/admin/profanity" className="card admin-link-card">
            <strong>금칙어 관리</strong>
            <span className="muted">채팅에서 가리고 글·이름에서 거절하는 단어 목록</span>
          </Link>
        </li>
        <li>
          <Link to="/admin/users" className="card admin-link-card">
            <strong>사용자 관리</strong>
            <span className="muted">사용자 검색, 사용자명 변경, 계정 활성화·비활성화, 권한 관리</span>
          </Link>
        </li>
        <li>
          <Link to="/admin/logs" className="card admin-link-card">
            <strong>관리자 로그</strong>
            <span className="muted">웹 콘솔과 CLI에서 한 모든 관리자 작업 기록</span>
          </Link>
        </li>
        <li>
          <div className="card admin-link-card admin-link-disabled" aria-disabled="true">
            <strong>
              시스템 설정 <span className="admin-badge admin-badge-muted">준비 중</span>
            </strong>
            <span className="muted">서버 설정 화면은 준비 중입니다.</span>
          </div>
        </li>
      </ul>
    </section>
  );
}

/** As tall as the chart (admin.css), so nothing moves when it comes. */
function ChartPlaceholder() {
  return <p className="muted admin-chart-placeholder">차트를 불러오는 중...</p>;
}
