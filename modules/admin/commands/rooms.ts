import { Command } from "commander";
import { formatTable, globalOptions, parseIntOption, printJson } from "../../kernel/cli-output";
import type { ModuleContext } from "../../kernel/define-module";
import { badRequest } from "../../kernel/errors";
import { createRoom, importSentences, listRooms, readSentenceFile, sentenceCounts } from "../../rooms";
import { adminApi } from "../api";
import { ACTIONS } from "../service";
import { cliActor } from "./users";

/**
 * `madang rooms list|create` and `madang sentences import|stats`: the rooms module's own services, called by the
 * admin module so every change is written to the admin log with the operator's name.
 */
export function roomsCommand(ctx: ModuleContext) {
  const rooms = new Command("rooms").description("타자 방 관리");
  rooms
    .command("list")
    .description("방 목록과 주제별 문장 수를 봅니다")
    .action(async (_options: object, command: Command) => {
      const counts = new Map((await sentenceCounts(ctx)).map((c) => [c.theme, c.count]));
      const list = (await listRooms(ctx)).map((r) => ({
        id: r.id,
        name: r.name,
        theme: r.theme,
        max_users: r.max_users,
        sentences: counts.get(r.theme) ?? 0,
      }));
      if (globalOptions(command).json) return printJson(list);
      console.log(
        formatTable(
          [
            { header: "ID", value: (r) => r.id, align: "right" },
            { header: "이름", value: (r) => r.name },
            { header: "주제", value: (r) => r.theme },
            { header: "최대 인원", value: (r) => r.max_users, align: "right" },
            { header: "문장 수", value: (r) => r.sentences, align: "right" },
          ],
          list,
        ),
      );
    });
  rooms
    .command("create")
    .description("새 방을 만듭니다")
    .argument("<name>", "방 이름")
    .requiredOption("-t, --theme <theme>", "문장 주제 (예: beginner, proverbs, english)")
    .option("-d, --description <text>", "방 설명", "")
    .option("-m, --max-users <n>", "최대 인원 (2~100)", "20")
    .option("-l, --language <lang>", "언어 (ko, en)", "ko")
    .action(async (name: string, options: Record<string, string>, command: Command) => {
      const room = await createRoom(ctx, {
        name,
        theme: options.theme,
        description: options.description,
        maxUsers: parseIntOption(options.maxUsers, "--max-users", 2, 100)!,
        language: options.language,
      });
      const details = { room_id: room.id, name: room.name, theme: room.theme, max_users: room.maxUsers };
      await adminApi(ctx).writeLog(cliActor(command), ACTIONS.createRoom, null, details);
      if (globalOptions(command).json) return printJson(details);
      console.log(`방을 만들었습니다: #${room.id} ${room.name} (주제 ${room.theme}, 최대 ${room.maxUsers}명)`);
    });

  const sentences = new Command("sentences").description("타자 문장 관리");
  sentences
    .command("import")
    .description("JSON 문자열 배열 또는 한 줄에 한 문장인 텍스트 파일에서 문장을 가져옵니다")
    .argument("<file>", "파일 경로")
    .option("-t, --theme <theme>", "문장 주제")
    .option("-r, --room <id>", "이 방의 주제로 가져오기")
    .option("-s, --source <text>", "출처 메모", "import")
    .action(async (file: string, options: { theme?: string; room?: string; source: string }, command: Command) => {
      const target = options.room ?? options.theme;
      if (!target) throw badRequest("--theme 또는 --room 중 하나를 지정해주세요.");
      const counts = await importSentences(ctx, target, readSentenceFile(file), options.source);
      await adminApi(ctx).writeLog(cliActor(command), ACTIONS.importSentences, null, { file, ...counts });
      if (globalOptions(command).json) return printJson(counts);
      console.log(
        `주제 ${counts.theme}: 추가 ${counts.inserted}개, 중복 ${counts.duplicates}개, 잘못된 항목 ${counts.invalid}개`,
      );
    });
  sentences
    .command("stats")
    .description("주제별 문장 수를 봅니다")
    .action(async (_options: object, command: Command) => {
      const counts = await sentenceCounts(ctx);
      if (globalOptions(command).json) return printJson(counts);
      console.log(
        formatTable(
          [
            { header: "주제", value: (c) => c.theme },
            { header: "문장 수", value: (c) => c.count, align: "right" },
          ],
          counts,
        ),
      );
    });
  return [rooms, sentences];
}
