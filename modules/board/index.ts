import { defineModule } from "../kernel/define-module";
import { migrations } from "./migrations";
import { boardRoutes } from "./routes";

export const boardModule = defineModule({
  name: "board",
  dependsOn: ["accounts"],
  migrations,
  routes: boardRoutes,
});

// The public API other modules may use.
export { boardApi } from "./api";
export * from "./rules";
export type { BoardService, PresentedComment, PresentedPost } from "./service";
