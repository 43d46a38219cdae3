import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { testEngine } from "../../db/testing";
import { stopOwnPostgres } from "../../db/testing-pg";
import { AppError } from "../kernel/errors";
import { CHAT_KEPT, GUILD_MSG } from "./rules";
import type { Actor } from "./service";
import { createGuildsTestContext } from "./test-context";

/**
 * The service and its store on this run's engine (`npm test` runs it on SQLite and on PostgreSQL): every store query
 * is reached, and the unique indexes decide the races that the checks cannot.
 */
let env: Awaited<ReturnType<typeof createGuildsTestContext>>;
beforeAll(async () => {
  env = await createGuildsTestContext();
});
afterAll(async () => {
  await env.cleanup();
  await stopOwnPostgres();
});

async function refusal(work: Promise<unknown>) {
  try {
    await work;
  } catch (error) {
    if (error instanceof AppError) return { status: error.status, detail: error.detail };
    throw error;
  }
  throw new Error("expected a refusal");
}
const tick = () => env.clock.advance(1_000);

async function guildOf(admin: Actor, name: string, members: Actor[] = []) {
  const guild = await env.guildOf(admin, name, members);
  tick();
  return guild;
}

describe(`guilds service on ${testEngine()}`, () => {
  test("create, list with a case-insensitive search, detail with the live member count", async () => {
    const admin = await env.user();
    const guild = await guildOf(admin, "Storm길드", [await env.user(), await env.user()]);
    expect(guild).toMatchObject({ name: "Storm길드", member_count: 1, owner_id: admin.id });
    expect((await env.service.get(guild.id)).member_count).toBe(3);
    const found = await env.service.list({ page: 1, size: 10, q: "STORM" });
    expect(found.items.map((g) => g.name)).toEqual(["Storm길드"]);
    expect(found).toMatchObject({ total: 1, total_pages: 1 });
    expect(await refusal(env.service.create(await env.user(), { name: "storm길드" }))).toEqual({
      status: 409,
      detail: GUILD_MSG.nameTaken,
    });
  });

  test("two users racing for one name: one guild, the other gets the name-taken answer", async () => {
    const [a, b] = [await env.user(), await env.user()];
    const results = await Promise.allSettled([
      env.service.create(a, { name: "경쟁이름" }),
      env.service.create(b, { name: "경쟁이름" }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const lost = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(lost.reason).toBeInstanceOf(AppError);
    expect((lost.reason as AppError).detail).toBe(GUILD_MSG.nameTaken);
  });

  test("one user racing to found two guilds ends in exactly one membership", async () => {
    const founder = await env.user();
    const results = await Promise.allSettled([
      env.service.create(founder, { name: "동시하나" }),
      env.service.create(founder, { name: "동시둘" }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const lost = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect((lost.reason as AppError).detail).toBe(GUILD_MSG.alreadyInGuild);
  });

  test("racing accepts for the last free place: the guild never goes over max_members", async () => {
    const admin = await env.user();
    const guild = await guildOf(admin, "마지막자리", [await env.user(), await env.user(), await env.user()]);
    await env.service.updateSettings(admin, guild.id, { max_members: 5 });
    const late = [await env.user(), await env.user(), await env.user()];
    const emails = await Promise.all(late.map((u) => env.store.userEmail(u.id)));
    const { invitations } = await env.service.invite(
      admin,
      guild.id,
      emails.map((email) => ({ email: email! })),
    );
    const results = await Promise.allSettled(late.map((u, i) => env.service.acceptInvitation(u, invitations[i].id)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results.filter((r) => r.status === "rejected") as PromiseRejectedResult[]) {
      expect((r.reason as AppError).detail).toBe(GUILD_MSG.guildFull);
    }
    expect((await env.service.get(guild.id)).member_count).toBe(5);
  });

  test("my guild: members by role, activity newest first, invitations to the caller's e-mail", async () => {
    const admin = await env.user();
    const [mod, member] = [await env.user(), await env.user()];
    const guild = await guildOf(admin, "내길드", [mod, member]);
    const modEntry = (await env.service.members(admin, guild.id)).find((m) => m.user_id === mod.id)!;
    await env.service.changeRole(admin, guild.id, modEntry.id, "moderator");
    tick();
    await env.service.boardCreate(member, guild.id, { title: "안녕", content: "반가워요" });
    const my = await env.service.my(member);
    expect(my.members.map((m) => m.role)).toEqual(["admin", "moderator", "member"]);
    expect(my.recent_activity.map((a) => a.type)).toEqual(["post", "role_changed", "joined", "joined", "created"]);
    expect(my.recent_activity[1]).toMatchObject({ username: mod.username, actor_name: admin.username });
    expect(my.recent_activity[1].message).toBe(`${mod.username}님의 역할이 부관리자(으)로 바뀌었습니다.`);

    const outsider = await env.user("초대받을이", "Invited.Person@example.com");
    await env.service.invite(admin, guild.id, [{ username: "초대받을이", email: "invited.person@EXAMPLE.com" }]);
    const theirs = await env.service.my(outsider);
    expect(theirs.guild).toBeNull();
    expect(theirs.invitations).toEqual([expect.objectContaining({ guild_name: "내길드", invited_by: admin.username })]);
  });

  test("declined and cancelled invitations leave the list; not one's own cannot be answered", async () => {
    const admin = await env.user();
    const guild = await guildOf(admin, "거절길드");
    const invitee = await env.user();
    const email = (await env.store.userEmail(invitee.id))!;
    const { invitations } = await env.service.invite(admin, guild.id, [{ email }]);
    expect(await refusal(env.service.declineInvitation(admin, invitations[0].id))).toEqual({
      status: 403,
      detail: GUILD_MSG.invitationNotYours,
    });
    await env.service.declineInvitation(invitee, invitations[0].id);
    expect((await env.service.my(invitee)).invitations).toEqual([]);
    expect(await env.service.sentInvitations(admin, guild.id)).toEqual([]);
    expect(await refusal(env.service.acceptInvitation(invitee, 9_999_999))).toEqual({
      status: 404,
      detail: GUILD_MSG.invitationNotFound,
    });
  });

  test("recruitment: views once per viewer per window, applications approved, rejected or cancelled", async () => {
    const admin = await env.user();
    const guild = await guildOf(admin, "모집중");
    const post = await env.service.createRecruitment(admin, { guild_id: guild.id, title: "모집", content: "오세요" });
    expect(await env.service.viewRecruitment(post.id, "u:1")).toMatchObject({ view_count: 1, counted: true });
    expect(await env.service.viewRecruitment(post.id, "u:1")).toMatchObject({ view_count: 1, counted: false });
    env.clock.advance(10 * 60 * 1000 + 1);
    expect(await env.service.viewRecruitment(post.id, "u:1")).toMatchObject({ view_count: 2, counted: true });

    const [yes, no] = [await env.user(), await env.user()];
    const a1 = await env.service.apply(yes, post.id, { message: "저요" });
    const a2 = await env.service.apply(no, post.id, {});
    expect(await refusal(env.service.apply(no, post.id, {}))).toEqual({
      status: 409,
      detail: GUILD_MSG.alreadyApplied,
    });
    expect((await env.service.recruitment(post.id)).reply_count).toBe(2);
    await env.service.approve(admin, guild.id, a1.id);
    await env.service.reject(admin, guild.id, a2.id);
    expect((await env.service.applications(admin, guild.id)).map((a) => [a.username, a.status])).toEqual([
      [no.username, "rejected"],
      [yes.username, "approved"],
    ]);
    const page = await env.service.recruitmentList({ page: 1, size: 50 });
    expect(page.items.some((p) => p.id === post.id)).toBe(true);

    await env.service.disband(admin, guild.id);
    expect(await refusal(env.service.recruitment(post.id))).toEqual({
      status: 404,
      detail: GUILD_MSG.recruitmentNotFound,
    });
  });

  test("board: comment counts follow writes and soft deletes; lists skip deleted rows", async () => {
    const admin = await env.user();
    const member = await env.user();
    const guild = await guildOf(admin, "게시판", [member]);
    const post = await env.service.boardCreate(member, guild.id, { title: "글", content: "내용" });
    const c1 = await env.service.addComment(admin, guild.id, post.id, { content: "첫 댓글" });
    await env.service.addComment(member, guild.id, post.id, { content: "둘째 댓글" });
    expect((await env.service.boardGet(member, guild.id, post.id)).comment_count).toBe(2);
    await env.service.deleteComment(admin, guild.id, post.id, c1.id);
    expect((await env.service.comments(member, guild.id, post.id)).map((c) => c.content)).toEqual(["둘째 댓글"]);
    expect((await env.service.boardGet(member, guild.id, post.id)).comment_count).toBe(1);
    await env.service.boardUpdate(admin, guild.id, post.id, { title: "고친 글", content: "고친 내용" });
    await env.service.boardDelete(member, guild.id, post.id);
    expect(await env.service.boardList(admin, guild.id, { page: 1, size: 50 })).toEqual([]);
  });

  test("settings and problems: refused values are never stored", async () => {
    const admin = await env.user();
    const guild = await guildOf(admin, "설정들");
    await env.service.updateSettings(admin, guild.id, { countdown_seconds: 3, end_countdown_seconds: 90 });
    expect(
      await refusal(env.service.updateSettings(admin, guild.id, { countdown_seconds: 4, max_members: 101 })),
    ).toEqual({ status: 422, detail: GUILD_MSG.maxMembersRange });
    expect(await env.service.get(guild.id)).toMatchObject({ countdown_seconds: 3, end_countdown_seconds: 90 });
    await env.service.setProblems(admin, guild.id, [
      "가는 말이 고와야 오는 말이 곱다",
      " 열 글자짜리 문제입니다 ",
      "  ",
    ]);
    expect(await refusal(env.service.setProblems(admin, guild.id, [1]))).toEqual({
      status: 422,
      detail: GUILD_MSG.problemsFormat,
    });
    // A problem has at least 10 characters (a one-letter problem made one-second games that farmed rewards).
    expect(
      await refusal(env.service.setProblems(admin, guild.id, ["가는 말이 고와야 오는 말이 곱다", "아홉 글자 문제다"])),
    ).toEqual({
      status: 422,
      detail: "문제는 10자 이상이어야 합니다.",
    });
    expect(await env.service.problems(admin, guild.id)).toEqual({
      problems: ["가는 말이 고와야 오는 말이 곱다", "열 글자짜리 문제입니다"],
    });
  });

  test("leave, kick and disband end memberships; the user may then join elsewhere", async () => {
    const admin = await env.user();
    const [a, b] = [await env.user(), await env.user()];
    const guild = await guildOf(admin, "끝나는길드", [a, b]);
    await env.service.leave(a, guild.id);
    const bEntry = (await env.service.members(admin, guild.id)).find((m) => m.user_id === b.id)!;
    await env.service.kick(admin, guild.id, bEntry.id);
    expect((await env.service.get(guild.id)).member_count).toBe(1);
    expect(await refusal(env.service.leave(admin, guild.id))).toEqual({ status: 409, detail: GUILD_MSG.lastAdmin });
    await env.service.disband(admin, guild.id);
    expect(await refusal(env.service.get(guild.id))).toEqual({ status: 404, detail: GUILD_MSG.guildNotFound });
    for (const u of [admin, a, b]) expect((await env.service.my(u)).guild).toBeNull();
    await guildOf(b, "끝나는길드"); // the name is free again
  });

  test(`chat keeps the last ${CHAT_KEPT} messages of each guild`, async () => {
    const admin = await env.user();
    const guild = await guildOf(admin, "수다방");
    for (let i = 1; i <= CHAT_KEPT + 5; i++) {
      await env.store.unit((q) =>
        q.insertMessage({ guildId: guild.id, userId: admin.id, message: `메시지 ${i}`, createdAt: new Date() }),
      );
    }
    const kept = await env.store.recentMessages(guild.id);
    expect(kept).toHaveLength(CHAT_KEPT);
    expect(kept[0].message.message).toBe("메시지 6");
    expect(kept.at(-1)?.message.message).toBe(`메시지 ${CHAT_KEPT + 5}`);
  });
});
