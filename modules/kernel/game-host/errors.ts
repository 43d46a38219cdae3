import { AppError } from "../errors";

/** What a caller of `GameHost.input` gets back; a refusal carries the Korean text for the `error` event. */
export type InputResult = { ok: true } | { ok: false; error: string; code: string };

export const ACCEPTED: InputResult = { ok: true };

export const GAME_HOST_MESSAGES = {
  notInGame: "게임에 참여한 플레이어만 할 수 있습니다.",
  failed: "요청을 처리하지 못했습니다. 잠시 후 다시 시도해주세요.",
  unsupported: "지원하지 않는 요청입니다.",
  stopped: "게임이 종료되었습니다. 잠시 후 다시 시도해주세요.",
  halted: "게임에 문제가 생겨 진행할 수 없습니다. 잠시 후 다시 시도해주세요.",
  /** The game is changing process (its owner died or gave it up); the input may be sent again shortly. */
  moving: "게임을 다른 서버로 옮기는 중입니다. 잠시 후 다시 시도해주세요.",
  /** For presenters telling players that their game restarted after a fault. */
  reset: "게임에 문제가 생겨 새 게임으로 다시 시작합니다.",
} as const;

export const refusal = (error: string, code: string): InputResult => ({ ok: false, error, code });

/** A refused input. */
export type Refusal = Extract<InputResult, { ok: false }>;

/**
 * How a module's live game turns the host's refusals into the AppError the socket dispatcher sends as the `error`
 * event: one rule for every mode (rooms, guilds and the duel each had a copy). The module keeps what is its own:
 * `statuses` for its codes (any other code is a 409), `notInGame` for its words to a socket not in its game.
 */
export function refusalErrors(options: { statuses?: Readonly<Record<string, number>>; notInGame?: () => AppError }) {
  const refusalError = (result: Refusal): AppError => {
    if (result.code === "not_in_game" && options.notInGame) return options.notInGame();
    return new AppError(options.statuses?.[result.code] ?? 409, result.error, result.code);
  };
  const orThrow = (result: InputResult): void => {
    if (!result.ok) throw refusalError(result);
  };
  return { refusalError, orThrow };
}

export const NOT_IN_GAME = refusal(GAME_HOST_MESSAGES.notInGame, "not_in_game");
export const FAILED = refusal(GAME_HOST_MESSAGES.failed, "internal");
export const UNSUPPORTED = refusal(GAME_HOST_MESSAGES.unsupported, "unsupported");
export const STOPPED = refusal(GAME_HOST_MESSAGES.stopped, "game_stopped");
export const HALTED = refusal(GAME_HOST_MESSAGES.halted, "game_halted");
export const MOVING = refusal(GAME_HOST_MESSAGES.moving, "game_moving");

/**
 * Storage refused a write of a game because a newer owner (a higher lease epoch) has written for its source: this
 * process no longer owns the game. Never retried; the host gives the game up. Storage throws it (the games module),
 * or any error with `code: "stale_owner"` counts.
 */
export class StaleOwnerError extends Error {
  readonly code = "stale_owner";
  constructor(
    readonly epoch: number,
    readonly storedEpoch: number,
  ) {
    super(`write of owner epoch ${epoch} refused: the game's source has epoch ${storedEpoch}`);
    this.name = "StaleOwnerError";
  }
}

export const isStaleOwnerError = (error: unknown): boolean =>
  error instanceof StaleOwnerError ||
  (typeof error === "object" && error !== null && (error as { code?: unknown }).code === "stale_owner");

/** For logs: the stack when there is one. */
export const describeError = (error: unknown) =>
  error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
