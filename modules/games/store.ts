import type { GameModeId } from "../kernel/game-mode";
import type { FinishInput, MedalGrant, ResultInput, StoredGameRef } from "./rules";
import type { Medal } from "./schema";

/**
 * Everything the games module reads and writes, one async method per unit of work. Each write method is ONE
 * transaction (on bun:sqlite a transaction body must stay synchronous: an `await` inside would commit early), so
 * the SQLite and the coming PostgreSQL store keep the same guarantees. Services never see a driver.
 */
export interface GamesStore {
  /**
   * Finds or creates the game row by its identity, inserts the result unless (game, player key) already has one,
   * and, when it inserted a counted (not implausible) result, adds it to the player's daily aggregate of `day`.
   */
  recordResult(game: StoredGameRef, result: StoredResult): Promise<RecordOutcome>;
  /**
   * Finds or creates the game row; if it is still running, sets ended_at and participants, stores the grantable
   * medals (rules.ts `grantableMedals`) and bumps the medal counts of the aggregates. A finished game is left as is.
   */
  finishGame(game: StoredGameRef, finish: FinishInput): Promise<FinishOutcome>;
  /** The highest round of (mode, source id), 0 when there is none. */
  lastRound(mode: GameModeId, sourceId: string): Promise<number>;
  /** A member's counted results, newest first, with the game's mode and source name. */
  resultsOfUser(userId: number, limit: number): Promise<UserResult[]>;
  /** Finished games, optionally only those that ended in [from, to) (epoch ms). */
  countGames(range?: TimeRange): Promise<number>;
  /** Per-player sums of the daily aggregates over [fromDay, toDay] (inclusive, `YYYY-MM-DD`). */
  dailyStats(query: DailyStatsQuery): Promise<PlayerPeriodStats[]>;
}

/** A result as stored: the Seoul day it counts for and its time are decided by the service. */
export interface StoredResult extends Omit<ResultInput, "createdAt" | "implausible" | "itemId"> {
  implausible: boolean;
  itemId: number | null;
  createdAt: number;
  /** Asia/Seoul calendar day of `createdAt` (`YYYY-MM-DD`). */
  day: string;
}

export interface RecordOutcome {
  recorded: boolean;
  gameId: number;
  /** The stored result (the earlier one when this write was a retry). */
  resultId: number;
}

export interface FinishOutcome {
  gameId: number;
  /** False when the game had already been finished (nothing changed). */
  finished: boolean;
  /** The medals this call stored, with the member each went to. */
  medals: (MedalGrant & { userId: number | null })[];
}

export interface TimeRange {
  from: number;
  to: number;
}

export interface UserResult {
  id: number;
  gameId: number;
  mode: GameModeId;
  sourceName: string;
  wpm: number;
  accuracy: number;
  completionTime: number;
  position: number | null;
  medal: Medal | null;
  createdAt: number;
}

export type DailyStatsSort = "wpm" | "games" | "medals";

export interface DailyStatsQuery {
  /** First day, `YYYY-MM-DD` (Asia/Seoul), inclusive. */
  fromDay: string;
  /** Last day, inclusive. */
  toDay: string;
  mode?: GameModeId;
  /** wpm: average speed, then games; games: games, then average speed; medals: medal score, then gold. */
  sort?: DailyStatsSort;
  limit?: number;
}

export interface PlayerPeriodStats {
  playerKey: string;
  userId: number | null;
  /** The nickname of the player's latest counted result in the period. */
  nickname: string;
  games: number;
  wpmSum: number;
  accuracySum: number;
  avgWpm: number;
  avgAccuracy: number;
  bestWpm: number;
  goldMedals: number;
  silverMedals: number;
  bronzeMedals: number;
  lastPlayedAt: number;
}
