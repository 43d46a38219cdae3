import { Navigate, Outlet, useRouterState } from "@tanstack/react-router";
import { useAtomValue } from "jotai";
import { lazy, Suspense } from "react";
import { onlineAtom } from "../../lib/online";
import { sessionErrorAtom, sessionStatusAtom } from "../session/atoms";
import { ConnectionBanner } from "./connection-banner";
import { Footer } from "./footer";
import { lazyNotice } from "./lazy-notice";
import { Navbar } from "./navbar";
import { isRoomPath } from "./paths";
import { RouteNotice } from "./route-notice";

// Members only, and not on the first load's critical path: loaded once someone is logged in.
const ModerationNotices = lazy(() =>
  import("../moderation/moderation-notices").then((m) => ({ default: m.ModerationNotices })),
);

// Shown only when the network or the session is lost: loaded then (or once the first load is over), not with it.
const OfflineBanner = lazyNotice(() => import("./offline-banner").then((m) => m.OfflineBanner));
const SessionNotice = lazyNotice(() => import("./session-notice").then((m) => m.SessionNotice));

/** Pages a user who must reset the password may still open (spec part 2 §1: reset before normal use). */
const OPEN_DURING_RESET = new Set(["/password-reset", "/login", "/register"]);
/** The login page explains a lost session itself. */
const OWN_SESSION_NOTICE = new Set(["/login"]);

/** The layout every route renders in: navbar, notices, the page, and the footer outside rooms. */
export function AppShell() {
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const status = useAtomValue(sessionStatusAtom);
  const online = useAtomValue(onlineAtom);
  const sessionError = useAtomValue(sessionErrorAtom);
  const inRoom = isRoomPath(pathname);
  if (status === "password_reset_required" && !OPEN_DURING_RESET.has(pathname)) {
    return <Navigate to="/password-reset" replace />;
  }
  return (
    <div className={inRoom ? "app app-room" : "app"}>
      <Navbar />
      {!online && (
        <Suspense fallback={null}>
          <OfflineBanner />
        </Suspense>
      )}
      <ConnectionBanner />
      {sessionError && !OWN_SESSION_NOTICE.has(pathname) && (
        <Suspense fallback={null}>
          <SessionNotice />
        </Suspense>
      )}
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
