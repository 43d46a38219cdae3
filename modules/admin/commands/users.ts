import { Command } from "commander";
import { accountsApi, type PublicUser } from "../../accounts";
import { RENAME_MSG } from "../../kernel/account-rules";
import {
  type Column,
  formatRecord,
  formatTable,
  globalOptions,
  operatorName,
  parseChoice,
  parseIntOption,
  printJson,
  seoulTime,
} from "../../kernel/cli-output";
import type { ModuleContext } from "../../kernel/define-module";
import { badRequest } from "../../kernel/errors";
import { adminApi } from "../api";
import { PAGE_SIZE_MAX, SEARCH_MAX, USER_SORT_FIELDS } from "../model";
import type { Actor } from "../service";
import { USER_ACTIONS, type UserAction } from "../user-actions";

const USER_REF = ["<user>", "이메일, 사용자 ID 또는 사용자명"] as const;
const STATUS_CHOICES = ["all", "active", "inactive"] as const;

export const cliActor = (command: Command): Actor => ({ id: null, username: operatorName(command), source: "cli" });

const userColumns: Column<PublicUser>[] = [
  { header: "ID", value: (u) => u.id, align: "right" },
  { header: "사용자명", value: (u) => u.username },
  { header: "이메일", value: (u) => u.email },
  { header: "레벨", value: (u) => u.level, align: "right" },
  { header: "게임", value: (u) => u.games_played, align: "right" },
  { header: "마지막 로그인", value: (u) => seoulTime(u.last_login_at) },
  { header: "가입일", value: (u) => seoulTime(u.created_at) },
  { header: "상태", value: (u) => (u.is_active ? "활성" : "비활성") },
  { header: "관리자", value: (u) => (u.is_admin ? "관리자" : "") },
];

const describeUser = (u: PublicUser) => `${u.username} (${u.email}, ID ${u.id})`;

function listCommand(ctx: ModuleContext) {
  return new Command("list")
    .description("사용자 목록을 봅니다 (기본 20명씩, 가입일 최신순)")
    .option("--page <n>", "쪽 번호", "1")
    .option("--size <n>", `한 쪽의 사용자 수 (1~${PAGE_SIZE_MAX})`, "20")
    .option("--search <text>", "아이디 또는 이메일의 일부")
    .option("--status <status>", "all | active | inactive", "all")
    .option("--sort <field>", USER_SORT_FIELDS.join(" | "), "created_at")
    .option("--order <order>", "asc | desc", "desc")
    .action(async (options: Record<string, string>, command: Command) => {
      const search = options.search?.trim();
      if (search && search.length > SEARCH_MAX) throw badRequest(`--search는 ${SEARCH_MAX}자 이하여야 합니다.`);
      const status = parseChoice(options.status, "--status", STATUS_CHOICES);
      const size = parseIntOption(options.size, "--size", 1, PAGE_SIZE_MAX)!;
      const result = await adminApi(ctx).listUsers(cliActor(command), {
        page: parseIntOption(options.page, "--page", 1, 1_000_000)!,
        size,
        search,
        isActive: status === "active" ? true : status === "inactive" ? false : undefined,
        sortBy: parseChoice(options.sort, "--sort", USER_SORT_FIELDS)!,
        sortOrder: parseChoice(options.order, "--order", ["asc", "desc"] as const)!,
      });
      if (globalOptions(command).json) return printJson(result);
      if (result.users.length === 0) return console.log("조건에 맞는 사용자가 없습니다.");
      const first = (result.current_page - 1) * size + 1;
      console.log(formatTable(userColumns, result.users));
      console.log(
        `\n전체 ${result.total}명 중 ${first}–${first + result.users.length - 1}번째 (${result.current_page}/${result.total_pages}쪽)`,
      );
    });
}

function showCommand(ctx: ModuleContext) {
  return new Command("show")
    .description("사용자 한 명의 정보와 최근 로그인 10건을 봅니다")
    .argument(...USER_REF)
    .action(async (ref: string, _options: unknown, command: Command) => {
      const admin = adminApi(ctx);
      const id = await adminApi(ctx).resolveUser(ref);
      const user = await admin.showUser(cliActor(command), id);
      const history = await admin.loginHistory(id, 1, 10);
      if (globalOptions(command).json) return printJson({ user, login_history: history.logs });
      console.log(
        formatRecord([
          ["ID", user.id],
          ["사용자명", user.username],
          ["이메일", user.email],
          ["상태", user.is_active ? "활성" : "비활성"],
          ["관리자", user.is_admin],
          ["비밀번호 재설정 필요", user.password_reset_required],
          ["가입일", seoulTime(user.created_at)],
          ["마지막 로그인", seoulTime(user.last_login_at)],
          ["로그인 횟수", user.login_count],
          ["레벨", user.level],
          ["경험치", user.experience],
          ["게임 수", user.games_played],
          ["평균 타수", user.avg_wpm.toFixed(1)],
          ["평균 정확도", `${user.avg_accuracy.toFixed(1)}%`],
          ["메달 (금/은/동)", `${user.gold_medals}/${user.silver_medals}/${user.bronze_medals}`],
          ["포인트", user.points],
          ["코인", user.coins],
        ]),
      );
      console.log("\n최근 로그인 기록");
      if (history.logs.length === 0) return console.log("로그인 기록이 없습니다.");
      console.log(
        formatTable(
          [
            { header: "시간", value: (l) => seoulTime(l.login_time) },
            { header: "IP", value: (l) => l.ip_address ?? "unknown" },
            { header: "브라우저", value: (l) => l.user_agent ?? "unknown" },
          ],
          history.logs,
        ),
      );
    });
}

function renameCommand(ctx: ModuleContext) {
  return new Command("rename")
    .description(`사용자명을 바꿉니다 (${RENAME_MSG.lengthRule}, 한글·영문·숫자, 숫자로만은 불가, 중복 불가)`)
    .argument(...USER_REF)
    .argument("<new-name>", "새 사용자명")
    .option("--reason <text>", "변경 사유 (관리자 로그에 남습니다)")
    .action(async (ref: string, newName: string, options: { reason?: string }, command: Command) => {
      const id = await adminApi(ctx).resolveUser(ref);
      const before = (await accountsApi(ctx).service.requireById(id)).username;
      const user = await adminApi(ctx).renameUser(cliActor(command), id, newName, options.reason);
      if (globalOptions(command).json) return printJson(user);
      console.log(`사용자명을 변경했습니다: ${before} → ${user.username} (ID ${user.id})`);
    });
}

function resetLinkCommand(ctx: ModuleContext) {
  return new Command("reset-link")
    .description("비밀번호 재설정 링크(30분, 한 번)를 만들어 출력합니다. 사용자에게 직접 전해주세요")
    .argument(...USER_REF)
    .action(async (ref: string, _options: unknown, command: Command) => {
      const id = await adminApi(ctx).resolveUser(ref);
      const { user, link } = await adminApi(ctx).issueResetLink(cliActor(command), id);
      if (globalOptions(command).json) return printJson({ user, link });
      console.log(`${describeUser(user)}의 비밀번호 재설정 링크 (30분 동안 한 번 쓸 수 있습니다):\n${link}`);
    });
}

function actionCommand(ctx: ModuleContext, action: UserAction) {
  return new Command(action.name)
    .description(action.cliDescription)
    .argument(...USER_REF)
    .option("--reason <text>", "사유 (관리자 로그에 남습니다)")
    .action(async (ref: string, options: { reason?: string }, command: Command) => {
      const id = await adminApi(ctx).resolveUser(ref);
      const user = await action.run(adminApi(ctx), cliActor(command), id, options.reason);
      if (globalOptions(command).json) return printJson(user);
      console.log(`${describeUser(user)}: ${action.done}`);
    });
}

export function usersCommand(ctx: ModuleContext) {
  const users = new Command("users")
    .description("사용자 관리 (모든 작업은 관리자 로그에 남습니다)")
    .addCommand(listCommand(ctx))
    .addCommand(showCommand(ctx))
    .addCommand(renameCommand(ctx))
    .addCommand(resetLinkCommand(ctx));
  for (const action of USER_ACTIONS) users.addCommand(actionCommand(ctx, action));
  return users;
}
