import type { UserRow } from "../../db/core/schema";
import type { SqlDatabase } from "../../db/database";
import { accountsStore, type GameFigures } from "./store";
import { experienceForNextLevel, type PublicUser, presentUser } from "./view";

export interface GameRewardDelta {
  experience: number;
  coins: number;
  points: number;
  medal: "gold" | "silver" | "bronze" | null;
  won: boolean;
  wpm: number;
  accuracy: number;
}

/** One member's rewards of one game. */
export interface GameRewardGrant {
  userId: number;
  delta: GameRewardDelta;
}

/** A member's figures after a game (`user:stats_update`); `already_granted` when an earlier call paid them. */
export type RewardedFigures = PublicUser & { leveled_up: boolean; already_granted: boolean };

/** A grant row is needed only while a finish may be retried (seconds); a day is far beyond that. */
export const REWARD_GRANT_RETENTION_MS = 86_400_000;

/** The medal counts with one more of `medal` (none when null). */
const medalsAfter = (row: UserRow, medal: GameRewardDelta["medal"]) => ({
  goldMedals: row.goldMedals + (medal === "gold" ? 1 : 0),
  silverMedals: row.silverMedals + (medal === "silver" ? 1 : 0),
  bronzeMedals: row.bronzeMedals + (medal === "bronze" ? 1 : 0),
});

/** A member's figures after one game, levelling up as often as the experience allows. */
function figuresAfter(row: UserRow, delta: GameRewardDelta, at: number): GameFigures {
  let level = row.level;
  let experience = row.experience + delta.experience;
  while (experience >= experienceForNextLevel(level)) {
    experience -= experienceForNextLevel(level);
    level += 1;
  }
  const winStreak = delta.won ? row.winStreak + 1 : 0;
  return {
    level,
    experience,
    coins: row.coins + delta.coins,
    points: row.points + delta.points,
    totalEarnedPoints: row.totalEarnedPoints + delta.points,
    ...medalsAfter(row, delta.medal),
    winStreak,
    maxWinStreak: Math.max(row.maxWinStreak, winStreak),
    gamesPlayed: row.gamesPlayed + 1,
    wpmSum: row.wpmSum + delta.wpm,
    accuracySum: row.accuracySum + delta.accuracy,
    updatedAt: new Date(at),
  };
}

/** A medal and nothing else: no game played, no experience, the win streak as it was. */
function figuresWithMedal(row: UserRow, medal: "gold" | "silver" | "bronze", at: number): GameFigures {
  return {
    level: row.level,
    experience: row.experience,
    coins: row.coins,
    points: row.points,
    totalEarnedPoints: row.totalEarnedPoints,
    ...medalsAfter(row, medal),
    winStreak: row.winStreak,
    maxWinStreak: row.maxWinStreak,
    gamesPlayed: row.gamesPlayed,
    wpmSum: row.wpmSum,
    accuracySum: row.accuracySum,
    updatedAt: new Date(at),
  };
}

/**
 * Medals given for something other than one game (오늘의 문장's podium at midnight, modules/daily): each member's
 * medal count goes up by one, at most once per (award key, member) like a game's rewards (the same grant rows), and
 * nothing else changes — it is not a game played, so the games, averages and win streak stay as they are.
 */
export async function awardMedals(
  database: SqlDatabase,
  award: { key: string; at: number },
  medals: readonly { userId: number; medal: "gold" | "silver" | "bronze" }[],
): Promise<number[]> {
  const paid = await accountsStore(database).payGame(
    { ...award, pruneBefore: award.at - REWARD_GRANT_RETENTION_MS },
    medals.map(({ userId, medal }) => ({ userId, figures: (row: UserRow) => figuresWithMedal(row, medal, award.at) })),
  );
  return [...paid].flatMap(([userId, member]) => (member.next ? [userId] : []));
}

/**
 * Pays one game's rewards to its members in ONE transaction, at most once per (game key, member): each member's
 * grant row is written with the figures, so a retried or repeated call (a finish write tried again after an error)
 * pays nothing twice and answers the member's current figures with `already_granted`. A member deleted meanwhile
 * is skipped. `game.key` must name the game for good (the games module's id: `games:<id>`). The only way game
 * modes change a user's figures. Grant rows older than a day are pruned on the way.
 */
export async function applyGameRewards(
  database: SqlDatabase,
  game: { key: string; at: number },
  grants: readonly GameRewardGrant[],
): Promise<Map<number, RewardedFigures>> {
  const paid = await accountsStore(database).payGame(
    { ...game, pruneBefore: game.at - REWARD_GRANT_RETENTION_MS },
    grants.map(({ userId, delta }) => ({ userId, figures: (row: UserRow) => figuresAfter(row, delta, game.at) })),
  );
  const figures = new Map<number, RewardedFigures>();
  for (const { userId } of grants) {
    const member = paid.get(userId);
    if (!member || figures.has(userId)) continue;
    const { row, next } = member;
    figures.set(
      userId,
      next
        ? { ...presentUser({ ...row, ...next }), leveled_up: next.level > row.level, already_granted: false }
        : { ...presentUser(row), leveled_up: false, already_granted: true },
    );
  }
  return figures;
}
