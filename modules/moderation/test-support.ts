import { afterAll, afterEach, beforeAll } from "bun:test";
import { startTestServer, type TestServer, type TestUser } from "../../apps/server/testing";
import { FakeClock } from "../kernel/clock";
import { closeAndWait, openTestClient, type TestClient } from "../kernel/socket-testing";
import { createRoom } from "../rooms";

export { closeAndWait, type TestClient };

/**
 * One real server on a FakeClock per test file (mutes and suspensions end without sleeping), with helpers: members,
 * an administrator, clients that are closed after each test, a fresh room with members in it.
 */
export function moderationTestServer() {
  const clock = new FakeClock(Date.UTC(2026, 2, 10, 3, 0, 0));
  const clients: TestClient[] = [];
  const state = {} as { server: TestServer; admin: TestUser };
  let users = 0;
  let rooms = 0;

  beforeAll(async () => {
    state.server = await startTestServer({ clock });
    state.admin = await state.server.createUser("관리자", { admin: true });
  });
  afterAll(() => state.server.stop());
  afterEach(async () => {
    for (const c of clients.splice(0)) await closeAndWait(state.server, c);
  });

  async function open(auth: Record<string, string>) {
    const client = await openTestClient(state.server, auth);
    clients.push(client);
    await client.sync();
    return client;
  }

  /** A registered, logged-in member (names stay within the 12-character rule). */
  const member = (prefix = "회원") => state.server.createUser(`${prefix}${++users}`);

  /** A fresh room and a connected client of each member in it. */
  async function roomWith(...members: TestUser[]) {
    const room = await createRoom(state.server.ctx, { name: `신고 방 ${++rooms}`, theme: "beginner", maxUsers: 20 });
    const sockets: TestClient[] = [];
    for (const m of members) {
      const client = await open({ token: m.token, client_id: `client-${m.id}-${rooms}` });
      client.emit("join_room", { room_id: room.id });
      await client.next("room:joined");
      sockets.push(client);
    }
    return { room, sockets };
  }

  /** A chat line from `client`, and the line as the room saw it (with its `line_id`). */
  async function say(client: TestClient, roomId: number, message: string) {
    // A second between lines: chat's own limit is 5 lines in 3 s.
    clock.advance(1_000);
    client.emit("chat_message", { room_id: roomId, message });
    return client.next("chat:message", (line) => line.message === message && line.line_id);
  }

  const api = (...args: Parameters<TestServer["api"]>) => state.server.api(...args);

  /** Moves time on; access tokens live 15 minutes, so the administrator and `others` log in again. */
  async function later(ms: number, ...others: TestUser[]) {
    clock.advance(ms);
    for (const user of [state.admin, ...others]) {
      const login = await api("POST", "/api/users/login", { body: { email: user.email, password: user.password } });
      user.token = login.body.access_token;
      user.refreshToken = login.body.refresh_token;
    }
  }

  return { clock, state, open, member, roomWith, say, api, later };
}
