import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { testEngine } from "../../db/testing";
import { stopOwnPostgres } from "../../db/testing-pg";
import { AppError } from "../kernel/errors";
import { GUILD_MSG } from "./rules";
import type { Actor } from "./service";
import { createGuildsTestContext } from "./test-context";

/**
 * Concurrent callers of the service, as two admins pressing at the same moment would be (real parallel
 * transactions: on PostgreSQL each call runs on its own pooled connection; on SQLite they are serial, so these only
 * prove the rule). Each race runs several rounds, because one round of a race is a coin toss: what is checked is
 * what must hold in every round.
 */
let env: Awaited<ReturnType<typeof createGuildsTestContext>>;
beforeAll(async () => {
  env = await createGuildsTestContext();
});
afterAll(async () => {
  await env.cleanup();
  await stopOwnPostgres();
});

const ROUNDS = 10;
let guilds = 0;

const guildOf = (admin: Actor, members: Actor[] = []) => env.guildOf(admin, `경쟁${++guilds}`, members);

const memberEntry = async (admin: Actor, guildId: number, user: Actor) =>
  (await env.service.members(admin, guildId)).find((m) => m.user_id === user.id)!;

/** The settled calls: how many went through, and the Korean answers of the refused ones. */
function outcome(results: PromiseSettledResult<unknown>[]) {
  const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected").map((r) => r.reason);
  for (const reason of refused) if (!(reason instanceof AppError)) throw reason;
  return { passed: results.length - refused.length, refusals: refused.map((r: AppError) => r.detail) };
}

describe(`guild races on ${testEngine()}`, () => {
  test("two admins leaving at once: one leaves, the other stays as the last admin", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const [first, second] = [await env.user(), await env.user()];
      const guild = await guildOf(first, [second]);
      await env.service.changeRole(first, guild.id, (await memberEntry(first, guild.id, second)).id, "admin");

      const results = await Promise.allSettled([
        env.service.leave(first, guild.id),
        env.service.leave(second, guild.id),
      ]);
      expect(outcome(results)).toEqual({ passed: 1, refusals: [GUILD_MSG.lastAdmin] });
      const stayed = results[0].status === "fulfilled" ? second : first;
      const members = await env.service.members(stayed, guild.id);
      expect(members.map((m) => [m.user_id, m.role])).toEqual([[stayed.id, "admin"]]);
      // The one who stayed can still manage the guild (and owns it).
      expect((await env.service.get(guild.id)).owner_id).toBe(stayed.id);
    }
  });

  test("lowering max_members while someone joins: the guild never holds more than its maximum", async () => {
    // The old code lost this one in about a third of the rounds: more rounds.
    for (let round = 0; round < 15; round++) {
      const admin = await env.user();
      const guild = await guildOf(admin, [await env.user(), await env.user(), await env.user(), await env.user()]);
      const late = await env.user();
      const { invitations } = await env.service.invite(admin, guild.id, [
        { email: (await env.store.userEmail(late.id))! },
      ]);

      const results = await Promise.allSettled([
        env.service.updateSettings(admin, guild.id, { max_members: 5 }),
        env.service.acceptInvitation(late, invitations[0].id),
      ]);
      const after = await env.service.get(guild.id);
      expect(after.member_count).toBeLessThanOrEqual(after.max_members);
      const { passed, refusals } = outcome(results);
      expect(passed).toBe(1);
      expect<string[][]>([[GUILD_MSG.maxMembersBelowCount], [GUILD_MSG.guildFull]]).toContainEqual(refusals);
    }
  });

  test("approve and reject of one application at once: exactly one decision", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const admin = await env.user();
      const moderator = await env.user();
      const guild = await guildOf(admin, [moderator]);
      await env.service.changeRole(admin, guild.id, (await memberEntry(admin, guild.id, moderator)).id, "moderator");
      const post = await env.service.createRecruitment(admin, { guild_id: guild.id, title: "모집", content: "오세요" });
      const applicant = await env.user();
      const application = await env.service.apply(applicant, post.id, {});

      const results = await Promise.allSettled([
        env.service.approve(admin, guild.id, application.id),
        env.service.reject(moderator, guild.id, application.id),
      ]);
      expect(outcome(results)).toEqual({ passed: 1, refusals: [GUILD_MSG.applicationHandled] });
      const [stored] = await env.service.applications(admin, guild.id);
      const joined = (await env.service.my(applicant)).guild !== null;
      expect([stored.status, joined]).toEqual(
        results[0].status === "fulfilled" ? ["approved", true] : ["rejected", false],
      );
    }
  });

  test("accepting and declining one invitation at once: exactly one answer", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const admin = await env.user();
      const guild = await guildOf(admin);
      const invitee = await env.user();
      const { invitations } = await env.service.invite(admin, guild.id, [
        { email: (await env.store.userEmail(invitee.id))! },
      ]);

      const results = await Promise.allSettled([
        env.service.acceptInvitation(invitee, invitations[0].id),
        env.service.declineInvitation(invitee, invitations[0].id),
      ]);
      expect(outcome(results)).toEqual({ passed: 1, refusals: [GUILD_MSG.invitationHandled] });
      const joined = (await env.service.my(invitee)).guild !== null;
      expect(joined).toBe(results[0].status === "fulfilled");
    }
  });

  test("a moderator's kick while the admin promotes the same member: no admin is ever kicked", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const admin = await env.user();
      const [moderator, member] = [await env.user(), await env.user()];
      const guild = await guildOf(admin, [moderator, member]);
      await env.service.changeRole(admin, guild.id, (await memberEntry(admin, guild.id, moderator)).id, "moderator");
      const target = await memberEntry(admin, guild.id, member);

      const results = await Promise.allSettled([
        env.service.changeRole(admin, guild.id, target.id, "admin"),
        env.service.kick(moderator, guild.id, target.id),
      ]);
      const { passed, refusals } = outcome(results);
      expect(passed).toBe(1);
      // Promoted first: the kick is refused (an admin); kicked first: the promotion finds no member.
      expect<string[][]>([[GUILD_MSG.memberNotFound], [GUILD_MSG.adminNotKickable]]).toContainEqual(refusals);
      const stillIn = (await env.service.my(member)).guild !== null;
      expect(stillIn).toBe(results[0].status === "fulfilled");
    }
  });

  test("one guild-board comment deleted twice at once is counted down once", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const admin = await env.user();
      const member = await env.user();
      const guild = await guildOf(admin, [member]);
      const post = await env.service.boardCreate(member, guild.id, { title: "글", content: "내용" });
      const comment = await env.service.addComment(member, guild.id, post.id, { content: "지울 댓글" });
      await env.service.addComment(admin, guild.id, post.id, { content: "남을 댓글" });

      const results = await Promise.allSettled([
        env.service.deleteComment(member, guild.id, post.id, comment.id),
        env.service.deleteComment(admin, guild.id, post.id, comment.id),
      ]);
      expect(outcome(results)).toEqual({ passed: 1, refusals: [GUILD_MSG.commentNotFound] });
      expect((await env.service.boardGet(admin, guild.id, post.id)).comment_count).toBe(1);
    }
  });

  test("40 guild games of one member finishing at once (several processes): exactly 30 rewarded", async () => {
    const admin = await env.user();
    const guild = await guildOf(admin);
    const at = env.clock.now();
    const claims = await Promise.all(
      Array.from({ length: 40 }, (_, i) => env.service.claimGameRewards(guild.id, i + 1, at, [admin.id])),
    );
    expect(claims.filter((c) => c.get(admin.id)).length).toBe(30);
    // A retried finish of a round gets the decision made before, rewarded or not.
    const again = await Promise.all(
      Array.from({ length: 40 }, (_, i) => env.service.claimGameRewards(guild.id, i + 1, at, [admin.id])),
    );
    expect(again.map((c) => c.get(admin.id))).toEqual(claims.map((c) => c.get(admin.id)));
  });

  test("five parallel views of a recruitment post by one viewer count once", async () => {
    const admin = await env.user();
    const guild = await guildOf(admin);
    for (let round = 0; round < ROUNDS; round++) {
      const post = await env.service.createRecruitment(admin, { guild_id: guild.id, title: "모집", content: "오세요" });
      const views = await Promise.all(
        Array.from({ length: 5 }, () => env.service.viewRecruitment(post.id, `u:${admin.id}`)),
      );
      expect(views.filter((v) => v.counted)).toHaveLength(1);
      expect((await env.service.recruitment(post.id)).view_count).toBe(1);
    }
  });
});
