import postgres from "postgres";
import { startTestServer, type TestUser } from "../../apps/server/testing";
import { testEngine } from "../../db/testing";
import { createPgTestDatabase } from "../../db/testing-pg";
import { FakeClock } from "../kernel/clock";
import type { ModuleContext } from "../kernel/define-module";
import { boardApi } from "./api";

export type { TestUser };

/** The board's store of a running server: tests read stored rows through it on either engine. */
export const boardStore = (ctx: ModuleContext) => boardApi(ctx).store;

/**
 * On the PostgreSQL run, a fresh database with a production-like locale (ICU en-US: locale order, and lower()
 * folding É) rather than the test cluster's C locale, under which PostgreSQL would order and fold text like SQLite
 * and hide a difference between the engines. On SQLite: nothing (`env` is empty).
 */
export async function localeDatabase(): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (testEngine() !== "postgres") return { env: {}, drop: async () => {} };
  const base = await createPgTestDatabase();
  const name = `icu_${crypto.randomUUID().replaceAll("-", "")}`;
  const admin = postgres(base.url, { max: 1, onnotice: () => {} });
  await admin.unsafe(
    `CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C'`,
  );
  const url = new URL(base.url);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    async drop() {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
      await base.drop();
    },
  };
}

/**
 * A real server on a fake clock (view windows and ordering by time without sleeping) plus user helpers.
 * `localeDatabase`: on PostgreSQL, a database with a real locale (see `localeDatabase`).
 */
export async function startBoardServer(options: { localeDatabase?: boolean } = {}) {
  const clock = new FakeClock(Date.UTC(2026, 2, 1, 3, 0, 0));
  const locale = options.localeDatabase ? await localeDatabase() : null;
  const started = await startTestServer({ clock, env: locale?.env });
  const server = {
    ...started,
    async stop() {
      await started.stop();
      await locale?.drop();
    },
  };
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
