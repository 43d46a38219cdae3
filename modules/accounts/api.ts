import type { ModuleContext } from "../kernel/define-module";
import { createGuards } from "./auth";
import { createAccountsService } from "./service";
import { accountsStore } from "./store";
import {
  AddressThrottle,
  DEFAULT_LOGIN_LIMITS,
  LoginThrottle,
  memoryCounters,
  REGISTER_LIMIT,
  RESET_PASSWORD_LIMIT,
} from "./throttle";
import { redisCounters } from "./throttle-redis";
import { createAccessTokens } from "./tokens";

const instances = new WeakMap<ModuleContext, ReturnType<typeof build>>();

function build(ctx: ModuleContext) {
  const now = () => ctx.clock.now();
  const tokens = createAccessTokens(ctx.config.jwtSecret, now);
  // With several processes (REDIS_URL) the counts are shared, so a limit holds however requests are spread.
  const counters = ctx.cluster ? redisCounters(ctx.cluster, now) : memoryCounters(now);
  const throttles = {
    login: new LoginThrottle(DEFAULT_LOGIN_LIMITS, counters),
    register: new AddressThrottle("register", REGISTER_LIMIT, counters),
    resetPassword: new AddressThrottle("reset_password", RESET_PASSWORD_LIMIT, counters),
  };
  const origin = crypto.randomUUID();
  const store = accountsStore(ctx.database);
  const service = createAccountsService({ store, events: ctx.events, now, tokens, throttles, origin });
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
