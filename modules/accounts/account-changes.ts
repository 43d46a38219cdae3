import { and, eq, gt, lt, max } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import type { TimerHandle } from "../kernel/clock";
import type { ModuleContext } from "../kernel/define-module";
import { accountChanges } from "./schema";

/** How often a server looks for changes written by other processes (the CLI); its own act at once. */
export const ACCOUNT_CHANGES_POLL_MS = 2_000;
/** The old name of the same interval (the feed began as session closures only). */
export const SESSION_CLOSURE_POLL_MS = ACCOUNT_CHANGES_POLL_MS;
const KEEP_MS = 24 * 60 * 60 * 1000;
const BATCH = 500;

export type AccountChangeKind = (typeof accountChanges.$inferSelect)["kind"];

/**
 * What one account change asks of the live sockets, made inside a transaction and announced (as the accounts
 * events) only after it committed: a rolled-back change announces nothing.
 */
export interface AccountChange {
  userId: number;
  /** Why the user's sessions ended, or null when they go on. */
  sessionsClosed: string | null;
  /** The name or the administrator flag changed (`accounts.user_updated`). */
  identityChanged: boolean;
}

/** Writes the change into the feed, in the caller's transaction, for the servers of other processes. */
export function recordAccountChange(tx: DbOrTx, origin: string, change: AccountChange, now: number) {
  const at = new Date(now);
  if (change.sessionsClosed) {
    tx.insert(accountChanges)
      .values({ userId: change.userId, kind: "sessions_closed", reason: change.sessionsClosed, origin, at })
      .run();
  }
  if (change.identityChanged) {
    tx.insert(accountChanges).values({ userId: change.userId, kind: "user_updated", reason: "", origin, at }).run();
  }
}

/** When the user's sessions were last closed (epoch ms), within the kept day; null when not. */
export function sessionsClosedAt(db: Db, userId: number): number | null {
  const row = db
    .select({ at: max(accountChanges.at) })
    .from(accountChanges)
    .where(and(eq(accountChanges.userId, userId), eq(accountChanges.kind, "sessions_closed")))
    .get();
  return row?.at ? row.at.getTime() : null;
}

/**
 * Announces the changes other processes wrote after this server started (through `announce`, as the accounts
 * events), every ACCOUNT_CHANGES_POLL_MS. Rows of this server's own origin were announced when they were made.
 * Returns a stop function.
 */
export function watchAccountChanges(
  ctx: ModuleContext,
  origin: string,
  announce: (change: AccountChange) => void,
): () => void {
  const { db, clock } = ctx;
  let lastId =
    db
      .select({ id: max(accountChanges.id) })
      .from(accountChanges)
      .get()?.id ?? 0;
  let timer: TimerHandle | null = null;
  let stopped = false;
  const poll = () => {
    try {
      const rows = db
        .select()
        .from(accountChanges)
        .where(gt(accountChanges.id, lastId))
        .orderBy(accountChanges.id)
        .limit(BATCH)
        .all();
      for (const row of rows) {
        lastId = row.id;
        if (row.origin === origin) continue;
        const closed = row.kind === "sessions_closed";
        announce({ userId: row.userId, sessionsClosed: closed ? row.reason : null, identityChanged: !closed });
      }
      if (rows.length > 0) {
        db.delete(accountChanges)
          .where(lt(accountChanges.at, new Date(clock.now() - KEEP_MS)))
          .run();
      }
    } catch (error) {
      ctx.log.error("account changes poll failed", { error: String(error) });
    }
    if (!stopped) timer = clock.setTimeout(poll, ACCOUNT_CHANGES_POLL_MS);
  };
  timer = clock.setTimeout(poll, ACCOUNT_CHANGES_POLL_MS);
  return () => {
    stopped = true;
    if (timer) clock.clearTimeout(timer);
  };
}
