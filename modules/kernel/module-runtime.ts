import type { AppModule, ModuleContext, ModuleRuntime } from "./define-module";
import { createGameDirectory } from "./game-host";
import type { AppServer, AppSocket } from "./socket";

/**
 * The modules' live runtimes of one server (`AppModule.runtime`), owned by the kernel: one game directory for
 * every mode (game-host README "The game directory"), each module's runtime built on it, connects and disconnects
 * handed to them, and the shutdown in order.
 */
export interface LiveRuntimes {
  /** Before the server listens: the directory (its subscriptions with several processes) and every runtime. */
  start(): Promise<void>;
  connect(socket: AppSocket): void;
  disconnect(socket: AppSocket, reason: string): void;
  /** Whether any runtime listens for disconnects (the server then adds its listener to each socket). */
  readonly disconnects: boolean;
  /**
   * After the rounds in play were finished: the runtimes stop first (input still reaches the games, wherever they
   * run: the rooms drop this process's sockets out of rooms run elsewhere), then the directory gives its games back.
   */
  stop(): Promise<void>;
}

/** Every server context's runtimes by module name (tests run several servers in one process). */
const live = new WeakMap<ModuleContext, Map<string, ModuleRuntime>>();

/** The live runtime of a module on this server (its routes, its public API, tests); undefined without sockets. */
export function runtimeOf<R extends ModuleRuntime>(ctx: ModuleContext, moduleName: string): R | undefined {
  return live.get(ctx)?.get(moduleName) as R | undefined;
}

/**
 * Builds the process's game directory for `modes` (every mode id of the product: apps/server/game-modes.ts) and
 * each module's runtime on it, in module order.
 */
export function startRuntimes(
  io: AppServer,
  ctx: ModuleContext,
  modules: readonly AppModule[],
  modes: readonly string[],
): LiveRuntimes {
  const directory = createGameDirectory(ctx, modes);
  const runtimes = new Map<string, ModuleRuntime>();
  live.set(ctx, runtimes);
  for (const module of modules) {
    if (module.runtime) runtimes.set(module.name, module.runtime(io, ctx, directory));
  }
  const entries = [...runtimes];
  const connecting = entries.filter(([, runtime]) => runtime.connect);
  const disconnecting = entries.filter(([, runtime]) => runtime.disconnect);
  /** An async handler of a connection event: nothing may escape it. */
  const guarded = (name: string, what: string, run: () => void | Promise<void>) => {
    try {
      const result = run();
      if (result instanceof Promise)
        result.catch((error) => ctx.log.error(`${name} ${what} failed`, { error: String(error) }));
    } catch (error) {
      ctx.log.error(`${name} ${what} failed`, { error: String(error) });
    }
  };
  let stopped = false;
  return {
    async start() {
      await directory.start();
      await Promise.all(entries.map(([, runtime]) => runtime.start?.()));
    },
    disconnects: disconnecting.length > 0,
    connect(socket) {
      for (const [name, runtime] of connecting) guarded(name, "connect", () => runtime.connect?.(socket));
    },
    disconnect(socket, reason) {
      for (const [name, runtime] of disconnecting) {
        guarded(name, "disconnect", () => runtime.disconnect?.(socket, reason));
      }
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      for (const [name, runtime] of entries) {
        try {
          await runtime.stop?.();
        } catch (error) {
          ctx.log.error(`${name} stop failed`, { error: String(error) });
        }
      }
      await directory.stop();
      if (live.get(ctx) === runtimes) live.delete(ctx);
    },
  };
}
