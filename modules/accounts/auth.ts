import type { UserRow } from "../../db/core/schema";
import { AppError, forbidden, unauthorized } from "../kernel/errors";
import type { AppServer, SocketIdentity } from "../kernel/socket";
import type { AccountsService } from "./service";
import { ACCOUNT_INACTIVE } from "./service";
import { type AccessTokens, AUTH_FAILED } from "./tokens";

export interface AuthUser {
  id: number;
  username: string;
  isAdmin: boolean;
  /** True while the user must set a new password: only reset-password, me and logout accept them. */
  passwordResetRequired: boolean;
  row: UserRow;
}

export const PASSWORD_RESET_REQUIRED = "비밀번호를 재설정해야 합니다.";
export const ADMIN_REQUIRED = "관리자 권한이 필요합니다.";

type Headers = Record<string, string | undefined>;

/**
 * Guards for every module's routes. The token is checked, then the user is read from the database on every
 * request, so a deactivated or demoted user loses access at once (a primary-key lookup).
 */
export function createGuards(service: AccountsService, tokens: AccessTokens) {
  async function fromToken(token: string): Promise<AuthUser> {
    const claims = await tokens.verify(token);
    const row = await service.findById(claims.userId);
    if (!row) throw unauthorized(AUTH_FAILED, "invalid_token");
    if (!row.isActive) throw forbidden(ACCOUNT_INACTIVE, "inactive");
    // A password change, a deactivation or a forced reset ends every session, access tokens included (they would
    // outlive it by up to 15 minutes). A forced reset too: a token from before it may have been stolen, and the
    // reset-only routes would let its holder set the password and own the account.
    if (claims.issuedAtMs < ((await service.sessionsClosedAt(row.id)) ?? 0)) {
      throw unauthorized(AUTH_FAILED, "session_closed");
    }
    // While a reset is required only a `password_reset` token is good: a login issues one, after checking the
    // current password. A `full` token here was issued before the requirement committed (a login or refresh racing
    // the administrator's change), so it is closed like the others.
    if (row.passwordResetRequired && claims.scope !== "password_reset") {
      throw unauthorized(AUTH_FAILED, "session_closed");
    }
    return {
      id: row.id,
      username: row.username,
      isAdmin: row.isAdmin,
      passwordResetRequired: row.passwordResetRequired || claims.scope === "password_reset",
      row,
    };
  }

  function bearer(headers: Headers): string | null {
    const header = headers.authorization;
    if (!header) return null;
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match) throw unauthorized(AUTH_FAILED, "invalid_token");
    return match[1];
  }

  async function requireUser(headers: Headers, options: { allowPasswordReset?: boolean } = {}) {
    const token = bearer(headers);
    if (!token) throw unauthorized("로그인이 필요합니다.", "no_token");
    const user = await fromToken(token);
    if (user.passwordResetRequired && !options.allowPasswordReset) {
      throw new AppError(403, PASSWORD_RESET_REQUIRED, "password_reset_required");
    }
    return user;
  }

  return {
    fromToken,
    requireUser,
    async requireAdmin(headers: Headers) {
      const user = await requireUser(headers);
      if (!user.isAdmin) throw forbidden(ADMIN_REQUIRED, "admin_required");
      return user;
    },
    /** For public routes that show more to members: a missing or unusable token means anonymous. */
    async optionalUser(headers: Headers): Promise<AuthUser | null> {
      try {
        const token = bearer(headers);
        const user = token ? await fromToken(token) : null;
        return user && !user.passwordResetRequired ? user : null;
      } catch {
        return null;
      }
    },
  };
}
export type Guards = ReturnType<typeof createGuards>;

const CLIENT_ID = /^[A-Za-z0-9_-]{8,64}$/;

/** FNV-1a: a stable guest number for one anonymous id, across restarts and processes. */
export function guestNickname(clientId: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < clientId.length; i++) {
    hash ^= clientId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `guest_${1000 + (hash % 9000)}`;
}

const firstString = (...values: unknown[]) => values.find((v): v is string => typeof v === "string" && v !== "");

/**
 * socket.io middleware: a handshake token (auth.token, or the spec's query ?token=) makes the socket that user;
 * no token makes it a guest named from its anonymous client id. A bad token refuses the connection with
 * `data.code = "auth_failed"` so the client refreshes and reconnects instead of silently becoming a guest.
 */
export function installSocketAuth(io: AppServer, guards: Guards) {
  io.use(async (socket, next) => {
    const { auth, query } = socket.handshake;
    const token = firstString(auth?.token, query?.token);
    const offeredId = firstString(auth?.client_id, query?.client_id);
    const clientId = offeredId && CLIENT_ID.test(offeredId) ? offeredId : crypto.randomUUID();
    let identity: SocketIdentity;
    if (token) {
      try {
        const user = await guards.fromToken(token);
        if (user.passwordResetRequired) throw forbidden(PASSWORD_RESET_REQUIRED, "password_reset_required");
        identity = { kind: "user", userId: user.id, username: user.username, isAdmin: user.isAdmin, clientId };
      } catch (error) {
        const failure = new Error(error instanceof AppError ? error.detail : AUTH_FAILED) as Error & {
          data?: unknown;
        };
        // Any 401 (a bad, expired or closed token) is `auth_failed`: the client refreshes, or learns it is logged out.
        const code = error instanceof AppError && error.status !== 401 ? error.code : undefined;
        failure.data = { code: code ?? "auth_failed" };
        return next(failure);
      }
    } else {
      identity = { kind: "guest", clientId, nickname: guestNickname(clientId) };
    }
    socket.data.identity = identity;
    socket.data.state = {};
    if (identity.kind === "user") socket.join(`user:${identity.userId}`);
    next();
  });
}
