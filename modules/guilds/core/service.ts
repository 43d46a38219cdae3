import { isUniqueViolation } from "../../../db/postgres";
import { AppError, conflict, unprocessable } from "../../kernel/errors";
import {
  ACTIVITY_SHOWN,
  checkDescription,
  checkGuildName,
  checkProblems,
  checkProblemsFile,
  checkSettings,
  GUILD_MSG,
  nameKey,
  type SettingName,
} from "../rules";
import {
  type Actor,
  accept,
  admins,
  anyMember,
  type GuildsDeps,
  offsetOf,
  type Page,
  paged,
  requireGuild,
  requireRole,
} from "../service-kit";
import { presentActivity, presentGuild, presentMembers, presentMyInvitation } from "../view";

/** An uploaded problem list, as a multipart `File` gives it. */
export interface ProblemsFile {
  name: string;
  type: string;
  text(): Promise<string>;
}

/** The guild itself: creation, the list, one guild, "my guild", disbanding, its game settings and problems. */
export function createGuildCoreService({ store, events, now }: GuildsDeps) {
  const date = () => new Date(now());

  async function create(actor: Actor, input: { name: string; description?: string | null }) {
    const name = accept(checkGuildName(input.name));
    const description = accept(checkDescription(input.description));
    const key = nameKey(name);
    const id = await store
      .unit(async (q) => {
        if (await q.membershipOf(actor.id)) throw conflict(GUILD_MSG.alreadyInGuild);
        if (await q.guildByNameKey(key)) throw conflict(GUILD_MSG.nameTaken);
        const at = date();
        const guild = await q.insertGuild({
          name,
          nameKey: key,
          description,
          ownerId: actor.id,
          createdAt: at,
          updatedAt: at,
        });
        await q.insertMember({ guildId: guild.id, userId: actor.id, role: "admin", joinedAt: at });
        await q.addActivity({ guildId: guild.id, kind: "created", userId: actor.id, createdAt: at });
        return guild.id;
      })
      .catch(async (error) => {
        if (error instanceof AppError || !isUniqueViolation(error)) throw error;
        // A concurrent request took the name, or made this user a member, between the checks and the inserts.
        throw conflict((await store.membershipOf(actor.id)) ? GUILD_MSG.alreadyInGuild : GUILD_MSG.nameTaken);
      });
    return presentGuild((await store.guild(id))!);
  }

  async function list(input: Page & { q?: string }) {
    const q = input.q?.trim().toLowerCase() || undefined;
    const { total, rows } = await store.listGuilds({ q, limit: input.size, offset: offsetOf(input) });
    return paged(rows.map(presentGuild), total, input);
  }

  const get = async (guildId: number) => presentGuild(await requireGuild(store, guildId));

  /** /guilds/my: the caller's guild, role, members, recent activity, and the invitations to their e-mail. */
  async function my(actor: Actor) {
    const email = await store.userEmail(actor.id);
    const invitations = email ? (await store.pendingInvitationsFor(email)).map(presentMyInvitation) : [];
    const own = await store.membershipOf(actor.id);
    const guild = own ? await store.guild(own.guildId) : undefined;
    if (!own || !guild)
      return { guild: null, role: null, member_id: null, members: [], recent_activity: [], invitations };
    const [members, activity] = await Promise.all([
      store.members(guild.id),
      store.recentActivity(guild.id, ACTIVITY_SHOWN),
    ]);
    const names = await store.usernames(activity.flatMap((a) => [a.userId, a.actorId]).filter((id) => id !== null));
    return {
      guild: presentGuild(guild),
      role: own.role,
      member_id: own.id,
      members: presentMembers(members),
      recent_activity: activity.map((a) => presentActivity(a, names)),
      invitations,
    };
  }

  /** Disbands (admins only): the guild row stays (soft delete), memberships end, open invitations and applications close. */
  async function disband(actor: Actor, guildId: number) {
    const removed = await store.unit(async (q) => {
      // Locked first, so a join waiting on the lock cannot slip in after the member list was read.
      await q.lockGuild(guildId);
      await requireRole(q, guildId, actor, admins, GUILD_MSG.adminOnly);
      const all = await q.members(guildId);
      const at = date();
      await q.updateGuild(guildId, { deletedAt: at, deletedBy: actor.id, updatedAt: at });
      await q.endAllMemberships(guildId, at);
      await q.cancelPendingInvitations(guildId, at);
      await q.cancelPendingApplications({ guildId }, at);
      await q.hidePostsOfGuild(guildId, at);
      return all;
    });
    for (const m of removed) {
      events.emit("guilds.member_removed", { guildId, userId: m.userId, username: m.username, reason: "disbanded" });
    }
    return { detail: GUILD_MSG.disbanded };
  }

  /** Admins only; every value inside its spec §5 range, or nothing is stored. */
  async function updateSettings(actor: Actor, guildId: number, input: Partial<Record<SettingName, number>>) {
    const settings = accept(checkSettings(input));
    const guild = await store.unit(async (q) => {
      // Locked first: the member count below is then the one a concurrent join sees too (never over the maximum).
      await q.lockGuild(guildId);
      const { guild } = await requireRole(q, guildId, actor, admins, GUILD_MSG.adminOnly);
      if (settings.max_members !== undefined && settings.max_members < guild.memberCount) {
        throw unprocessable(GUILD_MSG.maxMembersBelowCount);
      }
      await q.updateGuild(guildId, {
        maxMembers: settings.max_members,
        countdownSeconds: settings.countdown_seconds,
        endCountdownSeconds: settings.end_countdown_seconds,
        updatedAt: date(),
      });
      return (await q.guild(guildId))!;
    });
    events.emit("guilds.changed", { guildId });
    return presentGuild(guild);
  }

  async function problems(actor: Actor, guildId: number) {
    const { guild } = await requireRole(store, guildId, actor, anyMember);
    return { problems: parseProblems(guild.problems) };
  }

  /**
   * Admins only; replaces the list with the given JSON array of strings (spec §5's errors otherwise). The role comes
   * first: a member who may not change the list hears so, not what is wrong with it.
   */
  async function setProblems(actor: Actor, guildId: number, value: unknown) {
    const list = await store.unit(async (q) => {
      await requireRole(q, guildId, actor, admins, GUILD_MSG.adminOnly);
      const list = accept(checkProblems(value));
      await q.updateGuild(guildId, { problems: JSON.stringify(list), updatedAt: date() });
      return list;
    });
    events.emit("guilds.changed", { guildId });
    return { problems: list };
  }

  /**
   * `setProblems` from an uploaded file (a JSON array of strings). The role is checked before the file is read, so a
   * member's upload is refused (403) whatever the file holds; `setProblems` checks it again with the write.
   */
  async function setProblemsFromFile(actor: Actor, guildId: number, file: ProblemsFile) {
    await requireRole(store, guildId, actor, admins, GUILD_MSG.adminOnly);
    const list = accept(checkProblemsFile(file.name, file.type, await file.text()));
    return setProblems(actor, guildId, list);
  }

  return { create, list, get, my, disband, updateSettings, problems, setProblems, setProblemsFromFile };
}

/** The stored problems column (written only by `setProblems`, so always a JSON array of strings). */
export function parseProblems(stored: string): string[] {
  try {
    const value = JSON.parse(stored);
    return Array.isArray(value) ? value.filter((p): p is string => typeof p === "string") : [];
  } catch {
    return [];
  }
}
