import { gt, lt, max } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import type { TimerHandle } from "../kernel/clock";
import type { ModuleContext } from "../kernel/define-module";
import type { AppServer } from "../kernel/socket";
import { sessionClosures } from "./schema";

/** How often a server looks for closures written by other processes (the CLI); in-process ones act at once. */
export const SESSION_CLOSURE_POLL_MS = 2_000;
const KEEP_MS = 24 * 60 * 60 * 1000;
const BATCH = 500;

export function recordSessionClosure(tx: DbOrTx, userId: number, reason: string, now: number) {
  tx.insert(sessionClosures)
    .values({ userId, reason, at: new Date(now) })
    .run();
}

/**
 * Disconnects the sockets of users whose sessions were closed by any process, from the closures recorded after
 * this server started. Returns a stop function.
 */
export function watchSessionClosures(io: AppServer, ctx: ModuleContext): () => void {
  const { db, clock } = ctx;
  let lastId =
    db
      .select({ id: max(sessionClosures.id) })
      .from(sessionClosures)
      .get()?.id ?? 0;
  let timer: TimerHandle | null = null;
  let stopped = false;
  const poll = () => {
    try {
      const rows = db
        .select({ id: sessionClosures.id, userId: sessionClosures.userId })
        .from(sessionClosures)
        .where(gt(sessionClosures.id, lastId))
        .orderBy(sessionClosures.id)
        .limit(BATCH)
        .all();
      for (const row of rows) {
        lastId = row.id;
        io.in(`user:${row.userId}`).disconnectSockets(true);
      }
      if (rows.length > 0) {
        db.delete(sessionClosures)
          .where(lt(sessionClosures.at, new Date(clock.now() - KEEP_MS)))
          .run();
      }
    } catch (error) {
      ctx.log.error("session closure poll failed", { error: String(error) });
    }
    if (!stopped) timer = clock.setTimeout(poll, SESSION_CLOSURE_POLL_MS);
  };
  timer = clock.setTimeout(poll, SESSION_CLOSURE_POLL_MS);
  return () => {
    stopped = true;
    if (timer) clock.clearTimeout(timer);
  };
}
