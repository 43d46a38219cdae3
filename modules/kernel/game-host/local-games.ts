import type { Logger } from "../logger";
import { describeError, FAILED, type InputResult } from "./errors";
import type { GameOwnerLease } from "./game-host";
import type { AnyGameInput, GameOpener, OwnedGame } from "./ownership";
import { gameKey } from "./ownership";

/**
 * Where a live game runs and the one way to give it input, whatever the deployment (README "The game directory"):
 * `GameOwnership` when several processes share the games (Redis: one owner per game, input forwarded to it),
 * `LocalGames` on one process. A module written against this runs unchanged on one process and on several; only
 * the directory it is given differs.
 *
 * Input of a game that runs nowhere yet opens it (a join, move or command: the module's `GameOpener` creates the
 * host); a leave, drop, expire or update of a game that runs nowhere changes nothing and is accepted. A game that
 * runs on this process is answered at once, without a promise.
 */
export interface GameDirectory {
  /**
   * How this process opens a game of `mode` (the module that owns the mode, once, before `start`). A mode the
   * directory does not know (the mode registry, `apps/server/game-modes.ts`) or one registered twice is a boot error.
   */
  register(mode: string, opener: GameOpener): void;
  input(mode: string, sourceId: string, input: AnyGameInput): InputResult | Promise<InputResult>;
  /** The game's host when it runs on this process (null otherwise). */
  localGame(mode: string, sourceId: string): OwnedGame | null;
  start(): Promise<void>;
  /** A clean shutdown: the rounds in play of the games run here are finished and their writes drained. */
  stop(): Promise<void>;
}

export interface LocalGamesOptions {
  /** Every mode id there is (the mode registry); default: the modes of `games`. */
  modes?: readonly string[];
  /** Openers registered at once, by mode id (more come through `register`). */
  games?: Partial<Record<string, GameOpener>>;
  log: Logger;
}

/**
 * The openers of a directory by mode id: the directory knows every mode of the product (the mode registry) and
 * each module registers the opener of its own modes, once.
 */
export class GameOpeners {
  private readonly known: ReadonlySet<string>;
  private readonly openers = new Map<string, GameOpener>();

  constructor(modes: readonly string[] | undefined, games: Partial<Record<string, GameOpener>> = {}) {
    this.known = new Set(modes ?? Object.keys(games));
    for (const [mode, opener] of Object.entries(games)) if (opener) this.register(mode, opener);
  }

  register(mode: string, opener: GameOpener) {
    if (!this.known.has(mode)) throw new Error(`game mode ${mode} is not in the mode registry`);
    if (this.openers.has(mode)) throw new Error(`game mode ${mode} has two openers`);
    this.openers.set(mode, opener);
  }

  get(mode: string): GameOpener | undefined {
    return this.openers.get(mode);
  }
}

interface Local {
  game: OwnedGame | null;
  /** Resolves true once the game runs, false when opening it failed. */
  ready: Promise<boolean>;
}

/**
 * The game directory of one process: every game runs here. Opening is the same claim step as with several
 * processes, without Redis: the first input that needs the game calls the mode's opener once (input arriving
 * meanwhile waits for it) with an owner lease that always holds; its epoch is one above the source's stored epoch,
 * so a `GameRef` carries an epoch here too. `close()` of that lease forgets the game (a later input opens it anew
 * through the opener, which decides whether it may).
 */
export class LocalGames implements GameDirectory {
  private readonly games = new Map<string, Local>();
  private readonly openers: GameOpeners;
  private stopped = false;

  constructor(private readonly options: LocalGamesOptions) {
    this.openers = new GameOpeners(options.modes, options.games);
  }

  register(mode: string, opener: GameOpener) {
    this.openers.register(mode, opener);
  }

  async start() {}

  input(mode: string, sourceId: string, input: AnyGameInput): InputResult | Promise<InputResult> {
    const key = gameKey(mode, sourceId);
    const entry = this.games.get(key);
    if (entry?.game) return entry.game.input(input);
    if (entry) return entry.ready.then(() => this.input(mode, sourceId, input));
    if (input.type !== "join" && input.type !== "move" && input.type !== "command") return { ok: true };
    if (this.stopped) return FAILED;
    const opener = this.openers.get(mode);
    if (!opener) return FAILED;
    const opening: Local = { game: null, ready: Promise.resolve(false) };
    this.games.set(key, opening);
    opening.ready = this.open(key, opening, opener, sourceId);
    return opening.ready.then((opened) => (opened ? this.input(mode, sourceId, input) : FAILED));
  }

  private async open(key: string, entry: Local, opener: GameOpener, sourceId: string): Promise<boolean> {
    const forget = () => {
      if (this.games.get(key) === entry) this.games.delete(key);
    };
    try {
      const epoch = ((await opener.storedEpoch?.(sourceId)) ?? 0) + 1;
      const owner: GameOwnerLease = {
        epoch,
        holds: () => true,
        lost: () => {
          forget();
          entry.game?.giveUp();
        },
        close: forget,
      };
      entry.game = await opener.open(sourceId, owner);
      return true;
    } catch (error) {
      this.options.log.error("opening a game failed", { game: key, error: describeError(error) });
      forget();
      return false;
    }
  }

  localGame(mode: string, sourceId: string): OwnedGame | null {
    return this.games.get(gameKey(mode, sourceId))?.game ?? null;
  }

  async stop() {
    if (this.stopped) return;
    this.stopped = true;
    const entries = [...this.games.values()];
    await Promise.all(entries.map((entry) => entry.ready));
    for (const entry of entries) entry.game?.finish();
    await Promise.all(entries.map((entry) => entry.game?.drain()));
    this.games.clear();
  }
}
