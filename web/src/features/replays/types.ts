/** `GET /api/replays/{key}` (product-rules "Live race and replays"). */
export interface ReplayStep {
  /** ms since the round started, on the server's clock. */
  t: number;
  text: string;
}

export interface Replay {
  key: string;
  mode: "sentence_race" | "guild_game" | "daily";
  room_name: string;
  sentence: string;
  player: { name: string; level?: number | null };
  result: {
    wpm: number;
    accuracy: number;
    position: number | null;
    completion_time: number;
    created_at: string;
  };
  steps: ReplayStep[];
}
