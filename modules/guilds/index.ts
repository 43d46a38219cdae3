import { defineModule } from "../kernel/define-module";
import { migrations } from "./migrations";
import { migrations as pgMigrations } from "./migrations-pg";
import { guildsRoutes } from "./routes";

export const guildsModule = defineModule({
  name: "guilds",
  dependsOn: ["accounts"],
  migrations,
  pgMigrations,
  routes: guildsRoutes,
});

// The public API other modules may use.
export { guildsApi } from "./api";
export type { PresentedGuild, PresentedMember } from "./presenter";
export * from "./rules";
export type { Actor, GuildsService } from "./service";
