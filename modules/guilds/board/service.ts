import { forbidden, notFound } from "../../kernel/errors";
import { checkBoardPost, checkComment, GUILD_MSG, isStaff } from "../rules";
import {
  type Actor,
  accept,
  anyMember,
  type GuildsDeps,
  offsetOf,
  type Page,
  requireRole,
  type Standing,
} from "../service-kit";
import type { GuildQueries } from "../store";
import { presentBoardPost, presentComment } from "../view";

/** The guild board, members only: posts and their comments; authors and staff edit and delete (spec §6). */
export function createGuildBoardService({ store, now }: GuildsDeps) {
  const date = () => new Date(now());

  async function boardList(actor: Actor, guildId: number, input: Page) {
    await requireRole(store, guildId, actor, anyMember);
    return (await store.boardPosts(guildId, input.size, offsetOf(input))).map(presentBoardPost);
  }

  async function requirePost(q: GuildQueries, guildId: number, postId: number) {
    const row = await q.boardPost(guildId, postId);
    if (!row) throw notFound(GUILD_MSG.postNotFound);
    return row;
  }

  async function boardGet(actor: Actor, guildId: number, postId: number) {
    await requireRole(store, guildId, actor, anyMember);
    return presentBoardPost(await requirePost(store, guildId, postId));
  }

  async function boardCreate(actor: Actor, guildId: number, input: { title: string; content: string }) {
    const { title, content } = accept(checkBoardPost(input.title, input.content));
    const id = await store.unit(async (q) => {
      await requireRole(q, guildId, actor, anyMember);
      const at = date();
      const post = await q.insertBoardPost({
        guildId,
        authorId: actor.id,
        title,
        content,
        createdAt: at,
        updatedAt: at,
      });
      await q.addActivity({ guildId, kind: "post", userId: actor.id, detail: title, createdAt: at });
      return post.id;
    });
    return presentBoardPost((await store.boardPost(guildId, id))!);
  }

  /** The author, or the guild's admins and moderators (spec §6). */
  const mayModerate = (standing: Standing, authorId: number) =>
    standing.member.userId === authorId || isStaff(standing.member.role);

  async function boardUpdate(actor: Actor, guildId: number, postId: number, input: { title: string; content: string }) {
    const { title, content } = accept(checkBoardPost(input.title, input.content));
    await store.unit(async (q) => {
      const standing = await requireRole(q, guildId, actor, anyMember);
      const { post } = await requirePost(q, guildId, postId);
      if (!mayModerate(standing, post.authorId)) throw forbidden(GUILD_MSG.postEditForbidden);
      await q.updateBoardPost(postId, { title, content, updatedAt: date() });
    });
    return presentBoardPost((await store.boardPost(guildId, postId))!);
  }

  async function boardDelete(actor: Actor, guildId: number, postId: number) {
    await store.unit(async (q) => {
      const standing = await requireRole(q, guildId, actor, anyMember);
      const { post } = await requirePost(q, guildId, postId);
      if (!mayModerate(standing, post.authorId)) throw forbidden(GUILD_MSG.postDeleteForbidden);
      await q.updateBoardPost(postId, { deletedAt: date(), deletedBy: actor.id });
    });
    return { detail: GUILD_MSG.postDeleted };
  }

  async function comments(actor: Actor, guildId: number, postId: number) {
    await requireRole(store, guildId, actor, anyMember);
    await requirePost(store, guildId, postId);
    return (await store.comments(postId)).map(presentComment);
  }

  async function addComment(actor: Actor, guildId: number, postId: number, input: { content: string }) {
    const content = accept(checkComment(input.content));
    const id = await store.unit(async (q) => {
      await requireRole(q, guildId, actor, anyMember);
      await requirePost(q, guildId, postId);
      const row = await q.insertComment({ postId, authorId: actor.id, content, createdAt: date() });
      return row.id;
    });
    return presentComment((await store.comment(postId, id))!);
  }

  async function deleteComment(actor: Actor, guildId: number, postId: number, commentId: number) {
    await store.unit(async (q) => {
      const standing = await requireRole(q, guildId, actor, anyMember);
      await requirePost(q, guildId, postId);
      const row = await q.comment(postId, commentId);
      if (!row) throw notFound(GUILD_MSG.commentNotFound);
      if (!mayModerate(standing, row.comment.authorId)) throw forbidden(GUILD_MSG.commentDeleteForbidden);
      // Lost to a concurrent deletion of the same comment: counted down once, by the winner.
      if (!(await q.deleteComment(postId, commentId, date(), actor.id))) throw notFound(GUILD_MSG.commentNotFound);
    });
    return { detail: GUILD_MSG.commentDeleted };
  }

  return { boardList, boardGet, boardCreate, boardUpdate, boardDelete, comments, addComment, deleteComment };
}
