import { readFileSync } from "node:fs";
import { Command } from "commander";
import type { ModuleContext } from "../kernel/define-module";
import { badRequest } from "../kernel/errors";
import { createRoom, importSentences, listRooms } from "./api";
import { sentenceCounts } from "./service";

/** A JSON array of strings, or plain text with one sentence per line. */
export function readSentenceFile(file: string): unknown[] {
  const text = readFileSync(file, "utf8");
  if (file.toLowerCase().endsWith(".json") || text.trimStart().startsWith("[")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw badRequest("JSON 파일을 해석할 수 없습니다.");
    }
    if (!Array.isArray(parsed)) throw badRequest("유효한 문제 목록 형식이 아닙니다. 문자열 배열 형식이어야 합니다.");
    return parsed;
  }
  return text.split(/\r?\n/).filter((line) => line.trim() !== "");
}

/** `madang rooms list|create` and `madang sentences import|stats` (the admin module may replace them). */
export function roomsCommands(ctx: ModuleContext): Command[] {
  const rooms = new Command("rooms").description("타자 방 관리");
  rooms
    .command("list")
    .description("방 목록을 봅니다")
    .action(() => {
      const counts = new Map(sentenceCounts(ctx.db).map((c) => [c.theme, c.count]));
      console.table(
        listRooms(ctx).map((r) => ({
          id: r.id,
          이름: r.name,
          주제: r.theme,
          최대인원: r.max_users,
          문장수: counts.get(r.theme) ?? 0,
        })),
      );
    });
  rooms
    .command("create")
    .description("새 방을 만듭니다")
    .argument("<name>", "방 이름")
    .requiredOption("-t, --theme <theme>", "문장 주제 (예: beginner, proverbs, english)")
    .option("-d, --description <text>", "방 설명", "")
    .option("-m, --max-users <n>", "최대 인원", "20")
    .option("-l, --language <lang>", "언어 (ko, en)", "ko")
    .action((name: string, options: { theme: string; description: string; maxUsers: string; language: string }) => {
      const room = createRoom(ctx, {
        name,
        theme: options.theme,
        description: options.description,
        maxUsers: Number(options.maxUsers),
        language: options.language,
      });
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
    .action((file: string, options: { theme?: string; room?: string; source: string }) => {
      const target = options.room ?? options.theme;
      if (!target) throw badRequest("--theme 또는 --room 중 하나를 지정해주세요.");
      const counts = importSentences(ctx, target, readSentenceFile(file), options.source);
      console.log(
        `주제 ${counts.theme}: 추가 ${counts.inserted}개, 중복 ${counts.duplicates}개, 잘못된 항목 ${counts.invalid}개`,
      );
    });
  sentences
    .command("stats")
    .description("주제별 문장 수를 봅니다")
    .action(() => console.table(sentenceCounts(ctx.db).map((c) => ({ 주제: c.theme, 문장수: c.count }))));
  return [rooms, sentences];
}
