import type { GameRewardDelta, GameRewardGrant } from "../accounts";
import type { CountedResult } from "../games";

/** product-rules.md "Typing rooms": experience and coin bonuses for positions 1–3. */
const EXPERIENCE_BONUS = [30, 20, 10];
const COINS_BY_POSITION = [30, 20, 10];
const BASE_EXPERIENCE = 10;
const BASE_COINS = 5;
const MEDALS = ["gold", "silver", "bronze"] as const;
/**
 * Places only mean something when someone was beaten: position bonuses (experience and coins), medals and win
 * streaks need at least this many players with a result in the game (product-rules "Typing rooms").
 */
export const RANKED_GAME_MIN_PARTICIPANTS = 2;
export const isRankedGame = (participants: number) => participants >= RANKED_GAME_MIN_PARTICIPANTS;

/** The medal of a place: positions 1–3 of a ranked game (≥ 2 participants), guests too; otherwise none. */
export function medalFor(position: number | null, participants: number): (typeof MEDALS)[number] | null {
  if (position === null || position < 1 || position > 3 || !isRankedGame(participants)) return null;
  return MEDALS[position - 1];
}

export interface RewardInput {
  wpm: number;
  accuracy: number;
  /** 1-based position, or null for a result below the position accuracy. */
  position: number | null;
  /** Players with an accepted result in this game. */
  participants: number;
  /** False in a game whose places pay nothing (a private room's): the participation reward only. Default true. */
  ranked?: boolean;
}

/**
 * One registered player's rewards for one game:
 * experience = 10 + speed × accuracy / 1000 (+ 30/20/10 for positions 1–3) (rounded);
 * coins 30/20/10 for positions 1–3, else 5; points = round(speed × accuracy / 1000);
 * a medal for positions 1–3; a win (first place) extends the win streak. The position parts (bonuses, medal,
 * win) only in a ranked game (≥ 2 participants, and not a private room's): a lone player, and every player of a
 * private room, gets the participation reward.
 */
export function computeRewards({ wpm, accuracy, position, participants, ranked = true }: RewardInput): GameRewardDelta {
  const medal = ranked ? medalFor(position, participants) : null;
  const rank = medal ? MEDALS.indexOf(medal) : -1;
  const performance = (wpm * accuracy) / 1000;
  return {
    experience: Math.round(BASE_EXPERIENCE + performance + (rank >= 0 ? EXPERIENCE_BONUS[rank] : 0)),
    coins: rank >= 0 ? COINS_BY_POSITION[rank] : BASE_COINS,
    points: Math.round(performance),
    medal,
    won: rank === 0,
    wpm,
    accuracy,
  };
}

/**
 * A counted game that pays nothing (a round cut short by a fault, a result stored after its game was closed): the
 * member played it, so it counts in the account's games, averages and win streak (not a win) like in the records
 * and the rankings, with no experience, coins, points or medal.
 */
export const playedOnly = (result: { wpm: number; accuracy: number }): GameRewardDelta => ({
  experience: 0,
  coins: 0,
  points: 0,
  medal: null,
  won: false,
  wpm: result.wpm,
  accuracy: result.accuracy,
});

/**
 * The grants of a closed game, one per counted result of a member AS STORED (games' `finishGame` answers them), in
 * the order they were stored: a member is paid for a game exactly when the game counts for them, so the account's
 * figures (games played, average speed and accuracy, win streak) count the same results as the records and the
 * rankings (profile README "One definition of each figure"). `rewardsOf` gives the mode's rewards of a player key
 * (its standings); a counted result the mode did not rank (none at all after a fault) is paid as played only. The
 * speed and accuracy added to the account are the stored ones.
 */
export function countedGrants(
  counted: readonly CountedResult[],
  rewardsOf: (playerKey: string) => GameRewardDelta | null | undefined,
): GameRewardGrant[] {
  return counted.flatMap((result) => {
    if (result.userId === null) return [];
    const rewards = rewardsOf(result.playerKey) ?? playedOnly(result);
    return [{ userId: result.userId, delta: { ...rewards, wpm: result.wpm, accuracy: result.accuracy } }];
  });
}
