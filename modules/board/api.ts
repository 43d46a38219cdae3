import type { ModuleContext } from "../kernel/define-module";
import { createBoardService } from "./service";
import { createBoardStore } from "./store";

const instances = new WeakMap<ModuleContext, ReturnType<typeof build>>();

function build(ctx: ModuleContext) {
  const store = createBoardStore(ctx.database);
  return { store, service: createBoardService({ store, events: ctx.events, now: () => ctx.clock.now() }) };
}

/** One board store and service per application context. */
export function boardApi(ctx: ModuleContext) {
  let api = instances.get(ctx);
  if (!api) {
    api = build(ctx);
    instances.set(ctx, api);
  }
  return api;
}
