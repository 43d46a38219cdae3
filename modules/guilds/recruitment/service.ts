import { conflict, notFound } from "../../kernel/errors";
import { VIEW_WINDOW_MS } from "../../kernel/viewers";
import { addMember } from "../members/service";
import { type ApplicationStatus, checkApplicationMessage, checkRecruitment, GUILD_MSG } from "../rules";
import {
  type Actor,
  accept,
  type GuildsDeps,
  offsetOf,
  onUnique,
  type Page,
  paged,
  requireRole,
  staff,
} from "../service-kit";
import type { GuildQueries } from "../store";
import { presentApplication, presentMember, presentRecruitment } from "../view";

/** The public recruitment board and the applications it brings: posts, views, applying, approving, rejecting. */
export function createGuildRecruitmentService({ store, events, now }: GuildsDeps) {
  const date = () => new Date(now());

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

  return { recruitmentList, recruitment, viewRecruitment, createRecruitment, apply, applications, approve, reject };
}
