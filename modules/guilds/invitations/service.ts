import { conflict, forbidden, notFound } from "../../kernel/errors";
import { addMember } from "../members/service";
import { checkInvites, GUILD_MSG, type InviteInput } from "../rules";
import { type Actor, accept, admins, type GuildsDeps, onUnique, requireRole } from "../service-kit";
import type { GuildQueries } from "../store";
import { presentGuild, presentSentInvitation } from "../view";

/** Invitations by e-mail: admins send them and see the pending ones; the invited account accepts or declines. */
export function createGuildInvitationsService({ store, events, now }: GuildsDeps) {
  const date = () => new Date(now());

  /**
   * Admins only. Stores one pending invitation per e-mail; an e-mail already invited (pending) or already a member
   * refuses the whole request, so nothing is half-sent.
   */
  async function invite(actor: Actor, guildId: number, invites: readonly InviteInput[]) {
    const wanted = accept(checkInvites(invites));
    const rows = await onUnique(
      () =>
        store.unit(async (q) => {
          await requireRole(q, guildId, actor, admins, GUILD_MSG.adminOnly);
          const emails = wanted.map((w) => w.email);
          if ((await q.memberEmails(guildId, emails)).length > 0) throw conflict(GUILD_MSG.inviteAlreadyMember);
          const pending = new Set((await q.pendingInvitationsOf(guildId)).map((i) => i.email));
          if (emails.some((e) => pending.has(e))) throw conflict(GUILD_MSG.inviteDuplicate);
          const at = date();
          return q.insertInvitations(
            wanted.map((w) => ({ ...w, guildId, invitedBy: actor.id, status: "pending" as const, createdAt: at })),
          );
        }),
      GUILD_MSG.inviteDuplicate,
    );
    return { invitations: rows.map(presentSentInvitation) };
  }

  async function sentInvitations(actor: Actor, guildId: number) {
    await requireRole(store, guildId, actor, admins, GUILD_MSG.adminOnly);
    return (await store.pendingInvitationsOf(guildId)).map(presentSentInvitation);
  }

  /** A pending invitation addressed to the actor's e-mail. */
  async function requireOwnInvitation(q: GuildQueries, actor: Actor, invitationId: number) {
    const invitation = await q.invitation(invitationId);
    if (!invitation) throw notFound(GUILD_MSG.invitationNotFound);
    if (invitation.email !== (await q.userEmail(actor.id))) throw forbidden(GUILD_MSG.invitationNotYours);
    if (invitation.status !== "pending") throw conflict(GUILD_MSG.invitationHandled);
    return invitation;
  }

  async function acceptInvitation(actor: Actor, invitationId: number) {
    const guildId = await onUnique(
      () =>
        store.unit(async (q) => {
          const invitation = await requireOwnInvitation(q, actor, invitationId);
          await addMember(q, invitation.guildId, actor.id, GUILD_MSG.alreadyInGuild, date);
          // Conditional: a decline that landed meanwhile wins, and the join above is rolled back.
          if (!(await q.answerInvitation(invitation.id, "accepted", date())))
            throw conflict(GUILD_MSG.invitationHandled);
          return invitation.guildId;
        }),
      GUILD_MSG.alreadyInGuild,
    );
    events.emit("guilds.changed", { guildId });
    return presentGuild((await store.guild(guildId))!);
  }

  async function declineInvitation(actor: Actor, invitationId: number) {
    await store.unit(async (q) => {
      const invitation = await requireOwnInvitation(q, actor, invitationId);
      if (!(await q.answerInvitation(invitation.id, "declined", date()))) throw conflict(GUILD_MSG.invitationHandled);
    });
    return { detail: GUILD_MSG.invitationDeclined };
  }

  return { invite, sentInvitations, acceptInvitation, declineInvitation };
}
