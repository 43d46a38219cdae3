import { Link, useRouterState } from "@tanstack/react-router";
import { useAtomValue } from "jotai";
import { onlineAtom } from "../../lib/online";

export const OFFLINE_TEXT = {
  live: "인터넷 연결이 끊겼습니다. 실시간 게임은 연결이 필요합니다. 타자 연습은 계속할 수 있습니다.",
  practice: "인터넷 연결이 끊겼습니다. 타자 연습은 계속할 수 있고, 연습 기록은 연결되면 저장됩니다.",
} as const;

/**
 * Without a network connection (the app opened offline from the service worker, or the connection dropped): every
 * page says so once, here — rooms, duels, the daily game and the rest of the live pages need it — and points to
 * 타자 연습, which works offline.
 */
export function OfflineBanner() {
  const online = useAtomValue(onlineAtom);
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  if (online) return null;
  const practising = pathname === "/practice";
  return (
    <div className="banner banner-warning" role="alert" data-testid="offline-banner">
      <span className="banner-text">{practising ? OFFLINE_TEXT.practice : OFFLINE_TEXT.live}</span>
      {!practising && (
        <Link to="/practice" className="btn btn-small btn-light">
          타자 연습 하기
        </Link>
      )}
    </div>
  );
}
