import { Link, Navigate, useNavigate, useRouter } from "@tanstack/react-router";
import { useAtomValue } from "jotai";
import { type FormEvent, useState } from "react";
import { MSG } from "../../../../modules/kernel/account-rules";
import { isApiError } from "../../lib/api";
import { safeReturnTo } from "../../lib/navigation";
import { useDocumentTitle } from "../../lib/title";
import { ErrorNotice } from "../../ui/error-notice";
import { TextField } from "../../ui/text-field";
import { session, sessionErrorAtom, sessionStatusAtom } from "../session/atoms";
import { isPasswordResetRequired, LOGIN_FAILED } from "../session/machine";
import { useHistoryState } from "./history-state";

export const REGISTERED_NOTICE = "회원가입이 완료되었습니다! 가입한 이메일로 로그인해주세요.";

/** Server answers whose own text is the clearer message (inactive account, too many attempts, wrong login). */
const SERVER_TEXT_STATUSES = new Set([401, 403, 429]);

export function loginErrorText(error: unknown): string {
  if (isApiError(error) && SERVER_TEXT_STATUSES.has(error.status) && error.detail) return error.detail;
  return LOGIN_FAILED;
}

export function LoginPage() {
  useDocumentTitle("로그인");
  const navigate = useNavigate();
  const router = useRouter();
  const handed = useHistoryState();
  const status = useAtomValue(sessionStatusAtom);
  const sessionError = useAtomValue(sessionErrorAtom);
  const notice = handed.loginMessage ?? sessionError;
  const [email, setEmail] = useState(handed.registeredEmail ?? handed.email ?? "");
  const [password, setPassword] = useState("");
  const [remember, setRemember] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  if (status === "authenticated" && !submitting) return <Navigate to="/" replace />;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!email.trim() || !password) {
      setError(MSG.loginRequired);
      return;
    }
    setSubmitting(true);
    setError(null);
    try {
      await session.login({ email: email.trim(), password, remember_me: remember });
      // Back to the page whose session the server ended (guards and the session notice hand it over), else home.
      const back = safeReturnTo(handed.returnTo);
      if (back) router.history.push(back);
      else await navigate({ to: "/" });
    } catch (failure) {
      if (isPasswordResetRequired(failure)) {
        await navigate({ to: "/password-reset", state: { resetUser: failure.user } as never });
        return;
      }
      setError(loginErrorText(failure));
      setSubmitting(false);
    }
  }

  return (
    <section className="auth-page">
      <form className="card auth-card" onSubmit={submit} noValidate>
        <h1 className="auth-title">로그인</h1>
        <p className="auth-subtitle muted">타자마당에 다시 오신 것을 환영해요.</p>
        {handed.registeredEmail && (
          <p className="notice notice-success" role="status">
            {REGISTERED_NOTICE}
          </p>
        )}
        {notice && !handed.registeredEmail && (
          <p className="notice notice-info" role="status">
            {notice}
          </p>
        )}
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
        <TextField
          label="비밀번호"
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onValue={setPassword}
        />
        <label className="checkbox">
          <input
            type="checkbox"
            name="remember_me"
            checked={remember}
            onChange={(e) => setRemember(e.target.checked)}
          />
          <span>로그인 상태 유지 (30일)</span>
        </label>
        <button type="submit" className="btn btn-primary btn-block" disabled={submitting}>
          {submitting ? "로그인 중..." : "로그인"}
        </button>
        <p className="auth-switch muted">
          아직 계정이 없으신가요? <Link to="/register">회원가입</Link>
        </p>
        <p className="auth-switch muted">
          <Link to="/password-forgot">비밀번호 찾기</Link>
        </p>
      </form>
    </section>
  );
}
