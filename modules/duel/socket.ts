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

/**
 * The duel's client → server events (spec part 2 §7). Costs (the kernel's SOCKET_BUDGET): 5 for what sends an online
 * list (entering the menu, the acknowledged list, a forced update); 2 for a search (a rating read, maybe a new
 * duel); 1 for the rest — a word is one small broadcast, and a fast typist's 2–3 words a second stay within the
 * budget's 5 tokens a second.
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
  };
}
