import { Command } from "commander";
import { formatRecord, formatTable, globalOptions, printJson } from "../../kernel/cli-output";
import type { ModuleContext } from "../../kernel/define-module";
import { adminApi } from "../api";

export function statsCommand(ctx: ModuleContext) {
  return new Command("stats")
    .description("대시보드 통계를 봅니다 (오늘은 서울 기준)")
    .option("--daily", "최근 30일의 일별 가입·게임 수도 봅니다")
    .action(async (options: { daily?: boolean }, command: Command) => {
      const stats = await adminApi(ctx).dashboard();
      if (globalOptions(command).json) return printJson(stats);
      console.log(
        formatRecord([
          ["전체 사용자", stats.total_users],
          ["오늘 접속 사용자", stats.active_users_today],
          ["전체 게임 수", stats.total_games_played],
          ["오늘 게임 수", stats.games_played_today],
          ["관리자 작업 수", stats.total_admin_actions],
          ["최근 7일 가입자", stats.recent_registrations],
        ]),
      );
      if (!options.daily) return;
      console.log("");
      console.log(
        formatTable(
          [
            { header: "날짜", value: (d) => d.date },
            { header: "가입", value: (d) => d.registrations, align: "right" },
            { header: "게임", value: (d) => d.games, align: "right" },
          ],
          stats.daily,
        ),
      );
    });
}
