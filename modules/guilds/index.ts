import { defineModule, type ModuleContext } from "../kernel/define-module";
import { migrations } from "./migrations";
import { migrations as pgMigrations } from "./migrations-pg";
import { GuildRoom } from "./room";
import { guildsRoutes } from "./routes";
import { guildSocketEvents } from "./socket";

/** The guild room of each server context (tests run several servers in one process). */
const rooms = new WeakMap<ModuleContext, GuildRoom>();

export const guildsModule = defineModule({
  name: "guilds",
  dependsOn: ["accounts"],
  migrations,
  pgMigrations,
  routes: guildsRoutes,
  attachIo(io, ctx) {
    rooms.get(ctx)?.stop();
    rooms.set(ctx, new GuildRoom(io, ctx));
  },
  socketEvents(ctx) {
    const room = rooms.get(ctx);
    return room ? guildSocketEvents(room) : {};
  },
  onDisconnect(socket, _reason, ctx) {
    rooms.get(ctx)?.leave(socket);
  },
  onStop(ctx) {
    rooms.get(ctx)?.stop();
    rooms.delete(ctx);
  },
});

// The public API other modules may use.
export { guildsApi } from "./api";
export type { PresentedGuild, PresentedMember } from "./presenter";
export * from "./rules";
export type { Actor, GuildsService } from "./service";
