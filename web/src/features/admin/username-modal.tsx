import { type FormEvent, useEffect, useRef, useState } from "react";
import { checkRename } from "../../../../modules/kernel/account-rules";
import { isApiError } from "../../lib/api";
import { ErrorNotice } from "../../ui/error-notice";
import { adminApi } from "./admin-api";
import type { AdminUser } from "./types";

export const RENAME_FAILED = "사용자 이름 변경에 실패했습니다.";
export const RENAME_DONE = "사용자명이 성공적으로 변경되었습니다.";
const UNIQUE_RULE = "다른 사용자와 겹치지 않아야 함 (대소문자 구분 없음)";

/**
 * The administrator's username dialog (spec part 2 §5): the server's rename rule (kernel `checkRename`) checked as
 * the name is typed — each rule listed with its state, the first failing rule's message as the alert (the spec's
 * 사용자명은 최소 2자 이상이어야 합니다. below 2 characters), confirm disabled while a rule fails; an unchanged name
 * closes without a request, the reason is optional.
 */
export function UsernameModal({
  user,
  onClose,
  onRenamed,
}: {
  user: AdminUser;
  onClose: () => void;
  onRenamed: (user: AdminUser) => void;
}) {
  const [name, setName] = useState(user.username);
  const [reason, setReason] = useState("");
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const trimmed = name.trim();
  const rule = checkRename(name);

  useEffect(() => {
    input.current?.select();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") onClose();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onClose]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!rule.ok || saving) return;
    if (trimmed === user.username) {
      onClose();
      return;
    }
    setSaving(true);
    setError(null);
    try {
      onRenamed(await adminApi.rename(user.id, trimmed, reason));
    } catch (failure) {
      setError(isApiError(failure) && failure.status !== 0 && failure.detail ? failure.detail : RENAME_FAILED);
      setSaving(false);
    }
  }

  return (
    <div className="modal-backdrop" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <form
        className="card modal-card admin-modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby="rename-title"
        onSubmit={submit}
        noValidate
      >
        <h2 id="rename-title" className="admin-section-title">
          사용자명 변경
        </h2>
        <p className="muted">
          현재 사용자명: <strong>{user.username}</strong> (ID {user.id})
        </p>
        <label className="field">
          <span className="field-label">새 사용자명</span>
          <input
            ref={input}
            className="input"
            name="new_username"
            value={name}
            maxLength={24}
            autoComplete="off"
            aria-invalid={!rule.ok}
            aria-describedby="rename-rules"
            onChange={(e) => setName(e.target.value)}
          />
        </label>
        {rule.error && (
          <p className="notice notice-error" role="alert">
            {rule.error}
          </p>
        )}
        <ul className="admin-rules muted" id="rename-rules">
          {rule.checks.map((check) => (
            <li key={check.label} className={check.ok ? undefined : "check-bad"}>
              {check.label}
              {!check.ok && <span className="sr-only"> (미충족)</span>}
            </li>
          ))}
          <li>{UNIQUE_RULE}</li>
        </ul>
        <label className="field">
          <span className="field-label">변경 사유 (선택)</span>
          <textarea
            className="input admin-textarea"
            name="reason"
            value={reason}
            maxLength={500}
            rows={3}
            placeholder="관리자 로그에 함께 남습니다."
            onChange={(e) => setReason(e.target.value)}
          />
        </label>
        <ErrorNotice text={error} />
        <div className="button-row admin-modal-actions">
          <button type="button" className="btn btn-ghost" onClick={onClose} disabled={saving}>
            취소
          </button>
          <button type="submit" className="btn btn-primary" disabled={!rule.ok || saving}>
            {saving ? "변경 중..." : "변경"}
          </button>
        </div>
      </form>
    </div>
  );
}
