import type { RawData } from "@socket.io/bun-engine";
import { type Config, loadConfig } from "../../modules/kernel/config";
import type { AppModule } from "../../modules/kernel/define-module";
import { sharedScheduler } from "../../modules/kernel/game-host";
import { writeLimiter } from "../../modules/kernel/write-limits";
import { createApp } from "./app";
import { type ContextOptions, closeContext, createContext, seedAll } from "./context";
import { installFastBroadcast } from "./fast-broadcast";
import { closeAdapters, createIo, ENGINE_PING_INTERVAL_MS, SOCKET_MAX_MESSAGE } from "./io";
import { modules as defaultModules } from "./modules";

export interface StartOptions extends ContextOptions {
  config?: Config;
  modules?: readonly AppModule[];
  /** Run every module's idempotent seed after migrating. */
  seed?: boolean;
}

type Ws = { data: Record<string, unknown> & { transport?: unknown } };
type ElysiaWsData = {
  open?: (ws: Ws) => void;
  message?: (ws: Ws, m: unknown) => void;
  close?: (...a: unknown[]) => void;
};

/**
 * Starts one process: Elysia for HTTP, socket.io (bun-engine) on /socket.io/, both on the same port.
 * Bun has one websocket handler per server, so a small dispatcher sends sockets upgraded by the engine (they
 * carry `ws.data.transport`) to the engine and every other one to Elysia's own `.ws()` handlers.
 */
export async function startServer(options: StartOptions = {}) {
  const config = options.config ?? loadConfig();
  const modules: readonly AppModule[] = options.modules ?? defaultModules;
  const ctx = await createContext(config, modules, options);
  if (options.seed) await seedAll(ctx, modules);
  for (const module of modules) await module.onBoot?.(ctx);
  const { engine, io, runtimes } = createIo(ctx, modules);
  const app = createApp(ctx, modules, engine);
  await runtimes.start();

  app.listen({
    port: config.port,
    hostname: config.host,
    development: false,
    // Above the engine's ping interval, or Bun closes quiet connections between pings.
    idleTimeout: Math.ceil(ENGINE_PING_INTERVAL_MS / 1000) + 35,
    websocket: {
      maxPayloadLength: SOCKET_MAX_MESSAGE,
      idleTimeout: Math.ceil(ENGINE_PING_INTERVAL_MS / 1000) + 35,
      open(ws: Ws) {
        if (ws.data?.transport) engine.onWebSocketOpen(ws as never);
        else (ws.data as ElysiaWsData).open?.(ws);
      },
      message(ws: Ws, message: RawData) {
        if (ws.data?.transport) engine.onWebSocketMessage(ws as never, message);
        else (ws.data as ElysiaWsData).message?.(ws, message);
      },
      close(ws: Ws, code: number, reason: string) {
        if (ws.data?.transport) engine.onWebSocketClose(ws as never, code, reason);
        else (ws.data as ElysiaWsData).close?.(ws, code, reason);
      },
    } as never,
  });
  const server = app.server!;
  // The write limits count by client address, which only the listening server knows (`requestIP`).
  writeLimiter(ctx).listensOn(server);
  installFastBroadcast(io, () => server);
  const url = `http://${config.host === "0.0.0.0" ? "localhost" : config.host}:${server.port}`;
  ctx.log.info("server listening", { url });

  let stopped = false;
  /**
   * Shutdown, in this order: stop accepting connections (the connected sockets stay up to hear how their game
   * ended); end every round in play through its mode's `finish` and perform every queued game write (results
   * acknowledged to players, the finish with medals and rewards), bounded by `FINISH_GAMES_TIMEOUT_MS`; then the
   * modules' live runtimes and the game directory (leases given back), the modules' `onStop`, the sockets, HTTP
   * and the database.
   */
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    void server.stop(false); // not awaited: that would wait for every open connection to close by itself
    await finishGames(ctx);
    await runtimes.stop();
    for (const module of modules) await module.onStop?.(ctx);
    // Closing the engine drops transports without a socket.io disconnect packet, so browsers reconnect on
    // their own after a restart (a server-side disconnect would tell them not to).
    engine.close();
    await closeAdapters(io);
    await app.stop(true);
    await closeContext(ctx);
  };
  return { app, io, ctx, url, port: server.port as number, stop };
}
export type RunningServer = Awaited<ReturnType<typeof startServer>>;

/** How long a shutdown waits for the games to finish and their writes to be stored (retries included). */
export const FINISH_GAMES_TIMEOUT_MS = 20_000;

/** Every live game of every module ends its round and flushes its writes; never throws, never waits forever. */
async function finishGames(ctx: RunningServer["ctx"]) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  // A real timer, not the context's clock: a test's fake clock would never fire it.
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), FINISH_GAMES_TIMEOUT_MS);
  });
  try {
    const outcome = await Promise.race([sharedScheduler(ctx).finishAll(), timeout]);
    if (outcome === "timeout") ctx.log.error("games still writing at shutdown; stopping anyway");
  } catch (error) {
    ctx.log.error("finishing the games at shutdown failed", { error: String(error) });
  } finally {
    clearTimeout(timer);
  }
}

/** How often a server started by the bootstrap checks that the bootstrap still runs. */
export const PARENT_POLL_MS = 1000;

/**
 * SIGTERM, SIGINT and SIGHUP stop the server cleanly (`stop()`: running games are finished and stored first), then
 * the process exits. A second signal while stopping exits at once. A server started by the bootstrap
 * (`MADANG_PARENT_PID`, scripts/bootstrap.mjs) also stops so when the bootstrap is gone (killed with SIGKILL, say):
 * nothing would forward a signal to it any more, and a server nobody can stop through `npm start` keeps the port.
 * Only the bootstrap's own child watches (its parent pid must match), not processes that inherited the variable.
 */
export function stopOnSignals(running: RunningServer) {
  let stopping = false;
  const shutdown = async (reason: string) => {
    if (stopping) {
      running.ctx.log.warn("second signal while stopping: exiting now", { signal: reason });
      process.exit(1);
    }
    stopping = true;
    running.ctx.log.info("stopping", { signal: reason });
    try {
      await running.stop();
    } catch (error) {
      running.ctx.log.error("stopping failed", { error: String(error) });
      process.exit(1);
    }
    process.exit(0);
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => shutdown(signal));
  const parent = Number(process.env.MADANG_PARENT_PID);
  if (parent > 0 && process.ppid === parent) {
    const watch = setInterval(() => {
      // A process whose parent died is re-parented: its parent pid changes.
      if (process.ppid === parent) return;
      clearInterval(watch);
      running.ctx.log.warn("the bootstrap that started this server is gone: stopping");
      void shutdown("parent exited");
    }, PARENT_POLL_MS);
    watch.unref();
  }
}

if (import.meta.main) stopOnSignals(await startServer({ seed: process.env.SEED !== "0" }));
