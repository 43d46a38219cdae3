import type { RedisClient } from "../kernel/cluster";
import { gamesBoardScore, periodEnd, type UsersSort, wpmBoardScore, wpmCenti } from "./rules";
import type { BoardRow, CountedResult } from "./store";

/**
 * The daily and weekly boards in Redis (when `REDIS_URL` is set), after monkeytype's daily leaderboards: per
 * period key `<ns>:<period>:wpm` and `<ns>:<period>:games` (sorted sets of player keys by the negated composite
 * scores of rules.ts, read in ascending order, so equal scores come in player key order: the SQL tie rule),
 * `<ns>:<period>:players` (hash of each player's `|g` games, `|w` speed sum, `|a` accuracy sum, `|n` nickname,
 * `|u` user id, `|t` last played) and `<ns>:<period>:ready` (set by a rebuild: only then are reads served from
 * here). Every key expires a day after its period ends by the context's clock (a TTL, so an injected clock and
 * Redis' own agree); a result of a period that ended over a day ago is not added. SQL stays the source of truth.
 */

/** One script per recorded result: both periods (day and week), sums, nickname and both boards, atomically. */
const ADD_RESULT = `
local pk, wpm, acc, nick, uid, at = ARGV[1], tonumber(ARGV[2]), ARGV[3], ARGV[4], ARGV[5], tonumber(ARGV[6])
for i = 0, (#KEYS / 3) - 1 do
  local wpmBoard, gamesBoard, players = KEYS[i * 3 + 1], KEYS[i * 3 + 2], KEYS[i * 3 + 3]
  local games = redis.call('HINCRBY', players, pk .. '|g', 1)
  local sum = redis.call('HINCRBY', players, pk .. '|w', wpm)
  redis.call('HINCRBYFLOAT', players, pk .. '|a', acc)
  local last = tonumber(redis.call('HGET', players, pk .. '|t') or '-1')
  if at >= last then redis.call('HSET', players, pk .. '|t', ARGV[6], pk .. '|n', nick) end
  if uid ~= '' then redis.call('HSET', players, pk .. '|u', uid) end
  local centi = math.floor((200 * sum + games) / (2 * games))
  redis.call('ZADD', wpmBoard, string.format('%.0f', -(centi * 1048576 + math.min(games, 1048575))), pk)
  redis.call('ZADD', gamesBoard, string.format('%.0f', -(games * 16777216 + math.min(centi, 16777215))), pk)
  for _, key in ipairs({ wpmBoard, gamesBoard, players }) do redis.call('PEXPIRE', key, ARGV[7 + i]) end
end
return 1
`;

/** The first ARGV[1] players of a ready board with their figures, in one round trip; nil when not ready. */
const READ_TOP = `
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
local out = {}
for _, pk in ipairs(redis.call('ZRANGE', KEYS[2], 0, tonumber(ARGV[1]) - 1)) do
  local f = redis.call('HMGET', KEYS[3], pk .. '|g', pk .. '|w', pk .. '|a', pk .. '|n', pk .. '|u', pk .. '|t')
  out[#out + 1] = { pk, f[1] or '0', f[2] or '0', f[3] or '0', f[4] or '', f[5] or '', f[6] or '0' }
end
return out
`;

export interface RedisBoards {
  /** Adds a counted result to the boards of these day and week keys (one script); `now` by the context's clock. */
  add(periodKeys: readonly string[], result: CountedResult, now: number): Promise<void>;
  /** The first `limit` rows of a period in ranking order, or null when its board is not ready (read SQL). */
  top(periodKey: string, sort: UsersSort, limit: number): Promise<BoardRow[] | null>;
  /** Replaces a period's board with these rows (from SQL) and marks it ready, atomically (MULTI). */
  replace(periodKey: string, rows: readonly BoardRow[], now: number): Promise<void>;
  /** Marks these periods' boards not ready (reads go to SQL until a rebuild). */
  invalidate(periodKeys: readonly string[]): Promise<void>;
}

/** Periods kept in Redis: days and weeks (all time stays in SQL). */
export const inRedis = (periodKey: string) => periodKey.startsWith("d:") || periodKey.startsWith("w:");

/** How long a period's keys are kept from `now`: until a day after the period ends (≤ 0: not kept at all). */
export const keepFor = (periodKey: string, now: number) => periodEnd(periodKey) + 86_400_000 - now;

export function redisBoards(redis: RedisClient, namespace: string): RedisBoards {
  const keys = (period: string) => ({
    wpm: `${namespace}:${period}:wpm`,
    games: `${namespace}:${period}:games`,
    players: `${namespace}:${period}:players`,
    ready: `${namespace}:${period}:ready`,
  });
  return {
    async add(periodKeys, result, now) {
      const periods = periodKeys.filter((p) => inRedis(p) && keepFor(p, now) > 0);
      if (periods.length === 0) return;
      await redis.eval(ADD_RESULT, {
        keys: periods.flatMap((p) => {
          const k = keys(p);
          return [k.wpm, k.games, k.players];
        }),
        arguments: [
          result.playerKey,
          String(result.wpm),
          String(result.accuracy),
          result.nickname,
          result.userId === null ? "" : String(result.userId),
          String(result.playedAt),
          ...periods.map((p) => String(keepFor(p, now))),
        ],
      });
    },

    async top(periodKey, sort, limit) {
      const k = keys(periodKey);
      const reply = (await redis.eval(READ_TOP, {
        keys: [k.ready, sort === "wpm" ? k.wpm : k.games, k.players],
        arguments: [String(limit)],
      })) as string[][] | null;
      if (!reply) return null;
      return reply.map(([playerKey, games, wpmSum, accuracySum, nickname, userId, lastPlayedAt]) => {
        const row = {
          playerKey: playerKey!,
          userId: userId ? Number(userId) : null,
          nickname: nickname!,
          games: Number(games),
          wpmSum: Number(wpmSum),
          accuracySum: Number(accuracySum),
          lastPlayedAt: Number(lastPlayedAt),
        };
        return { ...row, wpmCenti: wpmCenti(row.wpmSum, row.games) };
      });
    },

    async replace(periodKey, rows, now) {
      const k = keys(periodKey);
      const ttl = keepFor(periodKey, now);
      if (ttl <= 0) return;
      const multi = redis.multi().del([k.wpm, k.games, k.players, k.ready]);
      for (let i = 0; i < rows.length; i += 1000) {
        const batch = rows.slice(i, i + 1000);
        const fields: Record<string, string> = {};
        for (const r of batch) {
          fields[`${r.playerKey}|g`] = String(r.games);
          fields[`${r.playerKey}|w`] = String(r.wpmSum);
          fields[`${r.playerKey}|a`] = String(r.accuracySum);
          fields[`${r.playerKey}|n`] = r.nickname;
          fields[`${r.playerKey}|t`] = String(r.lastPlayedAt);
          if (r.userId !== null) fields[`${r.playerKey}|u`] = String(r.userId);
        }
        multi.hSet(k.players, fields);
        multi.zAdd(
          k.wpm,
          batch.map((r) => ({ score: wpmBoardScore(r.wpmCenti, r.games), value: r.playerKey })),
        );
        multi.zAdd(
          k.games,
          batch.map((r) => ({ score: gamesBoardScore(r.wpmCenti, r.games), value: r.playerKey })),
        );
      }
      multi.set(k.ready, "1");
      for (const key of [k.wpm, k.games, k.players, k.ready]) multi.pExpire(key, ttl);
      await multi.exec();
    },

    async invalidate(periodKeys) {
      if (periodKeys.length) await redis.del(periodKeys.map((p) => keys(p).ready));
    },
  };
}
