import type { GameRewardDelta } from "../accounts";

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
}

/**
 * One registered player's rewards for one game:
 * experience = 10 + speed × accuracy / 1000 (+ 30/20/10 for positions 1–3) (rounded);
 * coins 30/20/10 for positions 1–3, else 5; points = round(speed × accuracy / 1000);
 * a medal for positions 1–3; a win (first place) extends the win streak. The position parts (bonuses, medal,
 * win) only in a ranked game (≥ 2 participants): a lone player gets the participation reward.
 */
export function computeRewards({ wpm, accuracy, position, participants }: RewardInput): GameRewardDelta {
  const medal = medalFor(position, participants);
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
