import { useAtomValue } from "jotai";
import { onlineAtom } from "../../lib/online";
import { connectionErrorAtom, connectionStateAtom } from "../../lib/socket";

/**
 * The spec §8 connection texts with a reload prompt, while the real-time connection is down. Without any network
 * the offline banner says why instead (a reload would not help).
 */
export function ConnectionBanner() {
  const error = useAtomValue(connectionErrorAtom);
  const state = useAtomValue(connectionStateAtom);
  const online = useAtomValue(onlineAtom);
  if (!error || state === "open" || !online) return null;
  return (
    <div className="banner banner-warning" role="alert">
      <span className="banner-text">{error}</span>
      <button type="button" className="btn btn-small btn-light" onClick={() => window.location.reload()}>
        새로고침
      </button>
    </div>
  );
}
