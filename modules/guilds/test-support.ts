import { io as connect, type Socket } from "socket.io-client";
import { startTestServer, type TestServer, type TestUser } from "../../apps/server/testing";
import { FakeClock } from "../kernel/clock";

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

/** Every event a test socket received, in order. */
export interface Received {
  event: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever payload the event carries
  payload: any;
}

/**
 * A real socket.io client that records what it receives (the same idea as the rooms tests' client, kept here so
 * this module's tests import nothing of another module but its index).
 */
export class GuildClient {
  readonly log: Received[] = [];
  private waiters: { test: (r: Received) => boolean; done: (r: Received) => void }[] = [];
  private cursors = new Map<string, number>();

  constructor(readonly socket: Socket) {
    socket.onAny((event: string, payload: unknown) => {
      const received = { event, payload };
      this.log.push(received);
      for (const waiter of [...this.waiters]) {
        if (waiter.test(received)) {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          waiter.done(received);
        }
      }
    });
  }

  emit(event: string, ...args: unknown[]) {
    this.socket.emit(event, ...args);
  }

  /** Emits with an acknowledgement and resolves with what the server acknowledged. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever the server acknowledges
  ack(event: string, payload: unknown): Promise<any> {
    return this.socket.timeout(3_000).emitWithAck(event, payload);
  }

  /** The next event of that name (after the previous `next` of that name) that matches; waits for it if needed. */
  // biome-ignore lint/suspicious/noExplicitAny: see Received
  next(event: string, match: (payload: any) => boolean = () => true, timeoutMs = 3_000): Promise<any> {
    const test = (r: Received) => r.event === event && match(r.payload);
    const from = this.cursors.get(event) ?? 0;
    for (let i = from; i < this.log.length; i++) {
      if (test(this.log[i])) {
        this.cursors.set(event, i + 1);
        return Promise.resolve(this.log[i].payload);
      }
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w.done !== done);
        const seen = this.log.slice(from).map((r) => r.event);
        reject(new Error(`no ${event} within ${timeoutMs} ms; received since: ${seen.join(", ")}`));
      }, timeoutMs);
      const done = (r: Received) => {
        clearTimeout(timer);
        this.cursors.set(event, this.log.indexOf(r) + 1);
        resolve(r.payload);
      };
      this.waiters.push({ test, done });
    });
  }

  all(event: string) {
    return this.log.filter((r) => r.event === event).map((r) => r.payload);
  }

  /** A round trip: everything the server sent before has arrived when this resolves. */
  async sync() {
    const stamp = Math.random();
    this.emit("ping", { timestamp: stamp });
    await this.next("pong", (p) => p.timestamp === stamp);
  }

  close() {
    this.socket.disconnect();
  }
}

/** A connected client: a member with their token, or a guest without one. */
export async function openGuildClient(server: TestServer, token?: string): Promise<GuildClient> {
  const socket = connect(server.url, {
    path: "/socket.io/",
    transports: ["websocket"],
    reconnection: false,
    forceNew: true,
    auth: token ? { token } : { client_id: `guest-${crypto.randomUUID()}` },
  });
  const client = new GuildClient(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", reject);
  });
  return client;
}
