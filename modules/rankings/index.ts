import type { ModuleContext } from "../kernel/define-module";
import { defineModule } from "../kernel/define-module";
import { addRecordedResult, type RankingsOptions, rankingsRuntime, recountPending } from "./api";
import { rankingsCommands } from "./commands";
import { migrations } from "./migrations";
import { migrations as pgMigrations } from "./migrations-pg";
import { rankingsRoutes } from "./routes";

/** Per server context: the result updates still running and the event subscription. */
const running = new WeakMap<ModuleContext, { pending: Set<Promise<void>>; unsubscribe: () => void }>();

/**
 * Resolves once every ranking update started so far has finished: games emits `games.result_recorded` after its
 * transaction, and the rankings' update runs after it (tests await this before reading a ranking).
 */
export async function rankingsSettled(ctx: ModuleContext): Promise<void> {
  const pending = running.get(ctx)?.pending;
  while (pending?.size) await Promise.allSettled([...pending]);
}

function subscribe(ctx: ModuleContext) {
  const pending = new Set<Promise<void>>();
  const unsubscribe = ctx.events.on("games.result_recorded", (event) => {
    const update = addRecordedResult(ctx, event)
      .catch((error) =>
        // The result itself is stored (games); `madang rankings rebuild` recounts the periods from it.
        ctx.log.error("rankings update failed", { resultId: event.resultId, error: String(error) }),
      )
      .finally(() => pending.delete(update));
    pending.add(update);
  });
  running.set(ctx, { pending, unsubscribe });
}

/** The rankings module: the users, medal and level rankings (the duel's are the duel module's). */
export function createRankingsModule(options: RankingsOptions = {}) {
  return defineModule({
    name: "rankings",
    dependsOn: ["accounts", "games"],
    migrations,
    pgMigrations,
    routes(ctx) {
      rankingsRuntime(ctx, options);
      return rankingsRoutes(ctx);
    },
    commands(ctx) {
      rankingsRuntime(ctx, options);
      return rankingsCommands(ctx);
    },
    async onBoot(ctx) {
      rankingsRuntime(ctx, options);
      subscribe(ctx);
      // A migration may ask for the periods to be recounted (what counts changed): done before the server listens.
      await recountPending(ctx);
    },
    async onStop(ctx) {
      running.get(ctx)?.unsubscribe();
      await rankingsSettled(ctx);
      running.delete(ctx);
    },
  });
}

export const rankingsModule = createRankingsModule();

// The public API other modules may use.
export {
  boardRebuildsSettled,
  levelsRanking,
  medalsRanking,
  type RankingsOptions,
  rebuildPeriod,
  rebuildRankings,
  setRankingExclusion,
  usersRanking,
  withoutExcluded as withoutRankingExcluded,
} from "./api";
export { type Period, seoulWeekStart, type UsersSort } from "./rules";
export type { UserRankingEntry } from "./view";
