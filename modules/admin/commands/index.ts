import type { Command } from "commander";
import type { ModuleContext } from "../../kernel/define-module";
import { logsCommand } from "./logs";
import { statsCommand } from "./stats";
import { usersCommand } from "./users";

/** `madang users …` (replaces the accounts module's minimal group), `madang logs`, `madang stats`. */
export function adminCommands(ctx: ModuleContext): Command[] {
  return [usersCommand(ctx), logsCommand(ctx), statsCommand(ctx)];
}
