/** A finished game, announced after its results are stored (rankings and profile may keep aggregates). */
export interface GameFinishedEvent {
  gameId: number;
  roomId: number;
  roomName: string;
  sentenceId: number;
  startedAt: number;
  finishedAt: number;
  participants: number;
  /** Positioned results by position, then the others in arrival order. */
  results: {
    userId: number | null;
    nickname: string;
    playerKey: string;
    wpm: number;
    accuracy: number;
    errorCount: number;
    completionTime: number;
    position: number | null;
    winStreak: number;
  }[];
}

declare module "../kernel/events" {
  interface AppEvents {
    "rooms.game_finished": GameFinishedEvent;
  }
}
