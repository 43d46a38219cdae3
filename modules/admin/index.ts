import { defineModule } from "../kernel/define-module";
import { recordBoardDeletions } from "./board-events";
import { adminCommands } from "./commands/index";
import { migrations } from "./migrations";
import { migrations as pgMigrations } from "./migrations-pg";
import { adminRoutes } from "./routes";

export const adminModule = defineModule({
  name: "admin",
  dependsOn: ["accounts", "board", "games", "rooms"],
  migrations,
  pgMigrations,
  routes: adminRoutes,
  commands: adminCommands,
  onBoot(ctx) {
    recordBoardDeletions(ctx);
  },
});

// The public API other modules may use.
export { adminApi } from "./api";
export { type GameStatsProvider, registerGameStatsProvider } from "./game-stats";
export { ACTIONS, type Actor, type AdminLogEntry } from "./service";
