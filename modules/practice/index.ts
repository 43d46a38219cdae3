import { defineModule } from "../kernel/define-module";
import { rememberIo } from "./api";
import { migrations } from "./migrations";
import { migrations as pgMigrations } from "./migrations-pg";
import { practiceRoutes } from "./routes";

/** 타자 연습 (issue 28): practice results, the weakness model's statistics, progress, and what to practise. */
export const practiceModule = defineModule({
  name: "practice",
  dependsOn: ["accounts", "rooms"],
  migrations,
  pgMigrations,
  routes: practiceRoutes,
  // The experience a result pays reaches the member's open pages like a game's (`user:stats_update`).
  attachIo: (io, ctx) => rememberIo(ctx, io),
});

// The public API other modules may use: what the profile shows of a member's practice, and the figures behind it.
export { type PracticeSummary, progressOf, statisticsOf, summaryOf } from "./api";
