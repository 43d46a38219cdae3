import type { Server as BunServer, ServerWebSocket } from "bun";
import type { Namespace, Server } from "socket.io";
import { Adapter, type BroadcastOptions, ClusterAdapter, MessageType } from "socket.io-adapter";

/**
 * Room broadcasts through Bun's native pub/sub, the way socket.io's own uWebSockets.js integration
 * (`socket.io/lib/uws.ts`, `patchAdapter`) does it: a socket on the websocket transport has its raw Bun socket
 * subscribed to one topic per room it is in, and `io.to(room).emit(...)` encodes the packet once and hands it to
 * `publish`, instead of socket.io's loop that encodes nothing but still walks engine → transport → `ws.send` for
 * every member (about 12× the cost of a raw publish on bun-engine). Sockets still on HTTP long-polling, and every
 * broadcast the topics cannot express (several rooms, several exclusions, binary attachments), take socket.io's
 * normal per-socket path, so what each client receives does not change.
 *
 * Differences from the uws patch: it patches the adapter instances of one server, not `Adapter.prototype` (tests
 * run several servers in one process); a namespace disconnect that keeps the connection open unsubscribes (`delAll`);
 * `socket.to(room).emit` (one excluded socket) still publishes, from the excluded socket's own ws, which Bun skips;
 * a socket's private room (its id) is never a topic, so one topic per player is saved; nor is the whole namespace
 * (`io.emit`, which nothing here sends in a hot path): every topic a socket is subscribed to costs ~0.2 KiB.
 *
 * Ordering holds because Bun (uWS) drains a socket's pending published frames before any direct `send` on it.
 *
 * With a cluster adapter (the Redis streams adapter of several processes) the patch is adapter-aware: a broadcast
 * is handed to the other processes first (the adapter's own message, fire and forget, in order on its stream) and
 * delivered here at once through the topics; a broadcast heard from another process is delivered through the topics
 * too. Upstream's cluster adapter awaits the Redis round trip before it delivers locally; delivering at once keeps a
 * broadcast ahead of a direct `socket.emit` that follows it, as on one process.
 */

type BunWs = ServerWebSocket<unknown>;
type Publisher = Pick<BunServer<unknown>, "publish"> | BunWs;

/** The parts of socket.io and bun-engine internals this relies on (public in socket.io's own uws patch). */
interface EngineTransport {
  name: string;
  socket?: BunWs;
}
interface PatchedSocket {
  id: string;
  connected: boolean;
  conn: { transport: EngineTransport; once(event: "upgrade", listener: () => void): void };
  client: { writeToEngine(packets: unknown[], options: object): void };
  notifyOutgoingListeners?: (packet: unknown) => void;
  _anyOutgoingListeners?: unknown[];
  onAnyOutgoing?: (...args: unknown[]) => unknown;
  prependAnyOutgoing?: (...args: unknown[]) => unknown;
}
type InternalAdapter = Omit<Adapter, "apply"> & {
  encoder: { encode(packet: unknown): unknown[] };
  apply(options: BroadcastOptions, callback: (socket: PatchedSocket) => void): void;
};
/** The parts of socket.io-adapter's `ClusterAdapter` the patch uses (its wire format, `encodeOptions`). */
interface ClusterMessageOut {
  type: MessageType;
  data?: { packet?: unknown; opts?: { rooms: string[]; except: string[]; flags?: BroadcastOptions["flags"] } };
}
type InternalClusterAdapter = InternalAdapter & {
  uid: string;
  publishAndReturnOffset(message: ClusterMessageOut): Promise<unknown>;
  onMessage(message: ClusterMessageOut & { uid?: string }, offset?: string): unknown;
};
/** socket.io's in-memory broadcast to this process's sockets, whatever adapter class the server uses. */
const localBroadcast = Adapter.prototype.broadcast;

const SEPARATOR = "\x1f";
const WS_OPEN = 1;

/** Call once, right after the Bun server listens (or with a getter that returns it once it does). */
export function installFastBroadcast(
  // biome-ignore lint/suspicious/noExplicitAny: works with any event maps
  io: Server<any, any, any, any>,
  getServer: () => Pick<BunServer<unknown>, "publish"> | undefined,
) {
  // biome-ignore lint/suspicious/noExplicitAny: idem
  const patch = (nsp: Namespace<any, any, any, any>) =>
    patchAdapter(nsp.adapter as unknown as InternalAdapter, getServer);
  // biome-ignore lint/suspicious/noExplicitAny: `_nsps` is the server's namespace registry
  for (const nsp of (io as any)._nsps.values()) patch(nsp);
  io.on("new_namespace", patch);
  restorers.set(io, () => {
    io.off("new_namespace", patch);
    // biome-ignore lint/suspicious/noExplicitAny: idem
    for (const nsp of (io as any)._nsps.values()) unpatch.get(nsp.adapter)?.();
  });
}

const restorers = new WeakMap<object, () => void>();
const unpatch = new WeakMap<object, () => void>();

/**
 * Puts socket.io's per-socket broadcast back, before any socket connects. Only the benchmark uses it, to measure
 * what the fast path saves.
 */
// biome-ignore lint/suspicious/noExplicitAny: works with any event maps
export function removeFastBroadcast(io: Server<any, any, any, any>) {
  restorers.get(io)?.();
  restorers.delete(io);
}

/** The topic of a room; prefixed so it never meets an Elysia `.ws()` topic. */
export const fastTopic = (namespace: string, room: string) => `sio${SEPARATOR}${namespace}${SEPARATOR}${room}`;

function openWs(socket: PatchedSocket): BunWs | undefined {
  const transport = socket.conn.transport;
  const ws = transport.name === "websocket" ? transport.socket : undefined;
  return ws && ws.readyState === WS_OPEN ? ws : undefined;
}

function patchAdapter(adapter: InternalAdapter, getServer: () => Publisher | undefined) {
  const nsp = adapter.nsp as { name: string; sockets: Map<string, PatchedSocket> };
  const original = {
    addAll: adapter.addAll,
    del: adapter.del,
    delAll: adapter.delAll,
    broadcast: adapter.broadcast,
    onMessage: (adapter as Partial<InternalClusterAdapter>).onMessage,
  };
  /** Sockets whose ws is subscribed to every room they are in. */
  const subscribed = new Map<string, BunWs>();
  /** Sockets on polling, waiting for the upgrade to websocket. */
  const awaitingUpgrade = new Set<string>();
  /** Sockets in rooms whose ws is not subscribed (polling, or an upgrade without an open ws): they need the loop. */
  const unsubscribed = new Set<string>();
  /** Some socket has `onAnyOutgoing` listeners: every broadcast must call them (set once, never cleared). */
  let outgoingListeners = false;
  const topic = (room: string) => fastTopic(nsp.name, room);
  unpatch.set(adapter, () => {
    const { onMessage, ...rest } = original;
    Object.assign(adapter, rest, onMessage ? { onMessage } : {});
  });

  const subscribeAll = (id: string, ws: BunWs) => {
    for (const room of adapter.sids.get(id) ?? []) if (room !== id) ws.subscribe(topic(room));
    subscribed.set(id, ws);
    unsubscribed.delete(id);
  };

  /** Notes outgoing listeners, whether added before the socket's first join or later. */
  const watchOutgoing = (socket: PatchedSocket) => {
    if (socket._anyOutgoingListeners?.length) outgoingListeners = true;
    for (const name of ["onAnyOutgoing", "prependAnyOutgoing"] as const) {
      const add = socket[name];
      if (!add) continue;
      socket[name] = (...args: unknown[]) => {
        outgoingListeners = true;
        return add.apply(socket, args);
      };
    }
  };

  // A socket is set up at its first join after connecting (its private room, joined by socket.io itself): rooms
  // joined earlier by middlewares are then subscribed too, and a socket that never connects is never subscribed.
  const enable = (socket: PatchedSocket) => {
    watchOutgoing(socket);
    const ws = openWs(socket);
    if (ws) return subscribeAll(socket.id, ws);
    unsubscribed.add(socket.id);
    awaitingUpgrade.add(socket.id);
    socket.conn.once("upgrade", () => {
      if (!awaitingUpgrade.delete(socket.id) || nsp.sockets.get(socket.id) !== socket) return;
      const upgraded = openWs(socket);
      if (upgraded) subscribeAll(socket.id, upgraded);
    });
  };

  adapter.addAll = (id, rooms) => {
    original.addAll.call(adapter, id, rooms);
    const ws = subscribed.get(id);
    if (ws) {
      for (const room of rooms) if (room !== id) ws.subscribe(topic(room));
      return;
    }
    const socket = nsp.sockets.get(id);
    if (socket && !awaitingUpgrade.has(id)) enable(socket);
  };

  adapter.del = (id, room) => {
    original.del.call(adapter, id, room);
    if (room !== id) subscribed.get(id)?.unsubscribe(topic(room));
  };

  adapter.delAll = (id) => {
    const ws = subscribed.get(id);
    if (ws) {
      for (const room of adapter.sids.get(id) ?? []) if (room !== id) ws.unsubscribe(topic(room));
      subscribed.delete(id);
    }
    awaitingUpgrade.delete(id);
    unsubscribed.delete(id);
    original.delAll.call(adapter, id);
  };

  /** Delivers a broadcast to this process's sockets: one native publish when the topics can express it. */
  const deliverHere = (packet: unknown, options: BroadcastOptions) => {
    const route = fastRoute(options);
    if (!route) return localBroadcast.call(adapter as unknown as Adapter, packet as never, options);
    (packet as { nsp: string }).nsp = nsp.name;
    const encoded = adapter.encoder.encode(packet);
    // Binary attachments are several frames: leave them to socket.io.
    if (encoded.length !== 1 || typeof encoded[0] !== "string")
      return localBroadcast.call(adapter as unknown as Adapter, packet as never, options);
    // "4" is the engine.io message type; every subscriber gets these very bytes.
    route.publisher.publish(route.topic, `4${encoded[0]}`);
    // Bun's publish reached every subscribed member: the per-socket walk is for the others and outgoing listeners
    // only (at 5,000 players it was a quarter of the server's CPU when nobody needed it).
    if (unsubscribed.size === 0 && !outgoingListeners) return;
    const flags = options.flags ?? {};
    const packetOptions = { preEncoded: true, volatile: flags.volatile, compress: flags.compress };
    adapter.apply(options, (socket) => {
      socket.notifyOutgoingListeners?.(packet);
      if (!subscribed.has(socket.id)) socket.client.writeToEngine(encoded, packetOptions);
    });
  };

  if (adapter instanceof ClusterAdapter) {
    const cluster = adapter as unknown as InternalClusterAdapter;
    cluster.broadcast = ((packet, options) => {
      if (!options.flags?.local) {
        const message = { type: MessageType.BROADCAST, data: { packet, opts: encodeOptions(options) } };
        // Encoded by the adapter before this returns, so the local delivery below cannot change what others get.
        cluster.publishAndReturnOffset(message).catch(() => {});
      }
      deliverHere(packet, options);
    }) as Adapter["broadcast"];
    cluster.onMessage = (message, offset) => {
      const remoteBroadcast =
        message.type === MessageType.BROADCAST &&
        message.uid !== cluster.uid &&
        message.data?.opts &&
        !isWithAck(message);
      if (!remoteBroadcast) return original.onMessage?.call(cluster, message, offset);
      const opts = message.data!.opts!;
      deliverHere(message.data!.packet, {
        rooms: new Set(opts.rooms),
        except: new Set(opts.except),
        flags: opts.flags,
      });
    };
  } else {
    adapter.broadcast = deliverHere as Adapter["broadcast"];
  }

  /** Where a broadcast can be published, or undefined when it must take the per-socket path. */
  function fastRoute(options: BroadcastOptions): { publisher: Publisher; topic: string } | undefined {
    const server = getServer();
    const except = options.except ?? new Set<string>();
    if (!server || subscribed.size === 0 || options.rooms.size !== 1 || except.size > 1) return undefined;
    const room = options.rooms.values().next().value as string;
    if (nsp.sockets.has(room)) return undefined; // a private room is not a topic
    if (except.size === 0) return { publisher: server, topic: topic(room) };
    const excluded = except.values().next().value as string;
    const members = adapter.rooms.get(excluded);
    if (!members || members.size === 0) return { publisher: server, topic: topic(room) };
    // Only "all but this one socket" maps onto Bun: ws.publish skips the publishing socket itself.
    if (members.size !== 1 || !members.has(excluded)) return undefined;
    const ws = subscribed.get(excluded);
    return { publisher: ws ?? server, topic: topic(room) };
  }
}

/** socket.io-adapter's own `encodeOptions` (not exported): what a cluster message carries of a broadcast's options. */
function encodeOptions(options: BroadcastOptions) {
  return { rooms: [...options.rooms], except: [...(options.except ?? [])], flags: options.flags };
}

const isWithAck = (message: ClusterMessageOut) =>
  (message.data as { requestId?: unknown } | undefined)?.requestId !== undefined;
