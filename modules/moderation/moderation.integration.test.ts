import { describe, expect, test } from "bun:test";
import { newReplayKey } from "../games";
import { usersRanking } from "../rankings";
import { playResult, member as rankedMember } from "../rankings/test-support";
import { seoulMinute } from "./rules";
import { moderationTestServer } from "./test-support";

const WEEK = 7 * 86_400_000;

/**
 * Reports, the queue and every action end to end: real server (on a FakeClock), real database of the run's engine,
 * real socket.io clients. Each test reports its own target, so tests never see each other's groups.
 */
const { clock, state, member, roomWith, say, api, later } = moderationTestServer();
const admin = () => state.admin.token;

/** The open group of a target, as the queue lists it. */
async function openGroup(targetKey: string) {
  const queue = await api("GET", "/api/moderation/reports?status=open&size=50", { token: admin() });
  expect(queue.status).toBe(200);
  return queue.body.groups.find((g: { target_key: string }) => g.target_key === targetKey);
}

describe("reporting a chat line", () => {
  test("keeps the line and the 20 before it as they were; one open report per reporter and target", async () => {
    const [reporter, offender] = [await member("신고자"), await member("가해자")];
    const { room, sockets } = await roomWith(reporter, offender);
    const [r, o] = sockets;
    for (let i = 1; i <= 24; i++) await say(i % 2 ? o : r, room.id, `줄 ${i}`);
    const reported = await say(o, room.id, "나쁜 말");
    await say(r, room.id, "뒤에 온 줄");

    const body = {
      kind: "room_chat",
      room_id: room.id,
      line_id: reported.line_id,
      reason: "욕설/비방",
      note: "심해요",
    };
    const first = await api("POST", "/api/reports", { token: reporter.token, body });
    expect(first.status).toBe(201);
    expect(first.body.detail).toBe("신고가 접수되었습니다. 관리자가 확인합니다.");

    const again = await api("POST", "/api/reports", { token: reporter.token, body });
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe("이미 신고한 대상입니다. 관리자가 확인할 때까지 기다려주세요.");

    const group = await openGroup(`room_chat:${room.id}:${reported.line_id}`);
    expect(group).toMatchObject({ target_kind: "room_chat", count: 1, offender: { id: offender.id } });
    const [report] = group.reports;
    expect(report).toMatchObject({ reporter: { id: reporter.id }, reason: "욕설/비방", note: "심해요" });
    const lines = report.evidence.lines as { message: string; user_id: number }[];
    expect(lines).toHaveLength(21);
    expect(lines.at(-1)).toMatchObject({ message: "나쁜 말", user_id: offender.id });
    expect(lines[0].message).toBe("줄 5");
    expect(lines.map((l) => l.message)).not.toContain("뒤에 온 줄");
  });

  test("refuses a report of oneself, of a guest's line, of an unknown line, and without a login", async () => {
    const someone = await member();
    const { room, sockets } = await roomWith(someone);
    const own = await say(sockets[0], room.id, "내 줄");
    const self = await api("POST", "/api/reports", {
      token: someone.token,
      body: { kind: "room_chat", room_id: room.id, line_id: own.line_id, reason: "도배" },
    });
    expect(self.status).toBe(400);
    expect(self.body.detail).toBe("자기 자신은 신고할 수 없습니다.");

    const unknown = await api("POST", "/api/reports", {
      token: someone.token,
      body: { kind: "room_chat", room_id: room.id, line_id: "nothing-here", reason: "도배" },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toContain("신고할 채팅을 찾을 수 없습니다");

    const incomplete = await api("POST", "/api/reports", {
      token: someone.token,
      body: { kind: "room_chat", room_id: room.id, reason: "도배" },
    });
    expect(incomplete.status).toBe(422);

    const badReason = await api("POST", "/api/reports", {
      token: someone.token,
      body: { kind: "player", user_id: state.admin.id, reason: "그냥" },
    });
    expect(badReason.status).toBe(422);

    const anonymous = await api("POST", "/api/reports", {
      body: { kind: "player", user_id: someone.id, reason: "기타" },
    });
    expect(anonymous.status).toBe(401);
  });
});

describe("the queue is for administrators", () => {
  test("a member gets 403, an anonymous caller 401, on every queue route", async () => {
    const someone = await member();
    for (const [method, path] of [
      ["GET", "/api/moderation/reports"],
      ["GET", "/api/moderation/summary"],
      ["GET", "/api/moderation/reports/1"],
      ["POST", "/api/moderation/reports/1/resolve"],
      ["POST", "/api/moderation/restrictions/1/lift"],
      ["GET", `/api/moderation/users/${someone.id}/restrictions`],
    ] as const) {
      const body = method === "POST" ? { action: "dismiss" } : undefined;
      const refused = await api(method, path, { token: someone.token, body });
      expect(refused.status).toBe(403);
      expect(refused.body.detail).toBe("관리자 권한이 필요합니다.");
      expect((await api(method, path, { body })).status).toBe(401);
    }
  });
});

describe("a mute", () => {
  test("reaches the member's socket at once, refuses their chat and posts with the end, and ends by itself", async () => {
    const [reporter, offender] = [await member(), await member("말썽")];
    const { room, sockets } = await roomWith(reporter, offender);
    const line = await say(sockets[1], room.id, "도배도배도배");
    const reported = await api("POST", "/api/reports", {
      token: reporter.token,
      body: { kind: "room_chat", room_id: room.id, line_id: line.line_id, reason: "도배" },
    });
    expect((await api("GET", "/api/moderation/summary", { token: admin() })).body.reports).toBeGreaterThanOrEqual(1);

    const missing = await api("POST", `/api/moderation/reports/${reported.body.id}/resolve`, {
      token: admin(),
      body: { action: "mute" },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toBe("기간을 골라주세요.");
    const longMute = await api("POST", `/api/moderation/reports/${reported.body.id}/resolve`, {
      token: admin(),
      body: { action: "mute", duration: "30d" },
    });
    expect(longMute.status).toBe(400);

    const mutedAt = clock.now();
    const resolved = await api("POST", `/api/moderation/reports/${reported.body.id}/resolve`, {
      token: admin(),
      body: { action: "mute", duration: "1h" },
    });
    expect(resolved.status).toBe(200);
    expect(resolved.body).toMatchObject({ status: "resolved", resolution: "mute", resolved_by: state.admin.username });
    expect(resolved.body.restrictions).toMatchObject([{ kind: "mute", reason: "도배" }]);

    const until = seoulMinute(mutedAt + 3_600_000);
    const told = await sockets[1].next("moderation:muted");
    expect(told.detail).toBe(`${until}까지 채팅이 제한되었습니다. (사유: 도배)`);

    sockets[1].emit("chat_message", { room_id: room.id, message: "말해도 될까" });
    const refused = await sockets[1].next("error", (e) => e.code === "muted");
    expect(refused.message).toBe(`${until}까지 채팅이 제한되었습니다. (사유: 도배)`);
    expect(sockets[0].log.some((r) => r.event === "chat:message" && r.payload.message === "말해도 될까")).toBe(false);

    const post = await api("POST", "/api/board/", { token: offender.token, body: { title: "제목", content: "내용" } });
    expect(post.status).toBe(403);
    expect(post.body.detail).toBe(`${until}까지 글과 댓글을 쓸 수 없습니다. (사유: 도배)`);
    const mine = await api("GET", "/api/moderation/me", { token: offender.token });
    expect(mine.body.mute).toMatchObject({ reason: "도배", until: new Date(mutedAt + 3_600_000).toISOString() });

    const log = await api("GET", "/api/admin/logs?action=mute_user", { token: admin() });
    expect(log.body.logs[0]).toMatchObject({ target_user_id: offender.id, admin_id: state.admin.id });
    expect(JSON.parse(log.body.logs[0].details)).toMatchObject({ report_id: reported.body.id, duration: "1h" });

    const twice = await api("POST", `/api/moderation/reports/${reported.body.id}/resolve`, {
      token: admin(),
      body: { action: "dismiss" },
    });
    expect(twice.status).toBe(409);

    await later(3_600_000 + 1, offender);
    const after = await api("POST", "/api/board/", { token: offender.token, body: { title: "제목", content: "내용" } });
    expect(after.status).toBe(201);
    const back = await say(sockets[1], room.id, "다시 말해요");
    expect(back.message).toBe("다시 말해요");
  });
});

describe("a suspension", () => {
  test("ends the member's sessions at once and refuses their login with the reason and the end, until lifted", async () => {
    const [reporter, offender] = [await member(), await member("정지")];
    const { sockets } = await roomWith(offender);
    const reported = await api("POST", "/api/reports", {
      token: reporter.token,
      body: { kind: "player", user_id: offender.id, reason: "부적절한 닉네임" },
    });
    expect(reported.status).toBe(201);
    // Sessions issued before the closure end with it (the same millisecond is not before it).
    clock.advance(1);
    const suspendedAt = clock.now();
    const resolved = await api("POST", `/api/moderation/reports/${reported.body.id}/resolve`, {
      token: admin(),
      body: { action: "suspend", duration: "7d", reason: "닉네임이 부적절합니다" },
    });
    expect(resolved.status).toBe(200);
    const closed = await sockets[0].next("user:session_closed");
    expect(closed.reason).toBe("suspended");

    const login = await api("POST", "/api/users/login", {
      body: { email: offender.email, password: offender.password },
    });
    expect(login.status).toBe(403);
    expect(login.body).toMatchObject({
      detail: `이용이 정지된 계정입니다. 사유: 닉네임이 부적절합니다. ${seoulMinute(suspendedAt + WEEK)}까지 로그인할 수 없습니다.`,
      reason: "suspended",
      suspension_reason: "닉네임이 부적절합니다",
      suspended_until: new Date(suspendedAt + WEEK).toISOString(),
    });
    const refresh = await api("POST", "/api/users/refresh", { body: { refresh_token: offender.refreshToken } });
    expect(refresh.status).toBe(401);
    expect(refresh.body.reason).toBe("suspended");
    expect((await api("GET", "/api/users/me", { token: offender.token })).status).toBe(401);

    const [restriction] = resolved.body.restrictions;
    const lifted = await api("POST", `/api/moderation/restrictions/${restriction.id}/lift`, { token: admin() });
    expect(lifted.status).toBe(200);
    expect(lifted.body.lifted_by).toBe(state.admin.username);
    const liftedTwice = await api("POST", `/api/moderation/restrictions/${restriction.id}/lift`, { token: admin() });
    expect(liftedTwice.status).toBe(409);
    const again = await api("POST", "/api/users/login", {
      body: { email: offender.email, password: offender.password },
    });
    expect(again.status).toBe(200);
  });

  test("an administrator cannot act on their own account", async () => {
    const reporter = await member();
    const reported = await api("POST", "/api/reports", {
      token: reporter.token,
      body: { kind: "player", user_id: state.admin.id, reason: "기타" },
    });
    const refused = await api("POST", `/api/moderation/reports/${reported.body.id}/resolve`, {
      token: admin(),
      body: { action: "suspend", duration: "permanent" },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toBe("자기 자신에게는 조치할 수 없습니다.");
  });
});

describe("the other actions", () => {
  test("delete: a reported post is gone, both reports of it resolved with one entry in the log", async () => {
    const [a, b, author] = [await member(), await member(), await member("작성")];
    const post = await api("POST", "/api/board/", { token: author.token, body: { title: "광고", content: "사세요" } });
    const reports = [];
    for (const reporter of [a, b]) {
      const sent = await api("POST", "/api/reports", {
        token: reporter.token,
        body: { kind: "board_post", post_id: post.body.id, reason: "도배" },
      });
      reports.push(sent.body.id);
    }
    const group = await openGroup(`board_post:${post.body.id}`);
    expect(group).toMatchObject({ count: 2, reasons: { 도배: 2 } });
    expect(group.reports[0].evidence).toMatchObject({ type: "content", title: "광고", content: "사세요" });

    const done = await api("POST", `/api/moderation/reports/${reports[1]}/resolve`, {
      token: admin(),
      body: { action: "delete" },
    });
    expect(done.status).toBe(200);
    expect(done.body.count).toBe(2);
    expect((await api("GET", `/api/board/${post.body.id}`)).status).toBe(404);
    const log = await api("GET", "/api/admin/logs?action=report_delete_content", { token: admin() });
    expect(JSON.parse(log.body.logs[0].details)).toMatchObject({ report_id: reports[1] });
    const resolved = await api("GET", `/api/moderation/reports/${reports[0]}`, { token: admin() });
    expect(resolved.body).toMatchObject({ status: "resolved", resolution: "delete", count: 2 });
  });

  test("warn: the member sees the notice once, at their next login", async () => {
    const [reporter, offender] = [await member(), await member()];
    const reported = await api("POST", "/api/reports", {
      token: reporter.token,
      body: { kind: "player", user_id: offender.id, reason: "기타" },
    });
    await api("POST", `/api/moderation/reports/${reported.body.id}/resolve`, {
      token: admin(),
      body: { action: "warn", message: "다른 회원을 존중해주세요." },
    });
    const mine = await api("GET", "/api/moderation/me", { token: offender.token });
    expect(mine.body.notices).toMatchObject([{ message: "다른 회원을 존중해주세요." }]);
    const seen = await api("POST", `/api/moderation/notices/${mine.body.notices[0].id}/seen`, {
      token: offender.token,
    });
    expect(seen.status).toBe(200);
    expect((await api("GET", "/api/moderation/me", { token: offender.token })).body.notices).toEqual([]);
    const notTheirs = await api("POST", `/api/moderation/notices/${mine.body.notices[0].id}/seen`, {
      token: reporter.token,
    });
    expect(notTheirs.status).toBe(404);
  });

  test("exclude from rankings: the results stay, the rankings leave the member out; a cheating report keeps the replay", async () => {
    const [reporter, cheat, honest] = [await member(), await member("빠름"), await member("정직")];
    const key = newReplayKey();
    const at = clock.now();
    const steps = [
      { t: 0, text: "" },
      { t: 100, text: "가나다" },
    ];
    await playResult(state.server.ctx, rankedMember(cheat), {
      wpm: 900,
      accuracy: 100,
      at,
      replay: { key, sentence: "가나다", steps },
    });
    await playResult(state.server.ctx, rankedMember(honest), { wpm: 300, accuracy: 98, at });
    const before = await usersRanking(state.server.ctx, { period: "all", limit: 100 });
    expect(before.some((e) => e.user_id === cheat.id)).toBe(true);

    const reported = await api("POST", "/api/reports", {
      token: reporter.token,
      body: { kind: "player", replay_key: key, reason: "부정행위" },
    });
    expect(reported.status).toBe(201);
    const group = (await api("GET", `/api/moderation/reports/${reported.body.id}`, { token: admin() })).body;
    expect(group.reports[0].evidence).toMatchObject({ type: "player", user_id: cheat.id, replay: { key, wpm: 900 } });
    const wrongPlayer = await api("POST", "/api/reports", {
      token: reporter.token,
      body: { kind: "player", user_id: honest.id, replay_key: key, reason: "부정행위" },
    });
    expect(wrongPlayer.status).toBe(400);

    await api("POST", `/api/moderation/reports/${reported.body.id}/resolve`, {
      token: admin(),
      body: { action: "exclude" },
    });
    const after = await usersRanking(state.server.ctx, { period: "all", limit: 100 });
    expect(after.some((e) => e.user_id === cheat.id)).toBe(false);
    expect(after.find((e) => e.user_id === honest.id)?.rank).toBe(
      (before.find((e) => e.user_id === honest.id)?.rank ?? 0) - 1,
    );
    const records = await api("GET", `/api/games/results/user/${cheat.id}`, { token: cheat.token });
    expect(records.body).toMatchObject([{ wpm: 900 }]);
  });
});

describe("blocks", () => {
  test("a member blocks and unblocks another; the list is kept on the server; refusals", async () => {
    const [me, other] = [await member("차단자"), await member("상대")];
    const blocked = await api("PUT", `/api/blocks/${other.id}`, { token: me.token });
    expect(blocked.status).toBe(200);
    expect(blocked.body.detail).toBe("차단했습니다. 이 사용자의 채팅과 글이 보이지 않습니다.");
    expect((await api("PUT", `/api/blocks/${other.id}`, { token: me.token })).status).toBe(200);
    const list = await api("GET", "/api/blocks", { token: me.token });
    expect(list.body.blocks).toEqual([
      { user_id: other.id, username: other.username, created_at: new Date(clock.now()).toISOString() },
    ]);
    // The list is the member's own: a guest is refused with the login text used everywhere.
    const guestList = await api("GET", "/api/blocks");
    expect(guestList.status).toBe(401);
    expect(guestList.body.detail).toBe("로그인이 필요합니다.");
    expect((await api("GET", "/api/moderation/me", { token: me.token })).body.blocked).toEqual([other.id]);
    // Blocking is one way: the other member blocked nobody.
    expect((await api("GET", "/api/moderation/me", { token: other.token })).body.blocked).toEqual([]);

    const self = await api("PUT", `/api/blocks/${me.id}`, { token: me.token });
    expect(self.status).toBe(400);
    expect(self.body.detail).toBe("자기 자신은 차단할 수 없습니다.");
    const unknown = await api("PUT", "/api/blocks/999999", { token: me.token });
    expect(unknown.status).toBe(404);
    expect((await api("PUT", `/api/blocks/${other.id}`)).status).toBe(401);

    expect((await api("DELETE", `/api/blocks/${other.id}`, { token: me.token })).body.detail).toBe(
      "차단을 풀었습니다.",
    );
    const again = await api("DELETE", `/api/blocks/${other.id}`, { token: me.token });
    expect(again.status).toBe(404);
    expect(again.body.detail).toBe("차단하지 않은 사용자입니다.");
    expect((await api("GET", "/api/blocks", { token: me.token })).body.blocks).toEqual([]);
  });
});
