import type { Random } from "./clock";

/**
 * The game-mode contract (after boardgame.io's `Game`): a mode is pure functions over a state value. The generic
 * host (`./game-host`, one per live game: a room, a guild room, a duel) owns members, sockets, timers and writes:
 * it calls `move` for player input, `tick` when `nextTickAt` is due, hands the returned effects to the mode's
 * presenter (socket events and write requests), and asks `playerView` what one player may see. A mode never
 * touches sockets, the database or the clock.
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
  /**
   * A player already in the game is now shown differently (an administrator renamed the account): the mode puts
   * the new `player` (same id) wherever it keeps the old one. Without it the mode's state keeps the old fields.
   */
  onPlayerUpdate?(state: State, player: GamePlayer, ctx: GameContext): Transition<State, Effect>;
  /** What one player may see (hides other players' private data; the sentence race shows everything). */
  playerView(state: State, playerId: string | null): View;
  /**
   * When the round in play started, or null between rounds. The host counts a new round each time this turns
   * into a new value, and builds the `GameRef` of that round's writes from it. Without it a host counts no rounds.
   */
  roundStartedAt?(state: State): number | null;
  /**
   * When the round in play (or last played) ended, null while one runs or before the first. Each time this turns
   * into a new non-null value the host tells its owner `roundEnded` (a duel's players may look for a new one).
   * Without it the host tells no round's end.
   */
  roundEndedAt?(state: State): number | null;
  /**
   * True once the game has nothing more to do (a finished duel after its lingering time): the host tells its owner
   * `closed` when this turns true, and the owner disposes of the game. Without it a game is never over for good.
   */
  isClosed?(state: State): boolean;
  /**
   * Ends the round in play at once (the server shuts down, or the process loses ownership of the game): the
   * standings so far, with the same effects as a round that ends normally. Without it the round is abandoned.
   */
  finish?(state: State, ctx: GameContext): Transition<State, Effect>;
}

/**
 * Which live game this is: the mode, the source that hosts it (a room id, a guild id, a duel id) and the source's
 * name at the time (a room's or guild's name). Explicit so that one owning process can be found for it.
 */
export interface GameIdentity {
  mode: GameModeId;
  sourceId: number | string;
  sourceName: string;
}

/** One round of a live game: the key of its durable writes (a retried write names the same round). */
export interface GameRef extends GameIdentity {
  /** 1, 2, 3… per source; a host continues from the last round stored for its source. */
  round: number;
  /** Epoch milliseconds, from the mode's `roundStartedAt`. */
  startedAt: number;
  /**
   * The owning process's lease epoch (fencing token) when the game runs under a lease (several processes,
   * `game-host/ownership.ts`): storage refuses a write whose epoch is lower than the highest it has seen for the
   * source (`StaleOwnerError`). Absent on a single process.
   */
  epoch?: number;
}

export interface GamePlayer {
  id: string;
  name: string;
  userId: number | null;
}

/**
 * Every game mode the product has. Registries are typed `satisfies Record<GameModeId, …>` so adding an id
 * without its mode is a type error (`apps/server/game-modes.ts` holds every mode).
 */
export type GameModeId = "sentence_race" | "duel" | "guild_game" | "daily";

// biome-ignore lint/suspicious/noExplicitAny: the registry holds modes of different state types
export type AnyGameMode = GameMode<any, any, any, any, any>;

/** The types a mode works with, read off its functions (so hosts and presenters need only the mode's type). */
export type StateOf<M extends AnyGameMode> = ReturnType<M["setup"]>;
export type SettingsOf<M extends AnyGameMode> = Parameters<M["setup"]>[0];
export type MoveOf<M extends AnyGameMode> = Parameters<M["move"]>[2];
export type EffectOf<M extends AnyGameMode> = ReturnType<M["tick"]>["effects"][number];
export type ViewOf<M extends AnyGameMode> = ReturnType<M["playerView"]>;
