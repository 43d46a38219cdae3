import { accountsApi } from "../accounts";
import type { TimerHandle } from "../kernel/clock";
import type { ModuleContext } from "../kernel/define-module";
import { decodeSteps, type RaceStep } from "../kernel/race-steps";
import { REPLAY_KEY } from "./rules";
import { gamesStoreOf } from "./store";

/**
 * Replays (README "Replays"): a result's server-stamped steps, read by key, and their retention — 90 days, for ever
 * for what is kept (each member's personal best of a mode when it was stored; the daily boards' entries).
 */

export const REPLAY_RULES = {
  /** A replay not kept is deleted this long after its result was stored. */
  keepMs: 90 * 86_400_000,
  /** The retention job runs this often, first this long after boot (a boot is not slowed by it). */
  everyMs: 86_400_000,
  firstAfterMs: 60_000,
  /** Rows deleted per statement: no transaction holds many. */
  batch: 1_000,
} as const;

export interface ReplayView {
  key: string;
  /** The member who typed it (null for a guest, or a member deleted since): never on the wire, for moderation. */
  userId: number | null;
  /** Its result was rejected as implausible: evidence for administrators, hidden from everyone else (README). */
  implausible: boolean;
  mode: string;
  roomName: string;
  sentence: string;
  player: { name: string; level?: number };
  result: {
    wpm: number;
    accuracy: number;
    position: number | null;
    completionTime: number;
    createdAt: number;
  };
  steps: RaceStep[];
}

/**
 * A replay by its key, implausible ones included (moderation's evidence: `GET /api/replays/{key}` shows those to
 * administrators only); null for a key that is malformed, unknown or deleted.
 */
export async function replayOf(ctx: ModuleContext, key: string): Promise<ReplayView | null> {
  if (!REPLAY_KEY.test(key)) return null;
  const row = await gamesStoreOf(ctx.database).replay(key);
  if (!row) return null;
  const member = row.userId === null ? null : await accountsApi(ctx).service.findById(row.userId);
  return {
    key: row.key,
    userId: row.userId,
    implausible: row.implausible,
    mode: row.mode,
    roomName: row.sourceName,
    sentence: row.sentence,
    player: member ? { name: row.nickname, level: member.level } : { name: row.nickname },
    result: {
      wpm: row.wpm,
      accuracy: row.accuracy,
      position: row.position,
      completionTime: row.completionTime,
      createdAt: row.createdAt,
    },
    steps: decodeSteps(row.steps),
  };
}

/** Marks a replay kept for ever (the daily boards' entries); false when there is no such replay. */
export const keepReplay = (ctx: ModuleContext, key: string) =>
  REPLAY_KEY.test(key) ? gamesStoreOf(ctx.database).keepReplay(key) : Promise.resolve(false);

/**
 * Deletes every replay older than 90 days (by the context's clock) that is not kept, a batch at a time; answers
 * how many. Safe to run on several processes at once: each row is deleted once, the others find it gone.
 */
export async function pruneReplays(ctx: ModuleContext): Promise<number> {
  const store = gamesStoreOf(ctx.database);
  const before = ctx.clock.now() - REPLAY_RULES.keepMs;
  let total = 0;
  for (;;) {
    const deleted = await store.deleteExpiredReplays(before, REPLAY_RULES.batch);
    total += deleted;
    if (deleted < REPLAY_RULES.batch) return total;
  }
}

const retentionTimers = new WeakMap<ModuleContext, TimerHandle>();

/** The daily retention job of this server (`onBoot`), on the context's clock; `stopReplayRetention` ends it. */
export function startReplayRetention(ctx: ModuleContext) {
  stopReplayRetention(ctx);
  const run = (delay: number) => {
    const timer = ctx.clock.setTimeout(async () => {
      try {
        const deleted = await pruneReplays(ctx);
        if (deleted > 0) ctx.log.info("old replays deleted", { deleted });
      } catch (error) {
        ctx.log.warn("replay retention failed", { error: String(error) });
      }
      if (retentionTimers.get(ctx) === timer) run(REPLAY_RULES.everyMs);
    }, delay);
    // A server that is stopping must not be held up by a day's timer.
    (timer as { unref?: () => void }).unref?.();
    retentionTimers.set(ctx, timer);
  };
  run(REPLAY_RULES.firstAfterMs);
}

export function stopReplayRetention(ctx: ModuleContext) {
  const timer = retentionTimers.get(ctx);
  if (timer) ctx.clock.clearTimeout(timer);
  retentionTimers.delete(ctx);
}
