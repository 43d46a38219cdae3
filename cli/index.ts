#!/usr/bin/env bun
/**
 * `madang` — the administrators' terminal. It works on the same database as the server (DATABASE_URL's PostgreSQL,
 * else the SQLite file of DATA_DIR; both read from the environment like the server) through the
 * modules' own services, never over HTTP. Each module contributes commands; groups with the same name merge.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { closeContext, createContext } from "../apps/server/context";
import { modules } from "../apps/server/modules";
import { loadConfig } from "../modules/kernel/config";
import { orderModules } from "../modules/kernel/define-module";
import { createLogger } from "../modules/kernel/logger";
import { dbCommand } from "./commands/db";
import { databaseName, refuseMissingDatabase, withDatabaseField } from "./database-name";
import { handleCliError } from "./handle-error";

function mergeInto(program: Command, command: Command) {
  const existing = program.commands.find((c) => c.name() === command.name());
  if (!existing) {
    program.addCommand(command);
    return;
  }
  for (const sub of command.commands) {
    const clash = existing.commands.findIndex((c) => c.name() === sub.name());
    if (clash >= 0) (existing.commands as Command[]).splice(clash, 1);
    existing.addCommand(sub);
  }
}

/**
 * Commands built by modules are added, not created through `.command()`, so they inherit nothing: every level
 * throws instead of exiting (handle-error.ts picks the exit code) and leaves error text to handle-error.ts,
 * which prints it in Korean.
 */
function configureTree(command: Command) {
  command
    .exitOverride()
    .configureOutput({ outputError: () => {} })
    .helpOption("-h, --help", "도움말을 봅니다")
    .configureHelp({
      showGlobalOptions: true,
      sortSubcommands: true,
      styleTitle: (title) => HELP_TITLES[title] ?? title,
      // Hangul is two columns wide in a terminal; commander's default counts code units.
      displayWidth: (text) => Bun.stringWidth(text),
    });
  if (command.commands.length) command.helpCommand("help [command]", "명령의 도움말을 봅니다");
  for (const sub of command.commands) configureTree(sub);
}

const HELP_TITLES: Record<string, string> = {
  "Usage:": "사용법:",
  "Arguments:": "인자:",
  "Options:": "옵션:",
  "Global Options:": "공통 옵션:",
  "Commands:": "명령:",
};

export async function runCli(argv: string[]) {
  const found = loadConfig();
  // Help needs the command tree, which modules build from a context: on a missing file it gets a throwaway one.
  const helpOnly = refuseMissingDatabase(found, argv.slice(2));
  const scratch = helpOnly ? mkdtempSync(join(tmpdir(), "madang-help-")) : null;
  const config = scratch ? { ...found, databaseFile: join(scratch, "help.sqlite") } : found;
  const database = databaseName(found) + (helpOnly ? " (아직 없음)" : "");
  // Every command names its database: on stderr for people (stdout stays the answer), in `--json` answers as a field.
  if (argv.includes("--json")) console.log = withDatabaseField(database, console.log.bind(console));
  else console.error(`데이터베이스: ${database}`);
  const ctx = await createContext(config, modules, {
    log: createLogger(process.env.LOG_LEVEL ? config.logLevel : "warn"),
  });
  const program = new Command("madang")
    .description(
      "타자마당 관리 도구 (서버와 같은 데이터베이스를 직접 다룹니다: DATABASE_URL의 PostgreSQL, 없으면 DATA_DIR의 SQLite)",
    )
    .option("--json", "사람이 읽는 표 대신 JSON으로 출력합니다 (스크립트용)")
    .option("--as <name>", "관리자 로그에 남길 작업자 이름 (기본: OS 사용자, 'cli:' 접두사가 붙습니다)");
  program.addCommand(dbCommand(ctx, modules));
  for (const module of orderModules(modules))
    for (const command of module.commands?.(ctx) ?? []) mergeInto(program, command);
  configureTree(program);
  try {
    await program.parseAsync(argv);
  } finally {
    await closeContext(ctx);
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  runCli(process.argv).catch(handleCliError);
}
