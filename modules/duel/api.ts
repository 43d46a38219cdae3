import type { ModuleContext } from "../kernel/define-module";
import { DAY_MS, seoulDate } from "../kernel/seoul-time";
import { withoutRankingExcluded } from "../rankings";
import { GLICKO2_NEW_PLAYER } from "./glicko2";
import { createDuelStore, type DuelStore, type RankingEntry, type RankingKind, winRateOf } from "./store";

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

/**
 * One of the four duel rankings (members only), with every entry's recent figures over `days` Seoul days; members
 * excluded from the rankings (moderation) are left out by the rankings' own rule, as in the typing rankings.
 */
export function duelRanking(
  ctx: ModuleContext,
  kind: RankingKind,
  options: RankingOptions = {},
): Promise<RankingEntry[]> {
  const days = options.days ?? RANKING_DEFAULTS.days;
  const query = {
    minGames: options.minGames ?? RANKING_DEFAULTS.minGames,
    fromDay: seoulDate(ctx.clock.now() - (days - 1) * DAY_MS),
  };
  return withoutRankingExcluded(
    ctx,
    options.limit ?? RANKING_DEFAULTS.limit,
    (entry: RankingEntry) => entry.user_id,
    (limit) => duelStore(ctx).ranking(kind, { ...query, limit }),
  );
}

/** A member's stored duel figures (null before the first stored duel): the profile may show them. */
export const duelStatsOf = (ctx: ModuleContext, userId: number) => duelStore(ctx).player(userId);

/** `GET /api/duel/stats/me`: a member's figures as the profile shows them (a new player's 1500 and zeros). */
export async function ownDuelStats(ctx: ModuleContext, userId: number) {
  const figures = await duelStatsOf(ctx, userId);
  const total = figures?.totalGames ?? 0;
  return {
    user_id: userId,
    rating: Math.round(figures?.rating ?? GLICKO2_NEW_PLAYER.rating),
    wins: figures?.wins ?? 0,
    losses: figures?.losses ?? 0,
    draws: figures?.draws ?? 0,
    total_games: total,
    win_rate: winRateOf(figures?.wins ?? 0, total),
    current_streak: figures?.currentStreak ?? 0,
    max_win_streak: figures?.maxWinStreak ?? 0,
  };
}
