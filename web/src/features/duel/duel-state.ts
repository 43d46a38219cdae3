/**
 * The /duel page's state (spec part 2 §4 "Duel client flow"), pure: the reducer of the server's duel events and
 * the position of a block between two server events (it moves at its `speed` from where the server last put it).
 */

import type { BlockStatus, BlockView, DuelResultView, DuelStateView, Side } from "../../../../modules/duel";
import { UNRATED_NOTES } from "../../../../modules/duel/rules";

// The duel's wire shapes, as the server declares them (modules/duel/wire.ts): type-only, erased from the bundle.
export type { BlockStatus, BlockView, OnlineUser, Side } from "../../../../modules/duel";

/** A block as drawn: where it was at `at` (client clock, ms) and how it moves from there. */
export interface Block extends BlockView {
  at: number;
}

/**
 * `duel:game_over`'s result as the page reads it: the end rule (duel README "End rules") is worded from the viewer's
 * side (`reasonLines`), and a reason the page does not know is shown with the server's text, or as sent.
 */
export type DuelResult = Omit<DuelResultView, "reason" | "reason_text" | "played"> & {
  reason: DuelResultView["reason"] | (string & {});
  reason_text?: string;
};

/** `watching`: the page shows someone else's duel (duel README "Watching"). */
export type Phase = "menu" | "waiting" | "playing" | "watching";

/** A side of the duel as a watcher sees it: who plays it, and their rating (null for a guest). */
export interface SideInfo {
  nickname: string;
  rating: number | null;
}

/** The member's rating after a stored duel (`duel:stats_update`). */
export interface DuelRating {
  rating: number;
  change: number;
  /** False when the pair's daily limit of rated duels was reached: stored, the rating unchanged. */
  rated: boolean;
}

/** The last duel's result as the menu keeps it after the automatic leave, until the player moves on. */
export interface LastDuel {
  result: DuelResult;
  side: Side | null;
  opponent: string;
  gone: "left" | "disconnected" | null;
  rating: DuelRating | null;
}

/** A bullet on its way: from its side's edge to the block it hit (drawn briefly, then gone). */
export interface Bullet {
  side: Side;
  blockId: number;
  at: number;
}
export const BULLET_MS = 400;

export interface DuelState {
  phase: Phase;
  /** The duel the page plays or watches: events of any other are dropped. */
  sessionId: string | null;
  /** Both sides' names and ratings (watching). */
  sides: { red: SideInfo; blue: SideInfo } | null;
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
  /** This duel's rating change (members, once the duel is stored). */
  rating: DuelRating | null;
  /** The previous duel's result, on the menu until the player searches again or closes it. */
  last: LastDuel | null;
}

export const FIELD = { width: 800, height: 500 } as const;
export const START_LIVES = 5;
export const GAME_SECONDS = 60;

export const initialDuel: DuelState = {
  phase: "menu",
  sessionId: null,
  sides: null,
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
  rating: null,
  last: null,
};

export type DuelEvent =
  | { type: "searching" }
  | { type: "menu" }
  | { type: "match_found"; side: Side; opponent: string; sessionId: string }
  /** The duel this page watches, as it is now (`duel:watch_state`). */
  | { type: "watch_state"; state: DuelStateView; countdown: number | null; result: DuelResult | null; at: number }
  | { type: "countdown"; number: number }
  | { type: "game_start"; blocks: BlockView[]; lives: { red: number; blue: number }; remaining: number; at: number }
  | { type: "position"; blockId: number; status: BlockStatus; speed: number; x?: number; at: number }
  | { type: "replaced"; blockId: number; blocks: BlockView[]; at: number }
  | { type: "bullet"; side: Side; blockId: number; at: number }
  | { type: "lives"; side: Side; lives: number }
  | { type: "time"; remaining: number }
  | { type: "over"; result: DuelResult }
  | { type: "opponent_gone"; how: "left" | "disconnected" }
  /** The automatic leave after the end: back to the menu, the result kept there. */
  | { type: "left_after_end" }
  | { type: "rating"; rating: number; change: number; rated: boolean }
  /** The player closed the kept result. */
  | { type: "dismiss_last" };

const placed = (blocks: BlockView[], at: number): Block[] => blocks.map((block) => ({ ...block, at }));

export function duelReducer(state: DuelState, event: DuelEvent): DuelState {
  switch (event.type) {
    case "searching":
      return { ...initialDuel, phase: "waiting" };
    case "menu":
      return initialDuel;
    case "match_found":
      return {
        ...initialDuel,
        phase: "playing",
        side: event.side,
        opponent: event.opponent,
        sessionId: event.sessionId,
      };
    case "watch_state":
      return watched(state, event);
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
    case "left_after_end":
      if (!state.result) return initialDuel;
      return {
        ...initialDuel,
        last: {
          result: state.result,
          side: state.side,
          opponent: state.opponent,
          gone: state.opponentGone,
          rating: state.rating,
        },
      };
    case "rating": {
      // The stored duel's figures may come after the automatic leave: they join the result the menu keeps.
      const rating = { rating: event.rating, change: event.change, rated: event.rated };
      if (state.phase === "playing") return { ...state, rating };
      return state.last ? { ...state, last: { ...state.last, rating } } : state;
    }
    case "dismiss_last":
      return { ...state, last: null };
  }
}

function watched(state: DuelState, event: Extract<DuelEvent, { type: "watch_state" }>): DuelState {
  const view = event.state;
  return {
    ...initialDuel,
    last: state.last,
    phase: "watching",
    sessionId: view.session_id,
    sides: {
      red: { nickname: view.red_nickname, rating: view.red_rating },
      blue: { nickname: view.blue_nickname, rating: view.blue_rating },
    },
    status: view.status === "countdown" ? "waiting" : view.status,
    countdown: event.countdown,
    lives: { red: view.red_lives, blue: view.blue_lives },
    remaining: view.remaining_time,
    blocks: placed(view.word_blocks, event.at),
    result: event.result,
  };
}

/** A block's x at client time `now`: from where the server last put it, at its speed, never past the field. */
export function blockX(block: Block, now: number): number {
  if (block.status === "static") return block.x;
  const direction = block.status === "moving_left" ? -1 : 1;
  const x = block.x + (direction * block.speed * Math.max(0, now - block.at)) / 1000;
  return Math.min(FIELD.width, Math.max(0, x));
}

/**
 * The input's new value after a change, and the word it completes: whitespace typed after a word sends that word
 * (a Space the page could not hold back, as after a composition ends in Safari or Firefox). `justSent` is a word
 * the page already sent on the key's own event (the composition's end): when the Space then arrives as text, with
 * the word still in front of it or not, it is dropped rather than sending the word a second time.
 */
export function splitTyped(value: string, justSent: string | null): { word: string | null; rest: string } {
  let rest = value;
  if (justSent !== null && rest.startsWith(justSent) && /^\s/.test(rest.slice(justSent.length))) {
    rest = rest.slice(justSent.length);
  }
  const space = /\s/.exec(rest);
  if (!space) return { word: null, rest };
  const word = rest.slice(0, space.index).trim();
  return { word: word.length > 0 ? word : null, rest: rest.slice(space.index).trimStart() };
}

const reasonText = (result: DuelResult) => result.reason_text ?? result.reason;

/**
 * The end as the viewer reads it, one line per fact and never the same fact twice: the server's `reason_text` is
 * worded for nobody in particular ("생명이 모두 사라졌습니다." reads as one's own loss to the winner), so the reasons
 * that name a side are worded from the viewer's; the opponent's leaving or dropping is said once, in the reason.
 */
export function reasonLines(result: DuelResult, side: Side | null, gone: "left" | "disconnected" | null): string[] {
  const won = side !== null && result.winner_side === side;
  const lost = side !== null && result.winner_side !== side && result.winner_side !== "draw";
  const lines: string[] = [];
  switch (result.reason) {
    case "no_lives":
      lines.push(won ? "상대의 생명이 모두 사라졌습니다." : lost ? "내 생명이 모두 사라졌습니다." : reasonText(result));
      break;
    case "opponent_left":
      lines.push(lost ? "대결을 떠나 패배했습니다." : "상대가 대결을 떠났습니다.");
      break;
    case "opponent_disconnected":
      lines.push(lost ? "연결이 끊어져 패배했습니다." : "상대의 연결이 끊어졌습니다.");
      break;
    default:
      lines.push(reasonText(result));
  }
  // A drop or leave the reason does not already say (the duel ended otherwise first).
  const goneText =
    gone === "left" ? "상대가 대결을 떠났습니다." : gone === "disconnected" ? "상대의 연결이 끊어졌습니다." : null;
  if (goneText && !lines.includes(goneText)) lines.push(goneText);
  return lines;
}

/** The result as a watcher reads it: which side, by name, won. */
export function watchedOutcomeText(result: DuelResult, sides: DuelState["sides"]): string {
  if (result.winner_side === "draw") return "무승부";
  const side = result.winner_side === "red" ? "빨강" : "파랑";
  const name = sides?.[result.winner_side]?.nickname;
  return name ? `${side} ${name} 승리` : `${side} 승리`;
}

/** The result as the overlay says it, from the viewer's side. */
export function outcomeText(result: DuelResult, side: Side | null): string {
  if (result.winner_side === "draw") return "무승부";
  return result.winner_side === side ? "승리!" : "패배";
}

export const UNRATED_EARLY = UNRATED_NOTES.early;
export const UNRATED_PAIR_LIMIT = UNRATED_NOTES.pairLimit;

/** Why this duel moved no rating (product-rules "Trust rules"), or null when it did or its figures are still coming. */
export function unratedNote(result: DuelResult, rating: DuelRating | null): string | null {
  if (result.rated === false) return UNRATED_EARLY;
  if (rating && !rating.rated) return UNRATED_PAIR_LIMIT;
  return null;
}
