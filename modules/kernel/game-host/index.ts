/** The generic game host: one live game of any mode on the process's one shared scheduler (README.md). */

export { CoalescedFrame, type FrameOptions } from "./coalesced-frame";
export { createGameDirectory } from "./directory";
export { adapterEmitter, type GameEmitter, localFirstEmitter, socketIoEmitter, userChannel } from "./emitter";
export {
  GAME_HOST_MESSAGES,
  type InputResult,
  isStaleOwnerError,
  refusal,
  refusalErrors,
  StaleOwnerError,
} from "./errors";
export {
  GameHost,
  type GameHostOptions,
  type GameInput,
  type GameLifecycle,
  type GameMember,
  type GameOwnerLease,
  type GamePresenter,
} from "./game-host";
export {
  DEFAULT_LEASE_TIMINGS,
  Lease,
  LeaseKeeper,
  type LeaseLoss,
  type LeaseRedis,
  type LeaseTimings,
  leaseHolder,
} from "./lease";
export { type GameDirectory, GameOpeners, LocalGames, type LocalGamesOptions } from "./local-games";
export {
  type AnyGameInput,
  type GameOpener,
  GameOwnership,
  type GameOwnershipOptions,
  gameKey,
  type OwnedGame,
  type OwnershipRedis,
  type OwnershipSubscriber,
} from "./ownership";
export { memberPlayerId, memberPlayerKey, playerIdOf, playerKeyOf } from "./players";
export { GameScheduler, type ScheduledGame, ScheduledJob, sharedScheduler } from "./scheduler";
export {
  WATCHER_FRAME_MS,
  type WatcherMerges,
  type WatcherOptions,
  watchersChannelOf,
} from "./watchers";
export { DEFAULT_RETRY, type RetryPolicy, type WriteRequest } from "./write-queue";
