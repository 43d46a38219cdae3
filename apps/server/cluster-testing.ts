import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import postgres from "postgres";
import { createPgTestDatabase } from "../../db/testing-pg";
import { testRedis } from "../../modules/kernel/game-host/redis-testing";
import { freePort } from "../../scripts/test-services";
import { type HttpApi, httpApi } from "./testing";

/**
 * Several real server processes of one deployment (`bun apps/server/index.ts`, as `npm start` runs it): one
 * PostgreSQL database, one Redis, one REDIS_PREFIX and one JWT secret, each process on its own free port with its own
 * data folder. A process can be killed with any signal (SIGKILL: a crash) and more can be started. Used by the
 * cross-process tests and by bench/cluster.ts.
 */
export interface ClusterProcess {
  index: number;
  url: string;
  port: number;
  api: HttpApi;
  process: Subprocess;
  /** Everything the process wrote to stdout and stderr (its log), for a failing test to show. */
  output(): string;
}

export interface TestCluster {
  processes: ClusterProcess[];
  databaseUrl: string;
  redisUrl: string;
  redisPrefix: string;
  /** Starts one more process of the deployment. */
  start(): Promise<ClusterProcess>;
  /** Sends the signal and waits for the process to exit. */
  kill(target: ClusterProcess, signal?: NodeJS.Signals): Promise<void>;
  /** A connection to the shared database (closed by `stop`), for assertions on stored rows. */
  sql: postgres.Sql;
  stop(): Promise<void>;
}

const root = join(import.meta.dir, "../..");
const entry = join(root, "apps/server/index.ts");

async function healthy(url: string, child: Subprocess, limitMs = 30_000) {
  const until = performance.now() + limitMs;
  while (performance.now() < until) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {}
    await Bun.sleep(50);
  }
  throw new Error(`server at ${url} did not answer /api/health`);
}

/** Collects a stream's text as it comes (a child's pipe must be read, or it blocks once full). */
function drain(stream: ReadableStream<Uint8Array> | null | undefined, into: string[]) {
  if (!stream) return;
  void (async () => {
    const reader = stream.getReader();
    const decoder = new TextDecoder();
    for (let read = await reader.read(); !read.done; read = await reader.read()) into.push(decoder.decode(read.value));
  })();
}

export async function startCluster(count = 2, env: Record<string, string> = {}): Promise<TestCluster> {
  const database = await createPgTestDatabase();
  const redis = await testRedis();
  const redisPrefix = `test:${crypto.randomUUID().slice(0, 8)}:`;
  const shared = {
    DATABASE_URL: database.url,
    REDIS_URL: redis.url,
    REDIS_PREFIX: redisPrefix,
    JWT_SECRET: `cluster-secret-${crypto.randomUUID()}-${crypto.randomUUID()}`,
    HOST: "127.0.0.1",
    NODE_ENV: "test",
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "warn",
    WEB_DIST: join(root, "dist/web"),
    ...env,
  };
  const folders: string[] = [];
  const processes: ClusterProcess[] = [];
  const sql = postgres(database.url, { max: 2, onnotice: () => {} });

  async function start(): Promise<ClusterProcess> {
    const index = processes.length;
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), "tajamadang-cluster-"));
    folders.push(dataDir);
    // The first process seeds; the others start on the seeded database (seeds are idempotent, not concurrent).
    const child = Bun.spawn([process.execPath, entry], {
      cwd: root,
      env: { ...process.env, ...shared, PORT: String(port), DATA_DIR: dataDir, SEED: index === 0 ? "1" : "0" },
      stdout: "pipe",
      stderr: "pipe",
    });
    const output: string[] = [];
    drain(child.stdout, output);
    drain(child.stderr, output);
    const url = `http://127.0.0.1:${port}`;
    try {
      await healthy(url, child);
    } catch (error) {
      child.kill("SIGKILL");
      throw new Error(`${String(error)}\n${output.join("")}`);
    }
    const started = { index, url, port, api: httpApi(url), process: child, output: () => output.join("") };
    processes.push(started);
    return started;
  }

  async function kill(target: ClusterProcess, signal: NodeJS.Signals = "SIGTERM") {
    if (target.process.exitCode === null && target.process.signalCode === null) target.process.kill(signal);
    await target.process.exited;
  }

  for (let i = 0; i < count; i++) await start();

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      await Promise.all(processes.map((p) => kill(p)));
      await sql.end({ timeout: 5 });
      await database.drop();
      await redis.stop();
      for (const folder of folders) rmSync(folder, { recursive: true, force: true });
    })();
    return stopping;
  };
  return { processes, databaseUrl: database.url, redisUrl: redis.url, redisPrefix, start, kill, sql, stop };
}

/** A call through `process` that must answer `status`; its body, or an error naming what it got. */
export async function expectStatus(
  process: ClusterProcess,
  status: number,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
) {
  const res = await process.api(method, path, { token, body });
  if (res.status !== status) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

let users = 0;
/** Registers and logs in a member through `process` (e-mail `<name>@example.com`). */
export async function clusterUser(process: ClusterProcess, username = `member${++users}`) {
  const email = `${username.toLowerCase()}-${crypto.randomUUID().slice(0, 6)}@example.com`;
  const password = "test-pass-2026";
  const reg = await process.api("POST", "/api/users/register", { body: { username, email, password } });
  if (reg.status !== 201) throw new Error(`register ${username}: ${reg.status} ${JSON.stringify(reg.body)}`);
  const login = await process.api("POST", "/api/users/login", { body: { email, password } });
  if (login.status !== 200) throw new Error(`login ${username}: ${login.status} ${JSON.stringify(login.body)}`);
  return { id: reg.body.id as number, username, email, password, token: login.body.access_token as string };
}
