import type { SocketLike } from "./socket";

type Handler = (...args: never[]) => void;

/**
 * A socket whose library (socket.io-client, ~13 kB gzip) is fetched after the first render instead of with the
 * page: the manager uses it at once, and every call made before the library arrives is replayed on the real socket,
 * in order (listeners, the handshake query, `connect`, emits — socket.io buffers emits until it is connected
 * anyway). Until then it reads as neither connected nor active, which is what it is.
 */
export function lazySocket(load: () => Promise<() => SocketLike>): SocketLike {
  let real: SocketLike | null = null;
  const pending: ((socket: SocketLike) => void)[] = [];
  const whenReady = (call: (socket: SocketLike) => void) => {
    if (real) call(real);
    else pending.push(call);
  };
  let query: Record<string, string> | undefined;
  load().then(
    (create) => {
      real = create();
      for (const call of pending.splice(0)) call(real);
    },
    (error: unknown) => console.warn("socket.io-client could not be loaded", error),
  );
  return {
    get connected() {
      return real?.connected ?? false;
    },
    get active() {
      return real?.active ?? false;
    },
    connect: () => whenReady((socket) => socket.connect()),
    disconnect: () => whenReady((socket) => socket.disconnect()),
    on: (event: string, handler: Handler) => whenReady((socket) => socket.on(event, handler)),
    off: (event: string, handler?: Handler) => whenReady((socket) => socket.off(event, handler)),
    emit: (event: string, ...args: unknown[]) => whenReady((socket) => socket.emit(event, ...args)),
    io: {
      on: (event: string, handler: Handler) => whenReady((socket) => socket.io.on(event, handler)),
      // Set in order with the calls around it: a `connect` replayed after it opens with this query.
      opts: {
        get query() {
          return query;
        },
        set query(value) {
          query = value;
          whenReady((socket) => {
            socket.io.opts.query = value;
          });
        },
      },
    },
  };
}
