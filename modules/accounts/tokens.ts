import { createHash, randomBytes, randomUUID } from "node:crypto";
import { jwt } from "@elysiajs/jwt";
import { and, eq, isNull } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { unauthorized } from "../kernel/errors";
import { refreshTokens } from "./schema";

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TTL_REMEMBER_MS = 30 * 24 * 60 * 60 * 1000;
export const REFRESH_TTL_SESSION_MS = 24 * 60 * 60 * 1000;
const ISSUER = "tajamadang";
const AUDIENCE = "tajamadang-api";
export const AUTH_FAILED = "인증에 실패했습니다. 다시 로그인해주세요.";

/** `full` tokens open the product; `password_reset` tokens only reset-password, me and logout. */
export type TokenScope = "full" | "password_reset";
export interface AccessClaims {
  userId: number;
  scope: TokenScope;
  /** When the token was issued, in ms (`iat_ms`; `iat` is whole seconds): a later session closure voids it. */
  issuedAtMs: number;
}

export function createAccessTokens(secret: string, now: () => number) {
  const signer = jwt({ name: "jwt", secret, alg: "HS256", iss: ISSUER, aud: AUDIENCE }).decorator.jwt;
  return {
    async sign(userId: number, scope: TokenScope): Promise<string> {
      const issued = now();
      const iat = Math.floor(issued / 1000);
      return signer.sign({ sub: String(userId), scope, iat_ms: issued, exp: iat + ACCESS_TOKEN_TTL_SECONDS });
    },
    /** Pins the algorithm, issuer, audience and required claims: `alg: none` or RS/HS confusion fail here. */
    async verify(token: string): Promise<AccessClaims> {
      const payload = await signer
        .verify(token, {
          algorithms: ["HS256"],
          issuer: ISSUER,
          audience: AUDIENCE,
          requiredClaims: ["sub", "exp", "iat"],
          currentDate: new Date(now()),
        })
        .catch(() => false as const);
      if (!payload) throw unauthorized(AUTH_FAILED, "invalid_token");
      const userId = Number(payload.sub);
      const scope = payload.scope;
      if (!Number.isSafeInteger(userId) || userId <= 0 || (scope !== "full" && scope !== "password_reset")) {
        throw unauthorized(AUTH_FAILED, "invalid_token");
      }
      const issuedAtMs = typeof payload.iat_ms === "number" ? payload.iat_ms : Number(payload.iat) * 1000;
      return { userId, scope, issuedAtMs };
    },
  };
}
export type AccessTokens = ReturnType<typeof createAccessTokens>;

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
const newOpaqueToken = () => randomBytes(32).toString("base64url");

/** Issues the first refresh token of a new family (a login). Synchronous: call inside a transaction. */
export function issueRefreshToken(db: DbOrTx, userId: number, rememberMe: boolean, now: number, familyId?: string) {
  const token = newOpaqueToken();
  db.insert(refreshTokens)
    .values({
      userId,
      familyId: familyId ?? randomUUID(),
      tokenHash: hashToken(token),
      rememberMe,
      expiresAt: new Date(now + (rememberMe ? REFRESH_TTL_REMEMBER_MS : REFRESH_TTL_SESSION_MS)),
      createdAt: new Date(now),
    })
    .run();
  return token;
}

export type RotateOutcome =
  | { kind: "rotated"; userId: number; token: string }
  | { kind: "reused"; userId: number }
  | { kind: "invalid" };

/**
 * Rotation with reuse detection: a live token is marked rotated and replaced by a new one of the same family;
 * a token that was already rotated means two parties hold it, so the whole family is revoked.
 * Synchronous: run inside one transaction so two concurrent refreshes cannot both rotate.
 */
export function rotateRefreshToken(db: DbOrTx, presented: string, now: number): RotateOutcome {
  const row = db
    .select()
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, hashToken(presented)))
    .get();
  if (!row || row.revokedAt) return { kind: "invalid" };
  if (row.rotatedAt) {
    revokeFamily(db, row.familyId, now, "reuse_detected");
    return { kind: "reused", userId: row.userId };
  }
  if (row.expiresAt.getTime() <= now) return { kind: "invalid" };
  db.update(refreshTokens)
    .set({ rotatedAt: new Date(now) })
    .where(eq(refreshTokens.id, row.id))
    .run();
  const token = issueRefreshToken(db, row.userId, row.rememberMe, now, row.familyId);
  return { kind: "rotated", userId: row.userId, token };
}

export function revokeFamily(db: DbOrTx, familyId: string, now: number, reason: string) {
  db.update(refreshTokens)
    .set({ revokedAt: new Date(now), revokedReason: reason })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)))
    .run();
}

/** Logout: revokes the presented token's family (rotated descendants included). Unknown tokens are ignored. */
export function revokeRefreshToken(db: DbOrTx, presented: string, now: number): number | null {
  const row = db
    .select()
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, hashToken(presented)))
    .get();
  if (!row) return null;
  revokeFamily(db, row.familyId, now, "logout");
  return row.userId;
}

export function revokeAllForUser(db: DbOrTx, userId: number, now: number, reason: string) {
  db.update(refreshTokens)
    .set({ revokedAt: new Date(now), revokedReason: reason })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)))
    .run();
}
