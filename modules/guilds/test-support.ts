import { startTestServer, type TestServer, type TestUser } from "../../apps/server/testing";
import { FakeClock } from "../kernel/clock";
import { openTestClient, type TestClient } from "../kernel/socket-testing";

export type { TestServer, TestUser };

/** A real server on a fake clock (ordering by time and view windows without sleeping) plus guild helpers. */
export async function startGuildServer() {
  const clock = new FakeClock(Date.UTC(2026, 3, 1, 3, 0, 0));
  const server = await startTestServer({ clock });
  let users = 0;
  /** A registered, logged-in member; names are unique per server. */
  const user = (prefix = "길드원") => server.createUser(`${prefix}${++users}`, { password: "guild-pass-2026" });

  /** Calls the API and fails loudly unless the status is the expected one. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the route answers
  async function ok<T = any>(status: number, method: string, path: string, token?: string, body?: unknown) {
    const res = await server.api<T>(method, path, { token, body });
    if (res.status !== status) {
      throw new Error(`${method} ${path}: expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
    }
    clock.advance(1_000); // distinct creation times keep "newest first" orders meaningful
    return res.body;
  }

  async function createGuild(admin: TestUser, name: string, description = "함께 타자 연습해요") {
    return ok(201, "POST", "/api/guilds", admin.token, { name, description });
  }

  /** Invites `who` by e-mail and accepts as them; returns their Guild member entry. */
  async function addMember(guildId: number, admin: TestUser, who: TestUser) {
    const sent = await ok(201, "POST", `/api/guilds/${guildId}/invitations`, admin.token, {
      invites: [{ username: who.username, email: who.email }],
    });
    await ok(200, "POST", `/api/guilds/invitations/${sent.invitations[0].id}/accept`, who.token);
    const members = await ok(200, "GET", `/api/guilds/${guildId}/members`, admin.token);
    return members.find((m: { user_id: number }) => m.user_id === who.id) as { id: number; role: string };
  }

  /**
   * The five roles of the permission matrix around one guild: its admin, a moderator, a member, a logged-in
   * non-member (in no guild) and anonymous (no token).
   */
  async function guildWithRoles(name = "매트릭스") {
    const admin = await user("관리");
    const moderator = await user("부관");
    const member = await user("회원");
    const outsider = await user("외부");
    const guild = await createGuild(admin, name);
    const moderatorMember = await addMember(guild.id, admin, moderator);
    await ok(200, "PUT", `/api/guilds/${guild.id}/members/${moderatorMember.id}/role`, admin.token, {
      role: "moderator",
    });
    const plainMember = await addMember(guild.id, admin, member);
    return { guild, admin, moderator, member, outsider, moderatorMember, plainMember };
  }

  return { server, clock, user, ok, createGuild, addMember, guildWithRoles };
}
export type GuildServer = Awaited<ReturnType<typeof startGuildServer>>;

/** The kernel's test socket client, under the name these tests use. */
export { type Received, TestClient as GuildClient } from "../kernel/socket-testing";

/** A connected client: a member with their token, or a guest without one. */
export function openGuildClient(server: TestServer, token?: string): Promise<TestClient> {
  return openTestClient(server, token ? { token } : { client_id: `guest-${crypto.randomUUID()}` });
}
