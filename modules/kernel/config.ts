import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { LogLevel } from "./logger";

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseFile: string;
  jwtSecret: string;
  /** Origins allowed by CORS and by the socket.io origin check, besides the server's own origin. */
  corsOrigins: string[];
  /** Take the client IP from X-Forwarded-For (only behind a trusted reverse proxy). */
  trustProxy: boolean;
  webDist: string;
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
    jwtSecret: loadJwtSecret(dataDir, env.JWT_SECRET),
    corsOrigins: (env.CORS_ORIGINS ?? "")
      .split(",")
      .map((o) => o.trim())
      .filter(Boolean),
    trustProxy: env.TRUST_PROXY === "1" || env.TRUST_PROXY === "true",
    webDist: resolve(env.WEB_DIST ?? join(root, "dist/web")),
    logLevel: (env.LOG_LEVEL as LogLevel) ?? (env.NODE_ENV === "test" ? "warn" : "info"),
    production: env.NODE_ENV === "production",
    version: readVersion(),
  };
}
