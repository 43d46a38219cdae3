import { Server as Engine, type ServerOptions as EngineOptions } from "@socket.io/bun-engine";
import { createAdapter } from "@socket.io/redis-streams-adapter";
import type { Server as BunServer } from "bun";
import { Server } from "socket.io";
import { type AppModule, type ModuleContext, orderModules } from "../../modules/kernel/define-module";
import { runtimeOf, startRuntimes } from "../../modules/kernel/module-runtime";
import { ROUTE_PARAMS, ROUTING_EVENT, type RoutingAnnouncement } from "../../modules/kernel/routing";
import { type AppServer, type AppSocket, createSocketDispatcher, type SocketEvent } from "../../modules/kernel/socket";
import { ConnectionLimiter } from "./connection-limit";
import { GAME_MODE_IDS } from "./game-modes";
import { isAllowedOrigin } from "./security";
import { redisAdmissions } from "./shared-admissions";

/** Largest socket.io message: chat is 200 characters, a submission one sentence; 64 KiB is generous. */
export const SOCKET_MAX_MESSAGE = 64 * 1024;
export const ENGINE_PING_INTERVAL_MS = 25_000;

/**
 * socket.io bound to @socket.io/bun-engine on /socket.io/ (the engine's default is /engine.io/). The engine never
 * checks Origin, so `allowRequest` refuses cross-site browser pages that are not in the allow-list; it also
 * refuses an address holding too many connections (connection-limit.ts). The modules' live runtimes are built here,
 * on the process's one game directory (`runtimes`: start them before listening, stop them at shutdown).
 */
export function createIo(ctx: ModuleContext, modules: readonly AppModule[]) {
  const shared = ctx.cluster ? redisAdmissions(ctx.cluster, ctx.log) : null;
  const limiter = new ConnectionLimiter(ctx.config.maxConnectionsPerIp, ctx.config.trustProxy, shared);
  const engine = new Engine({
    path: "/socket.io/",
    pingInterval: ENGINE_PING_INTERVAL_MS,
    pingTimeout: 20_000,
    maxHttpBufferSize: SOCKET_MAX_MESSAGE,
    // What a module may want to know of a connection for its whole life (the patched engine's option); cookies,
    // websocket keys and the rest would cost memory on every connection.
    keepHeaders: ["user-agent", "origin", "accept-language", "x-forwarded-for", "x-real-ip"],
    // Synchronous on purpose (the patched engine then upgrades without awaiting, which keeps ~1 KiB less per
    // connection); the engine's type asks for a promise, a throw refuses all the same.
    allowRequest: ((request: Request, server: BunServer<unknown>) => {
      if (!isAllowedOrigin(request, ctx.config.corsOrigins)) throw "허용되지 않은 출처입니다.";
      limiter.checkHandshake(request, server);
    }) as unknown as EngineOptions["allowRequest"],
  });
  // Synchronous with the handshake that allowRequest let through: a burst is counted before the next check.
  engine.on("connection", (transport, request) => limiter.onTransportOpen(transport as never, request));
  const io: AppServer = new Server({ serveClient: false, adapter: clusterAdapter(ctx) });
  io.bind(engine as never);
  // First of the socket.io middlewares (the modules' come next): sets socket.data.ip, refuses one connection too many.
  io.use((socket, next) => {
    const answer = limiter.admit(socket);
    if (answer instanceof Promise) answer.then(next, next);
    else next(answer);
  });
  const ordered = orderModules(modules);
  for (const module of ordered) module.attachIo?.(io, ctx);
  const runtimes = startRuntimes(io, ctx, ordered, GAME_MODE_IDS);
  const dispatch = createSocketDispatcher(socketEventTable(ordered, ctx), ctx);
  const routing = routingAnnouncement(ctx);
  const connecting = ordered.filter((m) => m.onConnect);
  const disconnecting = ordered.filter((m) => m.onDisconnect);
  // Shared listeners (socket.io calls them with `this` = the socket): nothing is allocated per connection here.
  function onDisconnect(this: AppSocket, reason: string) {
    for (const module of disconnecting) module.onDisconnect?.(this, reason, ctx);
    runtimes.disconnect(this, reason);
  }
  io.on("connection", (socket) => {
    if (routing) socket.emit(ROUTING_EVENT, routing);
    socket.onAny(dispatch);
    if (disconnecting.length > 0 || runtimes.disconnects) socket.on("disconnect", onDisconnect);
    for (const module of connecting) module.onConnect?.(socket, ctx);
    runtimes.connect(socket);
  });
  return { engine, io, runtimes };
}

/**
 * Room affinity (README "Several processes"): with ROOM_AFFINITY and REDIS_URL, every new connection hears which
 * handshake query parameters the proxy routes by, and the web client then moves a room's players onto one process.
 * Off (the default, and always on one process): nothing is sent, so no client ever reconnects for routing.
 */
export function routingAnnouncement(ctx: ModuleContext): RoutingAnnouncement | null {
  if (!ctx.config.roomAffinity) return null;
  if (!ctx.cluster) {
    ctx.log.warn("ROOM_AFFINITY is ignored without REDIS_URL: one process has nothing to route between");
    return null;
  }
  return { params: ROUTE_PARAMS };
}

/**
 * With `ctx.cluster`, rooms span the server processes through a Redis stream (`@socket.io/redis-streams-adapter`:
 * it resumes from its last offset after a Redis reconnect, where pub/sub would lose what was sent meanwhile).
 * Without it, socket.io's in-memory adapter. The stream's name carries the deployment's prefix.
 */
function clusterAdapter(ctx: ModuleContext) {
  if (!ctx.cluster) return undefined;
  const name = `${ctx.cluster.prefix}socket.io`;
  return createAdapter(ctx.cluster.redis, {
    streamName: name,
    channelPrefix: name,
    sessionKeyPrefix: `${name}:session:`,
    // Every packet is JSON: skip the adapter's walk looking for binary attachments.
    onlyPlaintext: true,
    // How long a stopped server's stream reader may still wait on Redis before it closes its connection.
    blockTimeInMs: 1_000,
  });
}

/** Closes the adapters' Redis readers (a cluster adapter's `close` stops its stream polling); no-op in memory. */
export async function closeAdapters(io: AppServer) {
  // biome-ignore lint/suspicious/noExplicitAny: `_nsps` is the server's namespace registry
  for (const nsp of (io as any)._nsps.values()) await nsp.adapter.close?.();
}

/**
 * Every module's client → server events in one table (a module's own and its live runtime's); two modules answering
 * one event is a boot error.
 */
export function socketEventTable(modules: readonly AppModule[], ctx: ModuleContext): Map<string, SocketEvent> {
  const table = new Map<string, SocketEvent>();
  const owners = new Map<string, string>();
  for (const module of modules) {
    const events = { ...module.socketEvents?.(ctx), ...runtimeOf(ctx, module.name)?.socketEvents };
    for (const [event, entry] of Object.entries(events)) {
      const owner = owners.get(event);
      if (owner) throw new Error(`socket event ${event} is registered by both ${owner} and ${module.name}`);
      owners.set(event, module.name);
      table.set(event, entry);
    }
  }
  return table;
}
