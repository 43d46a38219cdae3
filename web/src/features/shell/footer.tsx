import { Link } from "@tanstack/react-router";
import { useAtomValue } from "jotai";
import { PRODUCT_NAME } from "../../lib/title";
import { isAdminAtom } from "../session/atoms";

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
        <Link to="/admin/dashboard" className="fab" aria-label="관리자 대시보드">
          <span className="fab-icon" aria-hidden="true" />
          대시보드
        </Link>
      )}
    </footer>
  );
}
