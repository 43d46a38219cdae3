import type { TimerHandle } from "../kernel/clock";
import type { ModuleContext } from "../kernel/define-module";
import type { AccountsStore, FeedEntry } from "./store";

/** How often a server looks for changes written by other processes (the CLI, other servers); its own act at once. */
export const ACCOUNT_CHANGES_POLL_MS = 2_000;
/** The old name of the same interval (the feed began as session closures only). */
export const SESSION_CLOSURE_POLL_MS = ACCOUNT_CHANGES_POLL_MS;
const KEEP_MS = 24 * 60 * 60 * 1000;
const BATCH = 500;

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

/** The feed rows of a change, for the servers of other processes. */
export function feedEntries(change: AccountChange): FeedEntry[] {
  const entries: FeedEntry[] = [];
  const { userId } = change;
  if (change.sessionsClosed) entries.push({ userId, kind: "sessions_closed", reason: change.sessionsClosed });
  if (change.identityChanged) entries.push({ userId, kind: "user_updated", reason: "" });
  return entries;
}

export interface AccountChangesWatch {
  /** Resolves once the poll in progress (if any) has announced what it read: tests on a fake clock await it. */
  settled(): Promise<void>;
  /** Reads the feed now (another process said it wrote a change), besides the regular polls. */
  pollNow(): void;
  /** Stops polling; resolves when the poll in progress has finished. */
  stop(): Promise<void>;
}

/**
 * Announces the changes other processes wrote after this server started (through `announce`, as the accounts
 * events), every ACCOUNT_CHANGES_POLL_MS. Rows of this server's own origin were announced when they were made.
 * Polls never overlap: a tick that finds one running asks for one more after it.
 */
export function watchAccountChanges(
  ctx: ModuleContext,
  store: AccountsStore,
  origin: string,
  announce: (change: AccountChange) => Promise<void>,
): AccountChangesWatch {
  const { clock, log } = ctx;
  // The newest row when the watch began: what came before was announced by the processes that wrote it.
  let lastId: number | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;

  async function poll() {
    try {
      lastId ??= await store.latestChangeId();
      const rows = await store.changesAfter(lastId, BATCH);
      for (const row of rows) {
        lastId = row.id;
        if (row.origin === origin) continue;
        const closed = row.kind === "sessions_closed";
        await announce({ userId: row.userId, sessionsClosed: closed ? row.reason : null, identityChanged: !closed });
      }
      if (rows.length > 0) await store.pruneChanges(clock.now() - KEEP_MS);
    } catch (error) {
      log.error("account changes poll failed", { error: String(error) });
    }
  }

  function run() {
    running = poll().finally(() => {
      running = null;
      if (again && !stopped) {
        again = false;
        run();
      }
    });
  }

  let timer: TimerHandle | null = null;
  const tick = () => {
    if (stopped) return;
    timer = clock.setTimeout(tick, ACCOUNT_CHANGES_POLL_MS);
    if (running) again = true;
    else run();
  };
  // A first poll now: it takes the newest row as the starting point (waiting for the first tick would skip what
  // another process writes in the meantime).
  run();
  timer = clock.setTimeout(tick, ACCOUNT_CHANGES_POLL_MS);

  const settled = async () => {
    while (running) await running;
  };
  return {
    settled,
    pollNow() {
      if (stopped) return;
      if (running) again = true;
      else run();
    },
    async stop() {
      stopped = true;
      if (timer) clock.clearTimeout(timer);
      await settled();
    },
  };
}
