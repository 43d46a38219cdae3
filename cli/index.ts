#!/usr/bin/env bun
/**
 * `madang` — the administrators' terminal. It works on the same database as the server (DATA_DIR) through the
 * modules' own services, never over HTTP. Each module contributes commands; groups with the same name merge.
 */
import { Command } from "commander";
import { createContext } from "../apps/server/context";
import { modules } from "../apps/server/modules";
import { loadConfig } from "../modules/kernel/config";
import { orderModules } from "../modules/kernel/define-module";
import { createLogger } from "../modules/kernel/logger";
import { dbCommand } from "./commands/db";
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

export async function runCli(argv: string[]) {
  const config = loadConfig();
  const ctx = createContext(config, modules, { log: createLogger(process.env.LOG_LEVEL ? config.logLevel : "warn") });
  const program = new Command("madang")
    .description("타자마당 관리 도구")
    .showHelpAfterError("(--help로 사용법을 볼 수 있습니다)")
    .exitOverride();
  program.addCommand(dbCommand(ctx, modules));
  for (const module of orderModules(modules))
    for (const command of module.commands?.(ctx) ?? []) mergeInto(program, command);
  for (const command of program.commands) command.exitOverride();
  try {
    await program.parseAsync(argv);
  } finally {
    ctx.sqlite.close();
  }
}

if (import.meta.main) {
  runCli(process.argv).catch(handleCliError);
}
