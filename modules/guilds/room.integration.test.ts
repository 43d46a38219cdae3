import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { INVALID_PAYLOAD } from "../kernel/socket";
import { GUILD_GAME_MSG } from "./guild-game";
import { CHAT_RATE_LIMITED, GUILD_GAME_NOT_RUNNING } from "./room";
import { CHAT_KEPT, GUILD_MSG } from "./rules";
import { type GuildClient, type GuildServer, openGuildClient, startGuildServer } from "./test-support";

/** The guild room over real sockets: joins checked against the database, chat, acknowledged admin actions, kicks. */
let g: GuildServer;
let f: Awaited<ReturnType<GuildServer["guildWithRoles"]>>;
const open: GuildClient[] = [];

/** A server (and a guild with its five roles) per group: registrations are throttled per address. */
function ownServer(name: string) {
  beforeAll(async () => {
    g = await startGuildServer();
    f = await g.guildWithRoles(name);
  });
  afterAll(() => g.server.stop());
}
afterEach(() => {
  for (const client of open.splice(0)) client.close();
});

async function client(token?: string) {
  const c = await openGuildClient(g.server, token);
  open.push(c);
  return c;
}

/** A member's socket inside the guild room (after its `guild:joined`). */
async function inRoom(token: string, guildId = f.guild.id) {
  const c = await client(token);
  c.emit("guild:join", { guild_id: guildId });
  await c.next("guild:joined");
  return c;
}

describe("joining the guild room", () => {
  ownServer("입장길드");

  test("a member gets guild:joined with the guild, members, is_admin, problems and the last messages", async () => {
    await g.ok(200, "PUT", `/api/guilds/${f.guild.id}/problems`, f.admin.token, {
      problems: ["가는 말이 고와야 오는 말이 곱다", "낮말은 새가 듣고 밤말은 쥐가 듣는다"],
    });
    const admin = await inRoom(f.admin.token);
    admin.emit("guild:message", { guild_id: f.guild.id, message: "어서 오세요" });
    await admin.next("guild:message");

    const member = await client(f.member.token);
    // The user_id a client sends is ignored: the socket's own account counts (here a member, not the admin).
    member.emit("guild:join", { guild_id: String(f.guild.id), user_id: f.admin.id });
    const joined = await member.next("guild:joined");
    expect(joined.guild).toMatchObject({ id: f.guild.id, name: "입장길드", member_count: 3 });
    expect(joined.is_admin).toBe(false);
    expect(joined.role).toBe("member");
    expect(joined.member_id).toBe(f.plainMember.id);
    expect(joined.problems).toEqual(["가는 말이 고와야 오는 말이 곱다", "낮말은 새가 듣고 밤말은 쥐가 듣는다"]);
    expect(joined.members.map((m: { username: string; role: string }) => [m.username, m.role])).toEqual([
      [f.admin.username, "admin"],
      [f.moderator.username, "moderator"],
      [f.member.username, "member"],
    ]);
    expect(joined.messages).toEqual([
      expect.objectContaining({ username: f.admin.username, message: "어서 오세요", user_id: f.admin.id }),
    ]);
    const arrival = await admin.next("guild:user_joined");
    expect(arrival).toEqual({ guild_id: f.guild.id, user_id: f.member.id, username: f.member.username });
  });

  test("a non-member, a guest and an unknown guild get an error and are not in the room", async () => {
    const cases: [string | undefined, unknown, string][] = [
      [f.outsider.token, f.guild.id, GUILD_MSG.notMember],
      [undefined, f.guild.id, "로그인이 필요합니다."],
      [f.member.token, 999_999, GUILD_MSG.guildNotFound],
    ];
    for (const [token, guildId, message] of cases) {
      const c = await client(token);
      c.emit("guild:join", { guild_id: guildId });
      expect((await c.next("error")).message).toBe(message);
      c.emit("guild:message", { guild_id: f.guild.id, message: "몰래 한마디" });
      expect((await c.next("error")).event).toBe("guild:message");
      expect(c.all("guild:joined")).toEqual([]);
    }
  });

  test("malformed payloads of every guild event get an error and change nothing", async () => {
    const admin = await inRoom(f.admin.token);
    const before = await g.ok(200, "GET", `/api/guilds/${f.guild.id}`);
    const bad: [string, unknown][] = [
      ["guild:join", {}],
      ["guild:join", { guild_id: "abc" }],
      ["guild:join", { guild_id: -1 }],
      ["guild:join", "1"],
      ["guild:join", { guild_id: 1, spectate: "네" }],
      ["guild:leave", { guild_id: { x: 1 } }],
      ["guild:message", { guild_id: f.guild.id }],
      ["guild:message", { guild_id: f.guild.id, message: "가".repeat(1001) }],
      ["guild:update_settings", { guild_id: f.guild.id, settings: { max_members: "50" } }],
      ["guild:update_settings", { guild_id: f.guild.id, settings: { countdown_seconds: 2.5 } }],
      ["guild:update_settings", { guild_id: f.guild.id }],
      ["guild:upload_problems", { problems: ["하나"] }],
      ["guild:update_member_role", { guild_id: f.guild.id, member_id: f.plainMember.id, role: "owner" }],
      ["guild:update_member_role", { guild_id: f.guild.id, member_id: "x", role: "member" }],
      ["guild:kick_member", { guild_id: f.guild.id }],
      ["guild:send_invites", { guild_id: f.guild.id, invites: "a@b.kr" }],
      ["guild:send_invites", { guild_id: f.guild.id, invites: [{ username: "x" }] }],
      ["guild_game:start_request", { guild_id: f.guild.id, countdown_seconds: "5" }],
      ["guild_game:start_request", { problem: "문제" }],
      ["guild_game:progress", { guild_id: f.guild.id, typed_text: 42 }],
      ["guild_game:progress", { guild_id: f.guild.id, typed_text: "가".repeat(1001) }],
      ["guild_game:submission", { guild_id: f.guild.id }],
      ["guild_game:submission", { guild_id: f.guild.id, typed_text: "답", elapsed_time: -1 }],
    ];
    for (const [event, payload] of bad) {
      const ack = await admin.ack(event, payload);
      expect({ event, ack }).toEqual({ event, ack: { success: false, error: INVALID_PAYLOAD } });
    }
    expect(admin.all("error").map((e: { code: string }) => e.code)).toEqual(bad.map(() => "invalid_payload"));
    expect(await g.ok(200, "GET", `/api/guilds/${f.guild.id}`)).toEqual(before);
    expect(await g.ok(200, "GET", `/api/guilds/${f.guild.id}/members`, f.admin.token)).toHaveLength(3);
  });
});

describe("guild chat", () => {
  ownServer("수다길드");

  test("a line reaches everyone in the room and is kept; empty lines are ignored; 200 characters at most", async () => {
    const admin = await inRoom(f.admin.token);
    const member = await inRoom(f.member.token);
    member.emit("guild:message", { guild_id: f.guild.id, message: "   " });
    member.emit("guild:message", { guild_id: f.guild.id, message: "  안녕하세요  " });
    const line = await admin.next("guild:message");
    expect(line).toMatchObject({ username: f.member.username, user_id: f.member.id, message: "안녕하세요" });
    expect((await member.next("guild:message")).message).toBe("안녕하세요");
    member.emit("guild:message", { guild_id: f.guild.id, message: "가".repeat(201) });
    expect((await member.next("error")).message).toBe("메시지는 200자 이내로 입력해주세요.");
    await admin.sync();
    expect(admin.all("guild:message")).toHaveLength(1);
    const later = await inRoom(f.moderator.token);
    expect(later.log.find((r) => r.event === "guild:joined")?.payload.messages.at(-1).message).toBe("안녕하세요");
  });

  test("more than 5 lines in 3 seconds get the rate-limit error", async () => {
    const member = await inRoom(f.member.token);
    g.clock.advance(10_000);
    for (let i = 1; i <= 6; i++) member.emit("guild:message", { guild_id: f.guild.id, message: `줄 ${i}` });
    const error = await member.next("error");
    expect(error.message).toBe(CHAT_RATE_LIMITED);
    await member.sync();
    expect(member.all("guild:message").map((m: { message: string }) => m.message)).toEqual([
      "줄 1",
      "줄 2",
      "줄 3",
      "줄 4",
      "줄 5",
    ]);
    g.clock.advance(3_000);
    member.emit("guild:message", { guild_id: f.guild.id, message: "다시" });
    expect((await member.next("guild:message", (m) => m.message === "다시")).user_id).toBe(f.member.id);
  });

  test(`the room shows the last ${CHAT_KEPT} lines`, async () => {
    const admin = await inRoom(f.admin.token);
    for (let i = 1; i <= CHAT_KEPT + 3; i++) {
      g.clock.advance(1_000);
      admin.emit("guild:message", { guild_id: f.guild.id, message: `기록 ${i}` });
      await admin.next("guild:message", (m) => m.message === `기록 ${i}`);
    }
    const later = await inRoom(f.member.token);
    const messages = later.log.find((r) => r.event === "guild:joined")?.payload.messages;
    expect(messages).toHaveLength(CHAT_KEPT);
    expect(messages.at(-1).message).toBe(`기록 ${CHAT_KEPT + 3}`);
    expect(messages[0].message).toBe("기록 4");
  });

  test("slash commands: admins set the countdowns; others and values out of range are refused", async () => {
    const admin = await inRoom(f.admin.token);
    const member = await inRoom(f.member.token);
    admin.emit("guild:message", { guild_id: f.guild.id, message: "/setcountdown 3" });
    const note = await member.next("guild:message", (m) => m.is_system);
    expect(note.message).toBe(`${f.admin.username}님이 시작 카운트다운을 3초로 바꿨습니다.`);
    admin.emit("guild:message", { guild_id: f.guild.id, message: "/setendtime 120" });
    await member.next("guild:message", (m) => m.is_system);
    expect(await g.ok(200, "GET", `/api/guilds/${f.guild.id}`)).toMatchObject({
      countdown_seconds: 3,
      end_countdown_seconds: 120,
    });
    const refused: [GuildClient, string, string][] = [
      [admin, "/setcountdown 11", GUILD_MSG.countdownRange],
      [admin, "/setcountdown abc", GUILD_MSG.countdownRange],
      [admin, "/setendtime 29", GUILD_MSG.endCountdownRange],
      [member, "/setcountdown 4", GUILD_MSG.adminOnly],
      [member, "/start", GUILD_MSG.adminOnly],
      // This guild has no problems yet: the admin's start is refused with what to do.
      [admin, "/start", GUILD_GAME_MSG.noProblems],
    ];
    for (const [who, line, message] of refused) {
      who.emit("guild:message", { guild_id: f.guild.id, message: line });
      expect({ line, error: (await who.next("error")).message }).toEqual({ line, error: message });
    }
    expect(await g.ok(200, "GET", `/api/guilds/${f.guild.id}`)).toMatchObject({
      countdown_seconds: 3,
      end_countdown_seconds: 120,
    });
    await member.sync();
    expect(member.all("guild:message").filter((m: { is_system?: boolean }) => !m.is_system)).toEqual([]);
  });
});

describe("the guild game's events with no game running", () => {
  ownServer("게임길드");

  test("an admin's start without problems is refused, others' too; typing without a game is refused", async () => {
    const admin = await inRoom(f.admin.token);
    const member = await inRoom(f.member.token);
    const outsider = await client(f.outsider.token);
    const cases: [GuildClient, string, unknown, string][] = [
      [admin, "guild_game:start_request", { guild_id: f.guild.id, problem: null }, GUILD_GAME_MSG.noProblems],
      [member, "guild_game:start_request", { guild_id: f.guild.id }, GUILD_MSG.adminOnly],
      [outsider, "guild_game:start_request", { guild_id: f.guild.id }, "길드 방에 먼저 입장해주세요."],
      [member, "guild_game:progress", { guild_id: f.guild.id, typed_text: "가나" }, GUILD_GAME_NOT_RUNNING],
      [member, "guild_game:submission", { guild_id: f.guild.id, typed_text: "가나다" }, GUILD_GAME_NOT_RUNNING],
      [
        outsider,
        "guild_game:submission",
        { guild_id: f.guild.id, typed_text: "가나다" },
        "길드 방에 먼저 입장해주세요.",
      ],
    ];
    for (const [who, event, payload, message] of cases) {
      who.emit(event, payload);
      expect({ event, error: (await who.next("error")).message }).toEqual({ event, error: message });
    }
  });
});

describe("acknowledged admin actions", () => {
  ownServer("관리길드");

  test("settings: stored and pushed to every member; out of range refused with the spec's text, nothing stored", async () => {
    const admin = await inRoom(f.admin.token);
    const member = await inRoom(f.member.token);
    const ok = await admin.ack("guild:update_settings", {
      guild_id: f.guild.id,
      settings: { max_members: 50, countdown_seconds: 7, end_countdown_seconds: 200 },
    });
    expect(ok).toMatchObject({ success: true, guild: { max_members: 50, countdown_seconds: 7 } });
    const pushed = await member.next("guild:joined", (p) => p.guild.max_members === 50);
    expect(pushed).toMatchObject({ is_admin: false, role: "member", guild: { end_countdown_seconds: 200 } });
    expect((await admin.next("guild:joined", (p) => p.guild.max_members === 50)).is_admin).toBe(true);

    const refused = await admin.ack("guild:update_settings", {
      guild_id: f.guild.id,
      settings: { countdown_seconds: 5, end_countdown_seconds: 301 },
    });
    expect(refused).toEqual({ success: false, error: `${GUILD_MSG.settingsFailed} ${GUILD_MSG.endCountdownRange}` });
    const byMember = await member.ack("guild:update_settings", { guild_id: f.guild.id, settings: { max_members: 6 } });
    expect(byMember).toEqual({ success: false, error: `${GUILD_MSG.settingsFailed} ${GUILD_MSG.adminOnly}` });
    expect(await g.ok(200, "GET", `/api/guilds/${f.guild.id}`)).toMatchObject({
      max_members: 50,
      countdown_seconds: 7,
      end_countdown_seconds: 200,
    });
  });

  test("problems: a JSON array of strings, else the spec's text; members see the new list", async () => {
    const admin = await inRoom(f.admin.token);
    const member = await inRoom(f.member.token);
    const ok = await admin.ack("guild:upload_problems", {
      guild_id: f.guild.id,
      problems: ["가는 말이 고와야 오는 말이 곱다", "", "낮말은 새가 듣고 밤말은 쥐가 듣는다"],
    });
    expect(ok).toEqual({
      success: true,
      problems: ["가는 말이 고와야 오는 말이 곱다", "낮말은 새가 듣고 밤말은 쥐가 듣는다"],
    });
    expect((await member.next("guild:joined", (p) => p.problems.length === 2)).problems).toEqual([
      "가는 말이 고와야 오는 말이 곱다",
      "낮말은 새가 듣고 밤말은 쥐가 듣는다",
    ]);
    for (const problems of ["하나", [1], { a: "b" }]) {
      const refused = await admin.ack("guild:upload_problems", { guild_id: f.guild.id, problems });
      expect(refused).toEqual({ success: false, error: `${GUILD_MSG.problemsFailed} ${GUILD_MSG.problemsFormat}` });
    }
    const short = await admin.ack("guild:upload_problems", { guild_id: f.guild.id, problems: ["하나"] });
    expect(short).toEqual({ success: false, error: "문제를 저장하는데 실패했습니다. 문제는 10자 이상이어야 합니다." });
    const byModerator = await (await inRoom(f.moderator.token)).ack("guild:upload_problems", {
      guild_id: f.guild.id,
      problems: ["셋째 문제도 열 글자 넘게"],
    });
    expect(byModerator.success).toBe(false);
    expect(await g.ok(200, "GET", `/api/guilds/${f.guild.id}/problems`, f.member.token)).toEqual({
      problems: ["가는 말이 고와야 오는 말이 곱다", "낮말은 새가 듣고 밤말은 쥐가 듣는다"],
    });
  });

  test("roles: admins only, never an admin's; every member sees the new role", async () => {
    const admin = await inRoom(f.admin.token);
    const member = await inRoom(f.member.token);
    const ok = await admin.ack("guild:update_member_role", {
      guild_id: f.guild.id,
      member_id: f.plainMember.id,
      role: "moderator",
    });
    expect(ok).toMatchObject({ success: true, member: { id: f.plainMember.id, role: "moderator" } });
    const pushed = await member.next("guild:joined", (p) => p.role === "moderator");
    expect(pushed.members.find((m: { id: number }) => m.id === f.plainMember.id).role).toBe("moderator");
    const adminEntry = pushed.members.find((m: { role: string }) => m.role === "admin");
    const locked = await admin.ack("guild:update_member_role", {
      guild_id: f.guild.id,
      member_id: adminEntry.id,
      role: "member",
    });
    expect(locked).toEqual({ success: false, error: `${GUILD_MSG.roleFailed} ${GUILD_MSG.adminRoleLocked}` });
    const byModerator = await member.ack("guild:update_member_role", {
      guild_id: f.guild.id,
      member_id: f.plainMember.id,
      role: "member",
    });
    expect(byModerator).toEqual({ success: false, error: `${GUILD_MSG.roleFailed} ${GUILD_MSG.adminOnly}` });
    await admin.ack("guild:update_member_role", { guild_id: f.guild.id, member_id: f.plainMember.id, role: "member" });
  });

  test("invites: stored for the e-mail; duplicates refused with the spec's text", async () => {
    const admin = await inRoom(f.admin.token);
    const ok = await admin.ack("guild:send_invites", {
      guild_id: f.guild.id,
      invites: [{ username: "친구", email: "socket.friend@example.com" }],
    });
    expect(ok.success).toBe(true);
    expect(ok.invitations).toEqual([
      expect.objectContaining({ email: "socket.friend@example.com", status: "pending" }),
    ]);
    const again = await admin.ack("guild:send_invites", {
      guild_id: f.guild.id,
      invites: [{ username: "친구", email: "SOCKET.friend@example.com" }],
    });
    expect(again).toEqual({ success: false, error: `${GUILD_MSG.invitesFailed} ${GUILD_MSG.inviteDuplicate}` });
    const noAt = await admin.ack("guild:send_invites", { guild_id: f.guild.id, invites: [{ email: "friend" }] });
    expect(noAt).toEqual({ success: false, error: `${GUILD_MSG.invitesFailed} ${GUILD_MSG.inviteEmailInvalid}` });
    const friend = await g.server.createUser("소켓친구", { email: "socket.friend@example.com" });
    expect((await g.ok(200, "GET", "/api/guilds/my", friend.token)).invitations).toHaveLength(1);
  });

  test("a kicked member's sockets leave the room at once; the others are told", async () => {
    const kicked = await g.user("추방될");
    const entry = await g.addMember(f.guild.id, f.admin, kicked);
    const admin = await inRoom(f.admin.token);
    const tab1 = await inRoom(kicked.token);
    const tab2 = await inRoom(kicked.token);
    const byMember = await (await inRoom(f.member.token)).ack("guild:kick_member", {
      guild_id: f.guild.id,
      member_id: entry.id,
    });
    expect(byMember).toEqual({ success: false, error: `${GUILD_MSG.kickFailed} ${GUILD_MSG.staffOnly}` });

    const ok = await admin.ack("guild:kick_member", { guild_id: f.guild.id, member_id: entry.id });
    expect(ok).toEqual({ success: true, detail: GUILD_MSG.kicked, member_id: entry.id, user_id: kicked.id });
    for (const tab of [tab1, tab2]) {
      expect(await tab.next("guild:removed")).toMatchObject({ guild_id: f.guild.id, reason: "kicked" });
    }
    expect(await admin.next("guild:user_left", (p) => p.user_id === kicked.id)).toMatchObject({ reason: "kicked" });
    // Out of the room at once: a line from either tab is refused and nobody receives it.
    tab1.emit("guild:message", { guild_id: f.guild.id, message: "아직 있어요" });
    expect((await tab1.next("error")).event).toBe("guild:message");
    tab2.emit("guild:join", { guild_id: f.guild.id });
    expect((await tab2.next("error")).message).toBe(GUILD_MSG.notMember);
    await admin.sync();
    expect(admin.all("guild:message")).toEqual([]);
    // Later room broadcasts no longer reach the kicked tabs.
    admin.emit("guild:message", { guild_id: f.guild.id, message: "정리 끝" });
    await admin.next("guild:message");
    await tab1.sync();
    expect(tab1.all("guild:message")).toEqual([]);
  });

  test("a kick over HTTP empties the member's sockets from the room too", async () => {
    const kicked = await g.user("HTTP추방");
    const entry = await g.addMember(f.guild.id, f.admin, kicked);
    const tab = await inRoom(kicked.token);
    await g.ok(200, "DELETE", `/api/guilds/${f.guild.id}/members/${entry.id}`, f.moderator.token);
    expect((await tab.next("guild:removed")).reason).toBe("kicked");
    tab.emit("guild:message", { guild_id: f.guild.id, message: "여보세요" });
    expect((await tab.next("error")).event).toBe("guild:message");
  });
});

describe("the socket permission matrix", () => {
  ownServer("소켓권한");

  test("each guild room action as admin, moderator, member, non-member and guest", async () => {
    const roles = ["admin", "moderator", "member", "outsider", "guest"] as const;
    const tokens = {
      admin: f.admin.token,
      moderator: f.moderator.token,
      member: f.member.token,
      outsider: f.outsider.token,
      guest: undefined,
    };
    const sockets = new Map<string, GuildClient>();
    for (const role of roles) {
      const c = await client(tokens[role]);
      c.emit("guild:join", { guild_id: f.guild.id });
      await Promise.race([c.next("guild:joined"), c.next("error")]);
      sockets.set(role, c);
    }
    const joined = roles.map((r) => sockets.get(r)!.all("guild:joined").length > 0);
    expect(joined).toEqual([true, true, true, false, false]);

    /** One action per role; `true` when it was accepted. */
    const row = async (event: string, payload: () => Promise<unknown> | unknown) => {
      const out: boolean[] = [];
      for (const role of roles) out.push((await sockets.get(role)!.ack(event, await payload())).success === true);
      return out;
    };
    let n = 0;
    expect(
      await row("guild:update_settings", () => ({ guild_id: f.guild.id, settings: { countdown_seconds: 4 } })),
    ).toEqual([true, false, false, false, false]);
    expect(
      await row("guild:upload_problems", () => ({ guild_id: f.guild.id, problems: ["열 글자가 넘는 문제"] })),
    ).toEqual([true, false, false, false, false]);
    expect(
      await row("guild:update_member_role", () => ({
        guild_id: f.guild.id,
        member_id: f.plainMember.id,
        role: "member",
      })),
    ).toEqual([true, false, false, false, false]);
    expect(
      await row("guild:send_invites", () => ({ guild_id: f.guild.id, invites: [{ email: `m${++n}@example.com` }] })),
    ).toEqual([true, false, false, false, false]);
    expect(
      await row("guild:kick_member", async () => {
        const target = await g.addMember(f.guild.id, f.admin, await g.user("표적"));
        return { guild_id: f.guild.id, member_id: target.id };
      }),
    ).toEqual([true, true, false, false, false]);
  });
});
