import type { PublicUser } from "../accounts";
import type { Actor, createAdminService } from "./service";

type AdminService = ReturnType<typeof createAdminService>;

/** An account toggle an administrator can run from the web console (POST route) and the `madang users` CLI. */
export interface UserAction {
  /** Route suffix (`/api/admin/users/{id}/<name>`) and CLI subcommand. */
  name: string;
  /** OpenAPI summary and description. */
  summary: string;
  description: string;
  /** OpenAPI: the 400 the action answers when it refuses (an administrator acting on their own account). */
  refusal?: string;
  /** CLI help line and the line printed when it is done. */
  cliDescription: string;
  done: string;
  run: (admin: AdminService, actor: Actor, userId: number, reason?: string | null) => Promise<PublicUser>;
}

/** The five account toggles, in one place for both the routes and the CLI. */
export const USER_ACTIONS: readonly UserAction[] = [
  {
    name: "activate",
    summary: "사용자 활성화",
    description: "비활성화된 계정을 다시 쓸 수 있게 합니다.",
    cliDescription: "계정을 활성화합니다",
    done: "활성화했습니다.",
    run: (admin, actor, id, reason) => admin.setActive(actor, id, true, reason),
  },
  {
    name: "deactivate",
    summary: "사용자 비활성화",
    description: "로그인과 토큰 갱신을 막고 모든 세션과 소켓 연결을 끊습니다. 자기 자신은 비활성화할 수 없습니다.",
    refusal: "자기 자신의 계정은 비활성화할 수 없습니다",
    cliDescription: "계정을 비활성화합니다 (로그인·토큰 갱신 차단, 세션과 소켓 종료)",
    done: "비활성화했습니다.",
    run: (admin, actor, id, reason) => admin.setActive(actor, id, false, reason),
  },
  {
    name: "grant-admin",
    summary: "관리자 권한 부여",
    description: "사용자를 관리자로 만듭니다.",
    cliDescription: "관리자 권한을 줍니다",
    done: "관리자 권한을 부여했습니다.",
    run: (admin, actor, id, reason) => admin.setAdmin(actor, id, true, reason),
  },
  {
    name: "revoke-admin",
    summary: "관리자 권한 해제",
    description: "즉시 관리자 화면과 API에 접근할 수 없게 됩니다. 자기 자신의 권한은 해제할 수 없습니다.",
    refusal: "자기 자신의 관리자 권한은 해제할 수 없습니다",
    cliDescription: "관리자 권한을 해제합니다",
    done: "관리자 권한을 해제했습니다.",
    run: (admin, actor, id, reason) => admin.setAdmin(actor, id, false, reason),
  },
  {
    name: "require-password-reset",
    summary: "비밀번호 재설정 요구",
    description: "다음 로그인 때 새 비밀번호를 정해야 합니다. 기존 세션은 끊깁니다.",
    cliDescription: "다음 로그인 때 비밀번호를 새로 정하게 합니다 (기존 세션 종료)",
    done: "비밀번호 재설정을 요구했습니다.",
    run: (admin, actor, id, reason) => admin.requirePasswordReset(actor, id, reason),
  },
];
