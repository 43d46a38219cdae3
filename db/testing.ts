import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ContextOptions, createContext, seedAll } from "../apps/server/context";
import { modules as allModules } from "../apps/server/modules";
import { type Config, loadConfig } from "../modules/kernel/config";
import type { AppModule } from "../modules/kernel/define-module";

/** A fresh data folder with its own SQLite file; removed by `cleanup`. */
export function tempConfig(overrides: Record<string, string> = {}): Config & { cleanup(): void } {
  const dataDir = mkdtempSync(join(tmpdir(), "tajamadang-test-"));
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: "0",
    HOST: "127.0.0.1",
    NODE_ENV: "test",
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "error",
    JWT_SECRET: `test-secret-${crypto.randomUUID()}-${crypto.randomUUID()}`,
    WEB_DIST: join(import.meta.dir, "../dist/web"),
    ...overrides,
  });
  return { ...config, cleanup: () => rmSync(dataDir, { recursive: true, force: true }) };
}

/** A migrated (and optionally seeded) context on a temp SQLite file, for service-level tests without HTTP. */
export async function createTestContext(
  options: ContextOptions & { modules?: readonly AppModule[]; seed?: boolean } = {},
) {
  const config = tempConfig();
  const modules = options.modules ?? allModules;
  const ctx = createContext(config, modules, options);
  if (options.seed) await seedAll(ctx, modules);
  return {
    ctx,
    cleanup() {
      ctx.sqlite.close();
      config.cleanup();
    },
  };
}
