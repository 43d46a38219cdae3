import { conflict, forbidden, notFound } from "../kernel/errors";
import { DAY_MS, seoulDate } from "../kernel/seoul-time";
import { VIEW_WINDOW_MS } from "../kernel/viewers";
import { createGuildCoreService, parseProblems } from "./core/service";
import { createGuildInvitationsService } from "./invitations/service";
import { addMember, createGuildMembersService } from "./members/service";
import {
  type ApplicationStatus,
  checkApplicationMessage,
  checkBoardPost,
  checkComment,
  checkRecruitment,
  GUILD_MSG,
  isStaff,
  REWARDED_GUILD_GAMES_PER_DAY,
} from "./rules";
import {
  type Actor,
  accept,
  anyMember,
  type GuildsDeps,
  offsetOf,
  onUnique,
  type Page,
  paged,
  requireGuild,
  requireRole,
  type Standing,
  staff,
} from "./service-kit";
import type { GuildQueries } from "./store";
import {
  presentApplication,
  presentBoardPost,
  presentComment,
  presentGuild,
  presentMember,
  presentMembers,
  presentMessage,
  presentRecruitment,
} from "./view";

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

  // ---------------------------------------------------------------- recruitment and applications

  async function recruitmentList(input: Page) {
    const { total, rows } = await store.listRecruitment(input.size, offsetOf(input));
    return paged(rows.map(presentRecruitment), total, input);
  }

  async function requireRecruitment(q: GuildQueries, id: number) {
    const row = await q.recruitment(id);
    if (!row) throw notFound(GUILD_MSG.recruitmentNotFound);
    return row;
  }

  const recruitment = async (id: number) => presentRecruitment(await requireRecruitment(store, id));

  async function viewRecruitment(id: number, viewerKey: string) {
    const at = now();
    const counted = await store.unit(async (q) => {
      await requireRecruitment(q, id);
      return q.countRecruitmentView(id, viewerKey, new Date(at), new Date(at - VIEW_WINDOW_MS));
    });
    const post = await requireRecruitment(store, id);
    return { id, view_count: post.post.viewCount, counted };
  }

  /** Admins and moderators of the guild write its recruitment posts. */
  async function createRecruitment(actor: Actor, input: { guild_id: number; title: string; content: string }) {
    const { title, content } = accept(checkRecruitment(input.title, input.content));
    const id = await store.unit(async (q) => {
      await requireRole(q, input.guild_id, actor, staff, GUILD_MSG.staffOnly);
      const post = await q.insertRecruitment({
        guildId: input.guild_id,
        authorId: actor.id,
        title,
        content,
        createdAt: date(),
      });
      return post.id;
    });
    return recruitment(id);
  }

  /** A logged-in user in no guild applies to the post's guild (one pending application per guild). */
  async function apply(actor: Actor, postId: number, input: { message?: string | null }) {
    const message = accept(checkApplicationMessage(input.message));
    const row = await onUnique(
      () =>
        store.unit(async (q) => {
          const post = await requireRecruitment(q, postId);
          if (await q.membershipOf(actor.id)) throw conflict(GUILD_MSG.alreadyInGuild);
          if (await q.pendingApplication(post.post.guildId, actor.id)) throw conflict(GUILD_MSG.alreadyApplied);
          return q.insertApplication({
            guildId: post.post.guildId,
            postId,
            userId: actor.id,
            message,
            status: "pending",
            createdAt: date(),
          });
        }),
      GUILD_MSG.alreadyApplied,
    );
    return presentApplication({ application: row, username: actor.username });
  }

  async function applications(actor: Actor, guildId: number, status?: ApplicationStatus) {
    await requireRole(store, guildId, actor, staff, GUILD_MSG.staffOnly);
    return (await store.applications(guildId, status)).map(presentApplication);
  }

  async function requirePendingApplication(q: GuildQueries, guildId: number, applicationId: number) {
    const application = await q.application(guildId, applicationId);
    if (!application) throw notFound(GUILD_MSG.applicationNotFound);
    if (application.status !== "pending") throw conflict(GUILD_MSG.applicationHandled);
    return application;
  }

  /** Staff approve: the applicant joins (unless they joined another guild meanwhile, or the guild is full). */
  async function approve(actor: Actor, guildId: number, applicationId: number) {
    const member = await onUnique(
      () =>
        store.unit(async (q) => {
          // Locked first, so the application's status is read after any concurrent decision on it.
          await q.lockGuild(guildId);
          await requireRole(q, guildId, actor, staff, GUILD_MSG.staffOnly);
          const application = await requirePendingApplication(q, guildId, applicationId);
          const member = await addMember(q, guildId, application.userId, GUILD_MSG.applicantInGuild, date);
          await q.decideApplication(application.id, "approved", date(), actor.id);
          return (await q.member(guildId, member.id))!;
        }),
      GUILD_MSG.applicantInGuild,
    );
    events.emit("guilds.changed", { guildId });
    return presentMember(member);
  }

  async function reject(actor: Actor, guildId: number, applicationId: number) {
    await store.unit(async (q) => {
      await q.lockGuild(guildId); // as `approve`: one decision per application
      await requireRole(q, guildId, actor, staff, GUILD_MSG.staffOnly);
      const application = await requirePendingApplication(q, guildId, applicationId);
      await q.decideApplication(application.id, "rejected", date(), actor.id);
    });
    return { detail: GUILD_MSG.applicationRejected };
  }

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
    recruitmentList,
    recruitment,
    viewRecruitment,
    createRecruitment,
    apply,
    applications,
    approve,
    reject,
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
    rest: createRestService(deps),
  };
}

/** Every subdomain's functions in one object, for the guild room and the guild game, which span them. */
export function createGuildsService(deps: GuildsDeps) {
  const { core, members, invitations, rest } = createGuildServices(deps);
  return { ...core, ...members, ...invitations, ...rest };
}
export type GuildsService = ReturnType<typeof createGuildsService>;
