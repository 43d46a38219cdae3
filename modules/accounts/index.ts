import { defineModule } from "../kernel/define-module";
import { accountsApi } from "./api";
import { installSocketAuth } from "./auth";
import { migrations } from "./migrations";
import { accountsRoutes } from "./routes";
import { watchSessionClosures } from "./session-closures";

/** Per server context (tests run several servers in one process). */
const closureWatchers = new WeakMap<object, () => void>();

export const accountsModule = defineModule({
  name: "accounts",
  migrations,
  routes: accountsRoutes,
  attachIo(io, ctx) {
    installSocketAuth(io, accountsApi(ctx).guards);
    // A deactivated user (or one who must reset the password) is cut off from live rooms at once.
    ctx.events.on("accounts.sessions_closed", ({ userId }) => io.in(`user:${userId}`).disconnectSockets(true));
    // ...and so is one closed by another process (the CLI), within a poll interval.
    closureWatchers.get(ctx)?.();
    closureWatchers.set(ctx, watchSessionClosures(io, ctx));
  },
  onStop(ctx) {
    closureWatchers.get(ctx)?.();
    closureWatchers.delete(ctx);
  },
});

// The public API other modules may use.
export { accountsApi } from "./api";
export type { AuthUser, Guards } from "./auth";
export { guestNickname } from "./auth";
export { ErrorSchema, UserSchema } from "./model";
export { type PublicUser, presentUser } from "./presenter";
export { type AccountsService, applyGameRewards, type GameRewardDelta } from "./service";
export { SESSION_CLOSURE_POLL_MS } from "./session-closures";
