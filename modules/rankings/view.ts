import { memberPlayerKey } from "../kernel/game-host";
import { averageAccuracy, wpmCenti } from "./rules";
import type { BoardRow, MemberFigures } from "./store";

/** Spec part 2 §3 "User ranking entry", with both names of the games count and the player's rank and key. */
export interface UserRankingEntry {
  rank: number;
  user_id: number | null;
  /** The member's current username; null for a guest (and for a member deleted since). */
  username: string | null;
  /** The guest's nickname (the spec's fallback name); null for members. */
  anonymous_nickname: string | null;
  player_key: string;
  games_played: number;
  total_games: number;
  avg_wpm: number;
  avg_accuracy: number;
  gold_medals: number;
  silver_medals: number;
  bronze_medals: number;
  level: number;
  experience: number;
  /** The replay of the entry's fastest ranked result (of the period; all time for medals and levels), or null. */
  replay_key: string | null;
}

const NO_ACCOUNT = { level: 0, experience: 0, goldMedals: 0, silverMedals: 0, bronzeMedals: 0 };

/** A period's board row: the period's games and averages, the member's medals and level (guests: 0). */
export function presentBoardRow(
  row: BoardRow,
  rank: number,
  member: MemberFigures | undefined,
  replayKey: string | null,
): UserRankingEntry {
  const account = member ?? NO_ACCOUNT;
  return {
    rank,
    user_id: member ? member.id : null,
    username: member ? member.username : null,
    anonymous_nickname: member ? null : row.nickname,
    player_key: row.playerKey,
    games_played: row.games,
    total_games: row.games,
    avg_wpm: row.wpmCenti / 100,
    avg_accuracy: averageAccuracy(row.accuracySum, row.games),
    gold_medals: account.goldMedals,
    silver_medals: account.silverMedals,
    bronze_medals: account.bronzeMedals,
    level: account.level,
    experience: account.experience,
    replay_key: replayKey,
  };
}

/** A member of the medal or level ranking: every figure from the account (all time). */
export function presentMember(member: MemberFigures, rank: number, replayKey: string | null): UserRankingEntry {
  return {
    rank,
    user_id: member.id,
    username: member.username,
    anonymous_nickname: null,
    player_key: memberPlayerKey(member.id),
    games_played: member.gamesPlayed,
    total_games: member.gamesPlayed,
    avg_wpm: wpmCenti(member.wpmSum, member.gamesPlayed) / 100,
    avg_accuracy: averageAccuracy(member.accuracySum, member.gamesPlayed),
    gold_medals: member.goldMedals,
    silver_medals: member.silverMedals,
    bronze_medals: member.bronzeMedals,
    level: member.level,
    experience: member.experience,
    replay_key: replayKey,
  };
}
