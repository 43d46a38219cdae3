import type { Cluster } from "../../modules/kernel/cluster";
import type { Logger } from "../../modules/kernel/logger";

/** The socket.io connections of one address counted across every server process (connection-limit.ts). */
export interface SharedAdmissions {
  /** Counts one more connection of `key` unless the live processes already hold `cap`; false when refused. */
  admit(key: string, cap: number): Promise<boolean>;
  release(key: string): Promise<void>;
}

/**
 * One hash per address: field = process id, value = that process's admitted connections. A process that dies
 * never releases its connections; its field is skipped and removed once its alive key has expired (about 15 s), so
 * a crash frees the address's places instead of locking the address out.
 */
const ADMIT = `
local key, me, cap, aliveprefix = KEYS[1], ARGV[1], tonumber(ARGV[2]), ARGV[3]
local fields = redis.call('HGETALL', key)
local total = 0
for i = 1, #fields, 2 do
  if fields[i] == me or redis.call('EXISTS', aliveprefix .. fields[i]) == 1 then
    total = total + tonumber(fields[i + 1])
  else
    redis.call('HDEL', key, fields[i])
  end
end
if total >= cap then return 0 end
redis.call('HINCRBY', key, me, 1)
redis.call('EXPIRE', key, 86400)
return 1
`;

const RELEASE = `
if redis.call('HINCRBY', KEYS[1], ARGV[1], -1) <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end
return 0
`;

export function redisAdmissions(cluster: Cluster, log: Logger): SharedAdmissions {
  const redisKey = (key: string) => `${cluster.prefix}connections:${key}`;
  const aliveprefix = cluster.aliveKey("");
  return {
    async admit(key, cap) {
      try {
        const args = [cluster.processId, String(cap), aliveprefix];
        return (await cluster.redis.eval(ADMIT, { keys: [redisKey(key)], arguments: args })) === 1;
      } catch (error) {
        // Redis unreachable: players are let in (this process's own limit still applies to transports).
        log.warn("shared connection count unavailable; admitting", { error: String(error) });
        return true;
      }
    },
    async release(key) {
      try {
        await cluster.redis.eval(RELEASE, { keys: [redisKey(key)], arguments: [cluster.processId] });
      } catch (error) {
        log.warn("shared connection count not released", { error: String(error) });
      }
    },
  };
}
