import { useAtomValue } from "jotai";
import { session, sessionErrorAtom } from "../session/atoms";

/** A failed session check or refresh (spec part 1 §8): the user is anonymous now and is told why. */
export function SessionNotice() {
  const error = useAtomValue(sessionErrorAtom);
  if (!error) return null;
  return (
    <div className="banner banner-error" role="alert">
      <span className="banner-text">{error}</span>
      <button type="button" className="btn btn-small btn-light" onClick={() => session.dismissError()}>
        닫기
      </button>
    </div>
  );
}
