import { Command } from "commander";
import { formatTable, globalOptions, printJson } from "../kernel/cli-output";
import type { ModuleContext } from "../kernel/define-module";
import { rebuildRankings } from "./api";

/** `madang rankings rebuild [--days N]`: recounts the rankings from games' records (SQL, and Redis when set). */
export function rankingsCommands(ctx: ModuleContext): Command[] {
  const rebuild = new Command("rebuild")
    .description("게임 기록(일별 집계)에서 랭킹을 다시 계산합니다 (REDIS_URL이 있으면 Redis 보드도)")
    .option("--days <n>", "다시 계산할 최근 일 수 (서울 기준, 오늘 포함; 그 주들과 전체 기간도)", "14")
    .action(async (options: { days: string }, command: Command) => {
      const days = Number(options.days);
      if (!Number.isInteger(days) || days < 1 || days > 3660) {
        command.error("--days는 1~3660 사이의 정수여야 합니다.");
      }
      const rebuilt = await rebuildRankings(ctx, days);
      if (globalOptions(command).json) return printJson(rebuilt);
      console.log(
        formatTable(
          [
            { header: "기간", value: (r) => r.period },
            { header: "참가자", value: (r) => r.players, align: "right" },
          ],
          rebuilt,
        ),
      );
    });
  return [new Command("rankings").description("랭킹").addCommand(rebuild)];
}
