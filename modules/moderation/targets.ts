import { accountsApi } from "../accounts";
import { boardContent } from "../board";
import { replayOf } from "../games";
import { guildChatContext, guildContent } from "../guilds";
import { type ChatEntry, chatHistory } from "../kernel/chat-history";
import type { ModuleContext } from "../kernel/define-module";
import { badRequest, notFound, unprocessable } from "../kernel/errors";
import { CHAT_CONTEXT_BEFORE, MODERATION_MSG, type TargetKind } from "./rules";

/** What `POST /api/reports` names (README "Targets"): the fields a kind needs, the others ignored. */
export interface TargetInput {
  kind: TargetKind;
  room_id?: number;
  guild_id?: number;
  session_id?: string;
  line_id?: string;
  post_id?: number;
  comment_id?: number;
  user_id?: number;
  replay_key?: string;
}

/** A reported target as found now: its key (one open report per reporter and key), its author and the evidence. */
export interface FoundTarget {
  key: string;
  offender: { id: number; name: string };
  evidence: Evidence;
}

export interface ChatLineEvidence {
  id: string;
  user_id: number | null;
  name: string;
  message: string;
  at: string;
}

export type Evidence =
  | { type: "chat"; channel: "room" | "guild" | "duel"; channel_id: string; line_id: string; lines: ChatLineEvidence[] }
  | {
      type: "content";
      board: "free" | "guild" | "recruitment";
      post_id: number;
      comment_id?: number;
      guild_id?: number;
      title: string;
      content: string;
      created_at: string;
    }
  | { type: "player"; user_id: number; username: string; replay: ReplayEvidence | null };

export interface ReplayEvidence {
  key: string;
  mode: string;
  room_name: string;
  sentence: string;
  wpm: number;
  accuracy: number;
  position: number | null;
  completion_time: number;
  created_at: string;
}

const need = <T>(value: T | undefined): T => {
  if (value === undefined || value === null || value === "") throw unprocessable(MODERATION_MSG.badTarget);
  return value;
};

const lineOf = (entry: ChatEntry): ChatLineEvidence => ({
  id: entry.id,
  user_id: entry.userId,
  name: entry.name,
  message: entry.message,
  at: new Date(entry.at).toISOString(),
});

/** A chat line with the lines before it; its author must be a member (a guest has no account to act on). */
function chatTarget(
  kind: TargetKind,
  channel: "room" | "guild" | "duel",
  channelId: string,
  lines: ChatEntry[] | null,
): FoundTarget {
  const line = lines?.at(-1);
  if (!lines || !line) throw notFound(MODERATION_MSG.chatNotFound);
  if (line.userId === null) throw badRequest(MODERATION_MSG.guestLine);
  return {
    key: `${kind}:${channelId}:${line.id}`,
    offender: { id: line.userId, name: line.name },
    evidence: { type: "chat", channel, channel_id: channelId, line_id: line.id, lines: lines.map(lineOf) },
  };
}

async function playerTarget(ctx: ModuleContext, input: TargetInput): Promise<FoundTarget> {
  let userId = input.user_id;
  let replay: ReplayEvidence | null = null;
  if (input.replay_key) {
    const found = await replayOf(ctx, input.replay_key);
    if (!found || found.userId === null) throw notFound(MODERATION_MSG.replayNotFound);
    if (userId !== undefined && userId !== found.userId) throw badRequest(MODERATION_MSG.replayNotTheirs);
    userId = found.userId;
    const { result } = found;
    replay = {
      key: found.key,
      mode: found.mode,
      room_name: found.roomName,
      sentence: found.sentence,
      wpm: result.wpm,
      accuracy: result.accuracy,
      position: result.position,
      completion_time: result.completionTime,
      created_at: new Date(result.createdAt).toISOString(),
    };
  }
  const user = await accountsApi(ctx).service.findById(need(userId));
  if (!user) throw notFound(MODERATION_MSG.userNotFound);
  return {
    key: `player:${user.id}`,
    offender: { id: user.id, name: user.username },
    evidence: { type: "player", user_id: user.id, username: user.username, replay },
  };
}

/** Finds what a member reports, as it is now (the evidence kept with the report). */
export async function findTarget(ctx: ModuleContext, reporterId: number, input: TargetInput): Promise<FoundTarget> {
  const history = chatHistory(ctx);
  const before = CHAT_CONTEXT_BEFORE;
  switch (input.kind) {
    case "room_chat": {
      const room = String(need(input.room_id));
      return chatTarget(input.kind, "room", room, await history.around(`room:${room}`, need(input.line_id), before));
    }
    case "duel_chat": {
      const duel = need(input.session_id);
      return chatTarget(input.kind, "duel", duel, await history.around(`duel:${duel}`, need(input.line_id), before));
    }
    case "guild_chat": {
      const guildId = need(input.guild_id);
      const messageId = Number(need(input.line_id));
      if (!Number.isSafeInteger(messageId)) throw notFound(MODERATION_MSG.chatNotFound);
      const lines = await guildChatContext(ctx, reporterId, guildId, messageId, before);
      return chatTarget(input.kind, "guild", String(guildId), lines);
    }
    case "board_post":
    case "board_comment": {
      const kind = input.kind === "board_post" ? "post" : "comment";
      const id = need(kind === "post" ? input.post_id : input.comment_id);
      const found = await boardContent(ctx, kind, id);
      if (!found) throw notFound(MODERATION_MSG.contentNotFound);
      return {
        key: `${input.kind}:${id}`,
        offender: { id: found.authorId, name: found.authorName },
        evidence: {
          type: "content",
          board: "free",
          post_id: found.postId,
          ...(kind === "comment" ? { comment_id: id } : {}),
          title: found.title,
          content: found.content,
          created_at: found.createdAt,
        },
      };
    }
    case "guild_post":
    case "guild_comment":
    case "recruitment_post": {
      const ref =
        input.kind === "recruitment_post"
          ? { kind: input.kind, postId: need(input.post_id) }
          : input.kind === "guild_post"
            ? { kind: input.kind, guildId: need(input.guild_id), postId: need(input.post_id) }
            : {
                kind: input.kind,
                guildId: need(input.guild_id),
                postId: need(input.post_id),
                commentId: need(input.comment_id),
              };
      const found = await guildContent(ctx, reporterId, ref);
      if (!found) throw notFound(MODERATION_MSG.contentNotFound);
      const id = ref.kind === "guild_comment" ? ref.commentId : ref.postId;
      return {
        key: `${input.kind}:${id}`,
        offender: { id: found.authorId, name: found.authorName },
        evidence: {
          type: "content",
          board: input.kind === "recruitment_post" ? "recruitment" : "guild",
          post_id: found.postId,
          guild_id: found.guildId,
          ...(ref.kind === "guild_comment" ? { comment_id: ref.commentId } : {}),
          title: found.title,
          content: found.content,
          created_at: found.createdAt,
        },
      };
    }
    case "player":
      return playerTarget(ctx, input);
  }
}

/** The reference of a target's content for its deletion, or null for targets with nothing to delete. */
export function deletableOf(kind: TargetKind, evidence: Evidence) {
  if (evidence.type === "content") {
    if (kind === "board_post" || kind === "board_comment") {
      return {
        module: "board" as const,
        kind: kind === "board_post" ? ("post" as const) : ("comment" as const),
        id: evidence.comment_id ?? evidence.post_id,
      };
    }
    const guildId = evidence.guild_id ?? 0;
    if (kind === "recruitment_post") return { module: "guilds" as const, ref: { kind, postId: evidence.post_id } };
    if (kind === "guild_post") return { module: "guilds" as const, ref: { kind, guildId, postId: evidence.post_id } };
    if (kind === "guild_comment") {
      const ref = { kind, guildId, postId: evidence.post_id, commentId: evidence.comment_id ?? 0 };
      return { module: "guilds" as const, ref };
    }
  }
  if (evidence.type === "chat" && kind === "guild_chat") {
    const ref = { kind, guildId: Number(evidence.channel_id), messageId: Number(evidence.line_id) };
    return { module: "guilds" as const, ref };
  }
  return null;
}
