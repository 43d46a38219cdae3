import { useAtomValue } from "jotai";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { NOTE_MAX, REPORT_REASONS, type ReportReason } from "../../../../modules/moderation/rules";
import { isApiError } from "../../lib/api";
import { ErrorNotice } from "../../ui/error-notice";
import { blockedUsersAtom, setBlock, showBlocked } from "./blocks";
import { moderationApi, type ReportTarget } from "./moderation-api";

export const REPORT_FAILED = "신고를 보내지 못했습니다. 잠시 후 다시 시도해주세요.";

/**
 * The report dialog (modules/moderation README "Reports"): one reason of five, an optional note (500 characters),
 * the server's answer (received, or why not: already reported, oneself, gone). `subject` says what is reported.
 * With a known author it also blocks them (or takes the block back): their lines and posts are hidden for the viewer.
 * Loaded when a member opens it (report-dialog.tsx's ReportButton), not with the pages that show the button.
 */
export function ReportDialog({
  target,
  subject,
  authorId,
  onClose,
}: {
  target: ReportTarget;
  subject: string;
  /** The author (a member): the dialog also blocks or unblocks them. */
  authorId?: number | null;
  onClose: () => void;
}) {
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [note, setNote] = useState("");
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const titleId = useId();
  const blockedIds = useAtomValue(blockedUsersAtom);
  const [blockText, setBlockText] = useState<string | null>(null);
  // A block changed here is applied to the page when the dialog closes: hiding the author's lines at once would
  // take the line this dialog belongs to (and the dialog) away before the member reads the answer.
  const [changedBlock, setChangedBlock] = useState<boolean | null>(null);
  const isBlocked = changedBlock ?? (authorId != null && blockedIds.has(authorId));

  async function toggleBlock() {
    if (authorId == null) return;
    try {
      setBlockText(await setBlock(authorId, !isBlocked));
      setChangedBlock(!isBlocked);
    } catch (failure) {
      setBlockText(isApiError(failure) && failure.detail ? failure.detail : "차단하지 못했습니다.");
    }
  }

  const close = () => {
    if (authorId != null && changedBlock !== null) showBlocked(authorId, changedBlock);
    onClose();
  };
  const closeRef = useRef(close);
  closeRef.current = close;
  const first = useRef<HTMLInputElement>(null);

  useEffect(() => {
    first.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") closeRef.current();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!reason || sending) return;
    setSending(true);
    setError(null);
    try {
      setDone((await moderationApi.report(target, reason, note)).detail);
    } catch (failure) {
      setError(isApiError(failure) && failure.status !== 0 && failure.detail ? failure.detail : REPORT_FAILED);
    } finally {
      setSending(false);
    }
  }

  return (
    <div className="modal-backdrop" onClick={(e) => e.target === e.currentTarget && close()}>
      <form className="card modal-card" role="dialog" aria-modal="true" aria-labelledby={titleId} onSubmit={submit}>
        <h2 id={titleId} className="report-title">
          신고하기
        </h2>
        <p className="report-subject">{subject}</p>
        {done ? (
          <p className="notice notice-success" role="status">
            {done}
          </p>
        ) : (
          <>
            <fieldset className="report-reasons">
              <legend className="field-label">사유</legend>
              {REPORT_REASONS.map((option, i) => (
                <label key={option} className="report-reason">
                  <input
                    ref={i === 0 ? first : undefined}
                    type="radio"
                    name="reason"
                    value={option}
                    checked={reason === option}
                    onChange={() => setReason(option)}
                  />
                  <span>{option}</span>
                </label>
              ))}
            </fieldset>
            <label className="field">
              <span className="field-label">설명 (선택)</span>
              <textarea
                className="input report-note"
                name="note"
                value={note}
                maxLength={NOTE_MAX}
                rows={3}
                placeholder="관리자에게 전할 내용이 있으면 적어주세요."
                onChange={(e) => setNote(e.target.value)}
              />
            </label>
            <ErrorNotice text={error} />
          </>
        )}
        {blockText && (
          <p className="notice notice-info" role="status">
            {blockText}
          </p>
        )}
        <div className="button-row report-actions">
          {authorId != null && (
            <button type="button" className="btn btn-ghost report-block" onClick={toggleBlock}>
              {isBlocked ? "차단 풀기" : "이 사용자 차단"}
            </button>
          )}
          <button type="button" className="btn btn-ghost" onClick={close}>
            {done ? "닫기" : "취소"}
          </button>
          {!done && (
            <button type="submit" className="btn btn-primary" disabled={!reason || sending}>
              {sending ? "보내는 중..." : "신고"}
            </button>
          )}
        </div>
      </form>
    </div>
  );
}
