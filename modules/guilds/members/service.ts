import { conflict, forbidden, notFound } from "../../kernel/errors";
import { GUILD_MSG, type GuildRole, kickRefusal } from "../rules";
import { type Actor, admins, anyMember, type GuildsDeps, requireGuild, requireRole, staff } from "../service-kit";
import type { GuildQueries } from "../store";
import { presentMember, presentMembers } from "../view";

/**
 * Adds a member (one guild per user; a full guild refuses), records the join; inside a unit of work. The one way in
 * for an accepted invitation and an approved application.
 */
export async function addMember(
  q: GuildQueries,
  guildId: number,
  userId: number,
  inGuildMessage: string,
  date: () => Date,
) {
  await q.lockGuild(guildId);
  const guild = await requireGuild(q, guildId);
  if (await q.membershipOf(userId)) throw conflict(inGuildMessage);
  if (guild.memberCount >= guild.maxMembers) throw conflict(GUILD_MSG.guildFull);
  const at = date();
  const member = await q.insertMember({ guildId, userId, role: "member", joinedAt: at });
  await q.addActivity({ guildId, kind: "joined", userId, createdAt: at });
  // A member of one guild has nothing left to wait for elsewhere.
  await q.cancelPendingApplications({ userId }, at);
  return member;
}

/** Who is in a guild and in which role: the member list, one's own role, leaving, role changes and kicks. */
export function createGuildMembersService({ store, events, now }: GuildsDeps) {
  const date = () => new Date(now());

  /** The caller's role in one guild (`role: null` when not a member). */
  async function myRole(actor: Actor, guildId: number) {
    await requireGuild(store, guildId);
    const own = await store.membershipOf(actor.id);
    const mine = own?.guildId === guildId ? own : undefined;
    return {
      guild_id: guildId,
      user_id: actor.id,
      member_id: mine?.id ?? null,
      role: mine?.role ?? null,
      is_member: mine !== undefined,
      is_admin: mine?.role === "admin",
    };
  }

  async function members(actor: Actor, guildId: number) {
    await requireRole(store, guildId, actor, anyMember);
    return presentMembers(await store.members(guildId));
  }

  /** Leaves the guild; the last admin must hand the role over or disband. The owner passes to the next admin. */
  async function leave(actor: Actor, guildId: number) {
    await store.unit(async (q) => {
      // The lock first: two admins leaving at once would otherwise both count two admins and both leave.
      await q.lockGuild(guildId);
      const { guild, member } = await requireRole(q, guildId, actor, anyMember);
      if (member.role === "admin" && (await q.countMembers(guildId, "admin")) <= 1) throw conflict(GUILD_MSG.lastAdmin);
      const at = date();
      await q.endMembership(member.id, at);
      if (guild.ownerId === actor.id) {
        const next = await q.nextAdmin(guildId, actor.id);
        if (next) await q.updateGuild(guildId, { ownerId: next.userId, updatedAt: at });
      }
      await q.addActivity({ guildId, kind: "left", userId: actor.id, createdAt: at });
    });
    events.emit("guilds.member_removed", { guildId, userId: actor.id, username: actor.username, reason: "left" });
    events.emit("guilds.changed", { guildId });
    return { detail: GUILD_MSG.left };
  }

  /** Admins only; an admin's role is never changed (hand-over is by promoting someone else). */
  async function changeRole(actor: Actor, guildId: number, memberId: number, role: GuildRole) {
    const member = await store.unit(async (q) => {
      await q.lockGuild(guildId); // roles and memberships of a guild change one at a time (see `kick`)
      await requireRole(q, guildId, actor, admins, GUILD_MSG.adminOnly);
      const target = await q.member(guildId, memberId);
      if (!target) throw notFound(GUILD_MSG.memberNotFound);
      if (target.role === "admin") throw forbidden(GUILD_MSG.adminRoleLocked, "admin_locked");
      if (target.role === role) return target;
      await q.setRole(memberId, role);
      await q.addActivity({
        guildId,
        kind: "role_changed",
        userId: target.userId,
        actorId: actor.id,
        detail: role,
        createdAt: date(),
      });
      return { ...target, role };
    });
    events.emit("guilds.changed", { guildId });
    return presentMember(member);
  }

  /** Admins kick moderators and members, moderators plain members; nobody kicks an admin or themself. */
  async function kick(actor: Actor, guildId: number, memberId: number) {
    const target = await store.unit(async (q) => {
      // Locked first: the target's role read below cannot be changed (a promotion to admin) before the kick lands.
      await q.lockGuild(guildId);
      const { member } = await requireRole(q, guildId, actor, staff, GUILD_MSG.staffOnly);
      const target = await q.member(guildId, memberId);
      if (!target) throw notFound(GUILD_MSG.memberNotFound);
      const refusal = kickRefusal(member.role, target.role, target.userId === actor.id);
      if (refusal) throw forbidden(refusal, "kick_refused");
      const at = date();
      await q.endMembership(target.id, at);
      await q.addActivity({ guildId, kind: "kicked", userId: target.userId, actorId: actor.id, createdAt: at });
      return target;
    });
    events.emit("guilds.member_removed", {
      guildId,
      userId: target.userId,
      username: target.username,
      reason: "kicked",
    });
    events.emit("guilds.changed", { guildId });
    return { detail: GUILD_MSG.kicked, member_id: target.id, user_id: target.userId };
  }

  return { myRole, members, leave, changeRole, kick };
}
