import { Elysia } from "elysia";
import { accountsApi } from "../accounts";
import type { ModuleContext } from "../kernel/define-module";
import { ADMIN_REQUIRED, apiResponses } from "../kernel/http";
import { writeLimits } from "../kernel/write-limits";
import { adminApi } from "./api";
import {
  ActionBody,
  AdminUserSchema,
  DashboardResponse,
  LogAdminsResponse,
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
import { USER_ACTIONS } from "./user-actions";

// Every route is behind requireAdmin (401, 403) before its own input is checked.
const USER_NOT_FOUND = "사용자를 찾을 수 없습니다";
const bearer = [{ bearerAuth: [] }];
const doc = (summary: string, description?: string) => ({ summary, description, security: bearer });

const ADMIN_LOGIN_HISTORY_SIZE = 10;

export function adminRoutes(ctx: ModuleContext) {
  const { guards } = accountsApi(ctx);
  const admin = adminApi(ctx);

  const routes = new Elysia({ name: "admin.routes", prefix: "/admin", detail: { tags: ["admin"] } })
    .use(writeLimits(ctx))
    // Before validation, so an anonymous or non-admin caller learns nothing from a 422. The user is read from
    // the database on every request: a demoted administrator loses access at once.
    .derive(async ({ headers }) => {
      const user = await guards.requireAdmin(headers);
      return { actor: { id: user.id, username: user.username, source: "web" } satisfies Actor };
    })
    .get("/dashboard", () => admin.dashboard(), {
      response: apiResponses({ 200: DashboardResponse }, ADMIN_REQUIRED),
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
        response: apiResponses({ 200: UserListResponse }, { ...ADMIN_REQUIRED, 422: true }),
        detail: doc(
          "사용자 목록",
          "search는 아이디와 이메일을 함께 찾습니다(부분 일치). 기본 20개씩, 가입일 내림차순. 조회는 관리자 로그(view_users)에 남습니다.",
        ),
      },
    )
    .get("/users/:userId", ({ actor, params }) => admin.showUser(actor, params.userId), {
      params: UserIdParams,
      response: apiResponses({ 200: AdminUserSchema }, { ...ADMIN_REQUIRED, 404: USER_NOT_FOUND, 422: true }),
      detail: doc("사용자 상세", "조회는 관리자 로그(view_user)에 남습니다."),
    })
    .put(
      "/users/:userId/username",
      ({ actor, params, body }) => admin.renameUser(actor, params.userId, body.new_username, body.reason),
      {
        writeLimit: { name: "admin.rename", account: 100, address: 300 },
        params: UserIdParams,
        body: RenameBody,
        response: apiResponses(
          { 200: AdminUserSchema },
          {
            ...ADMIN_REQUIRED,
            400: "사용자명 규칙에 맞지 않거나(2~12자, 한글·영문·숫자, 숫자로만은 불가, 금칙어 불가) 현재 사용자명과 같습니다",
            404: USER_NOT_FOUND,
            409: "이미 사용 중인 아이디입니다",
            422: true,
          },
        ),
        detail: doc(
          "사용자명 변경",
          "앞뒤 공백을 뺀 2~12자의 한글·영문·숫자, 숫자로만은 불가, 중복 불가(대소문자 구분 없음). 규칙 위반은 400과 그 규칙의 문구(2자 미만: 사용자명은 최소 2자 이상이어야 합니다.). 변경과 관리자 로그(update_username)는 한 트랜잭션입니다.",
        ),
      },
    )
    .get(
      "/users/:userId/login-history",
      ({ params, query }) => admin.loginHistory(params.userId, query.page ?? 1, query.size ?? ADMIN_LOGIN_HISTORY_SIZE),
      {
        params: UserIdParams,
        query: PageQuery,
        response: apiResponses({ 200: LoginHistoryResponse }, { ...ADMIN_REQUIRED, 404: USER_NOT_FOUND, 422: true }),
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
          adminId: query.admin_id,
          adminUsername: query.admin_username,
        }),
      {
        query: LogListQuery,
        response: apiResponses({ 200: LogListResponse }, { ...ADMIN_REQUIRED, 422: true }),
        detail: doc(
          "관리자 로그",
          "최신순, 기본 20개씩. 웹 콘솔과 CLI(madang)의 작업이 모두 남습니다. action, admin_id, admin_username, target_user_id로 거를 수 있습니다(모두 만족하는 항목).",
        ),
      },
    )
    .get("/logs/admins", () => admin.logAdmins(), {
      response: apiResponses({ 200: LogAdminsResponse }, ADMIN_REQUIRED),
      detail: doc(
        "관리자 로그의 작업자 목록",
        "로그에 작업을 남긴 관리자(웹: ID별 최근 이름, CLI: 이름별)와 항목 수, 마지막 작업 시간. 최근 작업자부터.",
      ),
    });

  for (const action of USER_ACTIONS) {
    routes.post(
      `/users/:userId/${action.name}`,
      ({ actor, params, body }) => action.run(admin, actor, params.userId, body?.reason),
      {
        // Every action shares one budget, sized for bulk work (clearing a wave of spam accounts).
        writeLimit: { name: "admin.user_action", account: 300, address: 600 },
        params: UserIdParams,
        body: ActionBody,
        response: apiResponses(
          { 200: AdminUserSchema },
          { ...ADMIN_REQUIRED, ...(action.refusal ? { 400: action.refusal } : {}), 404: USER_NOT_FOUND, 422: true },
        ),
        detail: doc(action.summary, `${action.description} 관리자 로그에 남습니다. 본문의 reason은 선택입니다.`),
      },
    );
  }
  return routes;
}
