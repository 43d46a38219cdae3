import { Elysia } from "elysia";
import { defineModule, type ModuleContext } from "../kernel/define-module";
import { adapterEmitter, socketIoEmitter } from "../kernel/game-host";
import { runtimeOf } from "../kernel/module-runtime";
import { guildBoardRoutes } from "./board/routes";
import { guildCoreRoutes } from "./core/routes";
import { guildInvitationsRoutes } from "./invitations/routes";
import { guildMembersRoutes } from "./members/routes";
import { migrations } from "./migrations";
import { migrations as pgMigrations } from "./migrations-pg";
import { guildRecruitmentRoutes } from "./recruitment/routes";
import { GuildRoom } from "./room";

export const guildsModule = defineModule({
  name: "guilds",
  // accounts: identities and rewards; games: the guild game's results (room name = the guild's name).
  dependsOn: ["accounts", "games"],
  migrations,
  pgMigrations,
  // One routes instance per subdomain (README "Layout"), all under /guilds with the tag `guilds`.
  routes: (ctx) =>
    new Elysia({ name: "guilds.routes" })
      .use(guildCoreRoutes(ctx))
      .use(guildMembersRoutes(ctx))
      .use(guildInvitationsRoutes(ctx))
      .use(guildRecruitmentRoutes(ctx))
      .use(guildBoardRoutes(ctx)),
  // With several processes the games' output goes through the adapter: the guild room's sockets join their channel
  // themselves (chat), so the local-first emitter cannot know them (game-host README "Output").
  runtime: (io, ctx, games) => new GuildRoom(io, ctx, games, ctx.cluster ? adapterEmitter(io) : socketIoEmitter(io)),
});

/** This server's guild room (tests and diagnostics). */
export const guildRoom = (ctx: ModuleContext) => runtimeOf<GuildRoom>(ctx, "guilds");

// The public API other modules may use.
export { guildsApi } from "./api";
export { GUILD_GAME_MSG, type GuildGameView, guildGame } from "./guild-game";
export {
  deleteGuildContent,
  type GuildContent,
  type GuildContentRef,
  guildChatContext,
  guildContent,
} from "./moderation";
export * from "./rules";
export type { Actor, GuildsService } from "./service";
export type { PresentedGuild, PresentedMember } from "./view";
export type * from "./wire";
