import { hostname } from "node:os";
import { createClient } from "redis";
import type { Logger } from "./logger";

export type RedisClient = ReturnType<typeof createClient>;

/**
 * What this process shares with the other server processes (REDIS_URL): modules use it for game ownership,
 * shared limits, the live room list and rankings. `null` on a single process without Redis: every module then
 * keeps the same state in its own memory, which is exact when there is only one process.
 */
export interface Cluster {
  /** Unique per process run (host, pid, random): lease values and "who owns this game" answers. */
  processId: string;
  /** Start of every key, stream and channel (REDIS_PREFIX): `${cluster.prefix}rooms:list`, never a bare name. */
  prefix: string;
  /** Commands (never put in subscribe mode). */
  redis: RedisClient;
  /** A duplicate connection in subscribe mode (a client that subscribes can send no other command). */
  subscriber: RedisClient;
  /**
   * The key that exists while process `id` runs (renewed every 5 s, gone 15 s after a crash): shared counts kept
   * per process (connections per address) skip the entries of a dead process.
   */
  aliveKey(id: string): string;
  /** Closes both connections (after the modules' `onStop`, which may still release leases). */
  close(): Promise<void>;
}

const ALIVE_EVERY_MS = 5_000;
const ALIVE_TTL_MS = 15_000;

export const newProcessId = () => `${hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;

/**
 * Connects both clients; throws when Redis cannot be reached at boot, so a process that was told to share state
 * never starts alone. Later connection losses are logged and node-redis reconnects by itself (commands are queued
 * meanwhile; the lease keeper gives up its games at its local deadline, see game-host/lease.ts).
 */
export async function openCluster(
  url: string,
  log: Logger,
  options: { prefix?: string; processId?: string } = {},
): Promise<Cluster> {
  const { prefix = "madang:", processId = newProcessId() } = options;
  let booted = false;
  // At boot a Redis that is not there is an error (three tries); once running, a lost connection is retried forever.
  const reconnectStrategy = (retries: number, cause: Error) =>
    !booted && retries >= 3 ? cause : Math.min(50 * 2 ** retries, 2_000);
  // Named after the process (CLIENT LIST shows whose connection is whose).
  const redis = createClient({ url, name: `madang:${processId}:commands`, socket: { reconnectStrategy } });
  let lastError = "";
  const onError = (role: string) => (error: unknown) => {
    // node-redis emits one error per failed reconnect attempt: log a change, not every retry.
    const text = `${role}: ${String(error)}`;
    if (text !== lastError) log.warn("redis connection error", { role, error: String(error) });
    lastError = text;
  };
  redis.on("error", onError("commands"));
  const subscriber = redis.duplicate({ name: `madang:${processId}:subscriber` });
  subscriber.on("error", onError("subscriber"));
  redis.on("ready", () => {
    lastError = "";
  });
  try {
    await redis.connect();
    await subscriber.connect();
    booted = true;
  } catch (error) {
    if (redis.isOpen) redis.destroy();
    if (subscriber.isOpen) subscriber.destroy();
    throw new Error(`REDIS_URL에 연결할 수 없습니다: ${String(error)}`);
  }
  const aliveKey = (id: string) => `${prefix}alive:${id}`;
  const heartbeat = () =>
    redis.set(aliveKey(processId), "1", { PX: ALIVE_TTL_MS }).catch(() => {
      // Logged by the client's error listener; the next beat tries again.
    });
  await heartbeat();
  const beating = setInterval(heartbeat, ALIVE_EVERY_MS);
  beating.unref?.();
  let closing: Promise<void> | null = null;
  const close = () => {
    clearInterval(beating);
    closing ??= redis
      .del(aliveKey(processId))
      .catch(() => 0)
      .then(() => Promise.all([quit(redis), quit(subscriber)]))
      .then(() => undefined);
    return closing;
  };
  return { processId, prefix, redis, subscriber, aliveKey, close };
}

async function quit(client: RedisClient) {
  if (!client.isOpen) return;
  try {
    await client.close();
  } catch {
    client.destroy();
  }
}
