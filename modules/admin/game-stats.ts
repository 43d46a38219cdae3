import { countGames } from "../games";
import type { ModuleContext } from "../kernel/define-module";

/**
 * Game figures for the dashboard and `madang stats`, read through the games module's public API (it stores the
 * games of every mode: the rooms' sentence race now, guild games and the duel when they land). Tests may register
 * a provider of their own for a context.
 */
export interface GameStatsProvider {
  /** Games finished in [from, to) (epoch ms); without a range, all finished games ever. */
  countGames(range?: { from: number; to: number }): number | Promise<number>;
}

const providers = new WeakMap<ModuleContext, GameStatsProvider>();

export function registerGameStatsProvider(ctx: ModuleContext, provider: GameStatsProvider) {
  providers.set(ctx, provider);
}

const fromGamesModule = (ctx: ModuleContext): GameStatsProvider => ({
  countGames: (range) => countGames(ctx, range),
});

export const gameStatsProvider = (ctx: ModuleContext): GameStatsProvider => providers.get(ctx) ?? fromGamesModule(ctx);
