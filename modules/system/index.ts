import { t } from "elysia";
import { defineModule } from "../kernel/define-module";
import { onEvent } from "../kernel/socket";

/**
 * Connection-level socket events every page relies on (spec part 1 §4 "Connection", §9): the client pings every
 * 15 s and expects `pong` within 3 s, sends `keep_alive` every 30 s and expects `alive` within 5 s, and forces a
 * reconnect when an answer is missing. Both answers echo the client's timestamp so it can measure latency.
 */
const Beat = t.Optional(t.Object({ timestamp: t.Optional(t.Number()) }));

export const systemModule = defineModule({
  name: "system",
  socket(_io, socket, ctx) {
    onEvent(socket, ctx.log, "ping", Beat, (payload) => {
      socket.emit("pong", {
        timestamp: payload?.timestamp ?? null,
        server_time: new Date(ctx.clock.now()).toISOString(),
      });
    });
    onEvent(socket, ctx.log, "keep_alive", Beat, (payload) => {
      socket.emit("alive", {
        timestamp: payload?.timestamp ?? null,
        server_time: new Date(ctx.clock.now()).toISOString(),
      });
    });
  },
});
