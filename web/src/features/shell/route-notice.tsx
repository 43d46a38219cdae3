import { useRouterState } from "@tanstack/react-router";
import { useState } from "react";
import type { AppHistoryState } from "../../lib/navigation";

/**
 * Why the visitor was sent to this page (router state `notice`, e.g. by the admin guard), above the page until
 * dismissed or the next navigation.
 */
export function RouteNotice() {
  const location = useRouterState({ select: (s) => s.location });
  const notice = (location.state as AppHistoryState).notice;
  const [dismissed, setDismissed] = useState<string | null>(null);
  if (!notice || dismissed === location.state.key) return null;
  return (
    <div className="banner banner-info" role="alert">
      <span className="banner-text">{notice}</span>
      <button type="button" className="btn btn-small btn-light" onClick={() => setDismissed(location.state.key ?? "")}>
        닫기
      </button>
    </div>
  );
}
