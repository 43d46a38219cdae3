import type { ModuleContext } from "../kernel/define-module";
import { type AdminDeletionHook, createBoardService } from "./service";
import { createBoardStore } from "./store";

const instances = new WeakMap<ModuleContext, ReturnType<typeof build>>();
const deletionHooks = new WeakMap<ModuleContext, AdminDeletionHook[]>();

/**
 * Adds a step to every deletion of someone else's post or comment by an administrator: it runs inside the
 * deletion's transaction (a throw rolls the deletion back) and the answer waits for it. The admin module writes
 * its audit row here, so the log shows the deletion as soon as the administrator gets the answer, on either engine
 * (the event bus, `board.deleted_by_admin`, does not wait for asynchronous handlers).
 */
export function onAdminDeletion(ctx: ModuleContext, hook: AdminDeletionHook) {
  const hooks = deletionHooks.get(ctx) ?? [];
  hooks.push(hook);
  deletionHooks.set(ctx, hooks);
}

function build(ctx: ModuleContext) {
  const store = createBoardStore(ctx.database);
  const service = createBoardService({
    store,
    events: ctx.events,
    now: () => ctx.clock.now(),
    adminDeletionHooks: () => deletionHooks.get(ctx) ?? [],
  });
  return { store, service };
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
