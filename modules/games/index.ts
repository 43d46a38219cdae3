import { defineModule } from "../kernel/define-module";
import "./events";
import { migrations } from "./migrations";
import { migrations as pgMigrations } from "./migrations-pg";
import { startReplayRetention, stopReplayRetention } from "./replays";
import { gamesRoutes } from "./routes";

export interface GamesModuleOptions {
  /**
   * Mount `GET /api/games/results/user/{userId}`. Off by default: rooms still serves the same path until rooms is
   * ported onto this module; the port turns it on and removes rooms' route (two mounts of one path must not exist).
   */
  serveRoutes?: boolean;
}

/** The games module: the game records of every mode, their daily aggregates and the records route. */
export function createGamesModule(options: GamesModuleOptions = {}) {
  return defineModule({
    name: "games",
    dependsOn: ["accounts"],
    migrations,
    pgMigrations,
    ...(options.serveRoutes ? { routes: gamesRoutes } : {}),
    // Replays older than 90 days are deleted daily (README "Replays"), on every server: deletes are idempotent.
    onBoot: startReplayRetention,
    onStop: stopReplayRetention,
  });
}

export const gamesModule = createGamesModule();

// The public API other modules may use.
export {
  bestOfUser,
  claimOwner,
  countGames,
  dailyStats,
  finishGame,
  lastRound,
  ownerEpoch,
  recordResult,
  resultsOfUser,
  unfinishedLastRound,
} from "./api";
export type { GameFinishedEvent, ResultRecordedEvent } from "./events";
export { GameResultRecordSchema } from "./model";
export { keepReplay, pruneReplays, REPLAY_RULES, type ReplayView, replayOf } from "./replays";
export { gamesRoutes } from "./routes";
export {
  type FinishInput,
  isRankedResult,
  MEDAL_MIN_COUNTED_RESULTS,
  type MedalGrant,
  newReplayKey,
  REPLAY_KEY,
  type ReplayInput,
  type ResultInput,
  resultDay,
  type StoredGameRef,
} from "./rules";
export type { Medal } from "./schema";
export type {
  BestFigures,
  CountedResult,
  DailyStatsQuery,
  DailyStatsSort,
  FinishOutcome,
  PlayerPeriodStats,
  TimeRange,
  UserResult,
} from "./store";
