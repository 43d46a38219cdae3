import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { GUILD_MSG } from "./rules";
import { type GuildServer, startGuildServer } from "./test-support";

let g: GuildServer;
/** A server per group: registrations are throttled per address (50 an hour), and every test registers users. */
function ownServer() {
  beforeAll(async () => {
    g = await startGuildServer();
  });
  afterAll(() => g.server.stop());
}

describe("creating and listing guilds", () => {
  ownServer();

  test("the creator becomes the admin of a guild with the spec's default settings", async () => {
    const founder = await g.user();
    const guild = await g.createGuild(founder, "  번개손  ", "빠른 손들의 모임");
    expect(guild).toMatchObject({
      name: "번개손",
      description: "빠른 손들의 모임",
      owner_id: founder.id,
      max_members: 30,
      countdown_seconds: 5,
      end_countdown_seconds: 60,
      member_count: 1,
    });
    const role = await g.ok(200, "GET", `/api/guilds/${guild.id}/members/me`, founder.token);
    expect(role).toMatchObject({ role: "admin", is_member: true, is_admin: true });
    const detail = await g.ok(200, "GET", `/api/guilds/${guild.id}`);
    expect(detail).toEqual(guild);
  });

  test("names are 2–20 characters, unique whatever their case; a description is at most 200 characters", async () => {
    const a = await g.user();
    const b = await g.user();
    const refusals: [unknown, number, string][] = [
      [{ name: "   " }, 422, GUILD_MSG.nameRequired],
      [{ name: "가" }, 422, GUILD_MSG.nameLength],
      [{ name: "가".repeat(21) }, 422, GUILD_MSG.nameLength],
      [{ name: "좋은이름", description: "설".repeat(201) }, 422, GUILD_MSG.descriptionTooLong],
    ];
    for (const [body, status, detail] of refusals) {
      const res = await g.server.api("POST", "/api/guilds", { token: a.token, body });
      expect(res.status).toBe(status);
      expect(res.body.detail).toBe(detail);
    }
    await g.createGuild(a, "TypingKings");
    const taken = await g.server.api("POST", "/api/guilds", { token: b.token, body: { name: "typingkings" } });
    expect(taken.status).toBe(409);
    expect(taken.body.detail).toBe(GUILD_MSG.nameTaken);
    const twenty = await g.createGuild(b, "이".repeat(20), "설".repeat(200));
    expect(twenty.name).toHaveLength(20);
  });

  test("one guild per user: a member cannot found a second guild", async () => {
    const founder = await g.user();
    await g.createGuild(founder, "첫길드");
    const second = await g.server.api("POST", "/api/guilds", { token: founder.token, body: { name: "둘째길드" } });
    expect(second.status).toBe(409);
    expect(second.body.detail).toBe(GUILD_MSG.alreadyInGuild);
  });

  test("the list is newest first, paged, searchable by name without regard to case", async () => {
    const names = ["검색Alpha", "검색Beta", "검색Gamma"];
    for (const name of names) await g.createGuild(await g.user(), name);
    const page1 = await g.ok(200, "GET", "/api/guilds?q=검색&size=2");
    expect(page1.items.map((i: { name: string }) => i.name)).toEqual(["검색Gamma", "검색Beta"]);
    expect(page1).toMatchObject({ total: 3, total_pages: 2, page: 1, size: 2 });
    const page2 = await g.ok(200, "GET", "/api/guilds?q=검색&size=2&page=2");
    expect(page2.items.map((i: { name: string }) => i.name)).toEqual(["검색Alpha"]);
    const caseless = await g.ok(200, "GET", "/api/guilds?q=BETA");
    expect(caseless.items.map((i: { name: string }) => i.name)).toEqual(["검색Beta"]);
    // LIKE wildcards in the search are plain characters.
    expect((await g.ok(200, "GET", "/api/guilds?q=%25")).total).toBe(0);
  });
});

describe("my guild, leaving and disbanding", () => {
  ownServer();

  test("/guilds/my shows the guild, role, members and the last 20 activities, newest first", async () => {
    const admin = await g.user();
    const guild = await g.createGuild(admin, "활동길드");
    const joiner = await g.user();
    const member = await g.addMember(guild.id, admin, joiner);
    await g.ok(200, "PUT", `/api/guilds/${guild.id}/members/${member.id}/role`, admin.token, { role: "moderator" });
    // A member writes at most 10 posts in 10 minutes (kernel write limits): the two members write 10 each.
    for (let i = 1; i <= 20; i++) {
      const writer = i % 2 === 0 ? joiner : admin;
      await g.ok(201, "POST", `/api/guilds/${guild.id}/board`, writer.token, { title: `글${i}`, content: "내용" });
    }
    const my = await g.ok(200, "GET", "/api/guilds/my", joiner.token);
    expect(my.guild).toMatchObject({ id: guild.id, name: "활동길드", member_count: 2 });
    expect(my.role).toBe("moderator");
    expect(my.members.map((m: { username: string; role: string }) => [m.username, m.role])).toEqual([
      [admin.username, "admin"],
      [joiner.username, "moderator"],
    ]);
    expect(my.recent_activity).toHaveLength(20);
    expect(my.recent_activity[0]).toMatchObject({
      type: "post",
      username: joiner.username,
      detail: "글20",
      message: `${joiner.username}님이 게시판에 「글20」을(를) 올렸습니다.`,
    });
    expect(my.recent_activity[19].detail).toBe("글1");

    const fewer = await g.ok(200, "GET", "/api/guilds/my", admin.token);
    expect(fewer.role).toBe("admin");
  });

  test("a user in no guild gets guild null; the activity shows joins, role changes, leaves", async () => {
    const loner = await g.user();
    const mine = await g.ok(200, "GET", "/api/guilds/my", loner.token);
    expect(mine).toEqual({
      guild: null,
      role: null,
      member_id: null,
      members: [],
      recent_activity: [],
      invitations: [],
    });

    const admin = await g.user();
    const guild = await g.createGuild(admin, "떠나는길드");
    await g.addMember(guild.id, admin, loner);
    await g.ok(200, "POST", `/api/guilds/${guild.id}/leave`, loner.token);
    const after = await g.ok(200, "GET", "/api/guilds/my", loner.token);
    expect(after.guild).toBeNull();
    const adminView = await g.ok(200, "GET", "/api/guilds/my", admin.token);
    expect(adminView.recent_activity.map((a: { type: string }) => a.type)).toEqual(["left", "joined", "created"]);
    expect(adminView.recent_activity[0].message).toBe(`${loner.username}님이 길드를 떠났습니다.`);
    expect(adminView.guild.member_count).toBe(1);
  });

  test("the last admin cannot leave; after handing over the role (a second admin) they can, and ownership moves", async () => {
    const admin = await g.user();
    const guild = await g.createGuild(admin, "넘기는길드");
    const heir = await g.user();
    const heirMember = await g.addMember(guild.id, admin, heir);
    const refused = await g.server.api("POST", `/api/guilds/${guild.id}/leave`, { token: admin.token });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe(GUILD_MSG.lastAdmin);
    await g.ok(200, "PUT", `/api/guilds/${guild.id}/members/${heirMember.id}/role`, admin.token, { role: "admin" });
    await g.ok(200, "POST", `/api/guilds/${guild.id}/leave`, admin.token);
    const now = await g.ok(200, "GET", `/api/guilds/${guild.id}`);
    expect(now.owner_id).toBe(heir.id);
    expect(now.member_count).toBe(1);
  });

  test("disbanding (admin only) hides the guild, frees its members and its name, closes its invitations", async () => {
    const admin = await g.user();
    const guild = await g.createGuild(admin, "해산길드");
    const member = await g.user();
    await g.addMember(guild.id, admin, member);
    const invitee = await g.user();
    await g.ok(201, "POST", `/api/guilds/${guild.id}/invitations`, admin.token, {
      invites: [{ email: invitee.email }],
    });
    const byMember = await g.server.api("DELETE", `/api/guilds/${guild.id}`, { token: member.token });
    expect(byMember.status).toBe(403);
    expect((await g.ok(200, "DELETE", `/api/guilds/${guild.id}`, admin.token)).detail).toBe(GUILD_MSG.disbanded);

    const gone = await g.server.api("GET", `/api/guilds/${guild.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.detail).toBe(GUILD_MSG.guildNotFound);
    expect((await g.ok(200, "GET", "/api/guilds/my", member.token)).guild).toBeNull();
    expect((await g.ok(200, "GET", "/api/guilds/my", invitee.token)).invitations).toEqual([]);
    const list = await g.ok(200, "GET", "/api/guilds?q=해산길드");
    expect(list.total).toBe(0);
    // The name and the members are free again.
    const again = await g.createGuild(member, "해산길드");
    expect(again.owner_id).toBe(member.id);
  });
});

describe("settings, problems, roles and kicks", () => {
  ownServer();

  test("settings inside the spec ranges are stored; any value out of range refuses the whole change", async () => {
    const admin = await g.user();
    const guild = await g.createGuild(admin, "설정길드");
    const edges = { max_members: 5, countdown_seconds: 1, end_countdown_seconds: 300 };
    expect(await g.ok(200, "PUT", `/api/guilds/${guild.id}/settings`, admin.token, edges)).toMatchObject(edges);
    const top = { max_members: 100, countdown_seconds: 10, end_countdown_seconds: 30 };
    expect(await g.ok(200, "PUT", `/api/guilds/${guild.id}/settings`, admin.token, top)).toMatchObject(top);
    const outOfRange: [Record<string, number>, string][] = [
      [{ max_members: 4 }, GUILD_MSG.maxMembersRange],
      [{ max_members: 101 }, GUILD_MSG.maxMembersRange],
      [{ countdown_seconds: 0 }, GUILD_MSG.countdownRange],
      [{ countdown_seconds: 11 }, GUILD_MSG.countdownRange],
      [{ end_countdown_seconds: 29 }, GUILD_MSG.endCountdownRange],
      [{ end_countdown_seconds: 301 }, GUILD_MSG.endCountdownRange],
      // A valid value next to an invalid one is not stored either.
      [{ countdown_seconds: 7, end_countdown_seconds: 1000 }, GUILD_MSG.endCountdownRange],
    ];
    for (const [body, detail] of outOfRange) {
      const res = await g.server.api("PUT", `/api/guilds/${guild.id}/settings`, { token: admin.token, body });
      expect(res.status).toBe(422);
      expect(res.body.detail).toBe(detail);
    }
    for (const body of [{ max_members: 10.5 }, { countdown_seconds: true }, { theme: "dark" }]) {
      const res = await g.server.api("PUT", `/api/guilds/${guild.id}/settings`, { token: admin.token, body });
      expect(res.status).toBe(422);
    }
    expect(await g.ok(200, "GET", `/api/guilds/${guild.id}`)).toMatchObject(top);
  });

  test("max_members cannot go below the current member count", async () => {
    const { guild, admin } = await g.guildWithRoles("인원길드");
    for (let i = 0; i < 3; i++) await g.addMember(guild.id, admin, await g.user());
    const res = await g.server.api("PUT", `/api/guilds/${guild.id}/settings`, {
      token: admin.token,
      body: { max_members: 5 },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toBe(GUILD_MSG.maxMembersBelowCount);
  });

  test("problems: a JSON array of strings (empty ones dropped), else the spec's errors and nothing stored", async () => {
    const { guild, admin, member } = await g.guildWithRoles("문제길드");
    const path = `/api/guilds/${guild.id}/problems`;
    expect(await g.ok(200, "GET", path, member.token)).toEqual({ problems: [] });
    const saved = await g.ok(200, "PUT", path, admin.token, {
      problems: [" 가는 말이 고와야 오는 말이 곱다 ", "", "   ", "낮말은 새가 듣고 밤말은 쥐가 듣는다"],
    });
    expect(saved).toEqual({ problems: ["가는 말이 고와야 오는 말이 곱다", "낮말은 새가 듣고 밤말은 쥐가 듣는다"] });
    for (const problems of ["가나다", { a: 1 }, [1, 2], ["좋은 문제 열 글자 이상", null], null]) {
      const res = await g.server.api("PUT", path, { token: admin.token, body: { problems } });
      expect(res.status).toBe(422);
      expect(res.body.detail).toBe(GUILD_MSG.problemsFormat);
    }
    const long = await g.server.api("PUT", path, { token: admin.token, body: { problems: ["가".repeat(501)] } });
    expect(long.body.detail).toBe(GUILD_MSG.problemTooLong);
    const many = await g.server.api("PUT", path, {
      token: admin.token,
      body: { problems: Array.from({ length: 201 }, (_, i) => `길드 게임 문제 ${i}번`) },
    });
    expect(many.body.detail).toBe(GUILD_MSG.tooManyProblems);
    // At least 10 characters a problem (code points after NFC): one short problem refuses the whole list.
    const short = await g.server.api("PUT", path, {
      token: admin.token,
      body: { problems: ["가는 말이 고와야 오는 말이 곱다", "아홉 글자 문제다"] },
    });
    expect(short).toMatchObject({ status: 422, body: { detail: "문제는 10자 이상이어야 합니다." } });
    // The role before the list: a member's bad list is refused for who they are, not for the list.
    for (const problems of ["가나다", ["하나"], ["가".repeat(501)]]) {
      const byMember = await g.server.api("PUT", path, { token: member.token, body: { problems } });
      expect(byMember).toMatchObject({ status: 403, body: { detail: GUILD_MSG.adminOnly } });
    }
    expect(await g.ok(200, "GET", path, member.token)).toEqual({
      problems: ["가는 말이 고와야 오는 말이 곱다", "낮말은 새가 듣고 밤말은 쥐가 듣는다"],
    });
  });

  test("problem upload: only a JSON file holding an array of strings", async () => {
    const { guild, admin, member, outsider } = await g.guildWithRoles("파일길드");
    const upload = async (token: string, name: string, type: string, text: string, guildId = guild.id) => {
      const form = new FormData();
      form.append("file", new File([text], name, { type }));
      const res = await fetch(`${g.server.url}/api/guilds/${guildId}/problems/file`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      return { status: res.status, body: await res.json() };
    };
    const good = await upload(
      admin.token,
      "problems.json",
      "application/json",
      '["가는 말이 고와야 오는 말이 곱다", "낮말은 새가 듣고 밤말은 쥐가 듣는다"]',
    );
    expect(good).toEqual({
      status: 200,
      body: { problems: ["가는 말이 고와야 오는 말이 곱다", "낮말은 새가 듣고 밤말은 쥐가 듣는다"] },
    });
    const short = await upload(admin.token, "problems.json", "application/json", '["하나"]');
    expect(short).toEqual({ status: 422, body: { detail: "문제는 10자 이상이어야 합니다." } });
    const notJson = await upload(admin.token, "problems.txt", "text/plain", '["하나"]');
    expect(notJson).toEqual({ status: 422, body: { detail: GUILD_MSG.jsonOnly } });
    const badShape = await upload(admin.token, "problems.json", "application/json", '{"problems": ["하나"]}');
    expect(badShape).toEqual({ status: 422, body: { detail: GUILD_MSG.problemsFormat } });
    const broken = await upload(admin.token, "problems.json", "application/json", "[하나,");
    expect(broken).toEqual({ status: 422, body: { detail: GUILD_MSG.problemsFormat } });
    const byMember = await upload(member.token, "problems.json", "application/json", '["셋째 문제도 열 글자 넘게"]');
    expect(byMember).toEqual({ status: 403, body: { detail: GUILD_MSG.adminOnly } });
    // Who may upload is checked before the file is read: a bad file from a member or a non-member is a 403, and a
    // bad file to no guild a 404, never the file's 422.
    for (const [name, type, text] of [
      ["problems.txt", "text/plain", '["하나"]'],
      ["problems.json", "application/json", "[하나,"],
      ["problems.json", "application/json", '["하나"]'],
    ]) {
      expect(await upload(member.token, name, type, text)).toEqual({
        status: 403,
        body: { detail: GUILD_MSG.adminOnly },
      });
      expect(await upload(outsider.token, name, type, text)).toEqual({
        status: 403,
        body: { detail: GUILD_MSG.notMember },
      });
      expect(await upload(admin.token, name, type, text, 999_999)).toEqual({
        status: 404,
        body: { detail: GUILD_MSG.guildNotFound },
      });
    }
    expect(await g.ok(200, "GET", `/api/guilds/${guild.id}/problems`, member.token)).toEqual({
      problems: ["가는 말이 고와야 오는 말이 곱다", "낮말은 새가 듣고 밤말은 쥐가 듣는다"],
    });
  });

  test("roles: admins change moderators and members; an admin's role never changes", async () => {
    const { guild, admin, moderator, moderatorMember, plainMember } = await g.guildWithRoles("역할길드");
    const rolePath = (id: number) => `/api/guilds/${guild.id}/members/${id}/role`;
    const promoted = await g.ok(200, "PUT", rolePath(plainMember.id), admin.token, { role: "moderator" });
    expect(promoted).toMatchObject({ id: plainMember.id, role: "moderator" });
    await g.ok(200, "PUT", rolePath(plainMember.id), admin.token, { role: "member" });
    const members = await g.ok(200, "GET", `/api/guilds/${guild.id}/members`, admin.token);
    const adminMember = members.find((m: { role: string }) => m.role === "admin");
    const locked = await g.server.api("PUT", rolePath(adminMember.id), {
      token: admin.token,
      body: { role: "member" },
    });
    expect(locked.status).toBe(403);
    expect(locked.body.detail).toBe(GUILD_MSG.adminRoleLocked);
    const byModerator = await g.server.api("PUT", rolePath(plainMember.id), {
      token: moderator.token,
      body: { role: "moderator" },
    });
    expect(byModerator.status).toBe(403);
    const unknownRole = await g.server.api("PUT", rolePath(moderatorMember.id), {
      token: admin.token,
      body: { role: "owner" },
    });
    expect(unknownRole.status).toBe(422);
    const missing = await g.server.api("PUT", rolePath(999_999), { token: admin.token, body: { role: "member" } });
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toBe(GUILD_MSG.memberNotFound);
  });

  test("kicks: moderators kick plain members only, admins kick moderators too, nobody kicks an admin", async () => {
    const { guild, admin, moderator, member, moderatorMember, plainMember } = await g.guildWithRoles("추방길드");
    const kick = (token: string, id: number) =>
      g.server.api("DELETE", `/api/guilds/${guild.id}/members/${id}`, { token });
    const members = await g.ok(200, "GET", `/api/guilds/${guild.id}/members`, admin.token);
    const adminMember = members.find((m: { role: string }) => m.role === "admin");
    expect((await kick(moderator.token, adminMember.id)).body.detail).toBe(GUILD_MSG.adminNotKickable);
    expect((await kick(admin.token, adminMember.id)).body.detail).toBe(GUILD_MSG.cannotKickSelf);
    expect((await kick(member.token, moderatorMember.id)).body.detail).toBe(GUILD_MSG.staffOnly);
    const second = await g.user();
    const secondMember = await g.addMember(guild.id, admin, second);
    await g.ok(200, "PUT", `/api/guilds/${guild.id}/members/${secondMember.id}/role`, admin.token, {
      role: "moderator",
    });
    expect((await kick(moderator.token, secondMember.id)).body.detail).toBe(GUILD_MSG.moderatorKicksMembersOnly);

    const kicked = await kick(moderator.token, plainMember.id);
    expect(kicked.status).toBe(200);
    expect(kicked.body).toEqual({ detail: GUILD_MSG.kicked, member_id: plainMember.id, user_id: member.id });
    expect((await g.ok(200, "GET", "/api/guilds/my", member.token)).guild).toBeNull();
    expect((await kick(admin.token, secondMember.id)).status).toBe(200);
    const activity = (await g.ok(200, "GET", "/api/guilds/my", admin.token)).recent_activity;
    expect(activity[0]).toMatchObject({ type: "kicked", user_id: second.id, actor_id: admin.id });
    expect(activity[1]).toMatchObject({ type: "kicked", user_id: member.id, actor_id: moderator.id });
    expect((await kick(admin.token, plainMember.id)).status).toBe(404);
  });
});

describe("invitations by e-mail", () => {
  ownServer();

  test("an account registered later with the invited e-mail sees the invitation and accepts it", async () => {
    const admin = await g.user();
    const guild = await g.createGuild(admin, "초대길드");
    const sent = await g.ok(201, "POST", `/api/guilds/${guild.id}/invitations`, admin.token, {
      invites: [{ username: "새친구", email: "  Later.Friend@Example.com " }],
    });
    expect(sent.invitations).toEqual([
      expect.objectContaining({ email: "later.friend@example.com", username: "새친구", status: "pending" }),
    ]);
    const pending = await g.ok(200, "GET", `/api/guilds/${guild.id}/invitations`, admin.token);
    expect(pending.map((i: { email: string }) => i.email)).toEqual(["later.friend@example.com"]);

    const friend = await g.server.createUser("나중친구", { email: "later.friend@example.com" });
    const my = await g.ok(200, "GET", "/api/guilds/my", friend.token);
    expect(my.invitations).toEqual([
      {
        id: sent.invitations[0].id,
        guild_id: guild.id,
        guild_name: "초대길드",
        invited_by: admin.username,
        invited_by_id: admin.id,
        created_at: expect.any(String),
      },
    ]);
    const stranger = await g.user();
    const notYours = await g.server.api("POST", `/api/guilds/invitations/${sent.invitations[0].id}/accept`, {
      token: stranger.token,
    });
    expect(notYours.status).toBe(403);
    expect(notYours.body.detail).toBe(GUILD_MSG.invitationNotYours);

    const joined = await g.ok(200, "POST", `/api/guilds/invitations/${sent.invitations[0].id}/accept`, friend.token);
    expect(joined).toMatchObject({ id: guild.id, member_count: 2 });
    const again = await g.server.api("POST", `/api/guilds/invitations/${sent.invitations[0].id}/accept`, {
      token: friend.token,
    });
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe(GUILD_MSG.invitationHandled);
    const after = await g.ok(200, "GET", "/api/guilds/my", friend.token);
    expect(after).toMatchObject({ role: "member", invitations: [] });
    expect(after.guild.id).toBe(guild.id);
  });

  test("invite rules: an '@', no duplicates, not a member, at most 20; a refused request invites nobody", async () => {
    const { guild, admin, member } = await g.guildWithRoles("규칙길드");
    const path = `/api/guilds/${guild.id}/invitations`;
    const send = (invites: unknown[]) => g.server.api("POST", path, { token: admin.token, body: { invites } });
    const cases: [unknown[], number, string][] = [
      [[], 422, GUILD_MSG.inviteNone],
      [[{ email: "no-at-sign" }], 422, GUILD_MSG.inviteEmailInvalid],
      [[{ email: "a@b.kr" }, { email: "A@B.kr" }], 422, GUILD_MSG.inviteDuplicate],
      [[{ email: "fresh@b.kr" }, { email: member.email }], 409, GUILD_MSG.inviteAlreadyMember],
      [Array.from({ length: 21 }, (_, i) => ({ email: `many${i}@b.kr` })), 422, GUILD_MSG.inviteTooMany],
    ];
    for (const [invites, status, detail] of cases) {
      const res = await send(invites);
      expect(res.status).toBe(status);
      expect(res.body.detail).toBe(detail);
    }
    expect(await g.ok(200, "GET", path, admin.token)).toEqual([]);
    expect((await send([{ email: "once@b.kr" }])).status).toBe(201);
    const twice = await send([{ email: "other@b.kr" }, { email: "ONCE@b.kr" }]);
    expect(twice.status).toBe(409);
    expect(twice.body.detail).toBe(GUILD_MSG.inviteDuplicate);
    expect((await g.ok(200, "GET", path, admin.token)).map((i: { email: string }) => i.email)).toEqual(["once@b.kr"]);
  });

  test("declining closes the invitation; a user already in a guild and a full guild refuse the accept", async () => {
    const admin = await g.user();
    const guild = await g.createGuild(admin, "가득길드");
    await g.ok(200, "PUT", `/api/guilds/${guild.id}/settings`, admin.token, { max_members: 5 });
    const invitees = await Promise.all(Array.from({ length: 6 }, () => g.user()));
    const sent = await g.ok(201, "POST", `/api/guilds/${guild.id}/invitations`, admin.token, {
      invites: invitees.map((u) => ({ email: u.email })),
    });
    const idOf = (email: string) => sent.invitations.find((i: { email: string }) => i.email === email).id;

    const declined = await g.ok(
      200,
      "POST",
      `/api/guilds/invitations/${idOf(invitees[0].email)}/decline`,
      invitees[0].token,
    );
    expect(declined.detail).toBe(GUILD_MSG.invitationDeclined);
    expect((await g.ok(200, "GET", "/api/guilds/my", invitees[0].token)).invitations).toEqual([]);

    const busy = invitees[1];
    await g.createGuild(busy, "바쁜길드");
    const inGuild = await g.server.api("POST", `/api/guilds/invitations/${idOf(busy.email)}/accept`, {
      token: busy.token,
    });
    expect(inGuild.status).toBe(409);
    expect(inGuild.body.detail).toBe(GUILD_MSG.alreadyInGuild);

    for (const u of invitees.slice(2, 6)) {
      await g.ok(200, "POST", `/api/guilds/invitations/${idOf(u.email)}/accept`, u.token);
    }
    expect((await g.ok(200, "GET", `/api/guilds/${guild.id}`)).member_count).toBe(5);
    const late = await g.user();
    const more = await g.ok(201, "POST", `/api/guilds/${guild.id}/invitations`, admin.token, {
      invites: [{ email: late.email }],
    });
    const full = await g.server.api("POST", `/api/guilds/invitations/${more.invitations[0].id}/accept`, {
      token: late.token,
    });
    expect(full.status).toBe(409);
    expect(full.body.detail).toBe(GUILD_MSG.guildFull);
  });
});

describe("recruitment and applications", () => {
  ownServer();

  test("staff write posts; views count once per viewer per 10 minutes; applications are approved or rejected", async () => {
    const { guild, admin, moderator, member } = await g.guildWithRoles("모집길드");
    const body = { guild_id: guild.id, title: "함께할 분", content: "매일 저녁 타자 연습" };
    const blank = await g.server.api("POST", "/api/guilds/recruitment", {
      token: moderator.token,
      body: { ...body, content: "  " },
    });
    expect(blank.status).toBe(422);
    expect(blank.body.detail).toBe(GUILD_MSG.allFieldsRequired);
    const byMember = await g.server.api("POST", "/api/guilds/recruitment", { token: member.token, body });
    expect(byMember.status).toBe(403);
    const post = await g.ok(201, "POST", "/api/guilds/recruitment", moderator.token, body);
    expect(post).toMatchObject({
      title: "함께할 분",
      guild_id: guild.id,
      guild_name: "모집길드",
      author_name: moderator.username,
      view_count: 0,
      reply_count: 0,
    });
    const listed = await g.ok(200, "GET", "/api/guilds/recruitment?size=1");
    expect(listed.items[0].id).toBe(post.id);

    const view = (token?: string) => g.ok(200, "POST", `/api/guilds/recruitment/${post.id}/view`, token);
    expect(await view(member.token)).toEqual({ id: post.id, view_count: 1, counted: true });
    expect(await view(member.token)).toMatchObject({ view_count: 1, counted: false });
    expect(await view()).toMatchObject({ view_count: 2, counted: true });
    g.clock.advance(10 * 60 * 1000);
    expect(await view(member.token)).toMatchObject({ view_count: 3, counted: true });

    const first = await g.user();
    const second = await g.user();
    const applied = await g.ok(201, "POST", `/api/guilds/recruitment/${post.id}/apply`, first.token, {
      message: "열심히 하겠습니다",
    });
    expect(applied).toMatchObject({ guild_id: guild.id, post_id: post.id, user_id: first.id, status: "pending" });
    const twice = await g.server.api("POST", `/api/guilds/recruitment/${post.id}/apply`, {
      token: first.token,
      body: {},
    });
    expect(twice.status).toBe(409);
    expect(twice.body.detail).toBe(GUILD_MSG.alreadyApplied);
    const fromMember = await g.server.api("POST", `/api/guilds/recruitment/${post.id}/apply`, {
      token: member.token,
      body: {},
    });
    expect(fromMember.body.detail).toBe(GUILD_MSG.alreadyInGuild);
    const rejectedApp = await g.ok(201, "POST", `/api/guilds/recruitment/${post.id}/apply`, second.token, {});
    expect((await g.ok(200, "GET", `/api/guilds/recruitment/${post.id}`)).reply_count).toBe(2);

    const pending = await g.ok(200, "GET", `/api/guilds/${guild.id}/applications?status=pending`, moderator.token);
    expect(pending.map((a: { username: string }) => a.username)).toEqual([second.username, first.username]);
    const approved = await g.ok(
      200,
      "POST",
      `/api/guilds/${guild.id}/applications/${applied.id}/approve`,
      moderator.token,
    );
    expect(approved).toMatchObject({ user_id: first.id, role: "member" });
    await g.ok(200, "POST", `/api/guilds/${guild.id}/applications/${rejectedApp.id}/reject`, admin.token);
    const handled = await g.server.api("POST", `/api/guilds/${guild.id}/applications/${rejectedApp.id}/approve`, {
      token: admin.token,
    });
    expect(handled.status).toBe(409);
    expect(handled.body.detail).toBe(GUILD_MSG.applicationHandled);
    const all = await g.ok(200, "GET", `/api/guilds/${guild.id}/applications`, admin.token);
    expect(all.map((a: { status: string }) => a.status)).toEqual(["rejected", "approved"]);
    expect((await g.ok(200, "GET", "/api/guilds/my", first.token)).guild.id).toBe(guild.id);
    expect((await g.ok(200, "GET", "/api/guilds/my", second.token)).guild).toBeNull();
  });

  test("joining one guild cancels the user's other pending applications", async () => {
    const a = await g.guildWithRoles("신청A");
    const b = await g.guildWithRoles("신청B");
    const postA = await g.ok(201, "POST", "/api/guilds/recruitment", a.admin.token, {
      guild_id: a.guild.id,
      title: "A 모집",
      content: "A",
    });
    const postB = await g.ok(201, "POST", "/api/guilds/recruitment", b.admin.token, {
      guild_id: b.guild.id,
      title: "B 모집",
      content: "B",
    });
    const seeker = await g.user();
    const appA = await g.ok(201, "POST", `/api/guilds/recruitment/${postA.id}/apply`, seeker.token, {});
    const appB = await g.ok(201, "POST", `/api/guilds/recruitment/${postB.id}/apply`, seeker.token, {});
    await g.ok(200, "POST", `/api/guilds/${a.guild.id}/applications/${appA.id}/approve`, a.admin.token);
    const late = await g.server.api("POST", `/api/guilds/${b.guild.id}/applications/${appB.id}/approve`, {
      token: b.admin.token,
    });
    expect(late.status).toBe(409);
    expect(late.body.detail).toBe(GUILD_MSG.applicationHandled);
    const bList = await g.ok(200, "GET", `/api/guilds/${b.guild.id}/applications`, b.admin.token);
    expect(bList[0]).toMatchObject({ id: appB.id, status: "cancelled" });
  });
});

describe("the guild board", () => {
  ownServer();

  test("members write posts and comments; the author or staff edit and delete; counts follow", async () => {
    const { guild, admin, moderator, member } = await g.guildWithRoles("게시판길드");
    const base = `/api/guilds/${guild.id}/board`;
    const blank = await g.server.api("POST", base, { token: member.token, body: { title: "제목", content: " " } });
    expect(blank.status).toBe(422);
    expect(blank.body.detail).toBe(GUILD_MSG.titleAndContentRequired);
    const post = await g.ok(201, "POST", base, member.token, { title: "첫 글", content: "안녕하세요" });
    expect(post).toMatchObject({
      title: "첫 글",
      author_id: member.id,
      author_name: member.username,
      comment_count: 0,
    });
    const second = await g.ok(201, "POST", base, admin.token, { title: "둘째 글", content: "공지" });
    expect((await g.ok(200, "GET", base, moderator.token)).map((p: { id: number }) => p.id)).toEqual([
      second.id,
      post.id,
    ]);

    const emptyComment = await g.server.api("POST", `${base}/${post.id}/comments`, {
      token: admin.token,
      body: { content: "  " },
    });
    expect(emptyComment.body.detail).toBe(GUILD_MSG.commentRequired);
    const c1 = await g.ok(201, "POST", `${base}/${post.id}/comments`, admin.token, { content: "환영해요" });
    await g.ok(201, "POST", `${base}/${post.id}/comments`, moderator.token, { content: "반가워요" });
    expect((await g.ok(200, "GET", `${base}/${post.id}`, member.token)).comment_count).toBe(2);
    const comments = await g.ok(200, "GET", `${base}/${post.id}/comments`, member.token);
    expect(comments.map((c: { content: string }) => c.content)).toEqual(["환영해요", "반가워요"]);

    const notAuthor = await g.server.api("DELETE", `${base}/${post.id}/comments/${c1.id}`, { token: member.token });
    expect(notAuthor.status).toBe(403);
    expect(notAuthor.body.detail).toBe(GUILD_MSG.commentDeleteForbidden);
    await g.ok(200, "DELETE", `${base}/${post.id}/comments/${c1.id}`, moderator.token);
    expect((await g.ok(200, "GET", `${base}/${post.id}`, member.token)).comment_count).toBe(1);

    const otherEdit = await g.server.api("PUT", `${base}/${second.id}`, {
      token: member.token,
      body: { title: "바꿈", content: "바꿈" },
    });
    expect(otherEdit.status).toBe(403);
    expect(otherEdit.body.detail).toBe(GUILD_MSG.postEditForbidden);
    const edited = await g.ok(200, "PUT", `${base}/${post.id}`, moderator.token, { title: "고친 글", content: "고침" });
    expect(edited).toMatchObject({ title: "고친 글", content: "고침", author_id: member.id });
    await g.ok(200, "DELETE", `${base}/${post.id}`, member.token);
    const gone = await g.server.api("GET", `${base}/${post.id}`, { token: member.token });
    expect(gone.status).toBe(404);
    expect(gone.body.detail).toBe(GUILD_MSG.postNotFound);

    // A post of another guild is not found through this guild's path.
    const other = await g.guildWithRoles("다른게시판");
    const foreign = await g.ok(201, "POST", `/api/guilds/${other.guild.id}/board`, other.member.token, {
      title: "남의 글",
      content: "내용",
    });
    expect((await g.server.api("GET", `${base}/${foreign.id}`, { token: member.token })).status).toBe(404);
  });
});
