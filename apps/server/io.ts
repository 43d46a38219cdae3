import { Server as Engine } from "@socket.io/bun-engine";
import { Server } from "socket.io";
import { type AppModule, type ModuleContext, orderModules } from "../../modules/kernel/define-module";
import type { AppServer } from "../../modules/kernel/socket";
import { isAllowedOrigin } from "./security";

/** Largest socket.io message: chat is 200 characters, a submission one sentence; 64 KiB is generous. */
export const SOCKET_MAX_MESSAGE = 64 * 1024;
export const ENGINE_PING_INTERVAL_MS = 25_000;

/**
 * socket.io bound to @socket.io/bun-engine on /socket.io/ (the engine's default is /engine.io/). The engine never
 * checks Origin, so `allowRequest` refuses cross-site browser pages that are not in the allow-list.
 */
export function createIo(ctx: ModuleContext, modules: readonly AppModule[]) {
  const engine = new Engine({
    path: "/socket.io/",
    pingInterval: ENGINE_PING_INTERVAL_MS,
    pingTimeout: 20_000,
    maxHttpBufferSize: SOCKET_MAX_MESSAGE,
    allowRequest: async (request) => {
      if (!isAllowedOrigin(request, ctx.config.corsOrigins)) throw "허용되지 않은 출처입니다.";
    },
  });
  const io: AppServer = new Server({ serveClient: false });
  io.bind(engine as never);
  const ordered = orderModules(modules);
  for (const module of ordered) module.attachIo?.(io, ctx);
  io.on("connection", (socket) => {
    for (const module of ordered) module.socket?.(io, socket, ctx);
  });
  return { engine, io };
}
