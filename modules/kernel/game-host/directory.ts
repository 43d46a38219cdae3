import type { Cluster } from "../cluster";
import type { Logger } from "../logger";
import { type GameDirectory, LocalGames } from "./local-games";
import { GameOwnership } from "./ownership";

/**
 * The one game directory of a server process (README "The game directory"), for every mode of the product:
 * `GameOwnership` with `cluster` (one lease per game across processes, under the process's own id), `LocalGames`
 * without. The modules register their openers on it; the server starts it before it listens and stops it after
 * the modules' runtimes.
 */
export function createGameDirectory(
  deployment: { cluster: Cluster | null; log: Logger },
  modes: readonly string[],
): GameDirectory {
  const { cluster, log } = deployment;
  if (!cluster) return new LocalGames({ modes, log });
  return new GameOwnership({
    processId: cluster.processId,
    prefix: cluster.prefix,
    redis: cluster.redis,
    subscriber: cluster.subscriber,
    modes,
    log,
  });
}
