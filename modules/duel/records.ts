import { finishGame, recordResult } from "../games";
import type { ModuleContext } from "../kernel/define-module";
import type { GameRef } from "../kernel/game-mode";
import type { DuelResult, DuelState, Seat, Side } from "./duel-mode";
import type { DuelRecord, DuelStore } from "./store";

/** The name of a stored duel in the games module's records (`room_name` on the profile's records). */
export const DUEL_SOURCE_NAME = "1:1 대결";

/** Only a duel that was played between two members is stored and rated (product-rules "1:1 duel"). */
export const isStored = (state: DuelState, result: DuelResult) =>
  result.played && state.red.player.userId !== null && state.blue.player.userId !== null;

export function duelRecord(state: DuelState, result: DuelResult): DuelRecord {
  return {
    sessionId: state.sessionId,
    redUserId: state.red.player.userId!,
    blueUserId: state.blue.player.userId!,
    winnerSide: result.winner_side,
    reason: result.reason,
    redLives: result.red_remaining_lives,
    blueLives: result.blue_remaining_lives,
    redWordsTyped: result.red_words_typed,
    blueWordsTyped: result.blue_words_typed,
    duration: result.game_duration,
    startedAt: state.startedAt!,
    endedAt: state.endedAt!,
  };
}

/** Position in the games module's record: the winner 1, the loser 2, nobody in a draw. */
const positionOf = (side: Side, result: DuelResult) =>
  result.winner_side === "draw" ? null : result.winner_side === side ? 1 : 2;

/**
 * A side's figures as a game result: speed = keystrokes of the words that hit per minute of the duel, accuracy =
 * hits ÷ words sent, errors = the misses.
 */
function resultOf(seat: Seat, side: Side, state: DuelState, result: DuelResult) {
  const minutes = result.game_duration / 60;
  return {
    userId: seat.player.userId,
    playerKey: seat.player.key,
    nickname: seat.player.name,
    wpm: minutes > 0 ? Math.round(seat.keystrokes / minutes) : 0,
    accuracy: seat.attempts > 0 ? Math.round((seat.wordsTyped / seat.attempts) * 10_000) / 100 : 0,
    completionTime: result.game_duration,
    position: positionOf(side, result),
    errorCount: seat.attempts - seat.wordsTyped,
    createdAt: state.endedAt!,
  };
}

/**
 * Both members' results and the finish through the games module (profile records, admin counts); no medals:
 * the duel has its own rankings. Idempotent like every games write (results per player key, one finish).
 */
export async function recordDuelGame(ctx: ModuleContext, ref: GameRef, state: DuelState, result: DuelResult) {
  await recordResult(ctx, ref, resultOf(state.red, "red", state, result));
  await recordResult(ctx, ref, resultOf(state.blue, "blue", state, result));
  await finishGame(ctx, ref, { endedAt: state.endedAt!, participants: 2, medals: [] });
}

/** The duel's own record: ratings, wins and losses, streaks, activity (the duel rankings). */
export const storeDuel = (store: DuelStore, state: DuelState, result: DuelResult) =>
  store.recordDuel(duelRecord(state, result));
