import { t } from "elysia";
import { type ClientHandlers, socketEvent } from "../kernel/socket";
import type { DuelRuntime } from "./runtime";
import type { DuelClientEvents } from "./wire";

/** Longer than any word, so a huge string fails here and never reaches the game. */
const WORD_LIMIT = 100;
/** Events that carry nothing the server reads: any payload (or none) is accepted and ignored. */
const Anything = t.Unknown();
export const HeartbeatPayload = t.Optional(
  t.Union([
    t.Object({ timestamp: t.Optional(t.Union([t.Number(), t.String({ maxLength: 64 }), t.Null()])) }),
    t.Null(),
  ]),
);
export const WordPayload = t.Object({ typed_word: t.String({ maxLength: WORD_LIMIT }) });
/** A player's public key as the online list shows it (`u_<id>` for a member, `g_<12 hex>` for a guest). */
export const ChallengePayload = t.Object({ sid: t.String({ pattern: "^(u_[0-9]{1,15}|g_[0-9a-f]{12})$" }) });
/** A challenge's id (a UUID): anything longer is refused before the lobby is asked. */
export const ChallengeIdPayload = t.Object({ challenge_id: t.String({ minLength: 1, maxLength: 64 }) });
/** Without `accept_challenges`, the current setting is answered (the menu's checkbox on load). */
export const ChallengeSettingPayload = t.Optional(
  t.Union([t.Object({ accept_challenges: t.Optional(t.Boolean()) }), t.Null()]),
);
export const WatchPayload = t.Object({ session_id: t.String({ minLength: 1, maxLength: 64 }) });
/** Longer than any accepted line (the presenter refuses past `WATCH_CHAT_MAX_LENGTH` in Korean), bounded here. */
export const WatchChatPayload = t.Object({ message: t.String({ maxLength: 1_000 }) });

/**
 * The duel's client → server events (spec part 2 §7). Costs (the kernel's SOCKET_BUDGET): 5 for what sends an online
 * list (entering the menu, the acknowledged list, a forced update); 2 for a search (a rating read, maybe a new
 * duel); 1 for the rest — a word is one small broadcast, and a fast typist's 2–3 words a second stay within the
 * budget's 5 tokens a second. A challenge costs 5 (two reads, an event to every socket of the challenged member), its
 * acceptance 2 (a new duel), watching 5 (the whole field to the watcher), a watchers' chat line 1 (its own limit, 5
 * lines in 3 s, answers first).
 */
export function duelSocketEvents(runtime: DuelRuntime): ClientHandlers<DuelClientEvents> {
  return {
    duel_enter_menu: socketEvent(Anything, { cost: 5 }, (socket) => runtime.enterMenu(socket)),
    duel_leave_menu: socketEvent(Anything, { cost: 1 }, (socket) => runtime.leaveMenu(socket)),
    duel_heartbeat: socketEvent(HeartbeatPayload, { cost: 1 }, (socket) => runtime.heartbeat(socket)),
    duel_get_online_users: socketEvent(Anything, { cost: 5 }, async (socket) => ({
      success: true,
      ...(await runtime.listFor(socket)),
    })),
    duel_update_user_list_force: socketEvent(Anything, { cost: 5 }, (socket) => runtime.sendList(socket)),
    duel_find_match: socketEvent(Anything, { cost: 2 }, (socket) => runtime.findMatch(socket)),
    duel_cancel_match: socketEvent(Anything, { cost: 1 }, (socket) => runtime.cancelMatch(socket)),
    duel_player_ready: socketEvent(Anything, { cost: 1 }, (socket) => runtime.play(socket, { type: "ready" })),
    duel_word_typed: socketEvent(WordPayload, { cost: 1 }, (socket, { typed_word }) =>
      runtime.play(socket, { type: "word", word: typed_word }),
    ),
    duel_leave_game: socketEvent(Anything, { cost: 1 }, (socket) => runtime.leaveGame(socket)),
    duel_challenge: socketEvent(ChallengePayload, { cost: 5 }, (socket, { sid }) =>
      runtime.challenges.challenge(socket, sid),
    ),
    duel_challenge_accept: socketEvent(ChallengeIdPayload, { cost: 2 }, (socket, { challenge_id }) =>
      runtime.challenges.accept(socket, challenge_id),
    ),
    duel_challenge_decline: socketEvent(ChallengeIdPayload, { cost: 1 }, (socket, { challenge_id }) =>
      runtime.challenges.decline(socket, challenge_id),
    ),
    duel_challenge_cancel: socketEvent(ChallengeIdPayload, { cost: 1 }, (socket, { challenge_id }) =>
      runtime.challenges.cancel(socket, challenge_id),
    ),
    duel_challenge_setting: socketEvent(ChallengeSettingPayload, { cost: 2 }, (socket, payload) =>
      runtime.challenges.setting(socket, payload?.accept_challenges),
    ),
    duel_watch: socketEvent(WatchPayload, { cost: 5 }, (socket, { session_id }) => runtime.watch(socket, session_id)),
    duel_watch_leave: socketEvent(Anything, { cost: 1 }, (socket) => runtime.stopWatching(socket)),
    duel_watch_chat: socketEvent(WatchChatPayload, { cost: 1 }, (socket, { message }) =>
      runtime.watchChat(socket, message),
    ),
  };
}
