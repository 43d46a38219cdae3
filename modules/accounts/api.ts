import type { ModuleContext } from "../kernel/define-module";
import { createGuards } from "./auth";
import { createAccountsService } from "./service";
import { AddressThrottle, DEFAULT_LOGIN_LIMITS, LoginThrottle, REGISTER_LIMIT, RESET_PASSWORD_LIMIT } from "./throttle";
import { createAccessTokens } from "./tokens";

const instances = new WeakMap<ModuleContext, ReturnType<typeof build>>();

function build(ctx: ModuleContext) {
  const now = () => ctx.clock.now();
  const tokens = createAccessTokens(ctx.config.jwtSecret, now);
  const throttles = {
    login: new LoginThrottle(DEFAULT_LOGIN_LIMITS, now),
    register: new AddressThrottle(REGISTER_LIMIT, now),
    resetPassword: new AddressThrottle(RESET_PASSWORD_LIMIT, now),
  };
  const origin = crypto.randomUUID();
  const service = createAccountsService({ db: ctx.db, events: ctx.events, now, tokens, throttles, origin });
  return { service, tokens, origin, guards: createGuards(service, tokens) };
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
