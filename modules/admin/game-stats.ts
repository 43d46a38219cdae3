import type { ModuleContext } from "../kernel/define-module";

/**
 * Game figures for the dashboard come from the module that stores game results (rooms). The admin module
 * does not import it: that module registers a provider (in its onBoot, and in `commands(ctx)` so the CLI's
 * `madang stats` sees it too). Without one, game counts are zero.
 */
export interface GameStatsProvider {
  /** Games finished in [from, to) (epoch ms); without a range, all games ever. */
  countGames(range?: { from: number; to: number }): number;
}

const noGames: GameStatsProvider = { countGames: () => 0 };
const providers = new WeakMap<ModuleContext, GameStatsProvider>();

export function registerGameStatsProvider(ctx: ModuleContext, provider: GameStatsProvider) {
  providers.set(ctx, provider);
}

export const gameStatsProvider = (ctx: ModuleContext): GameStatsProvider => providers.get(ctx) ?? noGames;
