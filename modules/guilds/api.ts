import type { ModuleContext } from "../kernel/define-module";
import { createGuildServices, createGuildsService } from "./service";
import { createGuildsStore } from "./store";

const instances = new WeakMap<ModuleContext, ReturnType<typeof build>>();

function build(ctx: ModuleContext) {
  const store = createGuildsStore(ctx.database);
  const deps = { store, events: ctx.events, now: () => ctx.clock.now() };
  return { store, ...createGuildServices(deps), service: createGuildsService(deps) };
}

/** One guilds store and service per application context (tests run several servers in one process). */
export function guildsApi(ctx: ModuleContext) {
  let api = instances.get(ctx);
  if (!api) {
    api = build(ctx);
    instances.set(ctx, api);
  }
  return api;
}
