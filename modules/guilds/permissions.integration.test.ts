import { afterAll, beforeAll, expect, test } from "bun:test";
import { GUILD_MSG } from "./rules";
import { type GuildServer, startGuildServer, type TestUser } from "./test-support";

/**
 * The permission matrix of every guild route (spec §6, product-rules "Guilds"): each route is called as the guild's
 * admin, a moderator, a plain member, a logged-in non-member and an anonymous visitor, over real HTTP, and the
 * statuses are compared as one row, so a failure names the route and every role's answer. A call that succeeds and
 * changes something gets fresh material (a new target, application, post or guild), so the roles do not interfere.
 */
const ROLES = ["admin", "moderator", "member", "outsider", "anonymous"] as const;
type Role = (typeof ROLES)[number];
type Expected = [admin: number, moderator: number, member: number, outsider: number, anonymous: number];

let g: GuildServer;
type Fixture = Awaited<ReturnType<GuildServer["guildWithRoles"]>>;
let f: Fixture;
let postId: number; // a guild board post by the member
let adminPostId: number; // a guild board post by the admin
let recruitmentId: number;
let invitationId: number; // to the e-mail of someone who is none of the five

beforeAll(async () => {
  g = await startGuildServer();
  f = await g.guildWithRoles("권한길드");
  postId = (
    await g.ok(201, "POST", `/api/guilds/${f.guild.id}/board`, f.member.token, { title: "글", content: "내용" })
  ).id;
  adminPostId = (
    await g.ok(201, "POST", `/api/guilds/${f.guild.id}/board`, f.admin.token, { title: "공지", content: "내용" })
  ).id;
  recruitmentId = (
    await g.ok(201, "POST", "/api/guilds/recruitment", f.admin.token, {
      guild_id: f.guild.id,
      title: "모집",
      content: "환영",
    })
  ).id;
  invitationId = (
    await g.ok(201, "POST", `/api/guilds/${f.guild.id}/invitations`, f.admin.token, {
      invites: [{ email: "someone.else@example.com" }],
    })
  ).invitations[0].id;
});
afterAll(() => g.server.stop());

const tokenOf = (role: Role, fixture: Fixture = f) => (role === "anonymous" ? undefined : fixture[role].token);

/** Every 403 the matrix was answered, with its `detail`: the last test finds each documented on its route. */
const refusals: { method: string; path: string; detail: string }[] = [];
function answered(method: string, path: string, res: { status: number; body: { detail?: unknown } }) {
  if (res.status === 403) refusals.push({ method, path, detail: String(res.body.detail) });
  return res.status;
}
const status = async (method: string, path: string, token?: string, body?: unknown) =>
  answered(method, path, await g.server.api(method, path, { token, body }));

/** Runs one route for every role (in `order`) and checks the statuses as a row. */
async function row(
  route: string,
  expected: Expected,
  send: (role: Role) => Promise<number>,
  order: readonly Role[] = ROLES,
) {
  const got = new Map<Role, number>();
  for (const role of order) got.set(role, await send(role));
  expect({ route, statuses: ROLES.map((r) => got.get(r)) }).toEqual({ route, statuses: expected });
}

const base = () => `/api/guilds/${f.guild.id}`;

/** A new plain member of the matrix guild (a kick target, an approved applicant). */
async function freshMember() {
  const who = await g.user("대상");
  return { user: who, member: await g.addMember(f.guild.id, f.admin, who) };
}

/** A pending application from a new user in no guild. */
async function freshApplication(): Promise<{ id: number; user: TestUser }> {
  const who = await g.user("지원");
  const app = await g.ok(201, "POST", `/api/guilds/recruitment/${recruitmentId}/apply`, who.token, {});
  return { id: app.id, user: who };
}

test("public reads: anyone, logged in or not", async () => {
  const all: Expected = [200, 200, 200, 200, 200];
  await row("GET /api/guilds", all, (r) => status("GET", "/api/guilds", tokenOf(r)));
  await row("GET /api/guilds/{id}", all, (r) => status("GET", base(), tokenOf(r)));
  await row("GET /api/guilds/recruitment", all, (r) => status("GET", "/api/guilds/recruitment", tokenOf(r)));
  await row("GET /api/guilds/recruitment/{id}", all, (r) =>
    status("GET", `/api/guilds/recruitment/${recruitmentId}`, tokenOf(r)),
  );
  await row("POST /api/guilds/recruitment/{id}/view", all, (r) =>
    status("POST", `/api/guilds/recruitment/${recruitmentId}/view`, tokenOf(r)),
  );
});

test("the caller's own views: any logged-in user", async () => {
  await row("GET /api/guilds/my", [200, 200, 200, 200, 401], (r) => status("GET", "/api/guilds/my", tokenOf(r)));
  await row("GET /api/guilds/{id}/members/me", [200, 200, 200, 200, 401], (r) =>
    status("GET", `${base()}/members/me`, tokenOf(r)),
  );
});

test("members only: member list, problems, the guild board", async () => {
  const members: Expected = [200, 200, 200, 403, 401];
  await row("GET /api/guilds/{id}/members", members, (r) => status("GET", `${base()}/members`, tokenOf(r)));
  await row("GET /api/guilds/{id}/problems", members, (r) => status("GET", `${base()}/problems`, tokenOf(r)));
  await row("GET /api/guilds/{id}/board", members, (r) => status("GET", `${base()}/board`, tokenOf(r)));
  await row("GET /api/guilds/{id}/board/{postId}", members, (r) =>
    status("GET", `${base()}/board/${postId}`, tokenOf(r)),
  );
  await row("GET /api/guilds/{id}/board/{postId}/comments", members, (r) =>
    status("GET", `${base()}/board/${postId}/comments`, tokenOf(r)),
  );
  const writes: Expected = [201, 201, 201, 403, 401];
  await row("POST /api/guilds/{id}/board", writes, (r) =>
    status("POST", `${base()}/board`, tokenOf(r), { title: `${r}의 글`, content: "내용" }),
  );
  await row("POST /api/guilds/{id}/board/{postId}/comments", writes, (r) =>
    status("POST", `${base()}/board/${postId}/comments`, tokenOf(r), { content: `${r}의 댓글` }),
  );
});

test("board edits and deletes: the author or the guild's admins and moderators", async () => {
  await row("PUT own post (author: member)", [200, 200, 200, 403, 401], (r) =>
    status("PUT", `${base()}/board/${postId}`, tokenOf(r), { title: `${r} 수정`, content: "내용" }),
  );
  await row("PUT someone else's post (author: admin)", [200, 200, 403, 403, 401], (r) =>
    status("PUT", `${base()}/board/${adminPostId}`, tokenOf(r), { title: `${r} 수정`, content: "내용" }),
  );
  const post = async (author: TestUser) =>
    (await g.ok(201, "POST", `${base()}/board`, author.token, { title: "지울 글", content: "내용" })).id;
  await row("DELETE own post (author: member)", [200, 200, 200, 403, 401], async (r) =>
    status("DELETE", `${base()}/board/${await post(f.member)}`, tokenOf(r)),
  );
  await row("DELETE someone else's post (author: admin)", [200, 200, 403, 403, 401], async (r) =>
    status("DELETE", `${base()}/board/${await post(f.admin)}`, tokenOf(r)),
  );
  const comment = async (author: TestUser) =>
    (await g.ok(201, "POST", `${base()}/board/${postId}/comments`, author.token, { content: "지울 댓글" })).id;
  await row("DELETE own comment (author: member)", [200, 200, 200, 403, 401], async (r) =>
    status("DELETE", `${base()}/board/${postId}/comments/${await comment(f.member)}`, tokenOf(r)),
  );
  await row("DELETE someone else's comment (author: admin)", [200, 200, 403, 403, 401], async (r) =>
    status("DELETE", `${base()}/board/${postId}/comments/${await comment(f.admin)}`, tokenOf(r)),
  );
});

test("admins only: settings, problems, roles, invitations", async () => {
  const admins: Expected = [200, 403, 403, 403, 401];
  await row("PUT /api/guilds/{id}/settings", admins, (r) =>
    status("PUT", `${base()}/settings`, tokenOf(r), { countdown_seconds: 4 }),
  );
  await row("PUT /api/guilds/{id}/problems", admins, (r) =>
    status("PUT", `${base()}/problems`, tokenOf(r), { problems: [`${r}의 길드 게임 문제`] }),
  );
  await row("POST /api/guilds/{id}/problems/file", admins, async (r) => {
    const form = new FormData();
    form.append("file", new File(['["파일로 올린 길드 게임 문제"]'], "problems.json", { type: "application/json" }));
    const token = tokenOf(r);
    const path = `${base()}/problems/file`;
    const res = await fetch(`${g.server.url}${path}`, {
      method: "POST",
      headers: token ? { authorization: `Bearer ${token}` } : {},
      body: form,
    });
    return answered("POST", path, { status: res.status, body: await res.json() });
  });
  await row("PUT /api/guilds/{id}/members/{memberId}/role", admins, (r) =>
    status("PUT", `${base()}/members/${f.plainMember.id}/role`, tokenOf(r), { role: "member" }),
  );
  await row("GET /api/guilds/{id}/invitations", admins, (r) => status("GET", `${base()}/invitations`, tokenOf(r)));
  await row("POST /api/guilds/{id}/invitations", [201, 403, 403, 403, 401], (r) =>
    status("POST", `${base()}/invitations`, tokenOf(r), { invites: [{ email: `${r}.invitee@example.com` }] }),
  );
});

test("kicks: admins and moderators (a plain member as target)", async () => {
  await row("DELETE /api/guilds/{id}/members/{memberId}", [200, 200, 403, 403, 401], async (r) => {
    const target = await freshMember();
    return status("DELETE", `${base()}/members/${target.member.id}`, tokenOf(r));
  });
});

test("recruitment posts and applications: the guild's admins and moderators decide", async () => {
  await row("POST /api/guilds/recruitment", [201, 201, 403, 403, 401], (r) =>
    status("POST", "/api/guilds/recruitment", tokenOf(r), {
      guild_id: f.guild.id,
      title: `${r} 모집`,
      content: "내용",
    }),
  );
  await row("POST /api/guilds/recruitment/{id}/apply", [409, 409, 409, 201, 401], (r) =>
    status("POST", `/api/guilds/recruitment/${recruitmentId}/apply`, tokenOf(r), {}),
  );
  await row("GET /api/guilds/{id}/applications", [200, 200, 403, 403, 401], (r) =>
    status("GET", `${base()}/applications`, tokenOf(r)),
  );
  await row("POST /api/guilds/{id}/applications/{appId}/approve", [200, 200, 403, 403, 401], async (r) =>
    status("POST", `${base()}/applications/${(await freshApplication()).id}/approve`, tokenOf(r)),
  );
  await row("POST /api/guilds/{id}/applications/{appId}/reject", [200, 200, 403, 403, 401], async (r) =>
    status("POST", `${base()}/applications/${(await freshApplication()).id}/reject`, tokenOf(r)),
  );
});

test("invitations are answered by the invited account only", async () => {
  const notTheirs: Expected = [403, 403, 403, 403, 401];
  await row("POST /api/guilds/invitations/{id}/accept", notTheirs, (r) =>
    status("POST", `/api/guilds/invitations/${invitationId}/accept`, tokenOf(r)),
  );
  await row("POST /api/guilds/invitations/{id}/decline", notTheirs, (r) =>
    status("POST", `/api/guilds/invitations/${invitationId}/decline`, tokenOf(r)),
  );
  const invited = await g.server.createUser("초대된이", { email: "someone.else@example.com" });
  expect(await status("POST", `/api/guilds/invitations/${invitationId}/decline`, invited.token)).toBe(200);
});

test("leaving: members and moderators; the last admin is refused; non-members are not in it", async () => {
  const own = await g.guildWithRoles("탈퇴길드");
  await row("POST /api/guilds/{id}/leave", [409, 200, 200, 403, 401], (r) =>
    status("POST", `/api/guilds/${own.guild.id}/leave`, tokenOf(r, own)),
  );
});

test("creating: only a logged-in user in no guild; disbanding: the admin only", async () => {
  await row("POST /api/guilds", [409, 409, 409, 201, 401], (r) =>
    status("POST", "/api/guilds", tokenOf(r), { name: `${r}의 새 길드` }),
  );
  const own = await g.guildWithRoles("해산권한");
  // The admin goes last: a disbanded guild would answer 404 to the others.
  await row(
    "DELETE /api/guilds/{id}",
    [200, 403, 403, 403, 401],
    (r) => status("DELETE", `/api/guilds/${own.guild.id}`, tokenOf(r, own)),
    ["anonymous", "outsider", "member", "moderator", "admin"],
  );
});

test("every 403 above is documented on its route word for word (/swagger/json), from the texts the server sends", async () => {
  const spec = (await g.server.api("GET", "/swagger/json")).body;
  const templates = Object.keys(spec.paths).filter((path) => path.startsWith("/api/guilds"));
  const undocumented: string[] = [];
  for (const { method, path, detail } of refusals) {
    const template = templateOf(templates, path);
    const described: string = spec.paths[template][method.toLowerCase()].responses["403"]?.description ?? "";
    if (!described.includes(`"${detail}"`))
      undocumented.push(`${method} ${template}: ${detail} (documented: ${described})`);
  }
  expect(new Set(refusals.map((r) => r.detail))).toEqual(
    new Set([
      GUILD_MSG.notMember,
      GUILD_MSG.adminOnly,
      GUILD_MSG.staffOnly,
      GUILD_MSG.postEditForbidden,
      GUILD_MSG.postDeleteForbidden,
      GUILD_MSG.commentDeleteForbidden,
      GUILD_MSG.invitationNotYours,
    ]),
  );
  expect(undocumented).toEqual([]);
});

/** The OpenAPI path of a request path: of the templates it fits, the one with the most literal segments. */
function templateOf(templates: string[], path: string): string {
  const segments = path.split("/");
  const fits = (template: string) => {
    const parts = template.split("/");
    return parts.length === segments.length && parts.every((part, i) => part.startsWith("{") || part === segments[i]);
  };
  const literal = (template: string) => template.split("/").filter((part) => !part.startsWith("{")).length;
  const found = templates.filter(fits).sort((a, b) => literal(b) - literal(a))[0];
  if (!found) throw new Error(`no documented route for ${path}`);
  return found;
}
