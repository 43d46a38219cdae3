import { useAtomValue } from "jotai";
import { lazy, Suspense } from "react";
import { PRODUCT_NAME } from "../../lib/title";
import { isAdminAtom } from "../session/atoms";

// Administrators only: its code is not part of everyone's first load.
const DashboardFab = lazy(() => import("./dashboard-fab").then((m) => ({ default: m.DashboardFab })));

/** Footer (hidden on room routes by the shell) with the floating dashboard shortcut for administrators. */
export function Footer() {
  const isAdmin = useAtomValue(isAdminAtom);
  return (
    <footer className={isAdmin ? "footer footer-with-fab" : "footer"}>
      <div className="footer-inner">
        <span className="footer-brand">{PRODUCT_NAME}</span>
        <span className="muted">실시간 한국어 타자 게임 · 함께 치고, 함께 배우기</span>
      </div>
      {isAdmin && (
        <Suspense fallback={null}>
          <DashboardFab />
        </Suspense>
      )}
    </footer>
  );
}
