import type { Cluster } from "./cluster";
import type { AttemptCounter, CounterFactory, WindowLimit } from "./counters";

/**
 * The sliding-window counters of counters.ts in Redis, shared by every server process: one sorted set per limiter
 * and key (score = attempt time in ms, member = time plus a random tag), expiring with its window. Each operation is
 * one Lua script, so "check and count" (`take`) is atomic across processes. Times come from the caller's clock, like
 * the memory counters' (the processes' clocks agree to well under a window).
 */
const TAKE = `
local key, now, window, limit, member = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local n = redis.call('ZCARD', key)
if n >= limit then
  local frees = redis.call('ZRANGE', key, n - limit, n - limit, 'WITHSCORES')
  return {tonumber(frees[2]) + window - now, 0}
end
if member ~= '' then
  redis.call('ZADD', key, now, member)
  redis.call('PEXPIRE', key, window)
end
return {0, now}
`;

const RECORD = `
local key, now, window, limit, member = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
redis.call('ZADD', key, now, member)
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
redis.call('ZREMRANGEBYRANK', key, 0, -limit - 1)
redis.call('PEXPIRE', key, window)
return now
`;

const FORGIVE = `
local found = redis.call('ZRANGEBYSCORE', KEYS[1], ARGV[1], ARGV[1], 'LIMIT', 0, 1)
if found[1] then redis.call('ZREM', KEYS[1], found[1]) end
return 0
`;

/** Milliseconds to wait → the seconds the memory counters answer (at least 1 while refused). */
const toSeconds = (ms: number) => (ms > 0 ? Math.max(1, Math.ceil(ms / 1000)) : 0);

export const redisCounters =
  (cluster: Pick<Cluster, "redis" | "prefix">, now: () => number): CounterFactory =>
  (name: string, limit: WindowLimit): AttemptCounter => {
    const redisKey = (key: string) => `${cluster.prefix}throttle:${name}:${key}`;
    const run = async (script: string, key: string, member: string) => {
      const args = [String(now()), String(limit.windowMs), String(limit.limit), member];
      return (await cluster.redis.eval(script, { keys: [redisKey(key)], arguments: args })) as number[] | number;
    };
    const tag = () => `${now()}:${crypto.randomUUID().slice(0, 8)}`;
    return {
      async take(key) {
        const [waitMs, at] = (await run(TAKE, key, tag())) as number[];
        return { retryAfter: toSeconds(waitMs), at };
      },
      async retryAfter(key) {
        const [waitMs] = (await run(TAKE, key, "")) as number[];
        return toSeconds(waitMs);
      },
      async record(key) {
        return (await run(RECORD, key, tag())) as number;
      },
      async forgive(key, at) {
        await cluster.redis.eval(FORGIVE, { keys: [redisKey(key)], arguments: [String(at)] });
      },
      async clear(key) {
        await cluster.redis.del(redisKey(key));
      },
    };
  };
