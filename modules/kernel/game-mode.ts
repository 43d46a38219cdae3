import type { Random } from "./clock";

/**
 * The game-mode contract (after boardgame.io's `Game`): a mode is pure functions over a state value. A host
 * (a room, a guild room, a duel session) owns sockets, timers and persistence: it calls `move` for player
 * input, `tick` when `nextTickAt` is due, turns the returned effects into socket events and database writes,
 * and asks `playerView` what one player may see. A mode never touches sockets, the database or the clock.
 */
export interface GameContext {
  now: number;
  random: Random;
}

export interface Transition<State, Effect> {
  state: State;
  effects: Effect[];
}

/**
 * A refused move answers the player with `error` (Korean) and `code`. It may still change the game through
 * `transition` (e.g. an implausible result that uses up the player's one attempt); the host applies it first.
 */
export type MoveResult<State, Effect> =
  | ({ ok: true } & Transition<State, Effect>)
  | { ok: false; error: string; code: string; transition?: Transition<State, Effect> };

export interface GameMode<State, Settings, Move, Effect, View> {
  readonly id: GameModeId;
  /** The initial state for a host that has just been created. */
  setup(settings: Settings, ctx: GameContext): State;
  /** Validated player input; a rejection carries the Korean text for the `error` event. */
  move(state: State, playerId: string, move: Move, ctx: GameContext): MoveResult<State, Effect>;
  /** Timer-driven progress; the host calls it at (or after) `nextTickAt`. */
  tick(state: State, ctx: GameContext): Transition<State, Effect>;
  /** When the host must call `tick` next, or null while nothing is scheduled. */
  nextTickAt(state: State): number | null;
  onPlayerJoin(state: State, player: GamePlayer, ctx: GameContext): Transition<State, Effect>;
  onPlayerLeave(state: State, playerId: string, ctx: GameContext): Transition<State, Effect>;
  /** What one player may see (hides other players' private data; the sentence race shows everything). */
  playerView(state: State, playerId: string | null): View;
}

export interface GamePlayer {
  id: string;
  name: string;
  userId: number | null;
}

/**
 * Every game mode the product has. Registries are typed `satisfies Record<GameModeId, …>` so adding an id
 * without its mode is a type error. Guild games and the duel add their ids when their modules land.
 */
export type GameModeId = "sentence_race";

// biome-ignore lint/suspicious/noExplicitAny: the registry holds modes of different state types
export type AnyGameMode = GameMode<any, any, any, any, any>;
