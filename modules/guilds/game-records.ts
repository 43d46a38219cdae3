import { applyGameRewards, type GameRewardDelta, type RewardedFigures } from "../accounts";
import { finishGame, recordResult } from "../games";
import type { ModuleContext } from "../kernel/define-module";
import type { GameRef } from "../kernel/game-mode";
import { computeRewards, medalFor } from "../rooms";
import { guildsApi } from "./api";
import type { FinishedGuildGame, Participant } from "./guild-game";

/**
 * The guild game's durable writes, through the games module (results, games, medals; `room_name` = the guild's
 * name) and accounts (rewards), with the rooms' reward rules. Each is idempotent, so the host's write queue may
 * retry it: results are keyed by (game, player key), a finish is done once per game, rewards are paid once per
 * (game, member).
 */

export const playerKeyOf = (userId: number) => `u_${userId}`;

/** One completed participant (or an exact answer refused as implausible, kept for the record only). */
export function recordGuildResult(ctx: ModuleContext, ref: GameRef, participant: Participant) {
  return recordResult(ctx, ref, {
    userId: participant.userId,
    playerKey: playerKeyOf(participant.userId),
    nickname: participant.name,
    wpm: participant.wpm ?? 0,
    accuracy: participant.accuracy ?? 0,
    completionTime: participant.completionTime ?? 0,
    position: participant.rejected ? null : participant.position,
    errorCount: participant.errorCount ?? 0,
    implausible: participant.rejected,
    createdAt: participant.finishedAt ?? undefined,
  });
}

/** A counted participant's rewards, exactly as a typing room's (participants = counted results of the game). */
export const rewardsOf = (participant: Participant, counted: number): GameRewardDelta =>
  computeRewards({
    wpm: participant.wpm ?? 0,
    accuracy: participant.accuracy ?? 0,
    position: participant.position,
    participants: counted,
  });

export interface FinishedGuildRecord {
  gameId: number;
  /** New figures of each rewarded member, by user id. */
  figures: Map<number, RewardedFigures>;
}

/** "1위 홍길동 (350타/분) · 2위 …" — the podium of a finished game, for the chat and the activity list. */
export function podium(game: FinishedGuildGame): string {
  if (game.standings.length === 0) return "완주한 사람이 없습니다.";
  return game.standings
    .slice(0, 3)
    .map((p) => `${p.position}위 ${p.name} (${p.wpm}타/분)`)
    .join(" · ");
}

/**
 * A finished game: closed with its medals (positions 1–3 of a game with ≥ 2 counted results), each member's
 * rewards paid once, and — by the call that closed it — one `game` line in the guild's recent activity.
 */
export async function finishGuildGame(
  ctx: ModuleContext,
  ref: GameRef,
  game: FinishedGuildGame,
): Promise<FinishedGuildRecord> {
  const counted = game.standings.length;
  const medals = game.standings.flatMap((p) => {
    const medal = medalFor(p.position, counted);
    return medal ? [{ playerKey: playerKeyOf(p.userId), medal }] : [];
  });
  const outcome = await finishGame(ctx, ref, { endedAt: game.finishedAt, participants: counted, medals });
  const grants = game.standings.map((p) => ({ userId: p.userId, delta: rewardsOf(p, counted) }));
  const figures = await applyGameRewards(ctx.database, { key: `games:${outcome.gameId}`, at: game.finishedAt }, grants);
  if (outcome.finished) {
    const winner = game.standings[0]?.userId ?? null;
    await guildsApi(ctx).service.recordGameActivity(game.guildId, podium(game), winner, game.finishedAt);
  }
  return { gameId: outcome.gameId, figures };
}

/** A game cut short by a fault: closed as played so far, without medals or rewards. */
export async function abandonGuildGame(ctx: ModuleContext, ref: GameRef, at: number, participants: number) {
  await finishGame(ctx, ref, { endedAt: at, participants, medals: [] });
}
