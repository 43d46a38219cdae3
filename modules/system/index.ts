import { t } from "elysia";
import { defineModule, type ModuleContext } from "../kernel/define-module";
import { type AppSocket, type ClientHandlers, socketEvent } from "../kernel/socket";
import type { SystemClientEvents } from "./wire";

/**
 * Connection-level socket events every page relies on (spec part 1 §4 "Connection", §9): the client pings every
 * 15 s and expects `pong` within 3 s, sends `keep_alive` every 30 s and expects `alive` within 5 s, and forces a
 * reconnect when an answer is missing. Both answers echo the client's timestamp so it can measure latency.
 */
export const Beat = t.Optional(t.Object({ timestamp: t.Optional(t.Number()) }));

const answer = (ctx: ModuleContext, reply: "pong" | "alive") =>
  // Cost 1: a small answer to the sender only (the client sends a ping every 15 s and a keep_alive every 30 s).
  socketEvent(Beat, { cost: 1 }, (socket: AppSocket, payload) => {
    socket.emit(reply, {
      timestamp: payload?.timestamp ?? null,
      server_time: new Date(ctx.clock.now()).toISOString(),
    });
  });

export const systemModule = defineModule({
  name: "system",
  socketEvents: (ctx): ClientHandlers<SystemClientEvents> => ({
    ping: answer(ctx, "pong"),
    keep_alive: answer(ctx, "alive"),
  }),
});
export type * from "./wire";
