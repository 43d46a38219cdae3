import { startTestServer } from "../../apps/server/testing";
import { accountsApi } from "../accounts";
import { FakeClock } from "../kernel/clock";

export interface TestUser {
  id: number;
  username: string;
  token: string;
}

/** A real server on a fake clock (view windows and ordering by time without sleeping) plus user helpers. */
export async function startBoardServer() {
  const clock = new FakeClock(Date.UTC(2026, 2, 1, 3, 0, 0));
  const server = await startTestServer({ clock });
  let n = 0;

  async function user(username = `user${++n}`, { admin = false } = {}): Promise<TestUser> {
    const email = `${username.toLowerCase()}@example.com`;
    const password = "board-pass-2026";
    const reg = await server.api("POST", "/api/users/register", { body: { username, email, password } });
    if (reg.status !== 201) throw new Error(`register ${username}: ${reg.status} ${JSON.stringify(reg.body)}`);
    if (admin) accountsApi(server.ctx).service.setAdmin(reg.body.id, true);
    const login = await server.api("POST", "/api/users/login", { body: { email, password } });
    if (login.status !== 200) throw new Error(`login ${username}: ${login.status} ${JSON.stringify(login.body)}`);
    return { id: reg.body.id, username, token: login.body.access_token };
  }

  async function post(author: TestUser, title = "제목", content = "내용") {
    const res = await server.api("POST", "/api/board/", { body: { title, content }, token: author.token });
    if (res.status !== 201) throw new Error(`post: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { id: number; title: string; content: string };
  }

  async function comment(author: TestUser, postId: number, content = "댓글", parentId: number | null = null) {
    const res = await server.api("POST", `/api/board/${postId}/comments`, {
      body: { content, parent_id: parentId },
      token: author.token,
    });
    if (res.status !== 201) throw new Error(`comment: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { id: number; content: string };
  }

  return { server, clock, user, post, comment };
}
