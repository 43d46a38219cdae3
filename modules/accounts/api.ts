import { memoryCounters } from "../kernel/counters";
import { redisCounters } from "../kernel/counters-redis";
import type { ModuleContext } from "../kernel/define-module";
import { assertCleanText } from "../kernel/speech";
import type { CallerIdentity } from "../kernel/write-limits";
import { createGuards } from "./auth";
import { outboxMailer, smtpMailer } from "./reset-mail";
import { createAccountsService } from "./service";
import { accountsStore } from "./store";
import {
  AddressThrottle,
  DEFAULT_LOGIN_LIMITS,
  FORGOT_PASSWORD_EMAIL_LIMIT,
  FORGOT_PASSWORD_LIMIT,
  LoginThrottle,
  REGISTER_LIMIT,
  RESET_PASSWORD_LIMIT,
} from "./throttle";
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
    forgotPassword: new AddressThrottle("forgot_password", FORGOT_PASSWORD_LIMIT, counters),
    forgotPasswordEmail: new AddressThrottle("forgot_password_email", FORGOT_PASSWORD_EMAIL_LIMIT, counters),
  };
  const origin = crypto.randomUUID();
  const store = accountsStore(ctx.database);
  // SMTP_URL, MAIL_FROM and PUBLIC_URL are read here, not in the kernel's Config: only this module sends mail.
  const env = process.env;
  const log = ctx.log.child("accounts");
  const mailer = env.SMTP_URL
    ? smtpMailer(env.SMTP_URL, env.MAIL_FROM ?? "타자마당 <no-reply@localhost>")
    : outboxMailer(ctx.config.dataDir, log);
  const publicUrl = env.PUBLIC_URL ?? `http://localhost:${ctx.config.port}`;
  const cleanName = (username: string) => assertCleanText(ctx, "username", [username]);
  const deps = { store, events: ctx.events, now, tokens, throttles, origin, mailer, publicUrl, log, cleanName };
  const service = createAccountsService(deps);
  /** The account of a write, for the HTTP write limits: the access token's user, checked (signature, expiry). */
  const callerOf: CallerIdentity = async (authorization) => {
    const match = authorization ? /^Bearer\s+(\S+)$/i.exec(authorization) : null;
    if (!match) return null;
    return tokens.verify(match[1]).then(
      (claims) => String(claims.userId),
      () => null,
    );
  };
  return { service, tokens, origin, guards: createGuards(service, tokens), callerOf };
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
