import type { ModuleContext } from "../kernel/define-module";
import { DAY_MS, seoulDate } from "../kernel/seoul-time";
import { createDuelStore, type DuelStore, type RankingEntry, type RankingKind } from "./store";

const stores = new WeakMap<ModuleContext, DuelStore>();

/** One store per application context (tests run several servers in one process). */
export function duelStore(ctx: ModuleContext): DuelStore {
  let store = stores.get(ctx);
  if (!store) {
    store = createDuelStore(ctx.database);
    stores.set(ctx, store);
  }
  return store;
}

export const RANKING_DEFAULTS = { limit: 50, minGames: 10, days: 7 } as const;

export interface RankingOptions {
  limit?: number;
  /** win_rate only (default 10). */
  minGames?: number;
  /** The recent figures cover today and the days before it, in Seoul (default 7). */
  days?: number;
}

/** One of the four duel rankings (members only), with every entry's recent figures over `days` Seoul days. */
export function duelRanking(
  ctx: ModuleContext,
  kind: RankingKind,
  options: RankingOptions = {},
): Promise<RankingEntry[]> {
  const days = options.days ?? RANKING_DEFAULTS.days;
  return duelStore(ctx).ranking(kind, {
    limit: options.limit ?? RANKING_DEFAULTS.limit,
    minGames: options.minGames ?? RANKING_DEFAULTS.minGames,
    fromDay: seoulDate(ctx.clock.now() - (days - 1) * DAY_MS),
  });
}

/** A member's stored duel figures (null before the first stored duel): the profile may show them. */
export const duelStatsOf = (ctx: ModuleContext, userId: number) => duelStore(ctx).player(userId);
