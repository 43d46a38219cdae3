import { testConfig } from "../../db/testing";
import { accountsApi } from "../../modules/accounts";
import type { AppModule } from "../../modules/kernel/define-module";
import type { ContextOptions } from "./context";
import { startServer } from "./index";

export type HttpApi = ReturnType<typeof httpApi>;

/** A small fetch wrapper for tests: status, parsed JSON (or the text) and headers of one HTTP call to `baseUrl`. */
export function httpApi(baseUrl: string) {
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the route answers
  return async function api<T = any>(
    method: string,
    path: string,
    init: { body?: unknown; token?: string; headers?: Record<string, string>; raw?: string } = {},
  ): Promise<{ status: number; body: T; headers: Headers }> {
    const headers: Record<string, string> = { ...init.headers };
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    if (init.body !== undefined || init.raw !== undefined) headers["content-type"] ??= "application/json";
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      body: init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {}
    return { status: response.status, body: body as T, headers: response.headers };
  };
}

export interface TestUser {
  id: number;
  username: string;
  email: string;
  password: string;
  token: string;
  refreshToken: string;
}

export interface TestServerOptions extends ContextOptions {
  modules?: readonly AppModule[];
  seed?: boolean;
  env?: Record<string, string>;
}

/**
 * A real server on 127.0.0.1 with a free port, its own temporary data folder and a fresh database of this run's
 * engine (db/testing.ts `testEngine`). `stop()` closes it and removes both. `api` is a small fetch wrapper returning status and parsed JSON.
 */
export async function startTestServer(options: TestServerOptions = {}) {
  const config = await testConfig(options.env, { migrated: true });
  const server = await startServer({ ...options, config, seed: options.seed ?? true });
  const api = httpApi(server.url);
  let stopping: Promise<void> | undefined;
  let users = 0;
  /**
   * Registers a member through the API and logs them in (optionally made an administrator first). E-mail is
   * `<username>@example.com` unless given; returns the tokens of that login.
   */
  async function createUser(
    username = `user${++users}`,
    options: { admin?: boolean; password?: string; email?: string; userAgent?: string } = {},
  ): Promise<TestUser> {
    const email = options.email ?? `${username.toLowerCase()}@example.com`;
    const password = options.password ?? "test-pass-2026";
    const reg = await api("POST", "/api/users/register", { body: { username, email, password } });
    if (reg.status !== 201) throw new Error(`register ${username}: ${reg.status} ${JSON.stringify(reg.body)}`);
    if (options.admin) await accountsApi(server.ctx).service.setAdmin(reg.body.id, true);
    const headers: Record<string, string> = options.userAgent ? { "user-agent": options.userAgent } : {};
    const login = await api("POST", "/api/users/login", { body: { email, password }, headers });
    if (login.status !== 200) throw new Error(`login ${username}: ${login.status} ${JSON.stringify(login.body)}`);
    return {
      id: reg.body.id,
      username,
      email,
      password,
      token: login.body.access_token,
      refreshToken: login.body.refresh_token,
    };
  }
  return {
    ...server,
    api,
    createUser,
    /** Safe to call more than once: the first call's promise is shared (its database is dropped once). */
    stop() {
      stopping ??= server.stop().then(() => config.cleanup());
      return stopping;
    },
  };
}
export type TestServer = Awaited<ReturnType<typeof startTestServer>>;
