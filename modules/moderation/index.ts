import { accountsApi } from "../accounts";
import { defineModule } from "../kernel/define-module";
import { profanityCommand, reportsCommand } from "./commands";
import { muteBookOf, startMuteBook, stopMuteBook } from "./enforcement";
import { migrations } from "./migrations";
import { migrations as pgMigrations } from "./migrations-pg";
import { moderationRoutes } from "./routes";
import { moderationApi } from "./service";
import { profanityBookOf } from "./word-list";

/** Reports, the administrators' queue and its actions, and their enforcement (issue 29; README). */
export const moderationModule = defineModule({
  name: "moderation",
  // accounts: logins and sessions; admin: the log; board, guilds, games: the reported content and replays;
  // rankings: exclusions.
  dependsOn: ["accounts", "admin", "board", "guilds", "games", "rankings"],
  migrations,
  pgMigrations,
  routes: moderationRoutes,
  // The CLI boots no module: its renames are checked against the list through the book registered here.
  commands: (ctx) => {
    profanityBookOf(ctx);
    return [reportsCommand(ctx), profanityCommand(ctx)];
  },
  async onBoot(ctx) {
    accountsApi(ctx).service.addLoginCheck((userId) => moderationApi(ctx).checkLogin(userId));
    await startMuteBook(ctx);
  },
  attachIo(io, ctx) {
    muteBookOf(ctx)?.attach(io);
  },
  onStop: stopMuteBook,
});

/** Resolves once this server's mutes in force have been read again (tests after a change made elsewhere). */
export const mutesRead = async (ctx: Parameters<typeof muteBookOf>[0]) => muteBookOf(ctx)?.read();

// The public API other modules may use.
export { moderationApi } from "./service";
export type * from "./wire";
