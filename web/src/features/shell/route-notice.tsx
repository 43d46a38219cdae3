import { useRouterState } from "@tanstack/react-router";
import { useState } from "react";
import type { AppHistoryState } from "../../lib/navigation";

/**
 * Why the visitor was sent to this page (router state `notice`, e.g. by the admin guard), above the page until
 * dismissed or the next navigation.
 */
export function RouteNotice() {
  const state = useRouterState({ select: (s) => s.location.state });
  const notice = (state as AppHistoryState).notice;
  // Each history entry has its own key: a notice dismissed on one visit does not hide the next one.
  const visit = state.__TSR_key ?? state.key ?? notice;
  const [dismissed, setDismissed] = useState<string | null>(null);
  if (!notice || dismissed === visit) return null;
  return (
    <div className="banner banner-info" role="alert">
      <span className="banner-text">{notice}</span>
      <button type="button" className="btn btn-small btn-light" onClick={() => setDismissed(visit ?? null)}>
        닫기
      </button>
    </div>
  );
}
