import { defineModule } from "../kernel/define-module";
import { migrations } from "./migrations";
import { migrations as pgMigrations } from "./migrations-pg";
import { boardRoutes } from "./routes";

export const boardModule = defineModule({
  name: "board",
  dependsOn: ["accounts"],
  migrations,
  pgMigrations,
  routes: boardRoutes,
});

// The public API other modules may use.
export { boardApi, onAdminDeletion } from "./api";
export { type BoardContent, boardContent, deleteBoardContent } from "./moderation";
export * from "./rules";
export type { AdminDeletion, AdminDeletionHook, BoardService, PresentedComment, PresentedPost } from "./service";
