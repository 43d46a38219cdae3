/**
 * 오늘의 문장's socket events (the module README "Wire"): the client → server payloads are the `Static` of the
 * schemas that validate them (socket.ts), the server → client ones what the presenter sends. Every `daily:*` event
 * from the server carries the `day` of the game it belongs to. The web imports these types (type-only).
 */
import type { Static } from "@sinclair/typebox";
import type { PublicRewards } from "../accounts";
import type { ClientEvent } from "../kernel/socket";
import type { BoardEntry } from "./api";
import type { DailyStateView, DailyStatus } from "./daily-mode";
import type { TypedPayload } from "./socket";

export type { BoardEntry, DailyStateView, DailyStatus };

/** A player's best of the day: a board entry with its rank among the members (null for a guest). */
export type BestEntry = Omit<BoardEntry, "rank"> & { rank: number | null };

/** `daily:result`: an attempt as stored (or not: `stored` false when the write failed for good). */
export interface DailyResultView {
  day: string;
  stored: boolean;
  /** The attempt's place among the player's counted attempts of the day (the first 3 pay). */
  attempt: number | null;
  wpm: number;
  accuracy: number;
  completion_time: number;
  error_count: number;
  /** Steps show the answer typed: only verified attempts enter the board. */
  verified: boolean;
  rewards: PublicRewards | null;
  best: BestEntry | null;
}

export interface DailyClientEvents {
  /**
   * Enter today's game (the answer: its day and the player's best of it, guests too: the page's own ghost; its state
   * follows as `daily:state`); a player's tabs share one game.
   */
  "daily:join": ClientEvent<unknown, { success: true; day: string; best: BestEntry | null }>;
  "daily:leave": ClientEvent<unknown>;
  /** Start an attempt: the 3-s countdown, then the sentence. */
  "daily:start": ClientEvent<unknown>;
  /** The answer box changed (a step, stamped by the server; at most 10 a second). */
  "daily:progress": ClientEvent<Static<typeof TypedPayload>>;
  /** The answer (Enter). */
  "daily:submit": ClientEvent<Static<typeof TypedPayload>>;
}

export interface DailyServerEvents {
  "daily:state": (payload: DailyStateView) => void;
  "daily:countdown": (payload: { day: string; number: number }) => void;
  "daily:result": (payload: DailyResultView) => void;
}

declare module "../kernel/socket" {
  interface ClientEvents extends DailyClientEvents {}
  interface ServerEvents extends DailyServerEvents {}
}
