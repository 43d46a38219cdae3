import { t } from "elysia";
import { EMAIL_MAX, PASSWORD_MAX, USERNAME_MAX } from "../kernel/account-rules";
import { SESSION_END_REASONS } from "../kernel/session-end";

// Request schemas check types and sane sizes; the product rules (with their exact Korean messages) are checked
// by the service so the register page and the API answer the same text. Unknown fields are refused (422).
const strict = { additionalProperties: false } as const;

export const RegisterBody = t.Object(
  {
    username: t.String({ maxLength: USERNAME_MAX * 4 }),
    email: t.String({ maxLength: EMAIL_MAX }),
    password: t.String({ maxLength: PASSWORD_MAX * 4 }),
  },
  strict,
);

export const LoginBody = t.Object(
  {
    email: t.String({ maxLength: EMAIL_MAX }),
    password: t.String({ maxLength: PASSWORD_MAX * 4 }),
    remember_me: t.Optional(t.Boolean({ default: false })),
  },
  strict,
);

export const RefreshBody = t.Object({ refresh_token: t.String({ minLength: 1, maxLength: 200 }) }, strict);
export const LogoutBody = t.Optional(t.Object({ refresh_token: t.Optional(t.String({ maxLength: 200 })) }, strict));
export const ForgotPasswordBody = t.Object({ email: t.String({ maxLength: 1000 }) }, strict);

export const ResetWithTokenBody = t.Object(
  {
    token: t.String({ maxLength: 200 }),
    new_password: t.String({ maxLength: PASSWORD_MAX * 4 }),
    confirm_password: t.String({ maxLength: PASSWORD_MAX * 4 }),
  },
  strict,
);

/** The reset page asks whether its link is still good before the password is typed (it does not use it up). */
export const ResetLinkCheckBody = t.Object({ token: t.String({ maxLength: 200 }) }, strict);
export const ResetLinkCheckResponse = t.Object(
  { detail: t.String(), expires_at: t.String({ format: "date-time" }) },
  { description: "사용할 수 있는 링크입니다 (아직 쓰지 않았고 만료되지 않았습니다)" },
);

/** The machine-readable reason of a closed session (kernel/session-end.ts), in a refused refresh. */
export const SessionEndReasonSchema = t.Union(
  SESSION_END_REASONS.map((reason) => t.Literal(reason)),
  {
    description:
      "password_changed: 비밀번호 변경, password_reset_required: 관리자의 재설정 요구, deactivated: 비활성화",
  },
);

export const ResetPasswordBody = t.Object(
  {
    new_password: t.String({ maxLength: PASSWORD_MAX * 4 }),
    confirm_password: t.String({ maxLength: PASSWORD_MAX * 4 }),
  },
  strict,
);

export const UserSchema = t.Object({
  id: t.Integer(),
  username: t.String(),
  email: t.String(),
  level: t.Integer(),
  experience: t.Integer(),
  next_level_experience: t.Integer(),
  points: t.Integer(),
  coins: t.Integer(),
  total_earned_points: t.Integer(),
  total_spent_points: t.Integer(),
  gold_medals: t.Integer(),
  silver_medals: t.Integer(),
  bronze_medals: t.Integer(),
  win_streak: t.Integer(),
  max_win_streak: t.Integer(),
  games_played: t.Integer(),
  avg_wpm: t.Number(),
  avg_accuracy: t.Number(),
  is_admin: t.Boolean(),
  is_active: t.Boolean(),
  password_reset_required: t.Boolean(),
  login_count: t.Integer(),
  last_login_at: t.Nullable(t.String({ format: "date-time" })),
  created_at: t.String({ format: "date-time" }),
});

export const LoginResponse = t.Object({
  access_token: t.String(),
  token_type: t.Literal("bearer"),
  user: UserSchema,
  password_reset_required: t.Boolean(),
  refresh_token: t.Optional(t.String()),
});

export const RefreshResponse = t.Object({
  access_token: t.String(),
  refresh_token: t.String(),
  token_type: t.String(),
});

export const DetailResponse = t.Object({ detail: t.String() });
