import { Link, useRouterState } from "@tanstack/react-router";
import { useAtomValue } from "jotai";
import { session, sessionAtom } from "../session/atoms";

/**
 * A failed session check or refresh (spec part 1 §8): the user is anonymous now and is told why. When the server
 * ended the session (password changed elsewhere, a forced reset, a deactivation), the notice says so and offers the
 * login, which comes back to this page.
 */
export function SessionNotice() {
  const { error, ended } = useAtomValue(sessionAtom);
  const here = useRouterState({ select: (s) => s.location.href });
  if (!error) return null;
  return (
    <div className="banner banner-error" role="alert">
      <span className="banner-text">{error}</span>
      {ended && (
        <Link
          to="/login"
          state={{ loginMessage: error, returnTo: here } as never}
          className="btn btn-small btn-primary"
        >
          {ended === "deactivated" ? "로그인" : "다시 로그인"}
        </Link>
      )}
      <button type="button" className="btn btn-small btn-light" onClick={() => session.dismissError()}>
        닫기
      </button>
    </div>
  );
}
