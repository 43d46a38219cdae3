import type { GameRewardDelta, PublicRewards } from "../accounts";
import { newReplayKey } from "../games";
import type { ModuleContext } from "../kernel/define-module";
import type { GameHost, GameMember, GamePresenter } from "../kernel/game-host";
import { bestOfPlayer } from "./api";
import type { DailyEffect, DailyMode, DailyPlayer, DailyResult } from "./daily-mode";
import { recordDailyAttempt, type StoredAttempt } from "./records";
import type { DailyResultView } from "./wire";

export type DailyHost = GameHost<DailyMode, DailyPlayer>;
export type DailyMember = GameMember<DailyPlayer, undefined>;

const publicRewards = (r: GameRewardDelta): PublicRewards => ({
  experience: r.experience,
  coins: r.coins,
  points: r.points,
  medal: r.medal,
});

/**
 * A player's daily game presenter: the mode's state goes to the player's tabs (`daily:state`, `daily:countdown`
 * on the game's channel), and each attempt is one durable write (the result, the day's row, the pay) whose `done`
 * sends `daily:result` with the attempt's place of the day, the rewards and the player's best, and the member's
 * `user:stats_update`; its `failed` sends the result as not stored.
 */
export class DailyPresenter implements GamePresenter<DailyMode, DailyPlayer> {
  constructor(
    private readonly ctx: ModuleContext,
    /** The player left (the game may be closed). */
    private readonly playerLeft: (host: DailyHost) => void,
  ) {}

  effect(host: DailyHost, effect: DailyEffect) {
    switch (effect.type) {
      case "state":
        host.broadcast("daily:state", host.view(null));
        return;
      case "countdown_number":
        host.broadcast("daily:countdown", { day: host.state.day, number: effect.number });
        return;
      case "submitted":
      case "implausible":
        this.record(host, effect.result);
        return;
    }
  }

  private record(host: DailyHost, result: DailyResult) {
    const ref = host.gameRef();
    if (!ref) return;
    const day = host.state.day;
    // The replay's key is drawn once, before the write: every retry stores the same replay.
    const sentence = host.state.sentence;
    const replay = sentence?.id === result.sentenceId ? { key: newReplayKey(), sentence: sentence.text } : null;
    host.write({
      name: "record_daily_attempt",
      run: async () => {
        const stored = await recordDailyAttempt(this.ctx, ref, result, replay);
        return { stored, best: stored ? await bestOfPlayer(this.ctx, day, result.sessionId) : null };
      },
      done: ({ stored, best }) => {
        if (!stored) return;
        host.broadcast("daily:result", this.viewOf(day, result, stored, best));
        const figures = stored.figures;
        if (!figures || !stored.rewards) return;
        const { email: _email, already_granted: _paid, ...visible } = figures;
        host.sendToUser(figures.id, "user:stats_update", {
          ...visible,
          user_id: figures.id,
          rewards: publicRewards(stored.rewards),
        });
      },
      failed: () => {
        if (!result.implausible) host.broadcast("daily:result", this.viewOf(day, result, null, null));
      },
    });
  }

  private viewOf(
    day: string,
    result: DailyResult,
    stored: StoredAttempt | null,
    best: DailyResultView["best"],
  ): DailyResultView {
    return {
      day,
      stored: stored !== null,
      attempt: stored?.attempt ?? null,
      wpm: result.wpm,
      accuracy: result.accuracy,
      completion_time: result.completionTime,
      error_count: result.errorCount,
      verified: result.verified,
      rewards: stored?.rewards ? publicRewards(stored.rewards) : null,
      best,
    };
  }

  welcome(host: DailyHost, _member: DailyMember, socketId: string) {
    host.sendToSocket(socketId, "daily:state", host.view(null));
  }

  left(host: DailyHost) {
    this.playerLeft(host);
  }

  reset(host: DailyHost) {
    host.broadcast("daily:state", host.view(null));
  }
}
