import { Navigate, useNavigate } from "@tanstack/react-router";
import { useAtomValue } from "jotai";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { MSG } from "../../../../modules/kernel/account-rules";
import { api, isApiError } from "../../lib/api";
import { useDocumentTitle } from "../../lib/title";
import { tokens } from "../../lib/tokens";
import { TextField } from "../../ui/text-field";
import { session, sessionAtom } from "../session/atoms";
import type { User } from "../session/types";
import { useHistoryState } from "./history-state";

export const RESET_TEXT = {
  loginFirst: "비밀번호를 재설정하려면 먼저 로그인해주세요.",
  required: "새 비밀번호와 비밀번호 확인을 모두 입력해주세요.",
  tokenMissing: "인증 토큰이 없습니다. 다시 로그인해주세요.",
  expired: "인증이 만료되었습니다. 다시 로그인해주세요.",
  failed: "비밀번호 재설정에 실패했습니다.",
  success: "비밀번호가 성공적으로 변경되었습니다. 새 비밀번호로 다시 로그인해주세요.",
} as const;

const SUCCESS_REDIRECT_MS = 3000;
const EXPIRED_REDIRECT_MS = 2000;

type Phase = { kind: "idle" } | { kind: "submitting" } | { kind: "success" } | { kind: "error"; message: string };

/**
 * Forced password change (spec part 2 "Password reset"): needs the stored token and the user handed over by the
 * login page (or a reloaded session that still requires the reset); otherwise it sends the visitor to /login.
 */
export function PasswordResetPage() {
  useDocumentTitle("비밀번호 재설정");
  const handed = useHistoryState();
  const current = useAtomValue(sessionAtom);
  // Read once: logging out after success must not turn this page into a redirect before the message is read.
  const [user] = useState<User | null>(
    () => handed.resetUser ?? (current.status === "password_reset_required" ? current.user : null),
  );
  const [hasToken] = useState(() => tokens.access() !== null);
  if (!user || !hasToken)
    return <Navigate to="/login" replace state={{ loginMessage: RESET_TEXT.loginFirst } as never} />;
  return <PasswordResetForm user={user} />;
}

function PasswordResetForm({ user }: { user: User }) {
  const navigate = useNavigate();
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [phase, setPhase] = useState<Phase>({ kind: "idle" });
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  /** Logs out now and goes to /login after `delay` ms with a notice and the e-mail prefilled. */
  function leaveAfter(delay: number, loginMessage: string) {
    void session.logout({ to: null });
    timer.current = setTimeout(() => {
      void navigate({ to: "/login", state: { loginMessage, email: user.email } as never });
    }, delay);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!password || !confirm) {
      setPhase({ kind: "error", message: RESET_TEXT.required });
      return;
    }
    if (password !== confirm) {
      setPhase({ kind: "error", message: MSG.passwordMismatch });
      return;
    }
    if (!tokens.access()) {
      setPhase({ kind: "error", message: RESET_TEXT.tokenMissing });
      return;
    }
    setPhase({ kind: "submitting" });
    try {
      await api.post(
        "/api/users/reset-password",
        { new_password: password, confirm_password: confirm },
        { redirectOnAuthFailure: false },
      );
      setPhase({ kind: "success" });
      leaveAfter(SUCCESS_REDIRECT_MS, RESET_TEXT.success);
    } catch (failure) {
      if (isApiError(failure) && failure.status === 401) {
        setPhase({ kind: "error", message: RESET_TEXT.expired });
        leaveAfter(EXPIRED_REDIRECT_MS, RESET_TEXT.expired);
        return;
      }
      const message =
        isApiError(failure) && failure.status > 0 && failure.status < 500 ? failure.detail : RESET_TEXT.failed;
      setPhase({ kind: "error", message: message || RESET_TEXT.failed });
    }
  }

  // Done: the success text alone (spec), not a greyed form, until the page goes to /login.
  if (phase.kind === "success")
    return (
      <section className="auth-page">
        <div className="card auth-card">
          <h1 className="auth-title">비밀번호 재설정</h1>
          <p className="notice notice-success" role="status">
            {RESET_TEXT.success}
          </p>
        </div>
      </section>
    );

  const busy = phase.kind === "submitting";
  return (
    <section className="auth-page">
      <form className="card auth-card" onSubmit={submit} noValidate>
        <h1 className="auth-title">비밀번호 재설정</h1>
        <p className="auth-subtitle">
          <strong>{user.username}</strong>님, 안녕하세요. 계정 보호를 위해 새 비밀번호를 설정해야 합니다.
        </p>
        {phase.kind === "error" && (
          <p className="notice notice-error" role="alert">
            {phase.message}
          </p>
        )}
        <TextField
          label="새 비밀번호"
          type="password"
          name="new_password"
          autoComplete="new-password"
          disabled={busy}
          required
          value={password}
          onValue={setPassword}
        />
        <TextField
          label="새 비밀번호 확인"
          type="password"
          name="confirm_password"
          autoComplete="new-password"
          disabled={busy}
          required
          value={confirm}
          onValue={setConfirm}
        />
        <div className="button-row">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {phase.kind === "submitting" ? "변경 중..." : "비밀번호 변경"}
          </button>
          <button
            type="button"
            className="btn btn-ghost"
            disabled={phase.kind === "submitting"}
            onClick={() => session.logout({ to: "/login" })}
          >
            로그아웃
          </button>
        </div>
      </form>
    </section>
  );
}
