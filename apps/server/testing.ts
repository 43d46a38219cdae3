import { tempConfig } from "../../db/testing";
import type { AppModule } from "../../modules/kernel/define-module";
import type { ContextOptions } from "./context";
import { startServer } from "./index";

export interface TestServerOptions extends ContextOptions {
  modules?: readonly AppModule[];
  seed?: boolean;
  env?: Record<string, string>;
}

/**
 * A real server on 127.0.0.1 with a free port and its own temporary data folder. `stop()` closes it and
 * removes the folder. `api` is a small fetch wrapper returning status and parsed JSON.
 */
export async function startTestServer(options: TestServerOptions = {}) {
  const config = tempConfig(options.env);
  const server = await startServer({ ...options, config, seed: options.seed ?? true });
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the route answers
  async function api<T = any>(
    method: string,
    path: string,
    init: { body?: unknown; token?: string; headers?: Record<string, string>; raw?: string } = {},
  ): Promise<{ status: number; body: T; headers: Headers }> {
    const headers: Record<string, string> = { ...init.headers };
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    if (init.body !== undefined || init.raw !== undefined) headers["content-type"] ??= "application/json";
    const response = await fetch(`${server.url}${path}`, {
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
  }
  return {
    ...server,
    api,
    async stop() {
      await server.stop();
      config.cleanup();
    },
  };
}
export type TestServer = Awaited<ReturnType<typeof startTestServer>>;
