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

/** The level and experience after `gained` more, levelling up as often as the experience allows. */
function levelAfter(row: UserRow, gained: number) {
  let level = row.level;
  let experience = row.experience + gained;
  while (experience >= experienceForNextLevel(level)) {
    experience -= experienceForNextLevel(level);
    level += 1;
  }
  return { level, experience };
}

/** A member's figures after one game. */
function figuresAfter(row: UserRow, delta: GameRewardDelta, at: number): GameFigures {
  const winStreak = delta.won ? row.winStreak + 1 : 0;
  return {
    ...levelAfter(row, delta.experience),
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

/** Something besides a game (a medal, experience): no game played, the rest as it was. */
function figuresBesidesGames(
  row: UserRow,
  { medal = null, experience = 0 }: { medal?: GameRewardDelta["medal"]; experience?: number },
  at: number,
): GameFigures {
  return {
    ...levelAfter(row, experience),
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
    medals.map(({ userId, medal }) => ({
      userId,
      figures: (row: UserRow) => figuresBesidesGames(row, { medal }, award.at),
    })),
  );
  return [...paid].flatMap(([userId, member]) => (member.next ? [userId] : []));
}

/**
 * Experience earned outside games (practice, modules/practice): levels go up as after a game, at most once per
 * (award key, member) (the same grant rows), and nothing else changes — not a game played, so no coins, points,
 * medals, games, averages or win streak. Answers each paid member's figures (`already_granted` when paid before).
 */
export async function awardExperience(
  database: SqlDatabase,
  award: { key: string; at: number },
  grants: readonly { userId: number; experience: number }[],
): Promise<Map<number, RewardedFigures>> {
  const paid = await accountsStore(database).payGame(
    { ...award, pruneBefore: award.at - REWARD_GRANT_RETENTION_MS },
    grants.map(({ userId, experience }) => ({
      userId,
      figures: (row: UserRow) => figuresBesidesGames(row, { experience }, award.at),
    })),
  );
  return presentPaid(grants, paid);
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
  return presentPaid(grants, paid);
}

/** The members' figures as the payment left them. */
function presentPaid(
  grants: readonly { userId: number }[],
  paid: Awaited<ReturnType<ReturnType<typeof accountsStore>["payGame"]>>,
): Map<number, RewardedFigures> {
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
