/**
 * Username, email and password rules of spec part 1 §5, shared by the server (authoritative) and the
 * register page (live checklist). Messages are the spec's exact Korean texts.
 */
export const USERNAME_MAX = 12;
export const PASSWORD_MIN = 6;
/** Argon2 cost grows with input length; nobody types more than this. */
export const PASSWORD_MAX = 128;
export const EMAIL_MAX = 254;

export const MSG = {
  usernameLength: "1~12자 사이여야 합니다",
  usernameCharacters: "한글 또는 영문, 숫자만 사용 가능합니다 (특수문자 불가)",
  usernameDigitsOnly: "숫자로만 구성될 수 없습니다",
  usernameOk: "사용 가능한 아이디입니다!",
  usernameInvalid: "유효한 아이디를 입력해주세요.",
  passwordMin: "비밀번호는 최소 6자 이상이어야 합니다",
  passwordMax: "비밀번호는 128자 이하여야 합니다",
  passwordMismatch: "비밀번호가 일치하지 않습니다.",
  passwordCommon: "너무 흔한 비밀번호입니다. 다른 비밀번호를 사용해주세요.",
  emailInvalid: "올바른 이메일 주소를 입력해주세요.",
  loginRequired: "이메일과 비밀번호를 입력해주세요.",
} as const;

// Complete Hangul syllables (가–힣), ASCII letters and digits.
const USERNAME_CHARS = /^[가-힣A-Za-z0-9]+$/;
const DIGITS_ONLY = /^[0-9]+$/;
const EMAIL_SHAPE = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

export interface RuleCheck {
  ok: boolean;
  /** The first failing rule's message, or null. */
  error: string | null;
  /** Each rule and whether it passes (the register page's live checklist). */
  checks: { label: string; ok: boolean }[];
}

/** Usernames are compared after NFC normalisation so visually equal Hangul is one name. */
export const normalizeUsername = (value: string) => value.normalize("NFC").trim();
export const usernameKey = (value: string) => normalizeUsername(value).toLowerCase();
export const normalizeEmail = (value: string) => value.trim().toLowerCase();

export function checkUsername(raw: string): RuleCheck {
  const value = normalizeUsername(raw);
  const length = [...value].length;
  const checks = [
    { label: MSG.usernameLength, ok: length >= 1 && length <= USERNAME_MAX },
    { label: MSG.usernameCharacters, ok: length > 0 && USERNAME_CHARS.test(value) },
    { label: MSG.usernameDigitsOnly, ok: length > 0 && !DIGITS_ONLY.test(value) },
  ];
  const failed = checks.find((c) => !c.ok);
  return { ok: !failed, error: failed?.label ?? null, checks };
}

/**
 * An administrator's rename (spec part 2 §5: at least 2 characters after trimming) follows the registration rules
 * otherwise: one rule for the API, the console's dialog and the CLI, each failure with one message. The spec's
 * text for a short name is a contract; the list shows the length as one range (2~12자), never "1~12자" beside
 * "2자 이상".
 */
export const RENAME_MIN = 2;
export const RENAME_MSG = {
  tooShort: "사용자명은 최소 2자 이상이어야 합니다.",
  tooLong: `사용자명은 ${USERNAME_MAX}자 이하여야 합니다.`,
  lengthRule: `${RENAME_MIN}~${USERNAME_MAX}자 (앞뒤 공백 제외)`,
} as const;

export function checkRename(raw: string): RuleCheck {
  const value = normalizeUsername(raw);
  const length = [...value].length;
  const registration = checkUsername(value).checks.slice(1);
  const checks = [
    { label: RENAME_MSG.lengthRule, ok: length >= RENAME_MIN && length <= USERNAME_MAX },
    ...registration,
  ];
  const error =
    length < RENAME_MIN
      ? RENAME_MSG.tooShort
      : length > USERNAME_MAX
        ? RENAME_MSG.tooLong
        : (registration.find((c) => !c.ok)?.label ?? null);
  return { ok: error === null, error, checks };
}

export function checkPassword(password: string, confirm?: string): RuleCheck {
  const checks: { label: string; ok: boolean }[] = [{ label: MSG.passwordMin, ok: password.length >= PASSWORD_MIN }];
  if (confirm !== undefined) checks.push({ label: MSG.passwordMismatch, ok: password === confirm });
  const failed = checks.find((c) => !c.ok) ?? (password.length > PASSWORD_MAX ? { label: MSG.passwordMax } : null);
  return { ok: !failed, error: failed?.label ?? null, checks };
}

export function checkEmail(raw: string): string | null {
  const value = normalizeEmail(raw);
  return value.length <= EMAIL_MAX && EMAIL_SHAPE.test(value) ? null : MSG.emailInvalid;
}
