import type { ModuleContext } from "../kernel/define-module";
import { countGames as countRoomGames } from "../rooms";

/**
 * Game figures for the dashboard and `madang stats`, read through the public API of each module that stores
 * games (rooms now; the duel and guild games add their counters here when they land). Tests may register a
 * provider of their own for a context.
 */
export interface GameStatsProvider {
  /** Games finished in [from, to) (epoch ms); without a range, all games ever. */
  countGames(range?: { from: number; to: number }): number;
}

const providers = new WeakMap<ModuleContext, GameStatsProvider>();

export function registerGameStatsProvider(ctx: ModuleContext, provider: GameStatsProvider) {
  providers.set(ctx, provider);
}

const fromGameModules = (ctx: ModuleContext): GameStatsProvider => ({
  countGames: (range) => countRoomGames(ctx, range),
});

export const gameStatsProvider = (ctx: ModuleContext): GameStatsProvider => providers.get(ctx) ?? fromGameModules(ctx);
