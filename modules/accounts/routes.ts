import { Elysia, t } from "elysia";
import type { ModuleContext } from "../kernel/define-module";
import { apiResponses } from "../kernel/http";
import { clientIp } from "../kernel/request-info";
import { TEXT_REFUSED } from "../kernel/speech";
import { writeLimits } from "../kernel/write-limits";
import { accountsApi } from "./api";
import {
  DetailResponse,
  ForgotPasswordBody,
  LoginBody,
  LoginResponse,
  LogoutBody,
  RefreshBody,
  RefreshResponse,
  RegisterBody,
  ResetLinkCheckBody,
  ResetLinkCheckResponse,
  ResetPasswordBody,
  ResetWithTokenBody,
  SessionEndReasonSchema,
  UserSchema,
} from "./model";

const bearer = [{ bearerAuth: [] }];

/** A refused refresh; `reason` when the server ended the session (kernel/session-end.ts), absent otherwise. */
const refreshRefused = (description: string) =>
  t.Object({ detail: t.String(), reason: t.Optional(SessionEndReasonSchema) }, { description });

export function accountsRoutes(ctx: ModuleContext) {
  const { service, guards } = accountsApi(ctx);
  // Register, login and the password routes keep their own throttles (throttle.ts), which answer first; these
  // looser limits cap every request, invalid ones included.
  return new Elysia({ name: "accounts.routes", prefix: "/users", detail: { tags: ["accounts"] } })
    .use(writeLimits(ctx))
    .post(
      "/register",
      async ({ body, set, request, server }) => {
        set.status = 201;
        return service.register(body, clientIp(request, server, ctx.config.trustProxy));
      },
      {
        writeLimit: { name: "accounts.register", account: 10, address: 100 },
        body: RegisterBody,
        response: apiResponses(
          { 201: UserSchema },
          { 400: TEXT_REFUSED, 409: "이미 사용 중인 아이디 또는 이메일입니다", 422: true, 429: true },
        ),
        detail: {
          summary: "회원가입",
          description:
            "아이디 1~12자(한글·영문·숫자, 금칙어 불가), 이메일, 비밀번호 6자 이상. 같은 주소에서 시간당 50회까지.",
        },
      },
    )
    .post(
      "/login",
      ({ body, request, server, headers }) =>
        service.login({
          ...body,
          ip: clientIp(request, server, ctx.config.trustProxy),
          userAgent: headers["user-agent"] ?? null,
        }),
      {
        writeLimit: { name: "accounts.login", account: 60, address: 300 },
        body: LoginBody,
        response: apiResponses(
          { 200: LoginResponse },
          {
            401: "이메일 또는 비밀번호가 올바르지 않습니다",
            403: "비활성화된 계정이거나 이용이 정지된 계정입니다(정지 사유와 끝나는 때를 함께 알려줍니다)",
            422: true,
            429: true,
          },
        ),
        detail: {
          summary: "로그인",
          description:
            "remember_me면 리프레시 토큰이 30일, 아니면 24시간 유효합니다. 비밀번호 재설정이 필요한 계정은 " +
            "password_reset_required=true와 재설정 전용 access_token만 받습니다.",
        },
      },
    )
    .get(
      "/me",
      async ({ headers }) => service.me((await guards.requireUser(headers, { allowPasswordReset: true })).id),
      {
        response: apiResponses({ 200: UserSchema }, { 401: true, 403: "비활성화된 계정입니다" }),
        detail: {
          summary: "내 정보",
          description: "로그인한 사용자의 계정 정보입니다. 비밀번호를 재설정해야 하는 계정도 볼 수 있습니다.",
          security: bearer,
        },
      },
    )
    .post("/refresh", ({ body }) => service.refresh(body.refresh_token), {
      writeLimit: { name: "accounts.refresh", account: 60, address: 600 },
      body: RefreshBody,
      response: {
        ...apiResponses({ 200: RefreshResponse }, { 422: true }),
        401: refreshRefused(
          "리프레시 토큰이 유효하지 않습니다. 서버가 세션을 끝냈다면(비밀번호 변경, 관리자의 재설정 요구, 비활성화) " +
            "reason과 그 이유를 말하는 detail이 옵니다",
        ),
        403: refreshRefused("비활성화된 계정입니다 (reason: deactivated)"),
      },
      detail: {
        summary: "토큰 갱신",
        description:
          "리프레시 토큰을 회전합니다. 이미 회전된 토큰을 다시 내면 그 로그인의 모든 토큰이 폐기됩니다. 비밀번호 변경, " +
          "관리자의 비밀번호 재설정 요구, 비활성화로 끝난 세션의 토큰이면 401(비활성화는 403)에 reason " +
          "(password_changed, password_reset_required, deactivated)과 한국어 detail로 그 이유를 답합니다.",
      },
    })
    .post("/logout", ({ body }) => service.logout(body?.refresh_token), {
      writeLimit: { name: "accounts.logout", account: 60, address: 600 },
      body: LogoutBody,
      response: apiResponses({ 200: DetailResponse }, { 422: true }),
      detail: { summary: "로그아웃", description: "전달된 리프레시 토큰(과 같은 로그인의 토큰)을 폐기합니다." },
    })
    .post(
      "/reset-password",
      async ({ body, headers, request, server }) => {
        const user = await guards.requireUser(headers, { allowPasswordReset: true });
        const ip = clientIp(request, server, ctx.config.trustProxy);
        return service.resetPassword(user.id, body.new_password, body.confirm_password, ip);
      },
      {
        writeLimit: { name: "accounts.reset_password", account: 100, address: 300 },
        body: ResetPasswordBody,
        response: apiResponses(
          { 200: DetailResponse },
          { 401: true, 403: "비활성화된 계정입니다", 422: true, 429: true },
        ),
        detail: {
          summary: "비밀번호 재설정",
          description: "같은 주소에서 15분에 60회까지.",
          security: bearer,
        },
      },
    )
    .post(
      "/forgot-password",
      ({ body, request, server }) =>
        service.forgotPassword(body.email, clientIp(request, server, ctx.config.trustProxy)),
      {
        writeLimit: { name: "accounts.forgot_password", account: 30, address: 100 },
        body: ForgotPasswordBody,
        response: apiResponses({ 200: DetailResponse }, { 422: true, 429: true }),
        detail: {
          summary: "비밀번호 찾기",
          description:
            "가입된 이메일이면 30분 동안 한 번 쓸 수 있는 재설정 링크를 보냅니다. 가입 여부와 관계없이 같은 답을 합니다. " +
            "같은 주소에서 시간당 20회, 같은 이메일로 시간당 3회까지.",
        },
      },
    )
    .post("/reset-password-with-token/check", ({ body }) => service.checkResetLink(body.token), {
      // A read (one indexed row), but a POST: the token stays out of URLs, logs and Referer headers, and the write
      // limit caps it per address like the other link routes. Tokens are 32 random bytes: nothing to guess here.
      writeLimit: { name: "accounts.reset_link_check", account: 60, address: 300 },
      body: ResetLinkCheckBody,
      response: apiResponses(
        { 200: ResetLinkCheckResponse },
        { 400: "재설정 링크가 유효하지 않거나 이미 쓰였거나 만료되었습니다", 422: true, 429: true },
      ),
      detail: {
        summary: "재설정 링크 확인",
        description:
          "비밀번호 찾기 메일의 토큰이 아직 쓸 수 있는지 확인합니다. 링크를 쓰지 않으므로 확인한 뒤에도 그대로 쓸 수 있습니다.",
      },
    })
    .post(
      "/reset-password-with-token",
      ({ body, request, server }) =>
        service.resetPasswordWithToken(
          body.token,
          body.new_password,
          body.confirm_password,
          clientIp(request, server, ctx.config.trustProxy),
        ),
      {
        writeLimit: { name: "accounts.reset_with_token", account: 30, address: 300 },
        body: ResetWithTokenBody,
        response: apiResponses(
          { 200: DetailResponse },
          { 400: "재설정 링크가 유효하지 않거나 만료되었습니다", 422: true, 429: true },
        ),
        detail: {
          summary: "링크로 비밀번호 재설정",
          description:
            "비밀번호 찾기 메일의 토큰으로 새 비밀번호를 정합니다. 성공하면 이 계정의 모든 로그인이 끝납니다.",
        },
      },
    );
}
