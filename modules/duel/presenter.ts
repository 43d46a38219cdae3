import type { ChatHistory } from "../kernel/chat-history";
import { GAME_HOST_MESSAGES, type GamePresenter, type InputResult, refusal } from "../kernel/game-host";
import type { EventPayload } from "../kernel/socket";
import {
  blockView,
  type DuelEffect,
  type DuelMode,
  type DuelPlayer,
  type DuelResult,
  type DuelState,
  duelView,
  type EndReason,
  otherSide,
  type Side,
  sideOf,
  type WordBlock,
} from "./duel-mode";
import { type DuelCommand, type DuelGame, type DuelMember, isWatcher } from "./members";
import { DUEL_MESSAGES } from "./messages";
import { isStored, storeDuel } from "./records";
import { WATCH_CHAT_MAX_LENGTH } from "./rules";
import type { DuelStore, PlayerFigures } from "./store";
import type { DuelServerEvents } from "./wire";

/** One `duel:*` event and its payload. */
type DuelBroadcast = { [E in keyof DuelServerEvents]: [E, EventPayload<DuelServerEvents, E>] }[keyof DuelServerEvents];

/** A watcher may send this many chat lines within `CHAT_WINDOW_MS` (a room's chat limit). */
const CHAT_BURST = 5;
const CHAT_WINDOW_MS = 3_000;

/** The Korean line the result overlay can show for each end reason (the `reason` code itself is the contract). */
export const REASON_TEXT: Record<EndReason, string> = {
  no_lives: "생명이 모두 사라졌습니다.",
  time_up_lives: "시간 종료: 남은 생명이 더 많은 쪽이 이겼습니다.",
  time_up_words: "시간 종료: 생명이 같아 입력한 단어가 더 많은 쪽이 이겼습니다.",
  time_up_draw: "시간 종료: 생명과 입력한 단어 수가 같아 무승부입니다.",
  opponent_left: "상대가 대결을 떠났습니다.",
  opponent_disconnected: "상대의 연결이 끊어졌습니다.",
  not_ready: "준비 시간이 지나 대결이 취소되었습니다.",
  stopped: "서버가 대결을 종료했습니다.",
};

/**
 * The duel's presenter: the mode's effects become the spec's `duel:*` events (spec part 2 §7, product-rules "Duel
 * wire details") on the duel's channel, and a stored duel's two writes. Every event carries `session_id` too, so a
 * client can drop events of a duel it has left.
 *
 * The write, for a played duel between two members not forfeited early (records.ts `isStored`), queued when
 * `duel:game_over` goes out: the duel's own record (ratings within the pair's daily limit, figures, activity; `done`
 * tells each member `duel:stats_update`, with `rated`). Nothing goes to the games module: a duel is not a
 * typing-speed result. Guests' duels, duels that never started and early forfeits store nothing.
 *
 * What the runtime does about a duel's end, a player out or a closed duel it hears from the host's lifecycle
 * events (runtime.ts), not from here.
 */
export class DuelPresenter implements GamePresenter<DuelMode, DuelPlayer, undefined, DuelCommand> {
  /** Each watcher's recent chat times (the chat's own limit); gone with the member. */
  private readonly chatTimes = new WeakMap<DuelMember, number[]>();

  /** `history`: where the watchers' lines are kept for reports (moderation). */
  constructor(
    private readonly store: DuelStore,
    private readonly history: ChatHistory,
  ) {}

  effect(host: DuelGame, effect: DuelEffect) {
    switch (effect.type) {
      case "gone":
        this.tellOpponent(host, effect.side, effect.how);
        return;
      case "over":
        this.over(host, effect.result);
        return;
      default:
        for (const [event, payload] of duelBroadcasts(host.state, effect, host.clock.now()))
          host.broadcast(event, payload);
    }
  }

  /** `duel:opponent_left` / `duel:opponent_disconnected` to the player who stays. */
  private tellOpponent(host: DuelGame, side: Side, how: "left" | "disconnected") {
    const stays = host.state[otherSide(side)].player;
    const member = host.member(stays.id);
    const event = how === "left" ? "duel:opponent_left" : "duel:opponent_disconnected";
    if (member) host.send(member, event, { session_id: host.state.sessionId, side });
  }

  private over(host: DuelGame, result: DuelResult) {
    const state = host.state;
    const stored = isStored(state, result);
    host.broadcast("duel:game_over", gameOverPayload(state, result, stored));
    if (!stored) return;
    const { store } = this;
    host.write({
      name: "store_duel",
      run: () => storeDuel(store, state, result),
      done: (outcome) => {
        for (const figures of outcome.players)
          host.sendToUser(figures.userId, "duel:stats_update", { ...statsOf(figures), rated: outcome.rated });
      },
    });
  }

  /** The duel's two sides play; anyone else may only watch (a side never watches its own duel). */
  admit(host: DuelGame, player: DuelPlayer): InputResult | undefined {
    const side = sideOf(host.state, player.id);
    if (player.watcher) return side ? refusal(DUEL_MESSAGES.ownDuel, "own_duel") : undefined;
    return side ? undefined : refusal(DUEL_MESSAGES.notInDuelToJoin, "not_in_duel");
  }

  /**
   * What a socket entering the duel sees: `duel:match_found` (its side and opponent) — the first time, and again
   * after a reconnect, with the state so far once the game has started, or the result once it is over. A watcher's
   * socket gets the whole field as it is (`duel:watch_state`), in order with its watchers' frames (the host's
   * watchers' channel, DUEL_WATCHERS).
   */
  welcome(host: DuelGame, member: DuelMember, socketId: string) {
    if (isWatcher(member)) {
      this.welcomeWatcher(host, socketId);
      return;
    }
    const state = host.state;
    const side = sideOf(state, member.player.id)!;
    const opponent = state[otherSide(side)].player;
    const session_id = state.sessionId;
    host.sendToSocket(socketId, "duel:match_found", {
      session_id,
      your_side: side,
      opponent_nickname: opponent.name,
      opponent_sid: opponent.key,
    });
    if (state.status === "in_progress") {
      host.sendToSocket(socketId, "duel:game_start", { session_id, state: duelView(state, host.clock.now()) });
    }
    if (state.status === "finished" && state.result) {
      const result = { ...state.result, reason_text: REASON_TEXT[state.result.reason] };
      host.sendToSocket(socketId, "duel:game_over", { session_id, result });
    }
  }

  private welcomeWatcher(host: DuelGame, socketId: string) {
    const state = host.state;
    host.sendToSocket(socketId, "duel:watch_state", {
      session_id: state.sessionId,
      state: duelView(state, host.clock.now()),
      countdown: state.countdownNumber,
      result: state.result ? { ...state.result, reason_text: REASON_TEXT[state.result.reason] } : null,
    });
  }

  /**
   * A watcher's chat line, to the duel's watchers only (players never get it): trimmed, at most
   * `WATCH_CHAT_MAX_LENGTH` characters, at most `CHAT_BURST` lines in `CHAT_WINDOW_MS` (a room's chat rule).
   */
  command(host: DuelGame, member: DuelMember, command: DuelCommand): InputResult | undefined {
    if (!isWatcher(member)) return refusal(DUEL_MESSAGES.notWatching, "not_watching");
    const message = command.message.normalize("NFC").trim();
    if (!message) return undefined;
    if ([...message].length > WATCH_CHAT_MAX_LENGTH) {
      return refusal(DUEL_MESSAGES.chatTooLong(WATCH_CHAT_MAX_LENGTH), "too_long");
    }
    const now = host.clock.now();
    const recent = (this.chatTimes.get(member) ?? []).filter((at) => at > now - CHAT_WINDOW_MS);
    if (recent.length >= CHAT_BURST) return refusal(DUEL_MESSAGES.chatRateLimited, "rate_limited");
    this.chatTimes.set(member, [...recent, now]);
    const { player } = member;
    const line = { userId: player.userId, name: player.name, message, at: now };
    host.toWatchers("duel:watch_chat", {
      line_id: this.history.record(`duel:${host.state.sessionId}`, line),
      session_id: host.state.sessionId,
      sid: player.key,
      nickname: player.name,
      message,
      timestamp: new Date(now).toISOString(),
    });
    return undefined;
  }

  /** After a fault the duel starts over from the match (both ready again): every socket is told and welcomed. */
  reset(host: DuelGame) {
    host.broadcast("error", { message: GAME_HOST_MESSAGES.reset, code: "game_reset", event: "duel" });
    for (const member of host.members()) for (const socketId of member.sockets) this.welcome(host, member, socketId);
  }
}

/**
 * The `duel:*` events a mode effect sends to the whole duel, as [event, payload] pairs (spec part 2 §7). Pure, so
 * the benchmark's raw baseline (bench/raw-duel-server.ts) sends byte-for-byte the same frames.
 */
export function duelBroadcasts(state: DuelState, effect: DuelEffect, now: number): DuelBroadcast[] {
  const session_id = state.sessionId;
  const blocks = (list: WordBlock[]) => list.map((b) => blockView(b, now, state.rules));
  switch (effect.type) {
    case "countdown":
      return [["duel:countdown", { session_id, countdown: effect.number }]];
    case "started":
      return [["duel:game_start", { session_id, state: duelView(state, now) }]];
    case "fired": {
      const { block } = effect;
      return [
        ["duel:bullet_fired", { session_id, bullet: { side: effect.side, target_block_id: block.id } }],
        [
          "duel:word_position_update",
          {
            session_id,
            block_id: block.id,
            status: block.status,
            speed: block.speed,
            x: block.x0,
            y: block.y,
            server_time: new Date(block.movedAt).toISOString(),
          },
        ],
      ];
    }
    case "defended":
      return [
        [
          "duel:block_defended",
          { session_id, block_id: effect.blockId, side: effect.side, new_blocks: blocks(effect.newBlocks) },
        ],
      ];
    case "hit":
      return [
        ["duel:life_update", { session_id, player_side: effect.side, remaining_lives: effect.lives }],
        ["duel:new_word", { session_id, replaced_block_id: effect.blockId, word_blocks: blocks([effect.newBlock]) }],
      ];
    case "time":
      return [["duel:time_update", { session_id, remaining_time: effect.remaining }]];
    default:
      return [];
  }
}

/**
 * `duel:game_over` to the duel: the result with its Korean reason and `rated`: whether the duel counts (stored for
 * the duel's records). The pair's daily limit is decided when it is stored: `duel:stats_update` then says whether the
 * ratings moved (`rated`, `rating_change`).
 */
export const gameOverPayload = (state: DuelState, result: DuelResult, rated: boolean) => ({
  session_id: state.sessionId,
  result: { ...result, reason_text: REASON_TEXT[result.reason], rated },
});

/** `duel:stats_update`: a member's figures after a stored duel (the rating rounded, its change to 1 place). */
export const statsOf = (figures: PlayerFigures) => ({
  user_id: figures.userId,
  rating: Math.round(figures.rating),
  rating_change: Math.round(figures.ratingChange * 10) / 10,
  wins: figures.wins,
  losses: figures.losses,
  draws: figures.draws,
  total_games: figures.totalGames,
  current_streak: figures.currentStreak,
  max_win_streak: figures.maxWinStreak,
});
