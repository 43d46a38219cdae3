import { useAtomValue } from "jotai";
import { useEffect, useState } from "react";
import { formatDateTime } from "../../lib/format";
import { useSocketEvent } from "../../lib/socket";
import { currentUserAtom } from "../session/atoms";
import { setBlockedUsers } from "./blocks";
import { type Mine, type MuteState, moderationApi } from "./moderation-api";

/**
 * What moderation tells a member wherever they are (and whom they blocked, read with it) (modules/moderation README "Enforcement"): an administrator's
 * warning, shown after login until confirmed, and a mute in force (read at login, announced live by the server on
 * `moderation:muted`, gone on `moderation:unmuted` or at its end).
 */
export function ModerationNotices() {
  const me = useAtomValue(currentUserAtom);
  const userId = me?.id ?? null;
  const [notices, setNotices] = useState<Mine["notices"]>([]);
  const [mute, setMute] = useState<MuteState | null>(null);

  useEffect(() => {
    setNotices([]);
    setMute(null);
    setBlockedUsers([]);
    if (userId === null) return;
    const controller = new AbortController();
    moderationApi.mine(controller.signal).then(
      (mine) => {
        setNotices(mine.notices);
        setMute(mine.mute);
        setBlockedUsers(mine.blocked);
      },
      () => {},
    );
    return () => controller.abort();
  }, [userId]);

  useSocketEvent("moderation:muted", (payload) => setMute(payload));
  useSocketEvent("moderation:unmuted", () => setMute(null));

  // A mute ends by itself: the banner goes at its end.
  useEffect(() => {
    if (!mute) return;
    const left = Date.parse(mute.until) - Date.now();
    const timer = setTimeout(() => setMute(null), Math.max(0, Math.min(left, 2 ** 31 - 1)));
    return () => clearTimeout(timer);
  }, [mute]);

  const notice = notices[0];
  async function confirm() {
    if (!notice) return;
    setNotices((list) => list.slice(1));
    await moderationApi.seen(notice.id).catch(() => {});
  }

  return (
    <>
      {mute && (
        <div className="banner banner-error moderation-mute" role="status" data-testid="mute-banner">
          <span className="banner-text">{mute.detail}</span>
        </div>
      )}
      {notice && (
        <div className="modal-backdrop">
          <div
            className="card modal-card"
            role="alertdialog"
            aria-modal="true"
            aria-labelledby="warning-title"
            aria-describedby="warning-text"
          >
            <h2 id="warning-title" className="report-title">
              관리자 경고
            </h2>
            <p id="warning-text" className="warning-text">
              {notice.message}
            </p>
            <p className="muted warning-time">{formatDateTime(notice.created_at)}</p>
            <div className="button-row report-actions">
              {/* biome-ignore lint/a11y/noAutofocus: the warning must be acknowledged before anything else */}
              <button type="button" className="btn btn-primary" autoFocus onClick={confirm}>
                확인
              </button>
            </div>
          </div>
        </div>
      )}
    </>
  );
}
