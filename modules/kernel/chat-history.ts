import type { Cluster } from "./cluster";
import type { ModuleContext } from "./define-module";

/**
 * The last lines of each live chat channel that keeps none of its own (a room's chat, a duel's watchers), kept on
 * the server so a report of a line can keep it and the lines before it as they were (modules/moderation/README.md
 * "Evidence"). Guild chat is stored by the guilds module and needs none of this.
 *
 * A line gets its id here (`record`), the id the channel's broadcast carries (`line_id`) and a report names. With
 * several processes (REDIS_URL) the lines are a Redis list per channel, so a report finds the same lines whichever
 * process it reaches; otherwise process memory, which is exact for one process.
 */
export interface ChatEntry {
  id: string;
  userId: number | null;
  name: string;
  message: string;
  /** Epoch ms. */
  at: number;
}

export interface ChatHistory {
  /** Adds a line to its channel (the write to Redis is not awaited: a chat line never waits for it) → its id. */
  record(channel: string, line: Omit<ChatEntry, "id">): string;
  /** The line `id` and at most `before` lines before it, oldest first; null when the channel no longer has it. */
  around(channel: string, id: string, before: number): Promise<ChatEntry[] | null>;
}

/** Lines kept per channel: a reported line and its 20 before, while up to 40 more lines follow it. */
export const CHAT_HISTORY_KEPT = 60;
/** A channel quiet this long is forgotten (Redis expiry). */
export const CHAT_HISTORY_TTL_MS = 24 * 3_600_000;
/** Channels kept in memory at most (least recently written first out). */
export const CHAT_HISTORY_CHANNELS = 2_000;

const newLineId = () => crypto.randomUUID().replaceAll("-", "").slice(0, 16);

function aroundOf(lines: readonly ChatEntry[], id: string, before: number): ChatEntry[] | null {
  const at = lines.findIndex((line) => line.id === id);
  return at < 0 ? null : lines.slice(Math.max(0, at - before), at + 1);
}

export function memoryChatHistory(): ChatHistory {
  const channels = new Map<string, ChatEntry[]>();
  return {
    record(channel, line) {
      const id = newLineId();
      const lines = channels.get(channel) ?? [];
      channels.delete(channel);
      lines.push({ id, ...line });
      if (lines.length > CHAT_HISTORY_KEPT) lines.splice(0, lines.length - CHAT_HISTORY_KEPT);
      channels.set(channel, lines);
      if (channels.size > CHAT_HISTORY_CHANNELS) channels.delete(channels.keys().next().value as string);
      return id;
    },
    async around(channel, id, before) {
      return aroundOf(channels.get(channel) ?? [], id, before);
    },
  };
}

export function redisChatHistory(cluster: Pick<Cluster, "redis" | "prefix">, onError: (error: unknown) => void) {
  const key = (channel: string) => `${cluster.prefix}chat:${channel}`;
  const history: ChatHistory = {
    record(channel, line) {
      const id = newLineId();
      cluster.redis
        .multi()
        .rPush(key(channel), JSON.stringify({ id, ...line }))
        .lTrim(key(channel), -CHAT_HISTORY_KEPT, -1)
        .pExpire(key(channel), CHAT_HISTORY_TTL_MS)
        .exec()
        .catch(onError);
      return id;
    },
    async around(channel, id, before) {
      const lines = (await cluster.redis.lRange(key(channel), 0, -1)).map((text) => JSON.parse(text) as ChatEntry);
      return aroundOf(lines, id, before);
    },
  };
  return history;
}

const histories = new WeakMap<ModuleContext, ChatHistory>();

/** This server's chat history (one per context: Redis with `ctx.cluster`, memory otherwise). */
export function chatHistory(ctx: ModuleContext): ChatHistory {
  let history = histories.get(ctx);
  if (!history) {
    history = ctx.cluster
      ? redisChatHistory(ctx.cluster, (error) => ctx.log.warn("chat line not kept", { error: String(error) }))
      : memoryChatHistory();
    histories.set(ctx, history);
  }
  return history;
}
