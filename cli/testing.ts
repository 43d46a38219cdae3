import { resolve } from "node:path";
import type { Config } from "../modules/kernel/config";

const root = resolve(import.meta.dir, "..");

/**
 * `madang …` as an operator runs it, in its own process, on the database of `config` (DATA_DIR's SQLite file, or
 * its PostgreSQL). `env` adds or overrides variables (e.g. `REDIS_URL: ""`).
 */
export async function runCliWith(
  config: Pick<Config, "dataDir" | "databaseUrl">,
  env: Record<string, string>,
  ...args: string[]
) {
  const proc = Bun.spawn([process.execPath, "cli/index.ts", ...args], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: config.dataDir,
      // Empty means no PostgreSQL: the SQLite file of DATA_DIR.
      DATABASE_URL: config.databaseUrl ?? "",
      LOG_LEVEL: "error",
      NODE_ENV: "test",
      ...env,
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout, stderr };
}

export const runCliOn = (config: Pick<Config, "dataDir" | "databaseUrl">, ...args: string[]) =>
  runCliWith(config, {}, ...args);
