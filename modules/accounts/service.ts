import type { UserRow } from "../../db/core/schema";
import { isUniqueViolation } from "../../db/postgres";
import type { StoreDb } from "../../db/store";
import {
  checkEmail,
  checkPassword,
  checkRename,
  checkUsername,
  MSG,
  normalizeEmail,
  normalizeUsername,
  usernameKey,
} from "../kernel/account-rules";
import { AppError, badRequest, conflict, forbidden, notFound, tooManyRequests, unprocessable } from "../kernel/errors";
import type { EventBus } from "../kernel/events";
import type { Logger } from "../kernel/logger";
import { SESSION_END_TEXT, type SessionEndReason } from "../kernel/session-end";
import { type AccountChange, feedEntries } from "./account-changes";
import { isCommonPassword } from "./common-passwords";
import type { ResetMailer } from "./reset-mail";
import type { AccountsStore, UserValues } from "./store";
import type { AddressLimiter, LoginLimiter } from "./throttle";
import { type AccessTokens, AUTH_FAILED } from "./tokens";
import { presentUser } from "./view";

declare module "../kernel/events" {
  interface AppEvents {
    /** A user can no longer use their sessions (deactivated): close their sockets. */
    "accounts.sessions_closed": { userId: number; reason: string };
    /** A user's public figures or name changed (rename, rewards): refresh what is shown. */
    "accounts.user_updated": { userId: number };
  }
}

export const LOGIN_FAILED = "로그인에 실패했습니다. 이메일과 비밀번호를 확인해주세요.";
export const ACCOUNT_INACTIVE = "비활성화된 계정입니다. 관리자에게 문의해주세요.";
export const TOO_MANY_LOGINS = "로그인 시도가 너무 많습니다. 잠시 후 다시 시도해주세요.";
export const TOO_MANY_REQUESTS = "요청이 너무 많습니다. 잠시 후 다시 시도해주세요.";
export const USERNAME_TAKEN = "이미 사용 중인 아이디입니다.";
export const EMAIL_TAKEN = "이미 등록된 이메일입니다.";
export const USER_NOT_FOUND = "사용자를 찾을 수 없습니다.";
export const PASSWORD_SAME = "새 비밀번호는 이전 비밀번호와 달라야 합니다.";
export const RESET_LINK_SENT =
  "입력하신 이메일로 가입된 계정이 있다면 비밀번호 재설정 링크를 보냈습니다. 메일함을 확인해주세요.";
export const RESET_LINK_INVALID = "링크가 올바르지 않거나 만료되었습니다. 비밀번호 찾기를 다시 요청해주세요.";
export const RESET_LINK_USABLE = "사용할 수 있는 링크입니다. 새 비밀번호를 입력해주세요.";
export const RESET_LINK_TTL_MS = 30 * 60 * 1000;

// OWASP's argon2id baseline (19 MiB, 2 iterations): ~20 ms a hash here, strong and cheap enough for tests.
const HASH_OPTIONS = { algorithm: "argon2id", memoryCost: 19456, timeCost: 2 } as const;
// Verified against when the e-mail is unknown, so both failures take the same time.
let dummyHash: Promise<string> | null = null;
const getDummyHash = () => {
  dummyHash ??= Bun.password.hash("not-a-real-password", HASH_OPTIONS);
  return dummyHash;
};

export interface AccountsDeps {
  store: AccountsStore;
  events: EventBus;
  now: () => number;
  tokens: AccessTokens;
  throttles: AccountThrottles;
  /** Names this server (or CLI run) in the account changes feed, so it does not apply its own changes twice. */
  origin: string;
  /** Delivers "비밀번호 찾기" links (SMTP, or the log and outbox); absent: links are only issued (`resetLink`). */
  mailer?: ResetMailer;
  /** The site's public origin (`PUBLIC_URL`), which reset links point to. */
  publicUrl?: string;
  /** Where a failed delivery is reported (the answer never says whether an account exists). */
  log?: Logger;
  /** Refuses a username holding a listed word (kernel speech.ts `assertCleanText`); absent: every name passes. */
  cleanName?: (username: string) => Promise<void>;
}

/** Every route that hashes or verifies a password is limited: each call costs ~20 ms of CPU. */
export interface AccountThrottles {
  login: LoginLimiter;
  register: AddressLimiter;
  resetPassword: AddressLimiter;
  /** "비밀번호 찾기" requests: each may send a mail. */
  forgotPassword: AddressLimiter;
  /** The same, per e-mail (counted whether or not it has an account, so a 429 tells nothing). */
  forgotPasswordEmail: AddressLimiter;
}

export interface LoginInput {
  email: string;
  password: string;
  remember_me?: boolean;
  ip: string;
  userAgent: string | null;
}

function assertPasswordAcceptable(password: string, confirm?: string) {
  const check = checkPassword(password, confirm);
  if (!check.ok) throw unprocessable(check.error!);
  if (isCommonPassword(password)) throw unprocessable(MSG.passwordCommon);
}

/** Counts one attempt of `ip` against `throttle`, or refuses with 429 and Retry-After. */
async function takeAttempt(throttle: AddressLimiter, ip: string) {
  const wait = await throttle.take(ip);
  if (wait > 0) throw tooManyRequests(TOO_MANY_REQUESTS, `retry_after:${wait}`);
}

/**
 * What a closure tells the player (kernel/session-end.ts), from the reason it was recorded with (`closeSessionsTx`,
 * the refresh tokens' `revoked_reason`); null for reasons that are no closure by the server (a logout ends its own
 * login only, and a replayed token says nothing trustworthy about why).
 */
export function sessionEndReason(recorded: string | null | undefined): SessionEndReason | null {
  switch (recorded) {
    case "password_reset":
      return "password_changed";
    case "password_reset_required":
      return "password_reset_required";
    case "deactivated":
    case "inactive":
      return "deactivated";
    case "suspended":
      return "suspended";
    default:
      return null;
  }
}

/** A refused refresh that says why the session ended: the Korean text, and `reason` for the client to act on. */
const sessionEnded = (reason: SessionEndReason, status = 401, code = `session_${reason}`) =>
  new AppError(status, SESSION_END_TEXT[reason], code, { reason });

/** Gives the live sockets of a user (on this server) the user's current name and administrator flag. */
export type IdentityRefresher = (row: UserRow) => void;

/**
 * A check a login must pass once the password is right (moderation's suspensions): it throws the refusal (an
 * `AppError`, e.g. 403 with the reason and the end) or resolves.
 */
export type LoginCheck = (userId: number) => Promise<void>;

export function createAccountsService(deps: AccountsDeps) {
  const { store, events, now, tokens, throttles, origin } = deps;
  let refreshIdentities: IdentityRefresher | null = null;
  let nudgeOthers: (() => void) | null = null;
  const loginChecks: LoginCheck[] = [];

  const findById = (id: number) => store.findUser(id);
  async function requireById(id: number) {
    const row = await findById(id);
    if (!row) throw notFound(USER_NOT_FOUND);
    return row;
  }

  /** `ip`: the client of an HTTP request, throttled per address; in-process callers (seeds, tests) pass none. */
  async function register(input: { username: string; email: string; password: string }, ip?: string) {
    const username = normalizeUsername(input.username);
    const usernameCheck = checkUsername(username);
    if (!usernameCheck.ok) throw unprocessable(usernameCheck.error!);
    await deps.cleanName?.(username);
    const emailError = checkEmail(input.email);
    if (emailError) throw unprocessable(emailError);
    assertPasswordAcceptable(input.password);
    const email = normalizeEmail(input.email);
    if (ip !== undefined) await takeAttempt(throttles.register, ip);
    const passwordHash = await Bun.password.hash(input.password, HASH_OPTIONS);
    const key = usernameKey(username);
    const outcome = await store.createUser({ username, usernameKey: key, email, passwordHash, at: new Date(now()) });
    if ("taken" in outcome) throw conflict(outcome.taken === "username" ? USERNAME_TAKEN : EMAIL_TAKEN);
    return presentUser(outcome.row);
  }

  async function login(input: LoginInput) {
    const email = normalizeEmail(input.email);
    if (!email || !input.password) throw unprocessable(MSG.loginRequired);
    // Counted before the ~20 ms check, so a burst of parallel attempts is cut at the limit too.
    const attempt = await throttles.login.begin(email, input.ip);
    if (attempt.retryAfter > 0) throw tooManyRequests(TOO_MANY_LOGINS, `retry_after:${attempt.retryAfter}`);
    const row = await store.findUserByEmail(email);
    const valid = row
      ? await Bun.password.verify(input.password, row.passwordHash)
      : await Bun.password.verify(input.password, await getDummyHash()).then(() => false);
    if (!row || !valid) throw new AppError(401, LOGIN_FAILED, "login_failed");
    await throttles.login.succeeded(attempt);
    if (!row.isActive) throw forbidden(ACCOUNT_INACTIVE, "inactive");
    for (const check of loginChecks) await check(row.id);
    const recorded = await store.recordLogin(
      row.id,
      { verifiedHash: row.passwordHash, now, ip: input.ip || null, userAgent: input.userAgent?.slice(0, 512) ?? null },
      input.remember_me === true,
    );
    // The password was changed while it was being checked: the one given is not the account's any more.
    if (recorded.kind === "stale") throw new AppError(401, LOGIN_FAILED, "login_failed");
    if (recorded.kind === "inactive") throw forbidden(ACCOUNT_INACTIVE, "inactive");
    const current = recorded.row;
    // A reset-required login gets a narrow access token (and no refresh token): only it may set the new password.
    const scope = current.passwordResetRequired ? "password_reset" : "full";
    return {
      access_token: await tokens.sign(current.id, scope, recorded.at),
      token_type: "bearer" as const,
      user: presentUser(current),
      password_reset_required: current.passwordResetRequired,
      ...(recorded.refreshToken ? { refresh_token: recorded.refreshToken } : {}),
    };
  }

  async function refresh(presented: string) {
    const outcome = await store.rotateRefreshToken(presented, now());
    if (outcome.kind === "revoked") {
      // Revoked by a closure (a password change, a forced reset, a deactivation): the device learns why, so the
      // player is not left with a bare "log in" (kernel/session-end.ts).
      const reason = sessionEndReason(outcome.reason);
      // "비활성화된 계정입니다" is said only while it is true (an account reactivated since just logs in again).
      const stillTrue = reason !== "deactivated" || (await findById(outcome.userId))?.isActive === false;
      if (reason && stillTrue) throw sessionEnded(reason);
    }
    if (outcome.kind !== "rotated") throw new AppError(401, AUTH_FAILED, `refresh_${outcome.kind}`);
    const row = await findById(outcome.userId);
    if (!row) throw new AppError(401, AUTH_FAILED, "refresh_invalid");
    if (!row.isActive) {
      await store.revokeAllForUser(row.id, now(), "inactive");
      throw sessionEnded("deactivated", 403, "inactive");
    }
    // A forced reset revoked every refresh token; one rotated just before it committed still must not open the
    // reset: only a login (which checks the current password) issues a `password_reset` token.
    if (row.passwordResetRequired) {
      await store.revokeAllForUser(row.id, now(), "password_reset_required");
      throw sessionEnded("password_reset_required", 401, "refresh_reset_required");
    }
    return { access_token: await tokens.sign(row.id, "full"), refresh_token: outcome.token, token_type: "bearer" };
  }

  async function logout(refreshToken: string | undefined) {
    if (refreshToken) await store.revokeRefreshToken(refreshToken, now());
    return { detail: "로그아웃되었습니다." };
  }

  async function resetPassword(userId: number, newPassword: string, confirmPassword: string, ip: string) {
    assertPasswordAcceptable(newPassword, confirmPassword);
    const row = await requireById(userId);
    await takeAttempt(throttles.resetPassword, ip);
    if (await Bun.password.verify(newPassword, row.passwordHash)) throw unprocessable(PASSWORD_SAME);
    const passwordHash = await Bun.password.hash(newPassword, HASH_OPTIONS);
    // Every session ends, this one too: the answer tells the user to log in again with the new password (spec),
    // and a device logged in with the old one (perhaps by whoever knew it) loses its tokens and its sockets.
    // A link mailed before the change must not set the password back (whoever kept the mail would own it again).
    const change = await store.transaction(async (tx) => {
      await store.updateUserIn(tx, userId, { passwordHash, passwordResetRequired: false }, now());
      await store.voidPasswordResetTokensIn(tx, userId, now());
      return closeSessionsTx(tx, userId, "password_reset");
    });
    await announce(change);
    return { detail: "비밀번호가 성공적으로 변경되었습니다. 새 비밀번호로 다시 로그인해주세요." };
  }

  const linkTo = (token: string) =>
    `${(deps.publicUrl ?? "http://localhost:3000").replace(/\/+$/, "")}/password-forgot/reset?token=${encodeURIComponent(token)}`;

  /** A one-time link (30 minutes) to the page that sets a new password, for an operator (`madang users reset-link`). */
  async function resetLink(userId: number) {
    const token = await store.issuePasswordResetToken(userId, now(), RESET_LINK_TTL_MS, { activeOnly: false });
    if (token === null) throw notFound(USER_NOT_FOUND);
    return linkTo(token);
  }

  /**
   * "비밀번호 찾기": the same answer whether or not the e-mail belongs to an account (nor does its timing tell:
   * the mail goes out after the answer). Deactivated accounts get no link (they could not log in with it).
   */
  async function forgotPassword(email: string, ip: string) {
    const problem = checkEmail(email);
    if (problem) throw unprocessable(problem);
    await takeAttempt(throttles.forgotPassword, ip);
    await takeAttempt(throttles.forgotPasswordEmail, normalizeEmail(email));
    const row = await store.findUserByEmail(normalizeEmail(email));
    if (row?.isActive && deps.mailer) {
      const mailer = deps.mailer;
      // Checked again with the link's insert: a deactivation committed meanwhile gets no link.
      void store
        .issuePasswordResetToken(row.id, now(), RESET_LINK_TTL_MS, { activeOnly: true })
        .then((token) =>
          token === null ? undefined : mailer({ to: row.email, username: row.username, link: linkTo(token) }),
        )
        .catch((error) => deps.log?.error("password reset mail failed", { userId: row.id, error: String(error) }));
    }
    return { detail: RESET_LINK_SENT };
  }

  /** The link's page: sets the new password, uses the token up and ends every session of the account. */
  async function resetPasswordWithToken(token: string, newPassword: string, confirmPassword: string, ip: string) {
    assertPasswordAcceptable(newPassword, confirmPassword);
    await takeAttempt(throttles.resetPassword, ip);
    const passwordHash = await Bun.password.hash(newPassword, HASH_OPTIONS);
    const change = await store.transaction(async (tx) => {
      const userId = await store.consumePasswordResetTokenIn(tx, token, now());
      if (userId === null) throw badRequest(RESET_LINK_INVALID);
      await store.updateUserIn(tx, userId, { passwordHash, passwordResetRequired: false }, now());
      return closeSessionsTx(tx, userId, "password_reset");
    });
    await announce(change);
    return { detail: "비밀번호가 성공적으로 변경되었습니다. 새 비밀번호로 다시 로그인해주세요." };
  }

  /**
   * The link's page asks before the password is typed: good (its expiry) or 400 with the same text as a failed use.
   * A read only: the link stays usable. No password hash is involved, so the route's write limit is its only cost cap.
   */
  async function checkResetLink(token: string) {
    const expiresAt = token ? await store.openPasswordResetTokenExpiry(token, now()) : null;
    if (expiresAt === null) throw badRequest(RESET_LINK_INVALID, "reset_link_invalid");
    return { detail: RESET_LINK_USABLE, expires_at: new Date(expiresAt).toISOString() };
  }

  /** Accepts a numeric id or an e-mail (the CLI's `<email|id>`). */
  async function findByEmailOrId(ref: string): Promise<UserRow> {
    const trimmed = ref.trim();
    const row = /^\d+$/.test(trimmed)
      ? await findById(Number(trimmed))
      : await store.findUserByEmail(normalizeEmail(trimmed));
    if (!row) throw notFound(USER_NOT_FOUND);
    return row;
  }

  /** Writes the change into the feed (for the servers of other processes) in the caller's transaction. */
  async function recordTx(tx: StoreDb, change: AccountChange) {
    await store.recordChangesIn(tx, origin, feedEntries(change), now());
    return change;
  }

  /** Revokes every refresh token and records the closure (sockets, and access tokens issued before it). */
  async function closeSessionsTx(tx: StoreDb, userId: number, reason: string): Promise<AccountChange> {
    await store.revokeAllForUserIn(tx, userId, now(), reason);
    return recordTx(tx, { userId, sessionsClosed: reason, identityChanged: false });
  }

  async function requireByIdTx(tx: StoreDb, userId: number) {
    const row = await store.userIn(tx, userId);
    if (!row) throw notFound(USER_NOT_FOUND);
    return row;
  }

  const updateTx = (tx: StoreDb, userId: number, values: UserValues) => store.updateUserIn(tx, userId, values, now());

  /**
   * The account toggles inside the caller's transaction (`inTransaction`), so an administrator's audit row commits
   * with them or not at all. Each returns the change to `announce` once the transaction has committed.
   */
  async function setActiveTx(tx: StoreDb, userId: number, active: boolean): Promise<AccountChange> {
    await requireByIdTx(tx, userId);
    await updateTx(tx, userId, { isActive: active });
    if (!active) {
      // Reactivating the account later does not bring them back: a new link must be asked for.
      await store.voidPasswordResetTokensIn(tx, userId, now());
      return closeSessionsTx(tx, userId, "deactivated");
    }
    return { userId, sessionsClosed: null, identityChanged: false };
  }

  /** Ends every session of a suspended member (moderation), in the caller's transaction; announce it after. */
  async function suspendSessionsTx(tx: StoreDb, userId: number): Promise<AccountChange> {
    await requireByIdTx(tx, userId);
    return closeSessionsTx(tx, userId, "suspended");
  }

  async function setAdminTx(tx: StoreDb, userId: number, isAdmin: boolean): Promise<AccountChange> {
    await requireByIdTx(tx, userId);
    await updateTx(tx, userId, { isAdmin });
    return recordTx(tx, { userId, sessionsClosed: null, identityChanged: true });
  }

  async function requirePasswordResetTx(tx: StoreDb, userId: number): Promise<AccountChange> {
    await requireByIdTx(tx, userId);
    await updateTx(tx, userId, { passwordResetRequired: true });
    return closeSessionsTx(tx, userId, "password_reset_required");
  }

  /**
   * Tells this server about a committed change: the user's live sockets get the current name and administrator
   * flag first (modules that react read them), then a session closure disconnects them
   * (`accounts.sessions_closed`) and any change refreshes what is shown of the user (`accounts.user_updated`).
   * Other processes learn it from the feed. Resolves when all that is done.
   */
  async function announceHere(change: AccountChange) {
    const row = refreshIdentities ? await findById(change.userId) : undefined;
    if (row) refreshIdentities?.(row);
    if (change.sessionsClosed) {
      events.emit("accounts.sessions_closed", { userId: change.userId, reason: change.sessionsClosed });
    }
    events.emit("accounts.user_updated", { userId: change.userId });
  }

  /** `announceHere`, then a nudge to the other processes (Redis), so they read the feed now, not at their next poll. */
  async function announce(change: AccountChange) {
    await announceHere(change);
    nudgeOthers?.();
  }

  /** Runs one toggle in its own transaction, announces it, and answers the updated user. */
  async function committed(userId: number, toggle: (tx: StoreDb) => Promise<AccountChange>) {
    await announce(await store.transaction(toggle));
    return presentUser(await requireById(userId));
  }

  const setActive = (userId: number, active: boolean) => committed(userId, (tx) => setActiveTx(tx, userId, active));
  const setAdmin = (userId: number, isAdmin: boolean) => committed(userId, (tx) => setAdminTx(tx, userId, isAdmin));
  const requirePasswordReset = (userId: number) => committed(userId, (tx) => requirePasswordResetTx(tx, userId));

  /**
   * Renames a user inside the caller's transaction (the admin module writes its audit row in the same one); the
   * caller announces the returned change after the commit. Validation is the rename rule (kernel `checkRename`:
   * registration's characters, 2~12자), the one rule of the console, the API and the CLI; every failure is a 400.
   */
  async function renameUserTx(tx: StoreDb, userId: number, newUsername: string) {
    const username = normalizeUsername(newUsername);
    const rule = checkRename(username);
    if (!rule.ok) throw badRequest(rule.error!);
    await deps.cleanName?.(username);
    const row = await requireByIdTx(tx, userId);
    if (row.username === username) throw badRequest("현재 사용자명과 같습니다.");
    const key = usernameKey(username);
    const owner = await store.usernameOwnerIn(tx, key);
    if (owner !== undefined && owner !== userId) throw conflict(USERNAME_TAKEN);
    try {
      await updateTx(tx, userId, { username, usernameKey: key });
    } catch (error) {
      // PostgreSQL: another rename or registration took the name after the check; the unique index refused this.
      throw isUniqueViolation(error) ? conflict(USERNAME_TAKEN) : error;
    }
    const change = await recordTx(tx, { userId, sessionsClosed: null, identityChanged: true });
    return { previous: row.username, username, change };
  }

  async function loginHistoryPage(userId: number, page: number, size: number) {
    await requireById(userId);
    const { rows, total } = await store.loginHistoryPage(userId, size, (page - 1) * size);
    return {
      logs: rows.map((r) => ({
        id: r.id,
        login_time: r.loginTime.toISOString(),
        ip_address: r.ipAddress,
        user_agent: r.userAgent,
      })),
      total_count: total,
      current_page: page,
      page_size: size,
      total_pages: Math.ceil(total / size),
    };
  }

  return {
    register,
    login,
    refresh,
    logout,
    resetPassword,
    resetLink,
    forgotPassword,
    resetPasswordWithToken,
    checkResetLink,
    findById,
    requireById,
    findByEmailOrId,
    setActive,
    setAdmin,
    requirePasswordReset,
    setActiveTx,
    setAdminTx,
    requirePasswordResetTx,
    suspendSessionsTx,
    renameUserTx,
    /** The user's row read inside the caller's transaction (on PostgreSQL, its connection: see the admin's toggles). */
    requireByIdTx,
    announce,
    /** What a change read from the feed (made by another process) does here: `announce` without the nudge. */
    announceHere,
    /** Set once by the socket side when there are other processes to tell (ctx.cluster). */
    setChangeNudge(nudge: () => void) {
      nudgeOthers = nudge;
    },
    /** Adds a check every login must pass after its password (moderation's suspensions; `onBoot`). */
    addLoginCheck(check: LoginCheck) {
      loginChecks.push(check);
    },
    /** Called once by the socket side (attachIo): `announce` refreshes live identities through it. */
    setIdentityRefresher(refresher: IdentityRefresher) {
      refreshIdentities = refresher;
    },
    sessionsClosedAt: (userId: number) => store.sessionsClosedAt(userId),
    loginHistoryPage,
    me: async (userId: number) => presentUser(await requireById(userId)),
  };
}
export type AccountsService = ReturnType<typeof createAccountsService>;
