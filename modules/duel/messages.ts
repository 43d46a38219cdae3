import { CHALLENGE_TTL_MS } from "./rules";

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

  // --- direct challenges (README "Direct challenges") ---
  /** A guest asked to challenge, to answer a challenge or to change the challenge setting. */
  membersOnly: "회원만 대결을 신청하거나 받을 수 있습니다. 로그인해 주세요.",
  /** The challenged sid is a guest's. */
  guestTarget: "손님에게는 대결을 신청할 수 없습니다. 회원에게만 신청할 수 있습니다.",
  self: "자기 자신에게는 대결을 신청할 수 없습니다.",
  /** The challenger is in a duel. */
  challengerInGame: "대결 중에는 대결을 신청할 수 없습니다. 대결이 끝난 뒤에 다시 신청해 주세요.",
  /** The challenged member is not in the duel's online list. */
  offline: "상대가 대결 메뉴에 접속해 있지 않습니다.",
  targetInGame: "상대가 대결 중입니다. 대결이 끝난 뒤에 다시 신청해 주세요.",
  challengesOff: "상대가 대결 신청을 받지 않도록 설정했습니다.",
  pending: "이 상대에게 보낸 도전이 아직 응답을 기다리고 있습니다.",
  /** Accepting, declining or cancelling a challenge that expired, was answered, or is not the asker's. */
  challengeGone: "도전이 만료되었거나 이미 응답한 도전입니다.",
  /** Accepting while in a duel. */
  accepterInGame: "대결 중에는 도전을 수락할 수 없습니다.",
  /** Accepting after the challenger started another duel. */
  challengerBusy: "상대가 다른 대결을 시작해 도전을 수락할 수 없습니다.",

  // --- watching (README "Watching") ---
  /** The duel to watch is unknown, over or closed. */
  noDuelToWatch: "관전할 수 있는 대결이 없습니다. 이미 끝났을 수 있습니다.",
  ownDuel: "자신의 대결은 관전할 수 없습니다.",
  /** A player in a duel asked to watch one. */
  watchWhilePlaying: "대결 중에는 관전할 수 없습니다.",
  /** A watcher sent a word, or ready: watchers never play. */
  watching: "관전 중에는 입력할 수 없습니다.",
  /** A watchers' chat line from a socket that watches nothing. */
  notWatching: "관전 중인 대결이 없습니다.",
  chatTooLong: (max: number) => `메시지는 ${max}자 이하로 입력해주세요.`,
  chatRateLimited: "메시지를 너무 빠르게 보내고 있습니다. 잠시 후 다시 시도해주세요.",
} as const;

/** Why a pending challenge ended, as both sides read it (`duel:challenge_closed`). */
export const CHALLENGE_CLOSED_TEXT = {
  accepted: "도전이 수락되었습니다. 대결을 시작합니다.",
  declined: "도전이 거절되었습니다.",
  expired: `${CHALLENGE_TTL_MS / 1000}초 안에 응답이 없어 도전이 만료되었습니다.`,
  cancelled: "도전이 취소되었습니다.",
  /** Accepted too late: one of the two had started another duel meanwhile. */
  busy: "두 사람 중 한 명이 다른 대결을 시작해 도전이 끝났습니다.",
} as const;

export type ChallengeClosedReason = keyof typeof CHALLENGE_CLOSED_TEXT;
