import type { ModuleContext } from "../kernel/define-module";
import { createGuards } from "./auth";
import { createAccountsService } from "./service";
import { DEFAULT_LOGIN_LIMITS, LoginThrottle } from "./throttle";
import { createAccessTokens } from "./tokens";

const instances = new WeakMap<ModuleContext, ReturnType<typeof build>>();

function build(ctx: ModuleContext) {
  const now = () => ctx.clock.now();
  const tokens = createAccessTokens(ctx.config.jwtSecret, now);
  const throttle = new LoginThrottle(DEFAULT_LOGIN_LIMITS, now);
  const service = createAccountsService({ db: ctx.db, events: ctx.events, now, tokens, throttle });
  return { service, tokens, guards: createGuards(service, tokens) };
}

/** One accounts service, token signer and guard set per application context. */
export function accountsApi(ctx: ModuleContext) {
  let api = instances.get(ctx);
  if (!api) {
    api = build(ctx);
    instances.set(ctx, api);
  }
  return api;
}
