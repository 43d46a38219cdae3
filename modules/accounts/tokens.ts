import { createHash, randomBytes } from "node:crypto";
import { jwt } from "@elysiajs/jwt";
import { unauthorized } from "../kernel/errors";

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
    /** `issuedAt` (ms): when the session began, if not now (a login: the moment its row was locked). */
    async sign(userId: number, scope: TokenScope, issuedAt?: number): Promise<string> {
      const issued = issuedAt ?? now();
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

/** Refresh tokens are opaque (32 random bytes); only their SHA-256 is stored (store.ts). */
export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
export const newOpaqueToken = () => randomBytes(32).toString("base64url");
