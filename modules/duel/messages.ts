/**
 * Every Korean refusal line of the duel, in one table: the runtime, the mode and the presenter each refused in their
 * own words before, and two tables shared a name. One place keeps the wording consistent and easy to review.
 */
export const DUEL_MESSAGES = {
  /** A socket asked about a duel it is not in (runtime). */
  noDuel: "진행 중인 대결이 없습니다.",
  /** A player already in a duel asked to be matched again (runtime). */
  alreadyInGame: "이미 대결 중입니다. 대결이 끝난 뒤에 다시 찾아주세요.",
  /** A move from someone who is not one of the duel's two sides (the mode). */
  notInDuel: "이 대결의 플레이어만 할 수 있습니다.",
  /** A join from someone who is not one of the duel's two sides (the presenter). */
  notInDuelToJoin: "이 대결의 플레이어만 참여할 수 있습니다.",
} as const;
