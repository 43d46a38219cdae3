import type { GameRewardDelta } from "../accounts";

/** product-rules.md "Typing rooms": experience and coin bonuses for positions 1–3. */
const EXPERIENCE_BONUS = [30, 20, 10];
const COINS_BY_POSITION = [30, 20, 10];
const BASE_EXPERIENCE = 10;
const BASE_COINS = 5;
const MEDALS = ["gold", "silver", "bronze"] as const;
/** Medals only when someone was beaten: a game needs at least this many participants. */
export const MEDAL_MIN_PARTICIPANTS = 2;

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
 * experience = 10 + speed × accuracy / 1000 + 30/20/10 for positions 1–3 (rounded);
 * coins 30/20/10 for positions 1–3, else 5; points = round(speed × accuracy / 1000);
 * a medal for positions 1–3 only with ≥ 2 participants; a win (first place) extends the win streak.
 */
export function computeRewards({ wpm, accuracy, position, participants }: RewardInput): GameRewardDelta {
  const rank = position !== null && position >= 1 && position <= 3 ? position - 1 : -1;
  const performance = (wpm * accuracy) / 1000;
  return {
    experience: Math.round(BASE_EXPERIENCE + performance + (rank >= 0 ? EXPERIENCE_BONUS[rank] : 0)),
    coins: rank >= 0 ? COINS_BY_POSITION[rank] : BASE_COINS,
    points: Math.round(performance),
    medal: rank >= 0 && participants >= MEDAL_MIN_PARTICIPANTS ? MEDALS[rank] : null,
    won: position === 1,
    wpm,
    accuracy,
  };
}
