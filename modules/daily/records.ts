import { applyGameRewards, type GameRewardDelta, type RewardedFigures } from "../accounts";
import { claimOwner, finishGame, lastRound, recordResult, unfinishedLastRound } from "../games";
import type { ModuleContext } from "../kernel/define-module";
import type { GameRef } from "../kernel/game-mode";
import { computeRewards, countedGrants } from "../rooms";
import { dailyStore } from "./api";
import type { DailyResult } from "./daily-mode";
import { DAILY_RULES, parseSourceId } from "./rules";

/**
 * An attempt's durable writes: the result through games (mode `daily`, so it is in the player's records; the
 * rankings leave the mode out), the daily module's own row (the attempt's place of the day, the player's best),
 * the game closed and the member paid through accounts with the rooms' reward rule. Every step is idempotent, so
 * the game host's write queue may retry the whole: results are keyed by (game, player key), attempts by (day,
 * player, round), a finish happens once, rewards are paid once per (game, member).
 */

export interface StoredAttempt {
  /** 1 = the player's first counted attempt of the day. */
  attempt: number;
  /** What the member was paid (null: a guest); zeros past the day's paid attempts. */
  rewards: GameRewardDelta | null;
  figures: RewardedFigures | undefined;
}

/** A lone room game's participation reward for the day's first attempts; nothing (played only) after them. */
export const attemptRewards = (attempt: number, figures: { wpm: number; accuracy: number }) =>
  attempt <= DAILY_RULES.paidAttempts ? computeRewards({ ...figures, position: 1, participants: 1 }) : null;

function sourceOf(ref: GameRef) {
  const source = parseSourceId(String(ref.sourceId));
  if (!source) throw new Error(`not a daily source: ${ref.sourceId}`);
  return source;
}

/**
 * An accepted attempt (or one refused as implausible, stored for the record only), its steps as its replay under
 * the key the presenter drew before the write (games README "Replays").
 */
export async function recordDailyAttempt(
  ctx: ModuleContext,
  ref: GameRef,
  result: DailyResult,
  replay: { key: string; sentence: string } | null = null,
) {
  const { day, playerKey } = sourceOf(ref);
  const recorded = await recordResult(ctx, ref, {
    userId: result.userId,
    playerKey,
    nickname: result.name,
    wpm: result.wpm,
    accuracy: result.accuracy,
    completionTime: result.completionTime,
    position: result.implausible ? null : 1,
    errorCount: result.errorCount,
    implausible: result.implausible,
    verified: result.verified,
    replay: replay && { ...replay, steps: result.steps },
    itemId: result.sentenceId,
    createdAt: result.submittedAt,
  });
  if (result.implausible) {
    await finishGame(ctx, ref, { endedAt: result.submittedAt, participants: 0, medals: [] });
    return null;
  }
  const attempt = await dailyStore(ctx).recordAttempt({
    day,
    playerKey,
    round: ref.round,
    userId: result.userId,
    nickname: result.name,
    wpm: result.wpm,
    accuracy: result.accuracy,
    completionTime: result.completionTime,
    verified: result.verified,
    replayKey: recorded.replayKey,
    createdAt: result.submittedAt,
  });
  return settle(ctx, ref, attempt, result.submittedAt);
}

/**
 * The game closed (one participant, no medal) and its counted result paid by the attempt's place of the day
 * (0: no daily row, paid as played).
 */
async function settle(ctx: ModuleContext, ref: GameRef, attempt: number, at: number): Promise<StoredAttempt> {
  const outcome = await finishGame(ctx, ref, { endedAt: at, participants: 1, medals: [] });
  const rewardsOf = () => (attempt > 0 ? attemptRewards(attempt, outcome.counted[0]!) : null);
  const grants = countedGrants(outcome.counted, rewardsOf);
  const paid = await applyGameRewards(ctx.database, { key: `games:${outcome.gameId}`, at }, grants);
  const userId = outcome.counted[0]?.userId ?? null;
  const rewards = userId === null ? null : rewardsOf();
  return { attempt, rewards, figures: userId === null ? undefined : paid.get(userId) };
}

/**
 * The claim step of the daily opener (game-host README "The opener"): the source's owner epoch first, then the
 * attempt a previous owner left between its result and its finish is settled as it would have been (its place of
 * the day decides the pay; an attempt whose daily row was never written is paid as played), then the last round.
 */
export async function claimDailyGame(ctx: ModuleContext, sourceId: string, epoch: number) {
  await claimOwner(ctx, "daily", sourceId, epoch);
  const open = await unfinishedLastRound(ctx, "daily", sourceId);
  if (open && open.results > 0) {
    const ref: GameRef = {
      mode: "daily",
      sourceId,
      sourceName: open.sourceName,
      round: open.round,
      startedAt: open.startedAt,
      epoch,
    };
    const { day, playerKey } = parseSourceId(sourceId)!;
    await settle(ctx, ref, await dailyStore(ctx).attemptPlace(day, playerKey, open.round), ctx.clock.now());
    ctx.log.warn("daily attempt left by a lost owner settled", { source_id: sourceId, round: open.round });
  }
  return lastRound(ctx, "daily", sourceId);
}
