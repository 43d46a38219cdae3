import { applyGameRewards, type GameRewardDelta, type RewardedFigures } from "../accounts";
import { finishGame, recordResult } from "../games";
import type { ModuleContext } from "../kernel/define-module";
import { memberPlayerKey } from "../kernel/game-host";
import type { GameRef } from "../kernel/game-mode";
import { keystrokes } from "../kernel/typing";
import { computeRewards, countedGrants, payLateResult } from "../rooms";
import { guildsApi } from "./api";
import type { FinishedGuildGame, Participant } from "./guild-game";
import { FULL_REWARD_KEYSTROKES } from "./rules";

/**
 * The guild game's durable writes, through the games module (results, games, medals; `room_name` = the guild's
 * name) and accounts (rewards), with the rooms' reward rules. Each is idempotent, so the host's write queue may
 * retry it: results are keyed by (game, player key), a finish is done once per game, rewards are paid once per
 * (game, member).
 */

/**
 * One completed participant (or an exact answer refused as implausible, kept for the record only), with its steps
 * as the replay under the key the presenter drew (README "Replays": refused ones too, for moderation). A counted
 * result stored after its game was closed (late) is paid as played at once, as the rooms do: the account counts
 * every counted result (profile README).
 */
export async function recordGuildResult(
  ctx: ModuleContext,
  ref: GameRef,
  participant: Participant,
  replay: { key: string; sentence: string } | null = null,
) {
  const outcome = await recordResult(ctx, ref, {
    userId: participant.userId,
    playerKey: memberPlayerKey(participant.userId),
    nickname: participant.name,
    wpm: participant.wpm ?? 0,
    accuracy: participant.accuracy ?? 0,
    completionTime: participant.completionTime ?? 0,
    position: participant.rejected ? null : participant.position,
    errorCount: participant.errorCount ?? 0,
    implausible: participant.rejected,
    verified: participant.verified,
    replay: replay && { ...replay, steps: participant.steps },
    createdAt: participant.finishedAt ?? undefined,
  });
  if (outcome.late && !participant.rejected) {
    await payLateResult(ctx, outcome.gameId, participant.userId, {
      wpm: participant.wpm ?? 0,
      accuracy: participant.accuracy ?? 0,
    });
  }
  return outcome;
}

/**
 * The share of a room game's rewards a guild game pays (product-rules "Trust rules"): all of it from
 * `FULL_REWARD_KEYSTROKES` keystrokes of the problem (the 타수 rule), proportionally less below — a short problem
 * is a short game and must not pay like a sentence.
 */
const rewardShare = (problem: string) =>
  Math.min(1, keystrokes(problem.normalize("NFC").trim()) / FULL_REWARD_KEYSTROKES);

/**
 * A counted participant's rewards for a guild game — the one place of the guild game's reward rules: the typing
 * room's formula (`computeRewards`: position bonuses, medals and the win only with ≥ 2 counted results), its
 * experience, coins and points scaled by `rewardShare`; a member past the day's cap (`rewarded` false) gets no
 * experience, coins, points or medal (the game still counts as played: games, averages and the win streak).
 */
export function guildRewardsOf(
  participant: Participant,
  counted: number,
  problem: string,
  rewarded: boolean,
): GameRewardDelta {
  const full = computeRewards({
    wpm: participant.wpm ?? 0,
    accuracy: participant.accuracy ?? 0,
    position: participant.position,
    participants: counted,
  });
  if (!rewarded) return { ...full, experience: 0, coins: 0, points: 0, medal: null };
  const share = rewardShare(problem);
  return {
    ...full,
    experience: Math.round(full.experience * share),
    coins: Math.round(full.coins * share),
    points: Math.round(full.points * share),
  };
}

export interface FinishedGuildRecord {
  gameId: number;
  /** New figures of each paid member, by user id. */
  figures: Map<number, RewardedFigures>;
  /** What each counted participant was paid (zeros past the day's cap), by user id. */
  rewards: Map<number, GameRewardDelta>;
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
 * A finished game: first who is rewarded (the day's cap, decided once per member in the guilds' own transaction),
 * then closed with its medals (positions 1–3 of a game with ≥ 2 counted results, rewarded members only), each
 * member's rewards paid once, and — by the call that closed it — one `game` line in the guild's recent activity.
 */
export async function finishGuildGame(
  ctx: ModuleContext,
  ref: GameRef,
  game: FinishedGuildGame,
): Promise<FinishedGuildRecord> {
  const counted = game.standings.length;
  const rewarded = await guildsApi(ctx).service.claimGameRewards(
    game.guildId,
    ref.round,
    game.finishedAt,
    game.standings.map((p) => p.userId),
  );
  const rewards = new Map(
    game.standings.map((p) => [p.userId, guildRewardsOf(p, counted, game.problem, rewarded.get(p.userId) ?? false)]),
  );
  const rewardsByKey = new Map(game.standings.map((p) => [memberPlayerKey(p.userId), rewards.get(p.userId)]));
  const medals = game.standings.flatMap((p) => {
    const medal = rewards.get(p.userId)?.medal;
    return medal ? [{ playerKey: memberPlayerKey(p.userId), medal }] : [];
  });
  const outcome = await finishGame(ctx, ref, { endedAt: game.finishedAt, participants: counted, medals });
  const grants = countedGrants(outcome.counted, (playerKey) => rewardsByKey.get(playerKey));
  const figures = await applyGameRewards(ctx.database, { key: `games:${outcome.gameId}`, at: game.finishedAt }, grants);
  if (outcome.finished) {
    const winner = game.standings[0]?.userId ?? null;
    await guildsApi(ctx).service.recordGameActivity(game.guildId, podium(game), winner, game.finishedAt);
  }
  return { gameId: outcome.gameId, figures, rewards };
}
