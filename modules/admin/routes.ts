import { Elysia } from "elysia";
import { accountsApi, type PublicUser } from "../accounts";
import type { ModuleContext } from "../kernel/define-module";
import { adminApi } from "./api";
import {
  ActionBody,
  AdminUserSchema,
  DashboardResponse,
  ErrorSchema,
  LoginHistoryResponse,
  LogListQuery,
  LogListResponse,
  PageQuery,
  RenameBody,
  UserIdParams,
  UserListQuery,
  UserListResponse,
} from "./model";
import type { Actor } from "./service";

const errors = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema, 422: ErrorSchema };
const bearer = [{ bearerAuth: [] }];
const doc = (summary: string, description?: string) => ({ summary, description, security: bearer });

const ADMIN_LOGIN_HISTORY_SIZE = 10;

export function adminRoutes(ctx: ModuleContext) {
  const { guards } = accountsApi(ctx);
  const admin = adminApi(ctx);
  const userAction = (
    path: string,
    summary: string,
    description: string,
    run: (actor: Actor, userId: number, reason?: string | null) => PublicUser,
  ) => ({ path, summary, description, run });
  const actions = [
    userAction("activate", "사용자 활성화", "비활성화된 계정을 다시 쓸 수 있게 합니다.", (a, id, r) =>
      admin.setActive(a, id, true, r),
    ),
    userAction(
      "deactivate",
      "사용자 비활성화",
      "로그인과 토큰 갱신을 막고 모든 세션과 소켓 연결을 끊습니다. 자기 자신은 비활성화할 수 없습니다.",
      (a, id, r) => admin.setActive(a, id, false, r),
    ),
    userAction(
      "require-password-reset",
      "비밀번호 재설정 요구",
      "다음 로그인 때 새 비밀번호를 정해야 합니다. 기존 세션은 끊깁니다.",
      (a, id, r) => admin.requirePasswordReset(a, id, r),
    ),
    userAction("grant-admin", "관리자 권한 부여", "사용자를 관리자로 만듭니다.", (a, id, r) =>
      admin.setAdmin(a, id, true, r),
    ),
    userAction(
      "revoke-admin",
      "관리자 권한 해제",
      "즉시 관리자 화면과 API에 접근할 수 없게 됩니다. 자기 자신의 권한은 해제할 수 없습니다.",
      (a, id, r) => admin.setAdmin(a, id, false, r),
    ),
  ];

  const routes = new Elysia({ name: "admin.routes", prefix: "/admin", detail: { tags: ["admin"] } })
    // Before validation, so an anonymous or non-admin caller learns nothing from a 422. The user is read from
    // the database on every request: a demoted administrator loses access at once.
    .derive(async ({ headers }) => {
      const user = await guards.requireAdmin(headers);
      return { actor: { id: user.id, username: user.username, source: "web" } satisfies Actor };
    })
    .get("/dashboard", () => admin.dashboard(), {
      response: { 200: DashboardResponse, ...errors },
      detail: doc(
        "관리자 대시보드 통계",
        "전체·오늘 접속 사용자(서울 기준 오늘), 게임 수, 관리자 작업 수, 최근 7일 가입자, 최근 30일 일별 가입·게임 수.",
      ),
    })
    .get(
      "/users",
      ({ actor, query }) =>
        admin.listUsers(actor, {
          page: query.page ?? 1,
          size: query.size ?? query.page_size ?? 20,
          search: query.search,
          searchUsername: query.search_username,
          isActive: query.is_active === "true" ? true : query.is_active === "false" ? false : undefined,
          sortBy: query.sort_by ?? "created_at",
          sortOrder: query.sort_order ?? "desc",
        }),
      {
        query: UserListQuery,
        response: { 200: UserListResponse, ...errors },
        detail: doc(
          "사용자 목록",
          "search는 아이디와 이메일을 함께 찾습니다(부분 일치). 기본 20개씩, 가입일 내림차순. 조회는 관리자 로그(view_users)에 남습니다.",
        ),
      },
    )
    .get("/users/:userId", ({ actor, params }) => admin.showUser(actor, params.userId), {
      params: UserIdParams,
      response: { 200: AdminUserSchema, ...errors },
      detail: doc("사용자 상세", "조회는 관리자 로그(view_user)에 남습니다."),
    })
    .put(
      "/users/:userId/username",
      ({ actor, params, body }) => admin.renameUser(actor, params.userId, body.new_username, body.reason),
      {
        params: UserIdParams,
        body: RenameBody,
        response: { 200: AdminUserSchema, ...errors, 409: ErrorSchema },
        detail: doc(
          "사용자명 변경",
          "공백을 뺀 2자 이상, 가입 규칙(한글·영문·숫자 12자 이내, 숫자로만은 불가), 중복 불가. 변경과 관리자 로그(update_username)는 한 트랜잭션입니다.",
        ),
      },
    )
    .get(
      "/users/:userId/login-history",
      ({ params, query }) => admin.loginHistory(params.userId, query.page ?? 1, query.size ?? ADMIN_LOGIN_HISTORY_SIZE),
      {
        params: UserIdParams,
        query: PageQuery,
        response: { 200: LoginHistoryResponse, ...errors },
        detail: doc("사용자 로그인 기록", "최근 로그인부터. 기본 1쪽, 10개."),
      },
    )
    .get(
      "/logs",
      ({ query }) =>
        admin.listLogs({
          page: query.page ?? 1,
          pageSize: query.page_size ?? 20,
          action: query.action,
          targetUserId: query.target_user_id,
        }),
      {
        query: LogListQuery,
        response: { 200: LogListResponse, ...errors },
        detail: doc("관리자 로그", "최신순, 기본 20개씩. 웹 콘솔과 CLI(madang)의 작업이 모두 남습니다."),
      },
    );

  for (const action of actions) {
    routes.post(
      `/users/:userId/${action.path}`,
      ({ actor, params, body }) => action.run(actor, params.userId, body?.reason),
      {
        params: UserIdParams,
        body: ActionBody,
        response: { 200: AdminUserSchema, ...errors },
        detail: doc(action.summary, `${action.description} 관리자 로그에 남습니다. 본문의 reason은 선택입니다.`),
      },
    );
  }
  return routes;
}
