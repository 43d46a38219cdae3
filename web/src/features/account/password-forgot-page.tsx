import { Link, useNavigate, useSearch } from "@tanstack/react-router";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { checkPassword, MSG } from "../../../../modules/kernel/account-rules";
import { api, isApiError } from "../../lib/api";
import { useDocumentTitle } from "../../lib/title";
import { ErrorNotice } from "../../ui/error-notice";
import { TextField } from "../../ui/text-field";
import { RESET_TEXT } from "./password-reset-page";

export const FORGOT_TEXT = {
  emailRequired: "가입한 이메일을 입력해주세요.",
  failed: "요청을 처리하지 못했습니다. 잠시 후 다시 시도해주세요.",
  noToken: "링크가 올바르지 않습니다. 비밀번호 찾기를 다시 요청해주세요.",
} as const;

const SUCCESS_REDIRECT_MS = 3000;

/** A 4xx answer's own Korean text, or `fallback` (network, 5xx). */
function failureText(failure: unknown, fallback: string) {
  return isApiError(failure) && failure.status > 0 && failure.status < 500 && failure.detail
    ? failure.detail
    : fallback;
}

/** "비밀번호 찾기": asks for the e-mail; the server answers the same whether or not it has an account. */
export function PasswordForgotPage() {
  useDocumentTitle("비밀번호 찾기");
  const [email, setEmail] = useState("");
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!email.trim()) {
      setError(FORGOT_TEXT.emailRequired);
      return;
    }
    setSubmitting(true);
    setError(null);
    try {
      const answer = await api.post<{ detail: string }>(
        "/api/users/forgot-password",
        { email: email.trim() },
        { auth: false },
      );
      setSent(answer.detail);
    } catch (failure) {
      setError(failureText(failure, FORGOT_TEXT.failed));
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <section className="auth-page">
      <form className="card auth-card" onSubmit={submit} noValidate>
        <h1 className="auth-title">비밀번호 찾기</h1>
        <p className="auth-subtitle muted">가입한 이메일로 새 비밀번호를 설정할 수 있는 링크를 보내드려요.</p>
        {sent ? (
          <p className="notice notice-success" role="status">
            {sent}
          </p>
        ) : (
          <>
            <ErrorNotice text={error} />
            <TextField
              label="이메일"
              type="email"
              name="email"
              autoComplete="email"
              inputMode="email"
              required
              value={email}
              onValue={setEmail}
            />
            <button type="submit" className="btn btn-primary btn-block" disabled={submitting}>
              {submitting ? "보내는 중..." : "재설정 링크 받기"}
            </button>
          </>
        )}
        <p className="auth-switch muted">
          <Link to="/login">로그인으로 돌아가기</Link>
        </p>
      </form>
    </section>
  );
}

/**
 * Whether the mailed link is still good, asked when the page opens (the check does not use it up): a used or
 * expired link says so before any password is typed. `usable` also when the server could not be asked (network,
 * 5xx, too many requests): the form stays and the use decides.
 */
function useLinkCheck(token: string): { state: "checking" | "usable" } | { state: "invalid"; text: string } {
  const [result, setResult] = useState<{ state: "checking" | "usable" } | { state: "invalid"; text: string }>(() =>
    token ? { state: "checking" } : { state: "invalid", text: FORGOT_TEXT.noToken },
  );
  useEffect(() => {
    if (!token) return setResult({ state: "invalid", text: FORGOT_TEXT.noToken });
    let current = true;
    setResult({ state: "checking" });
    api.post("/api/users/reset-password-with-token/check", { token }, { auth: false }).then(
      () => current && setResult({ state: "usable" }),
      (failure: unknown) => {
        if (!current) return;
        const invalid = isApiError(failure) && (failure.status === 400 || failure.status === 422);
        setResult(
          invalid ? { state: "invalid", text: failureText(failure, FORGOT_TEXT.noToken) } : { state: "usable" },
        );
      },
    );
    return () => {
      current = false;
    };
  }, [token]);
  return result;
}

/** A link that cannot be used: why, and the way to a new one, instead of the form. */
function InvalidLink({ text }: { text: string }) {
  return (
    <section className="auth-page">
      <div className="card auth-card">
        <h1 className="auth-title">비밀번호 재설정</h1>
        <p className="notice notice-error" role="alert">
          {text}
        </p>
        <p className="auth-switch muted">
          <Link to="/password-forgot">비밀번호 찾기</Link>
        </p>
        <p className="auth-switch muted">
          <Link to="/login">로그인으로 돌아가기</Link>
        </p>
      </div>
    </section>
  );
}

/** The mailed link's page: a new password (the spec's rules), then every session ends and /login follows. */
export function ResetWithLinkPage() {
  useDocumentTitle("비밀번호 재설정");
  const { token } = useSearch({ from: "/password-forgot/reset" });
  const navigate = useNavigate();
  const link = useLinkCheck(token);
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [error, setError] = useState<string | null>(null);
  // A link found used when the form is sent (used elsewhere meanwhile) is shown like one found so on opening.
  const [usedUp, setUsedUp] = useState<string | null>(null);
  const [phase, setPhase] = useState<"idle" | "submitting" | "success">("idle");
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!password || !confirm) return setError(RESET_TEXT.required);
    const check = checkPassword(password, confirm);
    if (!check.ok) return setError(check.error ?? MSG.passwordMismatch);
    setPhase("submitting");
    setError(null);
    try {
      await api.post(
        "/api/users/reset-password-with-token",
        { token, new_password: password, confirm_password: confirm },
        { auth: false },
      );
      setPhase("success");
      timer.current = setTimeout(() => {
        void navigate({ to: "/login", state: { loginMessage: RESET_TEXT.success } as never });
      }, SUCCESS_REDIRECT_MS);
    } catch (failure) {
      setPhase("idle");
      if (isApiError(failure) && failure.status === 400) setUsedUp(failureText(failure, RESET_TEXT.failed));
      else setError(failureText(failure, RESET_TEXT.failed));
    }
  }

  if (phase === "success")
    return (
      <section className="auth-page">
        <div className="card auth-card">
          <h1 className="auth-title">비밀번호 재설정</h1>
          <p className="notice notice-success" role="status">
            {RESET_TEXT.success}
          </p>
          <p className="auth-switch muted">
            <Link to="/login">로그인하러 가기</Link>
          </p>
        </div>
      </section>
    );

  if (link.state === "invalid") return <InvalidLink text={link.text} />;
  if (usedUp) return <InvalidLink text={usedUp} />;
  if (link.state === "checking")
    return (
      <section className="auth-page">
        <div className="card auth-card">
          <h1 className="auth-title">비밀번호 재설정</h1>
          <p className="muted" role="status">
            링크를 확인하는 중…
          </p>
        </div>
      </section>
    );

  return (
    <section className="auth-page">
      <form className="card auth-card" onSubmit={submit} noValidate>
        <h1 className="auth-title">비밀번호 재설정</h1>
        <p className="auth-subtitle muted">새 비밀번호를 입력해주세요. 바꾸면 모든 기기에서 로그아웃됩니다.</p>
        <ErrorNotice text={error} />
        <TextField
          label="새 비밀번호"
          type="password"
          name="new_password"
          autoComplete="new-password"
          required
          value={password}
          onValue={setPassword}
        />
        <TextField
          label="새 비밀번호 확인"
          type="password"
          name="confirm_password"
          autoComplete="new-password"
          required
          value={confirm}
          onValue={setConfirm}
        />
        <button type="submit" className="btn btn-primary btn-block" disabled={phase === "submitting"}>
          {phase === "submitting" ? "변경 중..." : "비밀번호 변경"}
        </button>
      </form>
    </section>
  );
}
