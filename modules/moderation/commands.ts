import { Command } from "commander";
import type { Actor } from "../admin";
import {
  formatRecord,
  formatTable,
  globalOptions,
  operatorName,
  parseChoice,
  parseIntOption,
  printJson,
  seoulTime,
} from "../kernel/cli-output";
import type { ModuleContext } from "../kernel/define-module";
import { PAGE_SIZE_MAX } from "./model";
import {
  ACTION_LABELS,
  type Duration,
  REPORT_ACTIONS,
  RESTRICTION_LABELS,
  SUSPEND_DURATIONS,
  TARGET_LABELS,
} from "./rules";
import { moderationApi, type ReportView, type RestrictionView } from "./service";
import type { Evidence } from "./targets";

type Group = Awaited<ReturnType<ReturnType<typeof moderationApi>["groupOf"]>>;

const cliActor = (command: Command): Actor => ({ id: null, username: operatorName(command), source: "cli" });
const idArgument = (value: string, name: string) => parseIntOption(value, name, 1, Number.MAX_SAFE_INTEGER)!;

const reasonsText = (reasons: Record<string, number>) =>
  Object.entries(reasons)
    .map(([reason, n]) => `${reason} ${n}`)
    .join(", ");

/** A report's evidence in a few lines (the chat lines, the post, the player and replay). */
export function evidenceLines(evidence: Evidence): string[] {
  switch (evidence.type) {
    case "chat":
      return evidence.lines.map((line) => {
        const mark = line.id === evidence.line_id ? "▶" : " ";
        return `${mark} ${seoulTime(line.at)} ${line.name}: ${line.message}`;
      });
    case "content":
      return [`제목: ${evidence.title}`, ...evidence.content.split("\n").map((line) => `  ${line}`)];
    case "player":
      return [
        `플레이어: ${evidence.username} (ID ${evidence.user_id})`,
        ...(evidence.replay
          ? [
              `리플레이: ${evidence.replay.key} (${evidence.replay.room_name}, ${evidence.replay.wpm}타/분, 정확도 ${evidence.replay.accuracy}%)`,
            ]
          : []),
      ];
  }
}

const restrictionText = (r: RestrictionView) =>
  `#${r.id} ${RESTRICTION_LABELS[r.kind]} (${r.ends_at ? `${seoulTime(r.ends_at)}까지` : "해제할 때까지"}, 사유: ${r.reason})`;

function printGroup(group: Group) {
  console.log(
    formatRecord([
      ["대상", `${TARGET_LABELS[group.target_kind]} (${group.target_key})`],
      ["신고된 사용자", group.offender ? `${group.offender.username} (ID ${group.offender.id})` : "-"],
      [
        "상태",
        group.status === "open"
          ? "처리 전"
          : `${ACTION_LABELS[group.resolution!]} (${group.resolved_by}, ${seoulTime(group.resolved_at)})`,
      ],
      ["신고 수", group.count],
      ["사유", reasonsText(group.reasons)],
      ["현재 제재", group.restrictions.map(restrictionText).join("; ") || "없음"],
    ]),
  );
  for (const report of group.reports as ReportView[]) {
    console.log(
      `\n신고 #${report.id} — ${report.reporter.username}, ${seoulTime(report.created_at)}, ${report.reason}`,
    );
    if (report.note) console.log(`메모: ${report.note}`);
    for (const line of evidenceLines(report.evidence)) console.log(`  ${line}`);
  }
}

function listCommand(ctx: ModuleContext) {
  return new Command("list")
    .description("신고를 대상별로 묶어 봅니다 (최근 것부터)")
    .option("--status <status>", "open (처리 전) | resolved (처리됨)", "open")
    .option("--page <n>", "쪽 번호", "1")
    .option("--size <n>", `한 쪽의 묶음 수 (1~${PAGE_SIZE_MAX})`, "20")
    .action(async (options: Record<string, string>, command: Command) => {
      const status = parseChoice(options.status, "--status", ["open", "resolved"] as const)!;
      const result = await moderationApi(ctx).listGroups(
        status,
        parseIntOption(options.page, "--page", 1, 1_000_000)!,
        parseIntOption(options.size, "--size", 1, PAGE_SIZE_MAX)!,
      );
      if (globalOptions(command).json) return printJson(result);
      if (result.groups.length === 0)
        return console.log(status === "open" ? "처리할 신고가 없습니다." : "처리된 신고가 없습니다.");
      console.log(
        formatTable<Group>(
          [
            { header: "신고", value: (g) => `#${g.reports[g.reports.length - 1].id}`, align: "right" },
            { header: "대상", value: (g) => TARGET_LABELS[g.target_kind] },
            { header: "신고된 사용자", value: (g) => g.offender?.username },
            { header: "수", value: (g) => g.count, align: "right" },
            { header: "사유", value: (g) => reasonsText(g.reasons) },
            {
              header: status === "open" ? "최근 신고" : "처리",
              value: (g) =>
                status === "open"
                  ? seoulTime(g.last_at)
                  : `${ACTION_LABELS[g.resolution!]} ${seoulTime(g.resolved_at)}`,
            },
          ],
          result.groups,
        ),
      );
      console.log(
        `\n전체 ${result.total}건 (${result.page}/${Math.max(1, result.total_pages)}쪽). 자세히: madang reports show <신고 번호>`,
      );
    });
}

function showCommand(ctx: ModuleContext) {
  return new Command("show")
    .description("신고 하나와 같은 대상의 신고들을 증거와 함께 봅니다")
    .argument("<report>", "신고 번호")
    .action(async (id: string, _options: unknown, command: Command) => {
      const group = await moderationApi(ctx).groupOf(idArgument(id, "신고 번호"));
      if (globalOptions(command).json) return printJson(group);
      printGroup(group);
    });
}

function resolveCommand(ctx: ModuleContext) {
  return new Command("resolve")
    .description("신고를 처리합니다 (같은 대상의 처리 전 신고가 모두 함께 처리되고 관리자 로그에 남습니다)")
    .argument("<report>", "신고 번호")
    .requiredOption("--action <action>", REPORT_ACTIONS.map((a) => `${a} (${ACTION_LABELS[a]})`).join(" | "))
    .option("--duration <duration>", `mute: 1h | 24h | 7d, suspend: ${SUSPEND_DURATIONS.join(" | ")}`)
    .option("--reason <text>", "회원에게 보일 사유 (기본: 신고 사유)")
    .option("--message <text>", "경고 문구 (warn)")
    .action(async (id: string, options: Record<string, string | undefined>, command: Command) => {
      const group = await moderationApi(ctx).resolve(cliActor(command), idArgument(id, "신고 번호"), {
        action: parseChoice(options.action, "--action", REPORT_ACTIONS)!,
        duration: parseChoice(options.duration, "--duration", SUSPEND_DURATIONS) as Duration | undefined,
        reason: options.reason,
        message: options.message,
      });
      if (globalOptions(command).json) return printJson(group);
      console.log(`처리했습니다: ${ACTION_LABELS[group.resolution!]} (신고 ${group.count}건)`);
    });
}

function liftCommand(ctx: ModuleContext) {
  return new Command("lift")
    .description("제재(채팅·글쓰기 제한, 이용 정지, 랭킹 제외)를 지금 해제합니다")
    .argument("<restriction>", "제재 번호 (madang reports show에 보입니다)")
    .action(async (id: string, _options: unknown, command: Command) => {
      const lifted = await moderationApi(ctx).lift(cliActor(command), idArgument(id, "제재 번호"));
      if (globalOptions(command).json) return printJson(lifted);
      console.log(`해제했습니다: ${restrictionText(lifted)}`);
    });
}

/** `madang reports list|show|resolve|lift`. */
export function reportsCommand(ctx: ModuleContext) {
  return new Command("reports")
    .description("신고 처리: 목록, 보기, 처리, 제재 해제")
    .addCommand(listCommand(ctx))
    .addCommand(showCommand(ctx))
    .addCommand(resolveCommand(ctx))
    .addCommand(liftCommand(ctx));
}

type WordEntry = Awaited<ReturnType<ReturnType<typeof moderationApi>["words"]["list"]>>["words"][number];

function wordsListCommand(ctx: ModuleContext) {
  return new Command("list")
    .description("지금 쓰이는 금칙어와 관리자가 뺀 단어를 봅니다")
    .action(async (_options: unknown, command: Command) => {
      const result = await moderationApi(ctx).words.list();
      if (globalOptions(command).json) return printJson(result);
      const columns = [
        { header: "단어", value: (w: WordEntry) => w.word },
        { header: "출처", value: (w: WordEntry) => (w.source === "file" ? "기본 목록" : "관리자 추가") },
        { header: "누가", value: (w: WordEntry) => w.by },
        { header: "언제", value: (w: WordEntry) => (w.at ? seoulTime(w.at) : null) },
      ];
      console.log(formatTable<WordEntry>(columns, result.words));
      console.log(`\n금칙어 ${result.total}개.`);
      if (result.removed.length === 0) return;
      console.log("\n관리자가 뺀 기본 목록의 단어:");
      console.log(formatTable<WordEntry>([columns[0], columns[2], columns[3]], result.removed));
    });
}

function wordChangeCommand(ctx: ModuleContext, action: "add" | "remove") {
  return new Command(action)
    .description(
      action === "add"
        ? "금칙어를 더합니다 (모든 서버에 바로 적용되고 관리자 로그에 남습니다)"
        : "금칙어를 뺍니다 (모든 서버에 바로 적용되고 관리자 로그에 남습니다)",
    )
    .argument("<word>", "단어 (띄어쓰기 없이 한글·영문·숫자)")
    .action(async (word: string, _options: unknown, command: Command) => {
      const words = moderationApi(ctx).words;
      const answer = await (action === "add" ? words.add : words.remove)(cliActor(command), word);
      if (globalOptions(command).json) return printJson(answer);
      console.log(`${answer.detail} (${answer.word})`);
    });
}

/** `madang profanity list|add|remove`. */
export function profanityCommand(ctx: ModuleContext) {
  return new Command("profanity")
    .description("금칙어 목록: 보기, 더하기, 빼기")
    .addCommand(wordsListCommand(ctx))
    .addCommand(wordChangeCommand(ctx, "add"))
    .addCommand(wordChangeCommand(ctx, "remove"));
}
