import { isUniqueViolation } from "../../db/postgres";
import { AppError, conflict, forbidden, notFound, unprocessable } from "../kernel/errors";
import type { EventBus } from "../kernel/events";
import { type Check, GUILD_MSG, type GuildRole } from "./rules";
import type { GuildQueries, GuildsStore, GuildWithCount, MemberWithName } from "./store";

/**
 * What every subdomain's service (core, members, invitations, recruitment, board, room) is built from: the same
 * dependencies, the same actor, and the one role check of spec §6, so a rule about who may act is written once.
 */

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

/** Who acts: a logged-in account (HTTP guard or socket identity). */
export interface Actor {
  id: number;
  username: string;
}

export interface GuildsDeps {
  store: GuildsStore;
  events: EventBus;
  now: () => number;
}

export interface Page {
  page: number;
  size: number;
}

export const accept = <T>(check: Check<T>): T => {
  if (!check.ok) throw unprocessable(check.error);
  return check.value;
};
export const paged = <T>(items: T[], total: number, { page, size }: Page) => ({
  items,
  total,
  total_pages: Math.ceil(total / size),
  page,
  size,
});
export const offsetOf = ({ page, size }: Page) => (page - 1) * size;

/** The guild and the actor's membership in it, once the actor's role passed the check. */
export interface Standing {
  guild: GuildWithCount;
  member: MemberWithName;
}

export async function requireGuild(q: GuildQueries, guildId: number) {
  const guild = await q.guild(guildId);
  if (!guild) throw notFound(GUILD_MSG.guildNotFound);
  return guild;
}

/**
 * The guild and the actor's live membership in it, when the actor's role is one of `roles` (403 with `refusal`
 * otherwise; a non-member always gets `notMember`). Read inside the caller's unit of work when it writes.
 */
export async function requireRole(
  q: GuildQueries,
  guildId: number,
  actor: Actor,
  roles: readonly GuildRole[],
  refusal: string = GUILD_MSG.notMember,
): Promise<Standing> {
  const guild = await requireGuild(q, guildId);
  const own = await q.membershipOf(actor.id);
  if (!own || own.guildId !== guildId) throw forbidden(GUILD_MSG.notMember, "not_member");
  if (!roles.includes(own.role)) throw forbidden(refusal, "role");
  return { guild, member: { ...own, username: actor.username } };
}
export const anyMember = ["admin", "moderator", "member"] as const;
export const staff = ["admin", "moderator"] as const;
export const admins = ["admin"] as const;

/** Turns a lost race on a unique index into the answer of the check that lost it. */
export async function onUnique<T>(work: () => Promise<T>, message: string): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof AppError) && isUniqueViolation(error)) throw conflict(message);
    throw error;
  }
}
