import { Navigate, Outlet, useRouterState } from "@tanstack/react-router";
import { useAtomValue } from "jotai";
import { lazy, Suspense } from "react";
import { sessionStatusAtom } from "../session/atoms";
import { ConnectionBanner } from "./connection-banner";
import { Footer } from "./footer";
import { Navbar } from "./navbar";
import { OfflineBanner } from "./offline-banner";
import { isRoomPath } from "./paths";
import { RouteNotice } from "./route-notice";
import { SessionNotice } from "./session-notice";

// Members only, and not on the first load's critical path: loaded once someone is logged in.
const ModerationNotices = lazy(() =>
  import("../moderation/moderation-notices").then((m) => ({ default: m.ModerationNotices })),
);

/** Pages a user who must reset the password may still open (spec part 2 §1: reset before normal use). */
const OPEN_DURING_RESET = new Set(["/password-reset", "/login", "/register"]);
/** The login page explains a lost session itself. */
const OWN_SESSION_NOTICE = new Set(["/login"]);

/** The layout every route renders in: navbar, notices, the page, and the footer outside rooms. */
export function AppShell() {
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const status = useAtomValue(sessionStatusAtom);
  const inRoom = isRoomPath(pathname);
  if (status === "password_reset_required" && !OPEN_DURING_RESET.has(pathname)) {
    return <Navigate to="/password-reset" replace />;
  }
  return (
    <div className={inRoom ? "app app-room" : "app"}>
      <Navbar />
      <OfflineBanner />
      <ConnectionBanner />
      {!OWN_SESSION_NOTICE.has(pathname) && <SessionNotice />}
      {status === "authenticated" && (
        <Suspense fallback={null}>
          <ModerationNotices />
        </Suspense>
      )}
      <RouteNotice />
      <main className="main" id="main">
        <Outlet />
      </main>
      {!inRoom && <Footer />}
    </div>
  );
}
