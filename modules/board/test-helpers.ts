import { startTestServer, type TestUser } from "../../apps/server/testing";
import { FakeClock } from "../kernel/clock";
import type { ModuleContext } from "../kernel/define-module";
import { boardApi } from "./api";

export type { TestUser };

/** The board's store of a running server: tests read stored rows through it on either engine. */
export const boardStore = (ctx: ModuleContext) => boardApi(ctx).store;

/**
 * A real server on a fake clock (view windows and ordering by time without sleeping) plus user helpers.
 */
export async function startBoardServer() {
  const clock = new FakeClock(Date.UTC(2026, 2, 1, 3, 0, 0));
  const server = await startTestServer({ clock });
  const user = (username?: string, options: { admin?: boolean } = {}) =>
    server.createUser(username, { ...options, password: "board-pass-2026" });

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
