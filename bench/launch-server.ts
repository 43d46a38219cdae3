/**
 * Starts a benchmark server (bench/server-under-test.ts, bench/raw-baseline-server.ts, or any entry that prints
 * `BENCH_READY {"port":…,"rooms":[…]}`) pinned to one core, with its own temporary DATA_DIR, production settings
 * and BENCH_ROOMS rooms, and waits for it. Its later output is echoed as `[server] …` so the pipe never blocks.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const ROOT = join(import.meta.dir, "..");
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const now = () => performance.now();

export interface LaunchOptions {
  /** Path from the project root. */
  entry: string;
  roomCount: number;
  core?: string;
  /** Extra Bun flags (e.g. a CPU profile). */
  bunArgs?: string[];
  env?: Record<string, string>;
}

export interface LaunchedProcess {
  pid: number;
  port: number;
  rooms: number[];
  stop(): Promise<void>;
}

export async function launchServer(options: LaunchOptions): Promise<LaunchedProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), "tajamadang-bench-"));
  const proc = Bun.spawn(
    ["taskset", "-c", options.core ?? "0", process.execPath, ...(options.bunArgs ?? []), join(ROOT, options.entry)],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        PORT: "0",
        HOST: "127.0.0.1",
        NODE_ENV: "production",
        LOG_LEVEL: "warn",
        SEED: "1",
        BENCH_ROOMS: String(options.roomCount),
        ...options.env,
      },
      stdout: "pipe",
      stderr: "inherit",
    },
  );
  const ready = await readReady(proc.stdout, 120_000);
  return {
    pid: proc.pid,
    port: ready.port,
    rooms: ready.rooms,
    async stop() {
      proc.kill("SIGTERM");
      const exited = await Promise.race([proc.exited.then(() => true), sleep(15_000).then(() => false)]);
      if (!exited) proc.kill("SIGKILL");
      await proc.exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Reads the server's stdout until its BENCH_READY line, then keeps draining it (echoing) so it never blocks. */
async function readReady(stream: ReadableStream<Uint8Array>, timeoutMs: number) {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const deadline = now() + timeoutMs;
  while (now() < deadline) {
    const chunk = await Promise.race([reader.read(), sleep(deadline - now()).then(() => null)]);
    if (!chunk || chunk.done) break;
    buffer += decoder.decode(chunk.value, { stream: true });
    const line = buffer.split("\n").find((l) => l.startsWith("BENCH_READY "));
    if (line) {
      void (async () => {
        for (;;) {
          const next = await reader.read();
          if (next.done) return;
          const text = decoder.decode(next.value).trim();
          if (text) console.log(`  [server] ${text.slice(0, 300)}`);
        }
      })();
      return JSON.parse(line.slice("BENCH_READY ".length)) as { port: number; rooms: number[] };
    }
  }
  throw new Error(`server did not start: ${buffer.slice(0, 500)}`);
}

/** VmRSS in KiB. */
export function processRssKiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
}
