import type { ChatEntry } from "../kernel/chat-history";
import type { ModuleContext } from "../kernel/define-module";
import { guildsApi } from "./api";

/**
 * What moderation reads and removes of a guild (modules/moderation README "Targets"): a reported line of the guild
 * chat with the lines before it, a reported post, comment or recruitment post, and their removal. The guild chat,
 * board and comments are read only for a reporter who is a member of the guild (what they could see).
 */

export type GuildContentRef =
  | { kind: "guild_post"; guildId: number; postId: number }
  | { kind: "guild_comment"; guildId: number; postId: number; commentId: number }
  | { kind: "recruitment_post"; postId: number };

export interface GuildContent {
  guildId: number;
  postId: number;
  title: string;
  content: string;
  authorId: number;
  authorName: string;
  createdAt: string;
}

const isMemberOf = async (ctx: ModuleContext, userId: number, guildId: number) =>
  (await guildsApi(ctx).store.membershipOf(userId))?.guildId === guildId;

/** The line `messageId` of the guild's chat and at most `before` lines before it, oldest first; null if not kept. */
export async function guildChatContext(
  ctx: ModuleContext,
  readerId: number,
  guildId: number,
  messageId: number,
  before: number,
): Promise<ChatEntry[] | null> {
  if (!(await isMemberOf(ctx, readerId, guildId))) return null;
  const rows = await guildsApi(ctx).store.recentMessages(guildId);
  const at = rows.findIndex((row) => row.message.id === messageId);
  if (at < 0) return null;
  return rows.slice(Math.max(0, at - before), at + 1).map(({ message, username }) => ({
    id: String(message.id),
    userId: message.userId,
    name: username,
    message: message.message,
    at: message.createdAt.getTime(),
  }));
}

/** A live guild post, comment or recruitment post as it is now; null when gone or not the reader's to see. */
export async function guildContent(
  ctx: ModuleContext,
  readerId: number,
  ref: GuildContentRef,
): Promise<GuildContent | null> {
  const { store } = guildsApi(ctx);
  if (ref.kind === "recruitment_post") {
    const row = await store.recruitment(ref.postId);
    if (!row) return null;
    const { post } = row;
    return content(post.guildId, post.id, post.title, post.content, post.authorId, row.authorName, post.createdAt);
  }
  if (!(await isMemberOf(ctx, readerId, ref.guildId))) return null;
  const found = await store.boardPost(ref.guildId, ref.postId);
  if (!found) return null;
  const { post } = found;
  if (ref.kind === "guild_post") {
    return content(post.guildId, post.id, post.title, post.content, post.authorId, found.authorName, post.createdAt);
  }
  const comment = await store.comment(ref.postId, ref.commentId);
  if (!comment) return null;
  const { content: text, authorId, createdAt } = comment.comment;
  return content(post.guildId, post.id, post.title, text, authorId, comment.authorName, createdAt);
}

const content = (
  guildId: number,
  postId: number,
  title: string,
  text: string,
  authorId: number,
  authorName: string,
  createdAt: Date,
): GuildContent => ({
  guildId,
  postId,
  title,
  content: text,
  authorId,
  authorName,
  createdAt: createdAt.toISOString(),
});

/**
 * Removes reported guild content for moderation (`by`: the administrator's account, null for the CLI): a post or a
 * comment is soft-deleted as its author's deletion would, a recruitment post hidden, a chat line deleted from the
 * kept lines. False when it was gone already.
 */
export async function deleteGuildContent(
  ctx: ModuleContext,
  ref: GuildContentRef | { kind: "guild_chat"; guildId: number; messageId: number },
  by: number | null,
): Promise<boolean> {
  const { store } = guildsApi(ctx);
  const at = new Date(ctx.clock.now());
  switch (ref.kind) {
    case "guild_chat":
      return store.deleteMessage(ref.guildId, ref.messageId);
    case "recruitment_post":
      return store.hideRecruitment(ref.postId, at);
    case "guild_post":
      if (!(await store.boardPost(ref.guildId, ref.postId))) return false;
      await store.updateBoardPost(ref.postId, { deletedAt: at, deletedBy: by });
      return true;
    case "guild_comment":
      return store.unit((q) => q.deleteComment(ref.postId, ref.commentId, at, by));
  }
}
