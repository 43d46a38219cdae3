import { accountsApi } from "../accounts";
import type { ModuleContext } from "../kernel/define-module";
import { gameStatsProvider } from "./game-stats";
import { createAdminService } from "./service";
import { createAdminStore } from "./store";

const instances = new WeakMap<ModuleContext, ReturnType<typeof createAdminService>>();

/** One admin service per application context: the routes and the CLI call the same functions. */
export function adminApi(ctx: ModuleContext) {
  let service = instances.get(ctx);
  if (!service) {
    service = createAdminService({
      store: createAdminStore(ctx.database),
      accounts: accountsApi(ctx).service,
      now: () => ctx.clock.now(),
      // Resolved on every call: a test may register its own provider after this service was built.
      gameStats: () => gameStatsProvider(ctx),
    });
    instances.set(ctx, service);
  }
  return service;
}
