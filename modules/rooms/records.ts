import { applyGameRewards, type RewardedFigures } from "../accounts";
import { claimOwner, finishGame, lastRound, recordResult, unfinishedLastRound } from "../games";
import type { ModuleContext } from "../kernel/define-module";
import type { GameModeId, GameRef } from "../kernel/game-mode";
import { countedGrants, medalFor, playedOnly } from "./rewards";
import type { FinishedGame, RaceResult } from "./sentence-race";

/**
 * The sentence race's durable writes, through the games module (results, games, medals) and accounts (rewards).
 * Each is idempotent, so the game host's write queue may retry it: results are keyed by (game, player key), a
 * finish is done once per game, and rewards are paid once per (game, member).
 */

/** A result's replay as the presenter draws it before the write: its key and the sentence that was typed. */
export interface ReplayTicket {
  key: string;
  sentence: string;
}

/**
 * One accepted result (or an attempt refused as implausible, kept for the record only: its steps too, as its
 * replay, for moderation), at its acceptance time, with its steps as the replay under the ticket's key. A
 * counted result stored after its game was closed (late) is paid as played at once: the finish paid only the
 * results it found, and the account must count every counted result (profile README). `ranked` false (a private
 * room's round): never in the rankings.
 */
export async function recordRaceResult(
  ctx: ModuleContext,
  ref: GameRef,
  result: RaceResult,
  implausible = false,
  replay: ReplayTicket | null = null,
  ranked = true,
) {
  const outcome = await recordResult(ctx, ref, {
    userId: result.userId,
    playerKey: result.sessionId,
    nickname: result.name,
    wpm: result.wpm,
    accuracy: result.accuracy,
    completionTime: result.completionTime,
    position: implausible ? null : result.position,
    errorCount: result.errorCount,
    implausible,
    verified: result.verified,
    ranked,
    replay: replay && { ...replay, steps: result.steps },
    itemId: result.sentenceId,
    createdAt: result.submittedAt,
  });
  if (outcome.late && !implausible && result.userId !== null)
    await payLateResult(ctx, outcome.gameId, result.userId, result);
  return outcome;
}

/**
 * A counted result stored after its game was closed is paid as played (games, averages, a streak broken), so the
 * account counts it as the records and the rankings do. Shared by every mode that pays through rooms' rewards.
 */
export async function payLateResult(
  ctx: ModuleContext,
  gameId: number,
  userId: number,
  result: { wpm: number; accuracy: number },
) {
  await applyGameRewards(ctx.database, { key: `games:${gameId}`, at: ctx.clock.now() }, [
    { userId, delta: playedOnly(result) },
  ]);
}

export interface FinishedRecord {
  /** The games module's id of the game. */
  gameId: number;
  /** New figures of each rewarded member, by user id. */
  figures: Map<number, RewardedFigures>;
}

/**
 * A finished round: the game closed with its medals (positions 1–3 of a ranked game, guests too; none in a private
 * room), then each member's rewards paid once. A retry after either step failed repeats both safely.
 */
export async function finishRaceGame(ctx: ModuleContext, ref: GameRef, game: FinishedGame): Promise<FinishedRecord> {
  const medals = game.standings.flatMap((entry) => {
    const medal = game.ranked ? medalFor(entry.position, game.participants) : null;
    return medal ? [{ playerKey: entry.sessionId, medal }] : [];
  });
  const outcome = await finishGame(ctx, ref, {
    endedAt: game.finishedAt,
    participants: game.participants,
    medals,
  });
  const standings = new Map(game.standings.map((entry) => [entry.sessionId, entry.rewards]));
  const grants = countedGrants(outcome.counted, (playerKey) => standings.get(playerKey));
  const figures = await applyGameRewards(ctx.database, { key: `games:${outcome.gameId}`, at: game.finishedAt }, grants);
  return { gameId: outcome.gameId, figures };
}

/**
 * A round or game (rooms' and guilds' alike) that was cut short by a fault (or left by a dead owner): closed as played so far, without medals or
 * rewards; its counted results are paid as played (games, averages, a streak broken), so the account counts them
 * as the records and the rankings do.
 */
export async function abandonGame(ctx: ModuleContext, ref: GameRef, at: number, participants: number) {
  const outcome = await finishGame(ctx, ref, { endedAt: at, participants, medals: [] });
  await applyGameRewards(
    ctx.database,
    { key: `games:${outcome.gameId}`, at },
    countedGrants(outcome.counted, () => null),
  );
}

/**
 * The claim step of an opener of rooms' and guilds' games (game-host README "The opener"), written once for both:
 * the source's owner epoch is claimed first (from then on a previous owner's late writes are refused), the round it
 * left in play is closed as cut short (`abandonGame`: its stored results stay and count, no medals or rewards), and
 * the last round stored is answered, for the new host to number its rounds on.
 */
export async function claimGame(ctx: ModuleContext, mode: GameModeId, sourceId: number, epoch: number) {
  await claimOwner(ctx, mode, sourceId, epoch);
  const open = await unfinishedLastRound(ctx, mode, sourceId);
  if (open) {
    const ref = { mode, sourceId, sourceName: open.sourceName, round: open.round, startedAt: open.startedAt, epoch };
    await abandonGame(ctx, ref, ctx.clock.now(), open.results);
    ctx.log.warn("round left by a lost owner closed", { mode, source_id: sourceId, round: open.round });
  }
  return lastRound(ctx, mode, sourceId);
}
