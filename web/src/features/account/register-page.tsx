import { Link, Navigate, useNavigate } from "@tanstack/react-router";
import { useAtomValue } from "jotai";
import { type FormEvent, useState } from "react";
import { checkPassword, checkUsername, MSG, USERNAME_MAX } from "../../../../modules/kernel/account-rules";
import { api, isApiError } from "../../lib/api";
import { useDocumentTitle } from "../../lib/title";
import { ErrorNotice } from "../../ui/error-notice";
import { TextField } from "../../ui/text-field";
import { sessionStatusAtom } from "../session/atoms";

export const REGISTER_FAILED = "회원가입에 실패했습니다. 입력 정보를 확인해주세요.";

/** English validator texts an older server might send, mapped to the spec's Korean (spec part 1 §8). */
const ENGLISH_TO_KOREAN: [RegExp, string][] = [
  [/at least 6|min(imum)?[^a-z]*6/i, MSG.passwordMin],
  [/username.*(character|letter|special)/i, MSG.usernameCharacters],
];

export function registrationErrorText(error: unknown): string {
  if (!isApiError(error) || error.status === 0 || error.status >= 500 || !error.detail) return REGISTER_FAILED;
  for (const [pattern, korean] of ENGLISH_TO_KOREAN) if (pattern.test(error.detail)) return korean;
  return error.detail;
}

type ItemState = "ok" | "bad" | "idle";

function CheckItem({ state, children }: { state: ItemState; children: string }) {
  const label = state === "ok" ? "충족" : "미충족";
  return (
    <li className={`check check-${state}`}>
      <span className="check-icon" aria-hidden="true" />
      <span className="sr-only">{label}: </span>
      {children}
    </li>
  );
}

export function RegisterPage() {
  useDocumentTitle("회원가입");
  const navigate = useNavigate();
  const status = useAtomValue(sessionStatusAtom);
  const [username, setUsername] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [submitting, setSubmitting] = useState(false);
  // The username as it was when the current IME composition started (its committed text), null when none runs.
  const [composingFrom, setComposingFrom] = useState<string | null>(null);
  // An error belongs to the fields it was given for: once any of them is changed it no longer applies.
  const [failure, setFailure] = useState<{ text: string; fields: string } | null>(null);
  const fields = JSON.stringify([username, email, password, confirm]);
  const error = failure?.fields === fields ? failure.text : null;
  const setError = (text: string | null) => setFailure(text === null ? null : { text, fields });

  if (status === "authenticated") return <Navigate to="/" replace />;

  const usernameCheck = checkUsername(username);
  // The checklist judges committed text only: while the IME composes a syllable the field holds a lone jamo (ㅎ on
  // its way to 한), which is not a mistake yet. Submitting still checks the whole value.
  const shownUsername = composingFrom ?? username;
  const shownCheck = composingFrom === null ? usernameCheck : checkUsername(composingFrom);
  const passwordCheck = checkPassword(password, confirm);
  const passwordLength = passwordCheck.checks[0];
  const mismatch = confirm.length > 0 && password !== confirm;
  const canSubmit = usernameCheck.ok && passwordCheck.ok && email.trim().length > 0 && !submitting;
  const itemState = (ok: boolean, touched: boolean): ItemState => (ok ? "ok" : touched ? "bad" : "idle");

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!usernameCheck.ok) {
      setError(MSG.usernameInvalid);
      return;
    }
    if (!canSubmit) return;
    setSubmitting(true);
    setError(null);
    try {
      const registeredEmail = email.trim();
      await api.post(
        "/api/users/register",
        { username: username.trim(), email: registeredEmail, password },
        { auth: false },
      );
      await navigate({ to: "/login", state: { registeredEmail } as never });
    } catch (failure) {
      setError(registrationErrorText(failure));
      setSubmitting(false);
    }
  }

  return (
    <section className="auth-page">
      <form className="card auth-card" onSubmit={submit} noValidate>
        <h1 className="auth-title">회원가입</h1>
        <p className="auth-subtitle muted">아이디와 이메일만 있으면 바로 시작할 수 있어요.</p>
        <ErrorNotice text={error} />
        <TextField
          label="아이디"
          name="username"
          autoComplete="username"
          maxLength={USERNAME_MAX}
          aria-describedby="username-rules"
          required
          value={username}
          onValue={setUsername}
          onCompositionStart={(e) => setComposingFrom(e.currentTarget.value)}
          onCompositionEnd={() => setComposingFrom(null)}
          onBlur={() => setComposingFrom(null)}
        />
        <ul className="checklist" id="username-rules" aria-live="polite">
          {shownCheck.checks.map((check) => (
            <CheckItem key={check.label} state={itemState(check.ok, shownUsername.length > 0)}>
              {check.label}
            </CheckItem>
          ))}
          {shownCheck.ok && <li className="check-positive">{MSG.usernameOk}</li>}
        </ul>
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
          autoComplete="new-password"
          aria-describedby="password-rules"
          required
          value={password}
          onValue={setPassword}
        />
        <ul className="checklist" id="password-rules" aria-live="polite">
          <CheckItem state={itemState(passwordLength.ok, password.length > 0)}>{passwordLength.label}</CheckItem>
        </ul>
        {passwordCheck.error === MSG.passwordMax && <p className="field-error">{MSG.passwordMax}</p>}
        <TextField
          label="비밀번호 확인"
          type="password"
          name="confirm_password"
          autoComplete="new-password"
          aria-invalid={mismatch}
          required
          value={confirm}
          onValue={setConfirm}
        />
        {mismatch && <p className="field-error">{MSG.passwordMismatch}</p>}
        {password.length > 0 && !mismatch && confirm === password && <p className="field-ok">비밀번호가 일치합니다.</p>}
        <button type="submit" className="btn btn-primary btn-block" disabled={!canSubmit}>
          {submitting ? "가입 중..." : "회원가입"}
        </button>
        {shownUsername.length > 0 && !shownCheck.ok && <p className="field-hint">{MSG.usernameInvalid}</p>}
        <p className="auth-switch muted">
          이미 계정이 있으신가요? <Link to="/login">로그인</Link>
        </p>
      </form>
    </section>
  );
}
