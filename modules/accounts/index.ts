import type { UserRow } from "../../db/core/schema";
import type { Cluster } from "../kernel/cluster";
import type { ModuleContext } from "../kernel/define-module";
import { defineModule } from "../kernel/define-module";
import { SESSION_CLOSED_EVENT, SESSION_END_TEXT, type SessionClosedPayload } from "../kernel/session-end";
import type { AppServer } from "../kernel/socket";
import { writeLimiter } from "../kernel/write-limits";
import { type AccountChangesWatch, watchAccountChanges } from "./account-changes";
import { accountsApi } from "./api";
import { installSocketAuth } from "./auth";
import { migrations } from "./migrations";
import { migrations as pgMigrations } from "./migrations-pg";
import { accountsRoutes } from "./routes";
import { type AccountsService, sessionEndReason } from "./service";
import { accountsStore } from "./store";

/** Per server context (tests run several servers in one process). */
const changeWatchers = new WeakMap<object, AccountChangesWatch>();

/**
 * Gives this server's sockets of a user the user's current name and administrator flag (a rename or a grant must
 * not wait for a reconnect). The identity object is updated in place, so whoever holds it sees the new name; the
 * pages are told with `user:stats_update` (the navbar shows the new name at once, in a room or not). Local sockets
 * only: every process refreshes its own (each one hears the change, from its own call or from the feed).
 */
function refreshIdentities(io: AppServer, row: UserRow) {
  const namespace = io.of("/");
  const socketIds = namespace.adapter.rooms.get(`user:${row.id}`);
  if (!socketIds?.size) return;
  for (const id of socketIds) {
    const identity = namespace.sockets.get(id)?.data.identity;
    if (identity?.kind !== "user") continue;
    identity.username = row.username;
    identity.isAdmin = row.isAdmin;
  }
  io.local
    .to(`user:${row.id}`)
    .emit("user:stats_update", { id: row.id, user_id: row.id, username: row.username, is_admin: row.isAdmin });
}

/**
 * With several processes, a change made here is announced on a Redis channel after its commit, and a process that
 * hears it reads the feed at once: a rename or a deactivation reaches sockets on every process without waiting for
 * the poll (which stays, for the CLI's changes and a lost message).
 */
function nudgeAcrossProcesses(cluster: Cluster, origin: string, service: AccountsService, watch: AccountChangesWatch) {
  const channel = `${cluster.prefix}accounts:changed`;
  service.setChangeNudge(() => {
    cluster.redis.publish(channel, origin).catch(() => {
      // The other processes still read the feed at their next poll.
    });
  });
  void cluster.subscriber
    .subscribe(channel, (from) => {
      if (from !== origin) watch.pollNow();
    })
    .catch(() => {});
}

export const accountsModule = defineModule({
  name: "accounts",
  migrations,
  pgMigrations,
  routes: accountsRoutes,
  onBoot(ctx) {
    // HTTP writes count per account (kernel/write-limits.ts): the account is whose access token a request carries.
    writeLimiter(ctx).identifyCallersWith(accountsApi(ctx).callerOf);
  },
  attachIo(io, ctx) {
    const { service, guards, origin } = accountsApi(ctx);
    installSocketAuth(io, guards);
    // A deactivated user (or one whose password changed or must change) is cut off from live rooms at once, told
    // why first (`user:session_closed`, sent on the same connection just before it closes, so it arrives first).
    // This process's sockets only: every process hears each closure (its own announce, or the feed), and a
    // disconnect broadcast through the adapter could overtake the reason on the way to another process's sockets.
    ctx.events.on("accounts.sessions_closed", ({ userId, reason }) => {
      const sockets = io.local.in(`user:${userId}`);
      const why = sessionEndReason(reason);
      if (why)
        sockets.emit(SESSION_CLOSED_EVENT, {
          reason: why,
          detail: SESSION_END_TEXT[why],
        } satisfies SessionClosedPayload);
      sockets.disconnectSockets(true);
    });
    // `announce` refreshes the live identities before it emits the events: the modules that react read the new ones.
    service.setIdentityRefresher((row) => refreshIdentities(io, row));
    // ...and the changes made by another process (the CLI, another server) reach this server's sockets within a
    // poll interval.
    void changeWatchers.get(ctx)?.stop();
    const watch = watchAccountChanges(ctx, accountsStore(ctx.database), origin, service.announceHere);
    changeWatchers.set(ctx, watch);
    if (ctx.cluster) nudgeAcrossProcesses(ctx.cluster, origin, service, watch);
  },
  async onStop(ctx) {
    const watch = changeWatchers.get(ctx);
    changeWatchers.delete(ctx);
    await watch?.stop();
  },
});

/**
 * Resolves once this server's poll of the account changes feed in progress (if any) has announced what it read:
 * a test on a fake clock advances the clock by ACCOUNT_CHANGES_POLL_MS and awaits this.
 */
export const accountChangesPolled = (ctx: ModuleContext): Promise<void> =>
  changeWatchers.get(ctx)?.settled() ?? Promise.resolve();

// The public API other modules may use.
export { ACCOUNT_CHANGES_POLL_MS, type AccountChange, SESSION_CLOSURE_POLL_MS } from "./account-changes";
export { accountsApi } from "./api";
export type { AuthUser, Guards } from "./auth";
export { guestNickname } from "./auth";
export { UserSchema } from "./model";
export {
  applyGameRewards,
  awardExperience,
  awardMedals,
  type GameRewardDelta,
  type GameRewardGrant,
  type RewardedFigures,
} from "./rewards";
export type { AccountsService } from "./service";
export { type PublicUser, presentUser } from "./view";
export type * from "./wire";
