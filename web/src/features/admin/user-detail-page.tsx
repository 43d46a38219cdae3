import { getRouteApi, Link } from "@tanstack/react-router";
import { useAtomValue } from "jotai";
import { useState } from "react";
import { isApiError } from "../../lib/api";
import { useDocumentTitle } from "../../lib/title";
import { currentUserAtom } from "../session/atoms";
import { type AccountAction, adminApi } from "./admin-api";
import { formatDateTime, formatNumber, oneDecimal } from "./format";
import { LoadError } from "./load-error";
import type { AdminUser } from "./types";
import { useLoad } from "./use-load";
import { RENAME_DONE, UsernameModal } from "./username-modal";

const route = getRouteApi("/admin/users/$userId");

type Notice = { kind: "success" | "error"; text: string } | null;

export function UserDetailPage() {
  const { userId } = route.useParams();
  const id = Number(userId);
  const user = useLoad((signal) => adminApi.user(id, signal), `user:${id}`, "사용자 정보를 불러오는데 실패했습니다.");
  const [notice, setNotice] = useState<Notice>(null);
  const [renaming, setRenaming] = useState(false);
  useDocumentTitle(user.data ? `${user.data.username} - 사용자 상세` : "사용자 상세");

  const back = (
    <Link to="/admin/users" className="admin-back">
      ← 사용자 목록으로
    </Link>
  );
  if (user.error) {
    const missing = user.error.status === 404;
    return (
      <section className="admin-page">
        {back}
        <LoadError
          message={missing ? "사용자를 찾을 수 없습니다." : user.error.message}
          onRetry={missing ? undefined : user.reload}
        />
      </section>
    );
  }
  if (!user.data) {
    return (
      <section className="admin-page">
        {back}
        <p className="muted">불러오는 중...</p>
      </section>
    );
  }
  const u = user.data;
  return (
    <section className="admin-page">
      {back}
      <header className="admin-header admin-user-header">
        <h1 className="page-title">
          {u.username}
          {u.is_admin && <span className="admin-badge admin-badge-admin">관리자</span>}
          <span className={u.is_active ? "admin-badge admin-badge-active" : "admin-badge admin-badge-inactive"}>
            {u.is_active ? "활성" : "비활성"}
          </span>
        </h1>
        <button type="button" className="btn btn-primary" onClick={() => setRenaming(true)}>
          사용자명 변경
        </button>
      </header>
      {notice && (
        <p className={`notice notice-${notice.kind}`} role={notice.kind === "error" ? "alert" : "status"}>
          {notice.text}
        </p>
      )}

      <div className="admin-detail-grid">
        <BasicInfo user={u} />
        <GameStats user={u} />
        <AccountActions
          user={u}
          onDone={(ok, text) => {
            setNotice({ kind: ok ? "success" : "error", text });
            user.reload();
          }}
        />
        <LoginHistory userId={u.id} />
      </div>

      {renaming && (
        <UsernameModal
          user={u}
          onClose={() => setRenaming(false)}
          onRenamed={() => {
            setRenaming(false);
            setNotice({ kind: "success", text: RENAME_DONE });
            user.reload();
          }}
        />
      )}
    </section>
  );
}

function Facts({ title, rows }: { title: string; rows: [string, React.ReactNode][] }) {
  return (
    <section className="card admin-facts">
      <h2 className="admin-section-title">{title}</h2>
      <dl>
        {rows.map(([label, value]) => (
          <div key={label} className="admin-fact">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function BasicInfo({ user: u }: { user: AdminUser }) {
  return (
    <Facts
      title="기본 정보"
      rows={[
        ["ID", u.id],
        ["사용자명", u.username],
        ["이메일", u.email],
        ["상태", u.is_active ? "활성" : "비활성"],
        ["가입일", formatDateTime(u.created_at)],
        ["마지막 로그인", formatDateTime(u.last_login_at)],
        ["로그인 횟수", formatNumber(u.login_count)],
        ["비밀번호 재설정", u.password_reset_required ? "필요 (다음 로그인 때)" : "필요 없음"],
      ]}
    />
  );
}

function GameStats({ user: u }: { user: AdminUser }) {
  return (
    <Facts
      title="게임 통계"
      rows={[
        ["레벨", u.level],
        ["경험치", formatNumber(u.experience)],
        ["게임 수", formatNumber(u.games_played)],
        ["평균 타수", oneDecimal(u.avg_wpm)],
        ["평균 정확도", `${oneDecimal(u.avg_accuracy)}%`],
        [
          "메달",
          <span key="medals" className="admin-medals">
            <span className="medal medal-gold">금 {u.gold_medals}</span>
            <span className="medal medal-silver">은 {u.silver_medals}</span>
            <span className="medal medal-bronze">동 {u.bronze_medals}</span>
          </span>,
        ],
        ["포인트", formatNumber(u.points)],
        ["코인", formatNumber(u.coins)],
      ]}
    />
  );
}

interface ActionSpec {
  action: AccountAction;
  label: string;
  confirm: string;
  done: string;
  danger?: boolean;
}

function actionsFor(u: AdminUser): ActionSpec[] {
  return [
    u.is_active
      ? {
          action: "deactivate",
          label: "계정 비활성화",
          confirm: `${u.username} 님의 계정을 비활성화할까요? 로그인이 막히고 모든 접속이 끊깁니다.`,
          done: "계정을 비활성화했습니다.",
          danger: true,
        }
      : {
          action: "activate",
          label: "계정 활성화",
          confirm: `${u.username} 님의 계정을 다시 활성화할까요?`,
          done: "계정을 활성화했습니다.",
        },
    {
      action: "require-password-reset",
      label: "비밀번호 재설정 요구",
      confirm: `${u.username} 님에게 비밀번호 재설정을 요구할까요? 지금 접속이 끊기고 다음 로그인 때 새 비밀번호를 정해야 합니다.`,
      done: "비밀번호 재설정을 요구했습니다.",
    },
    u.is_admin
      ? {
          action: "revoke-admin",
          label: "관리자 권한 해제",
          confirm: `${u.username} 님의 관리자 권한을 해제할까요?`,
          done: "관리자 권한을 해제했습니다.",
          danger: true,
        }
      : {
          action: "grant-admin",
          label: "관리자 권한 부여",
          confirm: `${u.username} 님을 관리자로 만들까요? 모든 사용자 정보를 보고 바꿀 수 있게 됩니다.`,
          done: "관리자 권한을 부여했습니다.",
        },
  ];
}

function AccountActions({ user: u, onDone }: { user: AdminUser; onDone: (ok: boolean, text: string) => void }) {
  const me = useAtomValue(currentUserAtom);
  const [busy, setBusy] = useState(false);
  const self = me?.id === u.id;

  async function run(spec: ActionSpec) {
    if (!window.confirm(spec.confirm)) return;
    setBusy(true);
    try {
      await adminApi.accountAction(u.id, spec.action);
      onDone(true, spec.done);
    } catch (failure) {
      onDone(false, isApiError(failure) && failure.detail ? failure.detail : "요청을 처리하지 못했습니다.");
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card admin-facts">
      <h2 className="admin-section-title">계정 관리</h2>
      <div className="admin-actions">
        {actionsFor(u).map((spec) => {
          // The server refuses the first two for oneself; a reset would end this very session.
          const selfBlocked = self && spec.action !== "activate" && spec.action !== "grant-admin";
          return (
            <button
              key={spec.action}
              type="button"
              className={spec.danger ? "btn btn-ghost admin-danger" : "btn btn-ghost"}
              disabled={busy || selfBlocked}
              title={selfBlocked ? "자기 자신에게는 할 수 없습니다." : undefined}
              onClick={() => run(spec)}
            >
              {spec.label}
            </button>
          );
        })}
      </div>
      {self && (
        <p className="muted admin-hint">
          자기 자신의 계정은 비활성화하거나 관리자 권한을 해제하거나 비밀번호 재설정을 요구할 수 없습니다.
        </p>
      )}
      <p className="muted admin-hint">모든 작업은 관리자 로그에 남습니다.</p>
    </section>
  );
}

function LoginHistory({ userId }: { userId: number }) {
  const history = useLoad(
    (signal) => adminApi.loginHistory(userId, signal),
    `logins:${userId}`,
    "로그인 기록을 가져오는데 실패했습니다.",
  );
  const rows = history.data ?? [];
  return (
    <section className="card admin-facts admin-wide">
      <h2 className="admin-section-title">최근 로그인 기록</h2>
      {history.error && (
        <p className="notice notice-error" role="alert">
          {history.error.message}
        </p>
      )}
      {!history.loading && rows.length === 0 && <p className="muted">로그인 기록이 없습니다.</p>}
      {rows.length > 0 && (
        <div className="admin-table-wrap">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">시간</th>
                <th scope="col">IP</th>
                <th scope="col">브라우저 (User-Agent)</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((entry) => (
                <tr key={entry.id}>
                  <td>{formatDateTime(entry.login_time)}</td>
                  <td>{entry.ip_address || "unknown"}</td>
                  <td className="admin-agent">{entry.user_agent || "unknown"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
