import type { Command } from "commander";
import type { ModuleContext } from "../../kernel/define-module";
import { logsCommand } from "./logs";
import { roomsCommand } from "./rooms";
import { statsCommand } from "./stats";
import { usersCommand } from "./users";

/**
 * `madang users …`, `madang logs`, `madang stats`,
 * `madang rooms …` and `madang sentences …`.
 */
export function adminCommands(ctx: ModuleContext): Command[] {
  return [usersCommand(ctx), logsCommand(ctx), statsCommand(ctx), ...roomsCommand(ctx)];
}
