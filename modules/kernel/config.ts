import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { LogLevel } from "./logger";
import { DEFAULT_TRUSTED_PROXIES, parseTrustedProxies, type TrustedProxies } from "./request-info";

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseFile: string;
  /** DATABASE_URL (`postgres://…`): every module stores its data in PostgreSQL instead of `databaseFile`. */
  databaseUrl: string | null;
  /** REDIS_URL (`redis://…`): several server processes share rooms, limits and game ownership through Redis. */
  redisUrl: string | null;
  /**
   * REDIS_PREFIX (default `madang:`): the start of every Redis key, stream and channel of this deployment, so two
   * deployments (or two test servers) can share one Redis without hearing each other.
   */
  redisPrefix: string;
  /**
   * ROOM_AFFINITY (`1`/`0`, default 0): a proxy in front routes sockets by the handshake's `room`/`guild` query, so the
   * server tells every new connection (`server:routing`) and the web client moves a room's players together. Only
   * meaningful with `redisUrl`: without it the server warns and ignores it (apps/server/io.ts).
   */
  roomAffinity: boolean;
  jwtSecret: string;
  /** Origins allowed by CORS and by the socket.io origin check, besides the server's own origin. */
  corsOrigins: string[];
  /**
   * TRUST_PROXY on: the proxies (TRUSTED_PROXIES, default loopback and private ranges) whose X-Forwarded-For hops
   * are believed; the client is the right-most hop that is not one of them. `null`: the header is ignored.
   */
  trustProxy: TrustedProxies;
  /** Simultaneous socket.io connections one address may hold (MAX_CONNECTIONS_PER_IP). */
  maxConnectionsPerIp: number;
  webDist: string;
  /**
   * EXTERNAL_CHAT_URL: the room the navbar's 채팅방 opens (an open chat of the community, e.g. a KakaoTalk open-chat
   * room's link). null: the link is not shown (the product has no chat room of its own to point at).
   */
  externalChatUrl: string | null;
  logLevel: LogLevel;
  production: boolean;
  version: string;
}

const root = resolve(import.meta.dir, "../..");

/** Reads the secret from JWT_SECRET or from a file kept in the data folder, so restarts keep sessions. */
function loadJwtSecret(dataDir: string, fromEnv: string | undefined): string {
  if (fromEnv && fromEnv.length >= 32) return fromEnv;
  if (fromEnv) throw new Error("JWT_SECRET must be at least 32 characters");
  const file = join(dataDir, "jwt-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  const secret = randomBytes(48).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

function readVersion(): string {
  try {
    return JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version ?? "0.0.0";
  } catch {
    return "0.0.0";
  }
}

/**
 * A PC방 or a classroom of 40 players behind one address, each with a second tab open, stays below it; a script
 * opening sockets to take every seat of the seeded rooms as guests does not.
 */
export const DEFAULT_MAX_CONNECTIONS_PER_IP = 100;

function positiveInteger(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const text = env[name];
  if (text === undefined || text === "") return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer: ${text}`);
  return value;
}

function loadTrustedProxies(env: Record<string, string | undefined>): TrustedProxies {
  if (env.TRUST_PROXY !== "1" && env.TRUST_PROXY !== "true") return null;
  const listed = (env.TRUSTED_PROXIES ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  return parseTrustedProxies(listed.length > 0 ? listed : DEFAULT_TRUSTED_PROXIES);
}

function onOff(env: Record<string, string | undefined>, name: string): boolean {
  const text = env[name] ?? "";
  if (text === "" || text === "0" || text === "false") return false;
  if (text === "1" || text === "true") return true;
  throw new Error(`${name} must be 1 or 0: ${text}`);
}

function postgresUrl(text: string | undefined): string | null {
  if (!text) return null;
  if (!/^postgres(ql)?:\/\//.test(text)) throw new Error("DATABASE_URL must be a postgres:// URL");
  return text;
}

function httpUrl(name: string, text: string | undefined): string | null {
  if (!text) return null;
  let url: URL | null = null;
  try {
    url = new URL(text);
  } catch {}
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:")) {
    throw new Error(`${name} must be an http:// or https:// URL: ${text}`);
  }
  return url.href;
}

function redisUrl(text: string | undefined): string | null {
  if (!text) return null;
  if (!/^rediss?:\/\//.test(text)) throw new Error("REDIS_URL must be a redis:// URL");
  return text;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const dataDir = resolve(env.DATA_DIR ?? join(root, "data"));
  mkdirSync(dataDir, { recursive: true });
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT is not a port number: ${env.PORT}`);
  return {
    port,
    host: env.HOST ?? "0.0.0.0",
    dataDir,
    databaseFile: join(dataDir, "tajamadang.sqlite"),
    databaseUrl: postgresUrl(env.DATABASE_URL),
    redisUrl: redisUrl(env.REDIS_URL),
    redisPrefix: env.REDIS_PREFIX || "madang:",
    roomAffinity: onOff(env, "ROOM_AFFINITY"),
    jwtSecret: loadJwtSecret(dataDir, env.JWT_SECRET),
    corsOrigins: (env.CORS_ORIGINS ?? "")
      .split(",")
      .map((o) => o.trim())
      .filter(Boolean),
    trustProxy: loadTrustedProxies(env),
    maxConnectionsPerIp: positiveInteger(env, "MAX_CONNECTIONS_PER_IP", DEFAULT_MAX_CONNECTIONS_PER_IP),
    webDist: resolve(env.WEB_DIST ?? join(root, "dist/web")),
    externalChatUrl: httpUrl("EXTERNAL_CHAT_URL", env.EXTERNAL_CHAT_URL?.trim()),
    logLevel: (env.LOG_LEVEL as LogLevel) ?? (env.NODE_ENV === "test" ? "warn" : "info"),
    production: env.NODE_ENV === "production",
    version: readVersion(),
  };
}
