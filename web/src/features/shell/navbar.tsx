import { Link, useRouterState } from "@tanstack/react-router";
import { useAtomValue } from "jotai";
import { useEffect, useState } from "react";
import { PRODUCT_NAME } from "../../lib/title";
import { MedalCount } from "../../ui/medals";
import { currentUserAtom, isAdminAtom, session, sessionStatusAtom, userStatsAtom } from "../session/atoms";
import { isRoomPath } from "./paths";
import { useSiteConfig } from "./site-config";

const MAIN_LINKS = [
  { to: "/", label: "홈", exact: true },
  { to: "/daily", label: "오늘의 문장" },
  { to: "/practice", label: "타자 연습" },
  { to: "/ranking", label: "랭킹" },
  { to: "/board", label: "자유게시판" },
  { to: "/duel", label: "1:1 타자 대결" },
] as const;

/** Navbar of spec part 1 §2; on narrow screens the links fold into a menu opened by the toggle. */
export function Navbar() {
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const [open, setOpen] = useState(false);
  const user = useAtomValue(currentUserAtom);
  const isAdmin = useAtomValue(isAdminAtom);
  const status = useAtomValue(sessionStatusAtom);
  const inRoom = isRoomPath(pathname);
  // The community's chat room is the deployment's own (EXTERNAL_CHAT_URL); without one there is no link to show.
  const chatUrl = useSiteConfig().external_chat_url;

  // A followed link closes the phone menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on navigation on purpose
  useEffect(() => setOpen(false), [pathname]);

  return (
    <header className="navbar">
      <div className="navbar-inner">
        <Link to="/" className="brand">
          {PRODUCT_NAME}
        </Link>
        {inRoom && <CompactStats />}
        <button
          type="button"
          className="menu-toggle"
          aria-expanded={open}
          aria-controls="main-menu"
          aria-label={open ? "메뉴 닫기" : "메뉴 열기"}
          onClick={() => setOpen((v) => !v)}
        >
          <span className="menu-toggle-bar" />
          <span className="menu-toggle-bar" />
          <span className="menu-toggle-bar" />
        </button>
        <nav id="main-menu" className={open ? "menu menu-open" : "menu"} aria-label="주 메뉴">
          <ul className="menu-links">
            {MAIN_LINKS.map((link) => (
              <li key={link.to}>
                <Link
                  to={link.to}
                  className="menu-link"
                  activeProps={{ className: "menu-link active" }}
                  activeOptions={{ exact: "exact" in link }}
                >
                  {link.label}
                </Link>
              </li>
            ))}
            {isAdmin && (
              <li>
                <Link to="/admin/dashboard" className="menu-link" activeProps={{ className: "menu-link active" }}>
                  관리자
                </Link>
              </li>
            )}
            {chatUrl && (
              <li>
                <a className="menu-link" href={chatUrl} target="_blank" rel="noopener noreferrer">
                  채팅방
                  <span className="sr-only"> (새 창)</span>
                </a>
              </li>
            )}
            <li>
              <Link to="/guilds/my" className="menu-link" activeProps={{ className: "menu-link active" }}>
                내 길드
              </Link>
            </li>
          </ul>
          <div className="menu-account">
            {user ? (
              <>
                <Link
                  to="/profile"
                  className="menu-link profile-link"
                  activeProps={{ className: "menu-link profile-link active" }}
                >
                  <span className="avatar" aria-hidden="true">
                    {[...user.username][0]}
                  </span>
                  <span className="profile-name">{user.username}</span>
                </Link>
                <button type="button" className="btn btn-ghost btn-small" onClick={() => session.logout()}>
                  로그아웃
                </button>
              </>
            ) : status === "password_reset_required" ? (
              <button
                type="button"
                className="btn btn-ghost btn-small"
                onClick={() => session.logout({ to: "/login" })}
              >
                로그아웃
              </button>
            ) : (
              <>
                <Link to="/login" className="btn btn-ghost btn-small">
                  로그인
                </Link>
                <Link to="/register" className="btn btn-primary btn-small">
                  회원가입
                </Link>
              </>
            )}
          </div>
        </nav>
      </div>
      {!inRoom && <UserStatsBar />}
    </header>
  );
}

/** Level, coins, points and medals of the signed-in user (live through `user:stats_update`), under the navbar. */
function UserStatsBar() {
  const stats = useAtomValue(userStatsAtom);
  if (!stats) return null;
  return (
    <div className="stats-bar">
      <UserStats />
    </div>
  );
}

/**
 * The figures inside a room, in the navbar's own row so the room keeps its height: the same figures, live through
 * `user:stats_update` like the full bar (the medals where there is room).
 */
function CompactStats() {
  return <UserStats compact />;
}

function UserStats({ compact = false }: { compact?: boolean }) {
  const stats = useAtomValue(userStatsAtom);
  if (!stats) return null;
  return (
    <dl className={compact ? "stats stats-compact" : "stats"} aria-label="내 현황">
      <Stat label="레벨" value={`Lv.${stats.level}`} className="stat-level" hiddenLabel={compact} />
      <Stat label="코인" value={stats.coins.toLocaleString("ko-KR")} className="stat-coins" />
      <Stat label="포인트" value={stats.points.toLocaleString("ko-KR")} className="stat-points" />
      <div className="stat stat-medals">
        <dt className="sr-only">메달</dt>
        <dd>
          <MedalCount kind="gold" count={stats.gold_medals} />
          <MedalCount kind="silver" count={stats.silver_medals} />
          <MedalCount kind="bronze" count={stats.bronze_medals} />
        </dd>
      </div>
    </dl>
  );
}

function Stat({
  label,
  value,
  className,
  hiddenLabel = false,
}: {
  label: string;
  value: string;
  className: string;
  hiddenLabel?: boolean;
}) {
  return (
    <div className={`stat ${className}`}>
      <dt className={hiddenLabel ? "sr-only" : undefined}>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}
