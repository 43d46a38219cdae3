import type { ModuleContext } from "../kernel/define-module";
import type { GameModeId, GameRef } from "../kernel/game-mode";
import { encodeSteps } from "../kernel/race-steps";
import "./events";
import {
  checkFinish,
  checkGameRef,
  checkOwnerClaim,
  checkPeriod,
  checkResult,
  clampResultsLimit,
  type FinishInput,
  type ResultInput,
  resultDay,
  toStoredRef,
} from "./rules";
import { type DailyStatsQuery, type FinishOutcome, gamesStoreOf, type StoredResult, type TimeRange } from "./store";

/** The store of the context's database, on either engine (tests run several servers in one process). */
const gamesStore = (ctx: ModuleContext) => gamesStoreOf(ctx.database);

function toStored(ctx: ModuleContext, result: ResultInput): StoredResult {
  const createdAt = result.createdAt ?? ctx.clock.now();
  return {
    userId: result.userId,
    playerKey: result.playerKey,
    nickname: result.nickname,
    wpm: result.wpm,
    accuracy: result.accuracy,
    completionTime: result.completionTime,
    position: result.position,
    errorCount: result.errorCount,
    implausible: result.implausible ?? false,
    // An implausible result is never verified, whatever the caller says.
    verified: (result.verified ?? false) && !(result.implausible ?? false),
    ranked: result.ranked ?? true,
    itemId: result.itemId ?? null,
    replay:
      result.replay && result.replay.steps.length > 0
        ? { key: result.replay.key, sentence: result.replay.sentence, steps: encodeSteps(result.replay.steps) }
        : null,
    createdAt,
    day: resultDay(createdAt),
  };
}

/**
 * Stores one player's result of a game (creating the game row on the first result), idempotently: a retry of the
 * same (game, player key) changes nothing and answers `recorded: false` with the same game id. A counted result is
 * added to the player's daily aggregate in the same transaction; `games.result_recorded` is emitted when recorded.
 * `late`: the game had been finished before this result was stored (it counts, without medal; the mode pays it as
 * played, since the finish paid only the results it found). The result's replay (`result.replay`, when it has
 * steps) is written in the same transaction under the key the caller drew, so a retry with the same key stores it
 * once; `replayKey` answers the stored result's replay (the earlier write's on a retry), null when it has none.
 */
export async function recordResult(ctx: ModuleContext, ref: GameRef, result: ResultInput) {
  const game = toStoredRef(ref);
  checkGameRef(game);
  checkResult(result);
  const stored = toStored(ctx, result);
  const outcome = await gamesStore(ctx).recordResult(game, stored);
  if (outcome.recorded) {
    const { day: _day, replay: _replay, ...fields } = stored;
    ctx.events.emit("games.result_recorded", {
      ...fields,
      replayKey: outcome.replayKey,
      gameId: outcome.gameId,
      resultId: outcome.resultId,
      mode: game.mode,
      sourceId: game.sourceId,
      sourceName: game.sourceName,
      round: game.round,
    });
  }
  return { recorded: outcome.recorded, gameId: outcome.gameId, late: outcome.late, replayKey: outcome.replayKey };
}

/**
 * Ends a game: ended_at, participants and the medals (only for counted results, only when at least 2 counted
 * results exist), with the aggregates' medal counts, in one transaction. Idempotent: a finished game is left as it
 * is (`finished: false`). `games.game_finished` is emitted by the call that finished the game.
 */
export async function finishGame(ctx: ModuleContext, ref: GameRef, finish: FinishInput): Promise<FinishOutcome> {
  const game = toStoredRef(ref);
  checkGameRef(game);
  checkFinish(finish);
  const outcome = await gamesStore(ctx).finishGame(game, finish);
  if (outcome.finished) {
    ctx.events.emit("games.game_finished", {
      gameId: outcome.gameId,
      mode: game.mode,
      sourceId: game.sourceId,
      sourceName: game.sourceName,
      round: game.round,
      startedAt: game.startedAt,
      endedAt: finish.endedAt,
      participants: finish.participants,
      medals: outcome.medals,
    });
  }
  return outcome;
}

/** The last round number stored for (mode, source id), 0 when none: a host continues with +1 after a restart. */
export const lastRound = (ctx: ModuleContext, mode: GameModeId, sourceId: number | string) =>
  gamesStore(ctx).lastRound(mode, String(sourceId));

/**
 * A new owner of a live game (several processes) claims its lease epoch for the source before it reads anything:
 * from then on the previous owner's writes are refused (`StaleOwnerError`). Throws that error itself when a newer
 * owner has claimed already.
 */
export async function claimOwner(ctx: ModuleContext, mode: GameModeId, sourceId: number | string, epoch: number) {
  const source = { mode, sourceId: String(sourceId), epoch };
  checkOwnerClaim(source);
  await gamesStore(ctx).claimOwner(source);
}

/** The highest owner epoch stored for the source, 0 when none (a `GameOpener`'s `storedEpoch`). */
export const ownerEpoch = (ctx: ModuleContext, mode: GameModeId, sourceId: number | string) =>
  gamesStore(ctx).ownerEpoch(mode, String(sourceId));

/**
 * The source's last round when it was never finished (its owner died mid-round), or null: a new owner closes it
 * before it plays on.
 */
export const unfinishedLastRound = (ctx: ModuleContext, mode: GameModeId, sourceId: number | string) =>
  gamesStore(ctx).unfinishedLastRound(mode, String(sourceId));

/** A member's counted results of every mode, newest first (the profile's records); limit 1–200, default 50. */
export const resultsOfUser = (ctx: ModuleContext, userId: number, limit?: number) =>
  gamesStore(ctx).resultsOfUser(userId, clampResultsLimit(limit));

/**
 * A member's best speed and best accuracy over their counted results of every typing mode (duels are not among
 * them; implausible results never count): the profile's "최고 속도" and "최고 정확도".
 */
export const bestOfUser = (ctx: ModuleContext, userId: number) => gamesStore(ctx).bestOfUser(userId);

/** Finished games of every mode, optionally those that ended in [from, to) (epoch ms): the admin dashboard. */
export const countGames = (ctx: ModuleContext, range?: TimeRange) => gamesStore(ctx).countGames(range);

/**
 * Per-player figures of a period of Asia/Seoul days (inclusive), from the daily aggregates: games, sums,
 * averages, best speed, medals, latest nickname. Sorted by `sort` (default wpm), at most `limit` players.
 */
export async function dailyStats(ctx: ModuleContext, query: DailyStatsQuery) {
  checkPeriod(query);
  return gamesStore(ctx).dailyStats(query);
}
