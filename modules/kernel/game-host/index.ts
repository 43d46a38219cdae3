/** The generic game host: one live game of any mode on the process's one shared scheduler (README.md). */
export { type GameEmitter, socketIoEmitter, userChannel } from "./emitter";
export { GAME_HOST_MESSAGES, type InputResult, refusal } from "./errors";
export { GameHost, type GameHostOptions, type GameInput, type GameMember, type GamePresenter } from "./game-host";
export { GameScheduler, type ScheduledGame, ScheduledJob, sharedScheduler } from "./scheduler";
export { DEFAULT_RETRY, type RetryPolicy, type WriteRequest } from "./write-queue";
