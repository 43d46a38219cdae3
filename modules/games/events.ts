import type { GameModeId } from "../kernel/game-mode";
import type { Medal } from "./schema";

/** A result was stored (emitted once per result: a retried write that changed nothing emits nothing). */
export interface ResultRecordedEvent {
  gameId: number;
  resultId: number;
  mode: GameModeId;
  sourceId: string;
  sourceName: string;
  round: number;
  userId: number | null;
  playerKey: string;
  nickname: string;
  wpm: number;
  accuracy: number;
  completionTime: number;
  position: number | null;
  errorCount: number;
  /** True for a result kept for the record only (never counted). */
  implausible: boolean;
  /** The steps showed the answer typed: only verified results are ranked. */
  verified: boolean;
  /** False: the game never counts in the rankings (a private room's: product-rules "Playing together"). */
  ranked: boolean;
  /** The result's replay, null when it has none. */
  replayKey: string | null;
  itemId: number | null;
  createdAt: number;
}

/** A game was finished (emitted once per game, by the call that finished it). */
export interface GameFinishedEvent {
  gameId: number;
  mode: GameModeId;
  sourceId: string;
  sourceName: string;
  round: number;
  startedAt: number;
  endedAt: number;
  participants: number;
  /** The medals stored by the finish. */
  medals: { playerKey: string; userId: number | null; medal: Medal }[];
}

declare module "../kernel/events" {
  interface AppEvents {
    "games.result_recorded": ResultRecordedEvent;
    "games.game_finished": GameFinishedEvent;
  }
}
