import { t } from "elysia";
import { type ClientHandlers, socketEvent } from "../kernel/socket";
import type { DailyRuntime } from "./runtime";
import type { DailyClientEvents } from "./wire";

/** Longer than any sentence (150 characters), so a huge string fails here and never reaches the game. */
const TEXT_LIMIT = 300;
const Anything = t.Unknown();
export const TypedPayload = t.Object({ typed_text: t.String({ maxLength: TEXT_LIMIT }) });

/**
 * 오늘의 문장's client → server events. Costs (the kernel's SOCKET_BUDGET): 2 for entering (a day's row, the game
 * opened and the player's best read), 1 for a start, a leave or an answer; a step costs 0.1, since the page sends up to 10 a second
 * while typing (1 token a second: a typist never runs out, a flood of steps is cut at 400 a burst and 50 a second).
 */
export function dailySocketEvents(runtime: DailyRuntime): ClientHandlers<DailyClientEvents> {
  return {
    "daily:join": socketEvent(Anything, { cost: 2 }, async (socket) => {
      const day = await runtime.join(socket);
      return { success: true, day, best: await runtime.bestOf(socket, day) };
    }),
    "daily:leave": socketEvent(Anything, { cost: 1 }, (socket) => runtime.leave(socket)),
    "daily:start": socketEvent(Anything, { cost: 1 }, (socket) => runtime.play(socket, { type: "start" })),
    "daily:progress": socketEvent(TypedPayload, { cost: 0.1 }, (socket, { typed_text }) =>
      runtime.play(socket, { type: "progress", typedText: typed_text }),
    ),
    "daily:submit": socketEvent(TypedPayload, { cost: 1 }, (socket, { typed_text }) =>
      runtime.play(socket, { type: "submit", typedText: typed_text }),
    ),
  };
}
