import type { ModuleContext } from "../kernel/define-module";
import { createBoardService } from "./service";

const instances = new WeakMap<ModuleContext, ReturnType<typeof build>>();

function build(ctx: ModuleContext) {
  return { service: createBoardService({ db: ctx.db, events: ctx.events, now: () => ctx.clock.now() }) };
}

/** One board service per application context. */
export function boardApi(ctx: ModuleContext) {
  let api = instances.get(ctx);
  if (!api) {
    api = build(ctx);
    instances.set(ctx, api);
  }
  return api;
}
