import { DAY_MS, seoulDate } from "../../kernel/seoul-time";
import { parseProblems } from "../core/service";
import { REWARDED_GUILD_GAMES_PER_DAY } from "../rules";
import { type Actor, anyMember, type GuildsDeps, requireGuild, requireRole } from "../service-kit";
import { presentGuild, presentMembers, presentMessage } from "../view";

/**
 * What the guild room (room.ts) and the guild game (game-*.ts) store and read: chat lines, the room's state, the
 * finished game's activity line and its daily reward decisions.
 */
export function createGuildRoomService({ store, now }: GuildsDeps) {
  const date = () => new Date(now());

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
    postMessage,
    recordGameActivity,
    claimGameRewards,
    roomState,
    /** For the guild room: the guild and the actor's standing, any role. */
    standing: (actor: Actor, guildId: number) => requireRole(store, guildId, actor, anyMember),
  };
}
