import type { GameContext, GameMode, GamePlayer, MoveResult, Transition } from "../kernel/game-mode";
import { keystrokes } from "../kernel/typing";
import { DUEL_MESSAGES } from "./messages";
import { DUEL_WORDS } from "./words";

/**
 * The 1:1 typing duel (product-rules.md "1:1 duel", "Duel wire details"), a pure game mode: the host feeds it the
 * two players' joins, leaves, ready signals, typed words and clock ticks; it answers with a new state and effects.
 *
 *   waiting (both send ready, within readyTimeoutMs) → countdown 3-2-1 → in_progress (60 s) → finished
 *
 * Block movement is event-driven: a moving block keeps its `speed` (px/s) and the time and place it started
 * moving (`movedAt`, `x0`); where it is at any moment follows from those, and the moment it reaches an edge
 * (`arrivesAt`) is known when it is fired. `nextTickAt` is the earliest of the next edge arrival, the next
 * second's time update, the end of the game, the next countdown step or the ready deadline, so a duel costs
 * nothing between those events.
 */
export type Side = "red" | "blue";
export type BlockStatus = "static" | "moving_left" | "moving_right";
export type DuelStatus = "waiting" | "countdown" | "in_progress" | "finished";

export interface DuelRules {
  fieldWidth: number;
  fieldHeight: number;
  blockHeight: number;
  blockGap: number;
  /** Rows of blocks (one block per row); they sit in the middle of the field, `blockGap` apart. */
  rows: number;
  lives: number;
  durationMs: number;
  countdownSeconds: number;
  /** Both players must send ready within this time after the match, or the duel is called off. */
  readyTimeoutMs: number;
  /** Speed (px/s) of a block fired at the start; it grows by `speedGrowth` px/s per second of game time. */
  startSpeed: number;
  speedGrowth: number;
  maxSpeed: number;
  /** A finished duel is closed (its host disposed) this long after the end, if its players have not left. */
  lingerMs: number;
  words: readonly string[];
}

export const DEFAULT_DUEL_RULES: DuelRules = {
  fieldWidth: 800,
  fieldHeight: 500,
  blockHeight: 30,
  blockGap: 10,
  rows: 8,
  lives: 5,
  durationMs: 60_000,
  countdownSeconds: 3,
  readyTimeoutMs: 15_000,
  startSpeed: 50,
  speedGrowth: 2,
  maxSpeed: 170,
  lingerMs: 30_000,
  words: DUEL_WORDS,
};

export interface DuelPlayer extends GamePlayer {
  /** The public id shown to others (`u_<id>`, `g_<hash>`): the spec's `sid`. */
  key: string;
  /** A member's duel rating when the duel was made (shown to watchers); absent for guests. */
  rating?: number;
  /** A member of the duel's host who only watches (README "Watching"): never a side, never typing. */
  watcher?: true;
}

export interface DuelSettings {
  sessionId: string;
  red: DuelPlayer;
  blue: DuelPlayer;
  rules: DuelRules;
}

export interface Seat {
  player: DuelPlayer;
  ready: boolean;
  /** Has a socket in the game (joined and not left). */
  present: boolean;
  /** The connection dropped (the host holds the place for the grace period): a leave then is a disconnect. */
  dropped: boolean;
  /** When the connection dropped (null while connected): a disconnect forfeits at that moment, not after the grace. */
  droppedAt: number | null;
  lives: number;
  wordsTyped: number;
  /** Words sent while in progress, hits and misses (the stored accuracy). */
  attempts: number;
  /** Keystrokes (타수) of the words that hit (the stored speed). */
  keystrokes: number;
}

export interface WordBlock {
  id: number;
  word: string;
  status: BlockStatus;
  /** px/s; 0 while static. */
  speed: number;
  /** Centre of the block: x where it was at `movedAt`, y of its row. */
  x0: number;
  y: number;
  row: number;
  movedAt: number;
  /** When a moving block reaches its edge (x ≤ 0 or x ≥ fieldWidth); null while static. */
  arrivesAt: number | null;
}

export interface Bullet {
  side: Side;
  target_block_id: number;
}

export type EndReason =
  | "no_lives"
  | "time_up_lives"
  | "time_up_words"
  | "time_up_draw"
  | "opponent_left"
  | "opponent_disconnected"
  | "not_ready"
  | "stopped";

export interface DuelResult {
  winner_side: Side | "draw";
  reason: EndReason;
  red_remaining_lives: number;
  blue_remaining_lives: number;
  red_words_typed: number;
  blue_words_typed: number;
  /** Seconds from the start to the end (0 for a duel that never started). */
  game_duration: number;
  /** The game was played (it reached in_progress): only such a duel is stored and rated. */
  played: boolean;
}

export interface DuelState {
  sessionId: string;
  rules: DuelRules;
  status: DuelStatus;
  red: Seat;
  blue: Seat;
  blocks: readonly WordBlock[];
  bullets: readonly Bullet[];
  nextBlockId: number;
  createdAt: number;
  /** Time of the last transition: `playerView` shows the blocks as of then. */
  updatedAt: number;
  readyDeadline: number | null;
  countdownNumber: number | null;
  countdownAt: number | null;
  startedAt: number | null;
  endsAt: number | null;
  /** The next once-a-second `time_update`. */
  nextSecondAt: number | null;
  endedAt: number | null;
  /**
   * When the duel was forfeited by a leave (that moment) or a disconnect (the moment the connection dropped); null
   * when it ended otherwise. The stored-duel rule reads it (records.ts: an early forfeit is not stored).
   */
  forfeitAt: number | null;
  result: DuelResult | null;
  /** A finished duel's host is disposed at this time; null once closed (or while not finished). */
  closeAt: number | null;
}

export type DuelEffect =
  | { type: "ready"; side: Side }
  | { type: "countdown"; number: number }
  | { type: "started" }
  | { type: "fired"; side: Side; block: WordBlock }
  | { type: "defended"; side: Side; blockId: number; newBlocks: WordBlock[] }
  | { type: "hit"; side: Side; lives: number; blockId: number; newBlock: WordBlock }
  | { type: "time"; remaining: number }
  | { type: "gone"; side: Side; how: "left" | "disconnected" }
  | { type: "over"; result: DuelResult }
  | { type: "closed" };

export type DuelMove = { type: "ready" } | { type: "word"; word: string } | { type: "connection"; connected: boolean };

/** Duel game state of spec part 2 §3 (the wire shape), blocks as of a moment. */
export interface DuelStateView {
  session_id: string;
  status: DuelStatus;
  red_sid: string;
  blue_sid: string;
  red_nickname: string;
  blue_nickname: string;
  /** Each side's rating when the duel was made (rounded); null for a guest. */
  red_rating: number | null;
  blue_rating: number | null;
  red_ready: boolean;
  blue_ready: boolean;
  red_lives: number;
  blue_lives: number;
  red_words_typed: number;
  blue_words_typed: number;
  word_blocks: BlockView[];
  bullets: Bullet[];
  remaining_time: number;
  created_at: string;
  started_at: string | null;
  ended_at: string | null;
  /** The moment the block positions are taken at (ISO): a client moves them on from there at their speed. */
  server_time: string;
}

export interface BlockView {
  id: number;
  word: string;
  status: BlockStatus;
  speed: number;
  x: number;
  y: number;
}

type T = Transition<DuelState, DuelEffect>;
const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());
export const otherSide = (side: Side): Side => (side === "red" ? "blue" : "red");

/** The side a player plays, or null for anyone else. */
export function sideOf(state: DuelState, playerId: string): Side | null {
  if (state.red.player.id === playerId) return "red";
  if (state.blue.player.id === playerId) return "blue";
  return null;
}

/** Where a block is at `now` (a moving block stops at its edge). */
export function blockX(block: WordBlock, now: number, rules: DuelRules): number {
  if (block.status === "static") return block.x0;
  const travelled = (block.speed * Math.max(0, now - block.movedAt)) / 1000;
  const x = block.status === "moving_right" ? block.x0 + travelled : block.x0 - travelled;
  return Math.min(rules.fieldWidth, Math.max(0, x));
}

export const blockView = (block: WordBlock, now: number, rules: DuelRules): BlockView => ({
  id: block.id,
  word: block.word,
  status: block.status,
  speed: block.speed,
  x: Math.round(blockX(block, now, rules) * 100) / 100,
  y: block.y,
});

/** The y (centre) of a row: the rows are stacked `blockGap` apart and centred on the field. */
export function rowY(row: number, rules: DuelRules): number {
  const pitch = rules.blockHeight + rules.blockGap;
  const height = rules.rows * pitch - rules.blockGap;
  return (rules.fieldHeight - height) / 2 + row * pitch + rules.blockHeight / 2;
}

/** The speed of a block fired `now`: grows with the game time, capped. */
export function speedAt(state: DuelState, now: number): number {
  const seconds = Math.max(0, now - (state.startedAt ?? now)) / 1000;
  const { startSpeed, speedGrowth, maxSpeed } = state.rules;
  return Math.min(maxSpeed, Math.round((startSpeed + speedGrowth * seconds) * 100) / 100);
}

/** Remaining whole seconds (rounded up), 0 once over; the full duration before the start. */
export function remainingSeconds(state: DuelState, now: number): number {
  if (state.endsAt === null) return Math.ceil(state.rules.durationMs / 1000);
  if (state.status === "finished") return Math.max(0, Math.ceil((state.endsAt - (state.endedAt ?? now)) / 1000));
  return Math.max(0, Math.ceil((state.endsAt - now) / 1000));
}

const ratingOf = (player: DuelPlayer) => (player.rating === undefined ? null : Math.round(player.rating));

export function duelView(state: DuelState, now: number): DuelStateView {
  const at = state.status === "finished" ? (state.endedAt ?? now) : now;
  return {
    session_id: state.sessionId,
    status: state.status,
    red_sid: state.red.player.key,
    blue_sid: state.blue.player.key,
    red_nickname: state.red.player.name,
    blue_nickname: state.blue.player.name,
    red_rating: ratingOf(state.red.player),
    blue_rating: ratingOf(state.blue.player),
    red_ready: state.red.ready,
    blue_ready: state.blue.ready,
    red_lives: state.red.lives,
    blue_lives: state.blue.lives,
    red_words_typed: state.red.wordsTyped,
    blue_words_typed: state.blue.wordsTyped,
    word_blocks: state.blocks.map((b) => blockView(b, at, state.rules)),
    bullets: [...state.bullets],
    remaining_time: remainingSeconds(state, now),
    created_at: iso(state.createdAt)!,
    started_at: iso(state.startedAt),
    ended_at: iso(state.endedAt),
    server_time: iso(at)!,
  };
}

// --- words and blocks -------------------------------------------------------------------------------------------

/** A word not on the field now (a typed word names at most one block). */
function pickWord(blocks: readonly WordBlock[], ctx: GameContext, words: readonly string[]): string {
  const onField = (word: string) => blocks.some((b) => b.word === word);
  // Eight words on the field out of hundreds: a random pick almost never collides, so filtering is the rare path.
  for (let i = 0; i < 8; i++) {
    const word = ctx.random.pick(words);
    if (!onField(word)) return word;
  }
  const free = words.filter((w) => !onField(w));
  return ctx.random.pick(free.length > 0 ? free : words);
}

function staticBlock(state: DuelState, id: number, row: number, blocks: readonly WordBlock[], ctx: GameContext) {
  const { rules } = state;
  return {
    id,
    word: pickWord(blocks, ctx, rules.words),
    status: "static",
    speed: 0,
    x0: rules.fieldWidth / 2,
    y: rowY(row, rules),
    row,
    movedAt: ctx.now,
    arrivesAt: null,
  } satisfies WordBlock;
}

/** Replaces a block (defended, or arrived at an edge) by a new static one in its row. */
function replaceBlock(state: DuelState, blockId: number, ctx: GameContext): { state: DuelState; block: WordBlock } {
  const old = state.blocks.find((b) => b.id === blockId)!;
  const rest = state.blocks.filter((b) => b.id !== blockId);
  const block = staticBlock(state, state.nextBlockId, old.row, rest, ctx);
  return {
    block,
    state: {
      ...state,
      blocks: state.blocks.map((b) => (b.id === blockId ? block : b)),
      bullets: state.bullets.filter((b) => b.target_block_id !== blockId),
      nextBlockId: state.nextBlockId + 1,
    },
  };
}

function initialBlocks(state: DuelState, ctx: GameContext): DuelState {
  const blocks: WordBlock[] = [];
  for (let row = 0; row < state.rules.rows; row++) {
    blocks.push(staticBlock(state, state.nextBlockId + row, row, blocks, ctx));
  }
  return { ...state, blocks, nextBlockId: state.nextBlockId + blocks.length };
}

// --- the game -------------------------------------------------------------------------------------------------

const newSeat = (player: DuelPlayer, lives: number): Seat => ({
  player,
  ready: false,
  present: false,
  dropped: false,
  droppedAt: null,
  lives,
  wordsTyped: 0,
  attempts: 0,
  keystrokes: 0,
});

function setup(settings: DuelSettings, ctx: GameContext): DuelState {
  const { rules } = settings;
  const state: DuelState = {
    sessionId: settings.sessionId,
    rules,
    status: "waiting",
    red: newSeat(settings.red, rules.lives),
    blue: newSeat(settings.blue, rules.lives),
    blocks: [],
    bullets: [],
    nextBlockId: 1,
    createdAt: ctx.now,
    updatedAt: ctx.now,
    readyDeadline: ctx.now + rules.readyTimeoutMs,
    countdownNumber: null,
    countdownAt: null,
    startedAt: null,
    endsAt: null,
    nextSecondAt: null,
    endedAt: null,
    forfeitAt: null,
    result: null,
    closeAt: null,
  };
  // The blocks are shown from the match on (the waiting screen may draw them); they move only once started.
  return initialBlocks(state, ctx);
}

const withSeat = (state: DuelState, side: Side, seat: Partial<Seat>): DuelState => ({
  ...state,
  [side]: { ...state[side], ...seat },
});

function ready(state: DuelState, side: Side, ctx: GameContext): T {
  if (state.status !== "waiting" || state[side].ready) return { state, effects: [] };
  const next = { ...withSeat(state, side, { ready: true }), updatedAt: ctx.now };
  const effects: DuelEffect[] = [{ type: "ready", side }];
  if (!next[otherSide(side)].ready) return { state: next, effects };
  const seconds = state.rules.countdownSeconds;
  return {
    state: { ...next, status: "countdown", readyDeadline: null, countdownNumber: seconds, countdownAt: ctx.now + 1000 },
    effects: [...effects, { type: "countdown", number: seconds }],
  };
}

function countdownStep(state: DuelState, ctx: GameContext): T {
  const number = (state.countdownNumber ?? 1) - 1;
  if (number > 0) {
    return {
      state: { ...state, countdownNumber: number, countdownAt: state.countdownAt! + 1000, updatedAt: ctx.now },
      effects: [{ type: "countdown", number }],
    };
  }
  // The game starts when the countdown says it does, even when the tick runs late: speeds and time count from then.
  const startedAt = state.countdownAt!;
  return {
    state: {
      ...state,
      status: "in_progress",
      countdownNumber: null,
      countdownAt: null,
      startedAt,
      endsAt: startedAt + state.rules.durationMs,
      nextSecondAt: startedAt + 1000,
      blocks: state.blocks.map((b) => ({ ...b, movedAt: startedAt })),
      updatedAt: ctx.now,
    },
    effects: [{ type: "started" }],
  };
}

/** A moving block's arrival at its edge: x0 → 0 (moving left) or → fieldWidth (moving right). */
function arrivalOf(x0: number, status: BlockStatus, speed: number, movedAt: number, rules: DuelRules) {
  const distance = status === "moving_right" ? rules.fieldWidth - x0 : x0;
  return movedAt + Math.ceil((distance / speed) * 1000);
}

/** A typed word (trimmed, NFC) against the blocks: fire at a static block, defend one coming at the typist. */
function typeWord(state: DuelState, side: Side, typed: string, ctx: GameContext): T {
  const word = typed.normalize("NFC").trim();
  if (state.status !== "in_progress" || word === "") return { state, effects: [] };
  const counted = withSeat(state, side, { attempts: state[side].attempts + 1 });
  const block = state.blocks.find((b) => b.word === word);
  const towardsMe: BlockStatus = side === "red" ? "moving_left" : "moving_right";
  if (block?.status === "static") return fire(counted, side, block, ctx);
  if (block?.status === towardsMe) return defend(counted, side, block, ctx);
  // A wrong word, or the typist's own shot: no effect (not an error either), only the attempt counts.
  return { state: { ...counted, updatedAt: ctx.now }, effects: [] };
}

function scored(state: DuelState, side: Side, word: string): DuelState {
  const seat = state[side];
  return withSeat(state, side, { wordsTyped: seat.wordsTyped + 1, keystrokes: seat.keystrokes + keystrokes(word) });
}

function fire(state: DuelState, side: Side, block: WordBlock, ctx: GameContext): T {
  const status: BlockStatus = side === "red" ? "moving_right" : "moving_left";
  const speed = speedAt(state, ctx.now);
  const fired: WordBlock = {
    ...block,
    status,
    speed,
    movedAt: ctx.now,
    arrivesAt: arrivalOf(block.x0, status, speed, ctx.now, state.rules),
  };
  const next = scored(state, side, block.word);
  return {
    state: {
      ...next,
      blocks: next.blocks.map((b) => (b.id === block.id ? fired : b)),
      bullets: [...next.bullets, { side, target_block_id: block.id }],
      updatedAt: ctx.now,
    },
    effects: [{ type: "fired", side, block: fired }],
  };
}

function defend(state: DuelState, side: Side, block: WordBlock, ctx: GameContext): T {
  const replaced = replaceBlock(scored(state, side, block.word), block.id, ctx);
  return {
    state: { ...replaced.state, updatedAt: ctx.now },
    effects: [{ type: "defended", side, blockId: block.id, newBlocks: [replaced.block] }],
  };
}

function end(state: DuelState, winner: Side | "draw", reason: EndReason, at: number): T {
  const played = state.startedAt !== null;
  const result: DuelResult = {
    winner_side: winner,
    reason,
    red_remaining_lives: state.red.lives,
    blue_remaining_lives: state.blue.lives,
    red_words_typed: state.red.wordsTyped,
    blue_words_typed: state.blue.wordsTyped,
    game_duration: played ? Math.max(0, at - state.startedAt!) / 1000 : 0,
    played,
  };
  // Moving blocks stop where they are at the end.
  const blocks = state.blocks.map((b) =>
    b.status === "static" ? b : { ...b, x0: blockX(b, at, state.rules), speed: 0, movedAt: at, arrivesAt: null },
  );
  return {
    state: {
      ...state,
      status: "finished",
      blocks,
      readyDeadline: null,
      countdownNumber: null,
      countdownAt: null,
      nextSecondAt: null,
      endedAt: at,
      result,
      closeAt: at + state.rules.lingerMs,
      updatedAt: at,
    },
    effects: [{ type: "over", result }],
  };
}

/** Time is up (or the game is ended early): more lives wins, then more words typed, else a draw. */
function judge(state: DuelState, at: number, stopped: boolean): T {
  const { red, blue } = state;
  let winner: Side | "draw" = "draw";
  let reason: EndReason = "time_up_draw";
  if (red.lives !== blue.lives) {
    winner = red.lives > blue.lives ? "red" : "blue";
    reason = "time_up_lives";
  } else if (red.wordsTyped !== blue.wordsTyped) {
    winner = red.wordsTyped > blue.wordsTyped ? "red" : "blue";
    reason = "time_up_words";
  }
  return end(state, winner, stopped ? "stopped" : reason, at);
}

/** The earliest moving block due by `now` (ties: lower id first). */
function nextArrival(state: DuelState, until: number): WordBlock | null {
  let first: WordBlock | null = null;
  for (const b of state.blocks) {
    if (b.arrivesAt === null || b.arrivesAt > until) continue;
    if (!first || b.arrivesAt < first.arrivesAt! || (b.arrivesAt === first.arrivesAt && b.id < first.id)) first = b;
  }
  return first;
}

/** A block reached an edge: the side at that edge loses a life and a new static block takes the row. */
function arrive(state: DuelState, block: WordBlock, ctx: GameContext): T {
  const side: Side = block.status === "moving_left" ? "red" : "blue";
  const lives = Math.max(0, state[side].lives - 1);
  const at = block.arrivesAt!;
  const replaced = replaceBlock(withSeat(state, side, { lives }), block.id, { ...ctx, now: at });
  const effects: DuelEffect[] = [{ type: "hit", side, lives, blockId: block.id, newBlock: replaced.block }];
  if (lives > 0) return { state: { ...replaced.state, updatedAt: ctx.now }, effects };
  const over = end(replaced.state, otherSide(side), "no_lives", at);
  return { state: over.state, effects: [...effects, ...over.effects] };
}

/** Every event due by `ctx.now`, each at its own time and in time order: arrivals, time updates, the end. */
function playOn(state: DuelState, ctx: GameContext): T {
  const effects: DuelEffect[] = [];
  let current = state;
  while (current.status === "in_progress") {
    const arrival = nextArrival(current, Math.min(ctx.now, current.endsAt!));
    const second = current.nextSecondAt!;
    if (arrival && arrival.arrivesAt! <= second) {
      const step = arrive(current, arrival, ctx);
      current = step.state;
      effects.push(...step.effects);
      continue;
    }
    if (current.endsAt! <= ctx.now && current.endsAt! <= second) {
      const step = judge(current, current.endsAt!, false);
      return { state: step.state, effects: [...effects, ...step.effects] };
    }
    if (second > ctx.now) break;
    current = { ...current, nextSecondAt: second + 1000, updatedAt: ctx.now };
    effects.push({ type: "time", remaining: Math.max(0, Math.ceil((current.endsAt! - second) / 1000)) });
  }
  return { state: current, effects };
}

function tick(state: DuelState, ctx: GameContext): T {
  switch (state.status) {
    case "waiting":
      if (state.readyDeadline !== null && ctx.now >= state.readyDeadline) return notReady(state, ctx);
      return { state, effects: [] };
    case "countdown":
      return state.countdownAt !== null && ctx.now >= state.countdownAt
        ? countdownStep(state, ctx)
        : { state, effects: [] };
    case "in_progress":
      return playOn(state, ctx);
    case "finished":
      if (state.closeAt !== null && ctx.now >= state.closeAt) {
        return { state: { ...state, closeAt: null, updatedAt: ctx.now }, effects: [{ type: "closed" }] };
      }
      return { state, effects: [] };
  }
}

/** Nobody readied in time: the one who did wins by forfeit; neither → called off as a draw. Never stored. */
function notReady(state: DuelState, ctx: GameContext): T {
  const { red, blue } = state;
  const winner: Side | "draw" = red.ready === blue.ready ? "draw" : red.ready ? "red" : "blue";
  return end(state, winner, "not_ready", ctx.now);
}

function nextTickAt(state: DuelState): number | null {
  switch (state.status) {
    case "waiting":
      return state.readyDeadline;
    case "countdown":
      return state.countdownAt;
    case "in_progress": {
      let at = Math.min(state.nextSecondAt!, state.endsAt!);
      for (const b of state.blocks) if (b.arrivesAt !== null && b.arrivesAt < at) at = b.arrivesAt;
      return at;
    }
    case "finished":
      return state.closeAt;
  }
}

function move(
  state: DuelState,
  playerId: string,
  input: DuelMove,
  ctx: GameContext,
): MoveResult<DuelState, DuelEffect> {
  const side = sideOf(state, playerId);
  if (!side) return { ok: false, error: DUEL_MESSAGES.notInDuel, code: "not_in_game" };
  // Events due before this input happen first (a block that arrived a moment ago cannot be defended any more).
  const caughtUp = state.status === "in_progress" ? playOn(state, ctx) : { state, effects: [] };
  const played = playMove(caughtUp.state, side, input, ctx);
  return { ok: true, state: played.state, effects: [...caughtUp.effects, ...played.effects] };
}

function playMove(state: DuelState, side: Side, input: DuelMove, ctx: GameContext): T {
  switch (input.type) {
    case "ready":
      return ready(state, side, ctx);
    case "word":
      return typeWord(state, side, input.word, ctx);
    case "connection":
      return {
        state: withSeat(state, side, {
          dropped: !input.connected,
          droppedAt: input.connected ? null : (state[side].droppedAt ?? ctx.now),
        }),
        effects: [],
      };
  }
}

function onPlayerJoin(state: DuelState, player: GamePlayer): T {
  const side = sideOf(state, player.id);
  if (!side) return { state, effects: [] };
  return { state: withSeat(state, side, { present: true, dropped: false, droppedAt: null }), effects: [] };
}

/** A player out of a duel not yet over (left, or their connection's grace ran out): the other side wins. */
function onPlayerLeave(state: DuelState, playerId: string, ctx: GameContext): T {
  const side = sideOf(state, playerId);
  if (!side) return { state, effects: [] };
  const how = state[side].dropped ? "disconnected" : "left";
  const gone = withSeat(state, side, { present: false });
  if (state.status === "finished") return { state: gone, effects: [] };
  const caughtUp = state.status === "in_progress" ? playOn(gone, ctx) : { state: gone, effects: [] };
  if (caughtUp.state.status === "finished") return caughtUp;
  const forfeitAt = how === "disconnected" ? (state[side].droppedAt ?? ctx.now) : ctx.now;
  const over = end(
    { ...caughtUp.state, forfeitAt },
    otherSide(side),
    how === "left" ? "opponent_left" : "opponent_disconnected",
    ctx.now,
  );
  return { state: over.state, effects: [...caughtUp.effects, { type: "gone", side, how }, ...over.effects] };
}

/** Ends the duel now (shutdown, loss of ownership): judged like a time-out, reason "stopped". */
function finish(state: DuelState, ctx: GameContext): T {
  if (state.status === "finished") return { state, effects: [] };
  if (state.status !== "in_progress") return end(state, "draw", "stopped", ctx.now);
  const caughtUp = playOn(state, ctx);
  if (caughtUp.state.status === "finished") return caughtUp;
  const judged = judge(caughtUp.state, ctx.now, true);
  return { state: judged.state, effects: [...caughtUp.effects, ...judged.effects] };
}

export const duelMode = {
  id: "duel",
  setup,
  move,
  tick,
  nextTickAt,
  onPlayerJoin,
  onPlayerLeave,
  playerView: (state: DuelState) => duelView(state, state.updatedAt),
  roundStartedAt: (state: DuelState) => state.startedAt,
  // The host tells the runtime: the players are free (`over`), the host can go (`closed`).
  roundEndedAt: (state: DuelState) => state.endedAt,
  isClosed: (state: DuelState) => state.status === "finished" && state.closeAt === null,
  finish,
} satisfies GameMode<DuelState, DuelSettings, DuelMove, DuelEffect, DuelStateView>;

export type DuelMode = typeof duelMode;
