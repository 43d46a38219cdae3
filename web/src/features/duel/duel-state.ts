/**
 * The /duel page's state (spec part 2 §4 "Duel client flow"), pure: the reducer of the server's duel events and
 * the position of a block between two server events (it moves at its `speed` from where the server last put it).
 */

export type Side = "red" | "blue";
export type BlockStatus = "static" | "moving_left" | "moving_right";

export interface BlockView {
  id: number;
  word: string;
  status: BlockStatus;
  speed: number;
  x: number;
  y: number;
}

/** A block as drawn: where it was at `at` (client clock, ms) and how it moves from there. */
export interface Block extends BlockView {
  at: number;
}

export interface OnlineUser {
  sid: string;
  nickname: string;
  status: "idle" | "waiting" | "in_game";
  is_me: boolean;
}

export interface DuelResult {
  winner_side: Side | "draw";
  reason: string;
  reason_text?: string;
  red_remaining_lives: number;
  blue_remaining_lives: number;
  red_words_typed: number;
  blue_words_typed: number;
  game_duration: number;
}

export type Phase = "menu" | "waiting" | "playing";

/** A bullet on its way: from its side's edge to the block it hit (drawn briefly, then gone). */
export interface Bullet {
  side: Side;
  blockId: number;
  at: number;
}
export const BULLET_MS = 400;

export interface DuelState {
  phase: Phase;
  status: "waiting" | "in_progress" | "finished";
  side: Side | null;
  opponent: string;
  countdown: number | null;
  lives: { red: number; blue: number };
  remaining: number;
  blocks: Block[];
  bullets: Bullet[];
  result: DuelResult | null;
  /** The opponent left or dropped (shown with the result). */
  opponentGone: "left" | "disconnected" | null;
}

export const FIELD = { width: 800, height: 500 } as const;
export const START_LIVES = 5;
export const GAME_SECONDS = 60;

export const initialDuel: DuelState = {
  phase: "menu",
  status: "waiting",
  side: null,
  opponent: "",
  countdown: null,
  lives: { red: START_LIVES, blue: START_LIVES },
  remaining: GAME_SECONDS,
  blocks: [],
  bullets: [],
  result: null,
  opponentGone: null,
};

export type DuelEvent =
  | { type: "searching" }
  | { type: "menu" }
  | { type: "match_found"; side: Side; opponent: string }
  | { type: "countdown"; number: number }
  | { type: "game_start"; blocks: BlockView[]; lives: { red: number; blue: number }; remaining: number; at: number }
  | { type: "position"; blockId: number; status: BlockStatus; speed: number; x?: number; at: number }
  | { type: "replaced"; blockId: number; blocks: BlockView[]; at: number }
  | { type: "bullet"; side: Side; blockId: number; at: number }
  | { type: "lives"; side: Side; lives: number }
  | { type: "time"; remaining: number }
  | { type: "over"; result: DuelResult }
  | { type: "opponent_gone"; how: "left" | "disconnected" };

const placed = (blocks: BlockView[], at: number): Block[] => blocks.map((block) => ({ ...block, at }));

export function duelReducer(state: DuelState, event: DuelEvent): DuelState {
  switch (event.type) {
    case "searching":
      return { ...initialDuel, phase: "waiting" };
    case "menu":
      return initialDuel;
    case "match_found":
      return { ...initialDuel, phase: "playing", side: event.side, opponent: event.opponent };
    case "countdown":
      return { ...state, countdown: event.number };
    case "game_start":
      return {
        ...state,
        status: "in_progress",
        countdown: null,
        blocks: placed(event.blocks, event.at),
        lives: event.lives,
        remaining: event.remaining,
      };
    case "position":
      return {
        ...state,
        blocks: state.blocks.map((block) =>
          block.id === event.blockId
            ? {
                ...block,
                x: event.x ?? blockX(block, event.at),
                status: event.status,
                speed: event.speed,
                at: event.at,
              }
            : block,
        ),
      };
    case "replaced":
      return {
        ...state,
        blocks: [...state.blocks.filter((block) => block.id !== event.blockId), ...placed(event.blocks, event.at)],
      };
    case "bullet":
      return {
        ...state,
        bullets: [
          ...state.bullets.filter((b) => event.at - b.at < BULLET_MS),
          { side: event.side, blockId: event.blockId, at: event.at },
        ],
      };
    case "lives":
      return { ...state, lives: { ...state.lives, [event.side]: event.lives } };
    case "time":
      return { ...state, remaining: event.remaining };
    case "over":
      return { ...state, status: "finished", countdown: null, result: event.result };
    case "opponent_gone":
      return { ...state, opponentGone: event.how };
  }
}

/** A block's x at client time `now`: from where the server last put it, at its speed, never past the field. */
export function blockX(block: Block, now: number): number {
  if (block.status === "static") return block.x;
  const direction = block.status === "moving_left" ? -1 : 1;
  const x = block.x + (direction * block.speed * Math.max(0, now - block.at)) / 1000;
  return Math.min(FIELD.width, Math.max(0, x));
}

/** Space or Enter sends the trimmed word, only while the duel is in progress and never during IME composition. */
export function wordToSend(key: string, composing: boolean, text: string, status: DuelState["status"]): string | null {
  if (composing || (key !== "Enter" && key !== " ")) return null;
  const word = text.trim();
  return status === "in_progress" && word.length > 0 ? word : null;
}

/** The result as the overlay says it, from the viewer's side. */
export function outcomeText(result: DuelResult, side: Side | null): string {
  if (result.winner_side === "draw") return "무승부";
  return result.winner_side === side ? "승리!" : "패배";
}
