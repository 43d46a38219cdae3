import { forbidden, notFound } from "../kernel/errors";
import { DAY_MS, seoulDate } from "../kernel/seoul-time";
import { createGuildCoreService, parseProblems } from "./core/service";
import { createGuildInvitationsService } from "./invitations/service";
import { createGuildMembersService } from "./members/service";
import { createGuildRecruitmentService } from "./recruitment/service";
import { checkBoardPost, checkComment, GUILD_MSG, isStaff, REWARDED_GUILD_GAMES_PER_DAY } from "./rules";
import {
  type Actor,
  accept,
  anyMember,
  type GuildsDeps,
  offsetOf,
  type Page,
  requireGuild,
  requireRole,
  type Standing,
} from "./service-kit";
import type { GuildQueries } from "./store";
import { presentBoardPost, presentComment, presentGuild, presentMembers, presentMessage } from "./view";

export type { Actor, GuildsDeps, Page } from "./service-kit";
export { parseProblems };

declare module "../kernel/events" {
  interface AppEvents {
    /** A guild's shared state changed (settings, problems, roles, members): the guild room resends it. */
    "guilds.changed": { guildId: number };
    /** A member is no longer in the guild (left, kicked, or the guild was disbanded): their sockets leave its room. */
    "guilds.member_removed": {
      guildId: number;
      userId: number;
      username: string;
      reason: "left" | "kicked" | "disbanded";
    };
  }
}

function createRestService({ store, events, now }: GuildsDeps) {
  const date = () => new Date(now());

  // ---------------------------------------------------------------- guild board (members only)

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

  // ---------------------------------------------------------------- guild room

  /** Stores a chat line of a member who is in the guild room (the room checked the membership on join). */
  async function postMessage(actor: Actor, guildId: number, text: string) {
    const row = await store.unit((q) =>
      q.insertMessage({ guildId, userId: actor.id, message: text, createdAt: date() }),
    );
    return presentMessage({ message: row, username: actor.username });
  }

  /** A finished guild game in the recent-activity list (`detail`: its podium); the winner, if any, as its user. */
  async function recordGameActivity(guildId: number, detail: string, winnerId: number | null, at: number) {
    await store.unit((q) =>
      q.addActivity({ guildId, kind: "game", userId: winnerId, detail, createdAt: new Date(at) }),
    );
  }

  /**
   * Which members of a finished guild game are rewarded (at most `REWARDED_GUILD_GAMES_PER_DAY` rewarded guild
   * games per member and Seoul day of the game's end), decided once per (guild, round, member) in one transaction.
   */
  async function claimGameRewards(guildId: number, round: number, finishedAt: number, userIds: readonly number[]) {
    const day = seoulDate(finishedAt);
    return store.unit(async (q) => {
      // Decisions of two days ago and older are never read again (a retry comes within seconds).
      await q.pruneGameRewards(seoulDate(finishedAt - 2 * DAY_MS));
      return q.claimGameRewards(
        { guildId, round, day, at: new Date(finishedAt) },
        userIds,
        REWARDED_GUILD_GAMES_PER_DAY,
      );
    });
  }

  /** What the guild room shows: the guild, its members, problems and last chat messages. */
  async function roomState(guildId: number) {
    const guild = await requireGuild(store, guildId);
    const [members, messages] = await Promise.all([store.members(guildId), store.recentMessages(guildId)]);
    return {
      guild: presentGuild(guild),
      members: presentMembers(members),
      problems: parseProblems(guild.problems),
      messages: messages.map(presentMessage),
    };
  }

  return {
    boardList,
    boardGet,
    boardCreate,
    boardUpdate,
    boardDelete,
    comments,
    addComment,
    deleteComment,
    postMessage,
    recordGameActivity,
    claimGameRewards,
    roomState,
    /** For the guild room: the guild and the actor's standing, any role. */
    standing: (actor: Actor, guildId: number) => requireRole(store, guildId, actor, anyMember),
  };
}

/** Each subdomain's service, built once per context (api.ts); the routes of a subdomain use its own. */
export function createGuildServices(deps: GuildsDeps) {
  return {
    core: createGuildCoreService(deps),
    members: createGuildMembersService(deps),
    invitations: createGuildInvitationsService(deps),
    recruitment: createGuildRecruitmentService(deps),
    rest: createRestService(deps),
  };
}

/** Every subdomain's functions in one object, for the guild room and the guild game, which span them. */
export function createGuildsService(deps: GuildsDeps) {
  const { core, members, invitations, recruitment, rest } = createGuildServices(deps);
  return { ...core, ...members, ...invitations, ...recruitment, ...rest };
}
export type GuildsService = ReturnType<typeof createGuildsService>;
