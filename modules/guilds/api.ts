import type { ModuleContext } from "../kernel/define-module";
import { createGuildServices, mergeGuildServices } from "./service";
import { createGuildsStore } from "./store";

const instances = new WeakMap<ModuleContext, ReturnType<typeof build>>();

function build(ctx: ModuleContext) {
  const store = createGuildsStore(ctx.database);
  const deps = { store, events: ctx.events, now: () => ctx.clock.now() };
  const services = createGuildServices(deps);
  return { store, ...services, service: mergeGuildServices(services) };
}

/**
 * One guilds store and services per application context (tests run several servers in one process): each
 * subdomain's own (`core`, `members`, `invitations`, `recruitment`, `board`, `room`) and `service`, all of them in
 * one object for the guild room, its socket events and the guild game.
 */
export function guildsApi(ctx: ModuleContext) {
  let api = instances.get(ctx);
  if (!api) {
    api = build(ctx);
    instances.set(ctx, api);
  }
  return api;
}
