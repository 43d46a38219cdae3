import { Command } from "commander";
import { formatTable, globalOptions, parseIntOption, printJson, seoulTime } from "../../kernel/cli-output";
import type { ModuleContext } from "../../kernel/define-module";
import { badRequest } from "../../kernel/errors";
import { adminApi } from "../api";
import { actionLabel, describeDetails } from "../labels";
import { ADMIN_NAME_MAX, PAGE_SIZE_MAX } from "../model";
import type { AdminLogEntry } from "../service";

const DETAILS_WIDTH = 60;

const truncate = (text: string, max: number) =>
  Bun.stringWidth(text) <= max ? text : `${[...text].slice(0, max / 2 - 1).join("")}…`;
const who = (name: string | null, id: number | null) => (id === null ? (name ?? "-") : `${name ?? "-"} (#${id})`);

export function logsCommand(ctx: ModuleContext) {
  return new Command("logs")
    .description("관리자 로그를 최신순으로 봅니다 (웹 콘솔과 CLI의 작업)")
    .option("--page <n>", "쪽 번호", "1")
    .option("--size <n>", `한 쪽의 항목 수 (1~${PAGE_SIZE_MAX})`, "20")
    .option("--action <action>", "이 작업만 (예: update_username, deactivate_user)")
    .option("--user <user>", "이 사용자(이메일, ID 또는 사용자명)가 대상인 항목만")
    .option("--admin <admin>", "이 관리자의 작업만: 웹 관리자의 ID, 또는 로그에 적힌 이름 (CLI 작업자는 cli:이름)")
    .action(async (options: Record<string, string | undefined>, command: Command) => {
      const targetUserId = options.user ? await adminApi(ctx).resolveUser(options.user) : undefined;
      const admin = options.admin?.trim();
      if (admin !== undefined && (admin.length === 0 || admin.length > ADMIN_NAME_MAX)) {
        throw badRequest(`--admin은 1~${ADMIN_NAME_MAX}자여야 합니다.`);
      }
      const byId = admin !== undefined && /^\d+$/.test(admin);
      const result = await adminApi(ctx).listLogs({
        page: parseIntOption(options.page, "--page", 1, 1_000_000)!,
        pageSize: parseIntOption(options.size, "--size", 1, PAGE_SIZE_MAX)!,
        action: options.action?.trim() || undefined,
        targetUserId,
        adminId: byId ? Number(admin) : undefined,
        adminUsername: byId ? undefined : admin,
      });
      if (globalOptions(command).json) return printJson(result);
      if (result.logs.length === 0) return console.log("관리자 로그가 없습니다.");
      console.log(
        formatTable<AdminLogEntry>(
          [
            { header: "ID", value: (l) => l.id, align: "right" },
            { header: "시간", value: (l) => seoulTime(l.created_at) },
            { header: "관리자", value: (l) => who(l.admin_username, l.admin_id) },
            { header: "작업", value: (l) => actionLabel(l.action) },
            {
              header: "대상",
              value: (l) =>
                l.target_user_id === null && !l.target_username ? "-" : who(l.target_username, l.target_user_id),
            },
            { header: "경로", value: (l) => (l.source === "cli" ? "CLI" : "웹") },
            { header: "내용", value: (l) => truncate(describeDetails(l.details), DETAILS_WIDTH) },
          ],
          result.logs,
        ),
      );
      console.log(`\n전체 ${result.total_count}건 (${result.current_page}/${Math.max(1, result.total_pages)}쪽)`);
    });
}
