import { newReplayKey } from "../games";
import type { ModuleContext } from "../kernel/define-module";
import {
  CoalescedFrame,
  type GameHost,
  type GameMember,
  type GamePresenter,
  type GameScheduler,
} from "../kernel/game-host";
import type { GameRef } from "../kernel/game-mode";
import { abandonGame } from "../rooms";
import { type FinishedGuildRecord, finishGuildGame, podium, recordGuildResult } from "./game-records";
import type { FinishedGuildGame, GuildGameEffect, GuildGameMode, GuildPlayer, Participant } from "./guild-game";

export type GuildGameHost = GameHost<GuildGameMode, GuildPlayer, undefined, never>;
export type GuildGameMember = GameMember<GuildPlayer, undefined>;

/** `guild_game:state` goes out at most this often per game (10 a second, product-rules "Guild wire details"). */
export const STATE_FRAME_MS = 100;
const SYSTEM_NAME = "시스템";

/** The round whose records were written and that is not closed yet: a fault must still close it. */
interface OpenRound {
  ref: GameRef;
  counted: number;
}

/**
 * The guild game's presenter for one guild: the mode's effects become the guild room's `guild_game:*` events (spec
 * part 1 §7) on the guild room's channel and the games module's writes.
 *
 * `guild_game:state` is coalesced (the kernel's `CoalescedFrame`, as the rooms' lanes): every change asks for a frame,
 * sent at most once per `STATE_FRAME_MS`. A burst of keystrokes from thirty members costs one frame per 100 ms, not
 * one per keystroke, and no game owns a timer.
 *
 * Writes: each completion is queued for `recordResult` the moment it is accepted (an implausible one flagged); the
 * end queues one finish write (medals, rewards once per member, the activity line) and `guild_game:results` with
 * the rewards and `user:stats_update` go out from its `done` (without rewards from `failed`).
 */
export class GuildGamePresenter implements GamePresenter<GuildGameMode, GuildPlayer, undefined, never> {
  private readonly frame: CoalescedFrame;
  private host: GuildGameHost | null = null;
  private open: OpenRound | null = null;

  constructor(
    private readonly guild: { id: number; name: string },
    private readonly ctx: ModuleContext,
    scheduler: GameScheduler,
  ) {
    this.frame = new CoalescedFrame(scheduler, {
      everyMs: STATE_FRAME_MS,
      ready: () => this.host !== null,
      send: () => this.host!.broadcast("guild_game:state", this.host!.view(null)),
      failed: (error) =>
        ctx.log.error("guild game state could not be sent", { guild_id: guild.id, error: String(error) }),
    });
  }

  /** The game's host stopped (its `stopped` lifecycle event, wired by the runtime): no frame is sent any more. */
  stop() {
    this.frame.cancel();
  }

  // --- the state, coalesced -----------------------------------------------------------------------------------

  private stateChanged(host: GuildGameHost) {
    this.host = host;
    this.frame.request();
  }

  // --- the mode's effects -------------------------------------------------------------------------------------

  effect(host: GuildGameHost, effect: GuildGameEffect) {
    const guild_id = this.guild.id;
    switch (effect.type) {
      case "state":
        this.stateChanged(host);
        return;
      case "countdown":
        host.broadcast("guild_game:countdown", {
          guild_id,
          seconds: effect.seconds,
          message: `${effect.seconds}초 후 게임이 시작됩니다!`,
        });
        return;
      case "started":
        host.broadcast("guild_game:start", { guild_id, state: host.view(null) });
        this.system(host, `길드 게임 시작! 문제: ${host.state.problem}`);
        return;
      case "completed":
        this.record(host, effect.participant);
        return;
      case "implausible":
        this.ctx.log.warn("implausible guild game result rejected", {
          guild_id,
          user_id: effect.participant.userId,
          server_seconds: effect.serverSeconds,
          raw_speed: effect.rawSpeed,
        });
        this.record(host, effect.participant);
        return;
      case "ended":
        host.broadcast("guild_game:end", { guild_id, reason: effect.game.reason, state: host.view(null) });
        this.finish(host, effect.game);
        return;
    }
  }

  private record(host: GuildGameHost, participant: Participant) {
    const ref = host.gameRef()!;
    const counted = (this.open?.ref.round === ref.round ? this.open.counted : 0) + (participant.rejected ? 0 : 1);
    this.open = { ref, counted };
    // The replay's key is drawn once, before the write: every retry stores the same replay.
    const problem = host.state.problem;
    const replay = problem === null ? null : { key: newReplayKey(), sentence: problem };
    host.write({ name: "record_result", run: () => recordGuildResult(this.ctx, ref, participant, replay) });
  }

  private finish(host: GuildGameHost, game: FinishedGuildGame) {
    const ref = host.gameRef()!;
    const recorded = this.open?.ref.round === ref.round;
    this.open = null;
    if (!recorded) {
      this.announceResults(host, game, null); // nobody completed: nothing to store
      return;
    }
    host.write({
      name: "finish_game",
      run: () => finishGuildGame(this.ctx, ref, game),
      done: (record) => this.announceResults(host, game, record),
      failed: () => this.announceResults(host, game, null),
    });
  }

  /** `guild_game:results` and its chat line; with the stored record also every rewarded member's new figures. */
  private announceResults(host: GuildGameHost, game: FinishedGuildGame, record: FinishedGuildRecord | null) {
    const counted = game.standings.length;
    const results = game.standings.map((p) => {
      const rewards = record?.rewards.get(p.userId);
      return {
        position: p.position,
        user_id: p.userId,
        username: p.name,
        wpm: p.wpm,
        accuracy: p.accuracy,
        completion_time: p.completionTime,
        error_count: p.errorCount,
        win_streak: record?.figures.get(p.userId)?.win_streak ?? null,
        rewards: rewards
          ? { experience: rewards.experience, coins: rewards.coins, points: rewards.points, medal: rewards.medal }
          : null,
      };
    });
    host.broadcast("guild_game:results", {
      guild_id: this.guild.id,
      problem: game.problem,
      reason: game.reason,
      started_at: new Date(game.startedAt).toISOString(),
      finished_at: new Date(game.finishedAt).toISOString(),
      participants: counted,
      results,
    });
    this.system(host, `길드 게임 결과: ${podium(game)}`);
    if (!record) return;
    for (const [index, p] of game.standings.entries()) {
      const figures = record.figures.get(p.userId);
      if (!figures) continue;
      const { email: _email, already_granted: _paid, ...visible } = figures;
      host.sendToUser(p.userId, "user:stats_update", {
        ...visible,
        user_id: p.userId,
        guild_id: this.guild.id,
        rewards: results[index].rewards,
      });
    }
  }

  // --- members ------------------------------------------------------------------------------------------------

  /** A socket entering the guild room sees the game as it is (a reconnect mid-game resumes from it). */
  welcome(host: GuildGameHost, _member: GuildGameMember, socketId: string) {
    host.sendToSocket(socketId, "guild_game:state", host.view(null));
  }

  /**
   * After a fault the host restarted the game (a fresh waiting state, the members kept): the round that failed is
   * closed as played so far (its stored results stay, without medals or rewards) and everyone sees the new state.
   */
  reset(host: GuildGameHost) {
    const open = this.open;
    this.open = null;
    if (open) {
      const at = host.clock.now();
      host.write({ name: "abandon_game", run: () => abandonGame(this.ctx, open.ref, at, open.counted) });
    }
    this.stateChanged(host);
  }

  /** A system line in the guild chat (not stored), as the slash commands' notes. */
  private system(host: GuildGameHost, message: string) {
    host.broadcast("guild:message", {
      guild_id: this.guild.id,
      user_id: null,
      username: SYSTEM_NAME,
      message,
      timestamp: new Date(host.clock.now()).toISOString(),
      is_system: true,
    });
  }
}
