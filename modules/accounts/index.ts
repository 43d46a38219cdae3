import { defineModule } from "../kernel/define-module";
import type { AppServer } from "../kernel/socket";
import { watchAccountChanges } from "./account-changes";
import { accountsApi } from "./api";
import { installSocketAuth } from "./auth";
import { migrations } from "./migrations";
import { accountsRoutes } from "./routes";
import type { AccountsService } from "./service";

/** Per server context (tests run several servers in one process). */
const changeWatchers = new WeakMap<object, () => void>();

/**
 * Gives this server's sockets of a user the user's current name and administrator flag (a rename or a grant must
 * not wait for a reconnect). The identity object is updated in place, so whoever holds it sees the new name.
 */
function refreshIdentities(io: AppServer, service: AccountsService, userId: number) {
  const namespace = io.of("/");
  const socketIds = namespace.adapter.rooms.get(`user:${userId}`);
  if (!socketIds?.size) return;
  const row = service.findById(userId);
  if (!row) return;
  for (const id of socketIds) {
    const identity = namespace.sockets.get(id)?.data.identity;
    if (identity?.kind !== "user") continue;
    identity.username = row.username;
    identity.isAdmin = row.isAdmin;
  }
}

export const accountsModule = defineModule({
  name: "accounts",
  migrations,
  routes: accountsRoutes,
  attachIo(io, ctx) {
    const { service, guards, origin } = accountsApi(ctx);
    installSocketAuth(io, guards);
    // A deactivated user (or one whose password changed or must change) is cut off from live rooms at once.
    ctx.events.on("accounts.sessions_closed", ({ userId }) => io.in(`user:${userId}`).disconnectSockets(true));
    // Registered here, before the modules that depend on accounts attach theirs: they read the new identity.
    ctx.events.on("accounts.user_updated", ({ userId }) => refreshIdentities(io, service, userId));
    // ...and the changes made by another process (the CLI) reach this server's sockets within a poll interval.
    changeWatchers.get(ctx)?.();
    changeWatchers.set(ctx, watchAccountChanges(ctx, origin, service.announce));
  },
  onStop(ctx) {
    changeWatchers.get(ctx)?.();
    changeWatchers.delete(ctx);
  },
});

// The public API other modules may use.
export { ACCOUNT_CHANGES_POLL_MS, type AccountChange, SESSION_CLOSURE_POLL_MS } from "./account-changes";
export { accountsApi } from "./api";
export type { AuthUser, Guards } from "./auth";
export { guestNickname } from "./auth";
export { ErrorSchema, UserSchema } from "./model";
export { type PublicUser, presentUser } from "./presenter";
export {
  type AccountsService,
  applyGameRewards,
  type GameRewardDelta,
  type GameRewardGrant,
  type RewardedFigures,
} from "./service";
