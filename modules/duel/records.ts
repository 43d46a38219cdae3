import type { DuelResult, DuelState } from "./duel-mode";
import type { DuelRecord, DuelStore } from "./store";

/** The name the game host gives a duel's source (its logs; duels are not written to the games module). */
export const DUEL_SOURCE_NAME = "1:1 대결";

import { EARLY_FORFEIT_MS } from "./rules";

export { EARLY_FORFEIT_MS };

/** The duel ended by a leave or a disconnect in its first `EARLY_FORFEIT_MS` of play. */
export const isEarlyForfeit = (state: DuelState) =>
  state.forfeitAt !== null && state.startedAt !== null && state.forfeitAt - state.startedAt < EARLY_FORFEIT_MS;

/**
 * Only a duel that was played between two members, and not forfeited early, is stored (and, within the pair's
 * daily limit, rated: the store decides that in the transaction that stores it). The runtime (one process or
 * several) ends every duel through the one presenter, which asks this.
 */
export const isStored = (state: DuelState, result: DuelResult) =>
  result.played && state.red.player.userId !== null && state.blue.player.userId !== null && !isEarlyForfeit(state);

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

/**
 * The duel's own record: ratings, wins and losses, streaks, activity (the duel rankings and the profile's duel
 * figures). A duel is not a typing-speed result: nothing is written to the games module (no game record, no typing
 * ranking, no typing statistics) and no rewards are paid.
 */
export const storeDuel = (store: DuelStore, state: DuelState, result: DuelResult) =>
  store.recordDuel(duelRecord(state, result));
