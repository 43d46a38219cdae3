import { Elysia } from "elysia";
import { defineModule, type ModuleContext } from "../kernel/define-module";
import { guildBoardRoutes } from "./board/routes";
import { guildCoreRoutes } from "./core/routes";
import { guildInvitationsRoutes } from "./invitations/routes";
import { guildMembersRoutes } from "./members/routes";
import { migrations } from "./migrations";
import { migrations as pgMigrations } from "./migrations-pg";
import { guildRecruitmentRoutes } from "./recruitment/routes";
import { GuildRoom } from "./room";
import { guildSocketEvents } from "./socket";

/** The guild room of each server context (tests run several servers in one process). */
const rooms = new WeakMap<ModuleContext, GuildRoom>();

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
  attachIo(io, ctx) {
    void rooms.get(ctx)?.stop();
    rooms.set(ctx, new GuildRoom(io, ctx));
  },
  socketEvents(ctx) {
    const room = rooms.get(ctx);
    return room ? guildSocketEvents(room) : {};
  },
  onDisconnect(socket, _reason, ctx) {
    rooms.get(ctx)?.leave(socket, true);
  },
  async onStop(ctx) {
    const room = rooms.get(ctx);
    rooms.delete(ctx);
    await room?.stop();
  },
});

/** This server's guild room (tests and diagnostics). */
export const guildRoom = (ctx: ModuleContext) => rooms.get(ctx);

// The public API other modules may use.
export { guildsApi } from "./api";
export { GUILD_GAME_MSG, type GuildGameView, guildGame } from "./guild-game";
export * from "./rules";
export type { Actor, GuildsService } from "./service";
export type { PresentedGuild, PresentedMember } from "./view";
