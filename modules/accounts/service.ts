import { count, desc, eq, lt, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { type UserRow, users } from "../../db/core/schema";
import {
  checkEmail,
  checkPassword,
  checkUsername,
  MSG,
  normalizeEmail,
  normalizeUsername,
  usernameKey,
} from "../kernel/account-rules";
import { AppError, badRequest, conflict, forbidden, notFound, tooManyRequests, unprocessable } from "../kernel/errors";
import type { EventBus } from "../kernel/events";
import { type AccountChange, recordAccountChange, sessionsClosedAt } from "./account-changes";
import { isCommonPassword } from "./common-passwords";
import { experienceForNextLevel, type PublicUser, presentUser } from "./presenter";
import { loginHistory, rewardGrants } from "./schema";
import type { AddressThrottle, LoginThrottle } from "./throttle";
import {
  type AccessTokens,
  AUTH_FAILED,
  issueRefreshToken,
  revokeAllForUser,
  revokeRefreshToken,
  rotateRefreshToken,
} from "./tokens";

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

// OWASP's argon2id baseline (19 MiB, 2 iterations): ~20 ms a hash here, strong and cheap enough for tests.
const HASH_OPTIONS = { algorithm: "argon2id", memoryCost: 19456, timeCost: 2 } as const;
// Verified against when the e-mail is unknown, so both failures take the same time.
let dummyHash: Promise<string> | null = null;
const getDummyHash = () => {
  dummyHash ??= Bun.password.hash("not-a-real-password", HASH_OPTIONS);
  return dummyHash;
};

export interface AccountsDeps {
  db: Db;
  events: EventBus;
  now: () => number;
  tokens: AccessTokens;
  throttles: AccountThrottles;
  /** Names this server (or CLI run) in the account changes feed, so it does not apply its own changes twice. */
  origin: string;
}

/** Every route that hashes or verifies a password is limited: each call costs ~20 ms of CPU. */
export interface AccountThrottles {
  login: LoginThrottle;
  register: AddressThrottle;
  resetPassword: AddressThrottle;
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
function takeAttempt(throttle: AddressThrottle, ip: string) {
  const wait = throttle.take(ip);
  if (wait > 0) throw tooManyRequests(TOO_MANY_REQUESTS, `retry_after:${wait}`);
}

export function createAccountsService(deps: AccountsDeps) {
  const { db, events, now, tokens, throttles, origin } = deps;

  const findById = (id: number) => db.select().from(users).where(eq(users.id, id)).get();
  const requireById = (id: number) => {
    const row = findById(id);
    if (!row) throw notFound(USER_NOT_FOUND);
    return row;
  };
  /** `ip`: the client of an HTTP request, throttled per address; in-process callers (seeds, tests) pass none. */
  async function register(input: { username: string; email: string; password: string }, ip?: string) {
    const username = normalizeUsername(input.username);
    const usernameCheck = checkUsername(username);
    if (!usernameCheck.ok) throw unprocessable(usernameCheck.error!);
    const emailError = checkEmail(input.email);
    if (emailError) throw unprocessable(emailError);
    assertPasswordAcceptable(input.password);
    const email = normalizeEmail(input.email);
    if (ip !== undefined) takeAttempt(throttles.register, ip);
    const passwordHash = await Bun.password.hash(input.password, HASH_OPTIONS);
    // The uniqueness checks and the insert share one synchronous transaction; the unique indexes back them up.
    const row = db.transaction((tx) => {
      if (
        tx
          .select({ id: users.id })
          .from(users)
          .where(eq(users.usernameKey, usernameKey(username)))
          .get()
      ) {
        throw conflict(USERNAME_TAKEN);
      }
      if (tx.select({ id: users.id }).from(users).where(eq(users.email, email)).get()) throw conflict(EMAIL_TAKEN);
      const at = new Date(now());
      return tx
        .insert(users)
        .values({ username, usernameKey: usernameKey(username), email, passwordHash, createdAt: at, updatedAt: at })
        .returning()
        .get();
    });
    return presentUser(row);
  }

  async function login(input: LoginInput) {
    const email = normalizeEmail(input.email);
    if (!email || !input.password) throw unprocessable(MSG.loginRequired);
    // Counted before the ~20 ms check, so a burst of parallel attempts is cut at the limit too.
    const attempt = throttles.login.begin(email, input.ip);
    if (attempt.retryAfter > 0) throw tooManyRequests(TOO_MANY_LOGINS, `retry_after:${attempt.retryAfter}`);
    const row = db.select().from(users).where(eq(users.email, email)).get();
    const valid = row
      ? await Bun.password.verify(input.password, row.passwordHash)
      : await Bun.password.verify(input.password, await getDummyHash()).then(() => false);
    if (!row || !valid) throw new AppError(401, LOGIN_FAILED, "login_failed");
    throttles.login.succeeded(attempt);
    if (!row.isActive) throw forbidden(ACCOUNT_INACTIVE, "inactive");
    const at = now();
    const rememberMe = input.remember_me === true;
    const refreshToken = db.transaction((tx) => {
      tx.insert(loginHistory)
        .values({
          userId: row.id,
          loginTime: new Date(at),
          ipAddress: input.ip || null,
          userAgent: input.userAgent?.slice(0, 512) ?? null,
        })
        .run();
      tx.update(users)
        .set({ loginCount: sql`${users.loginCount} + 1`, lastLoginAt: new Date(at) })
        .where(eq(users.id, row.id))
        .run();
      // A reset-required login gets a narrow access token and no refresh token: it cannot outlive the reset.
      return row.passwordResetRequired ? null : issueRefreshToken(tx, row.id, rememberMe, at);
    });
    const user = presentUser(requireById(row.id));
    const scope = row.passwordResetRequired ? "password_reset" : "full";
    return {
      access_token: await tokens.sign(row.id, scope),
      token_type: "bearer" as const,
      user,
      password_reset_required: row.passwordResetRequired,
      ...(refreshToken ? { refresh_token: refreshToken } : {}),
    };
  }

  async function refresh(presented: string) {
    const outcome = db.transaction((tx) => rotateRefreshToken(tx, presented, now()));
    if (outcome.kind !== "rotated") throw new AppError(401, AUTH_FAILED, `refresh_${outcome.kind}`);
    const row = findById(outcome.userId);
    if (!row) throw new AppError(401, AUTH_FAILED, "refresh_invalid");
    if (!row.isActive) {
      db.transaction((tx) => revokeAllForUser(tx, row.id, now(), "inactive"));
      throw forbidden(ACCOUNT_INACTIVE, "inactive");
    }
    const scope = row.passwordResetRequired ? "password_reset" : "full";
    return { access_token: await tokens.sign(row.id, scope), refresh_token: outcome.token, token_type: "bearer" };
  }

  function logout(refreshToken: string | undefined) {
    if (refreshToken) db.transaction((tx) => revokeRefreshToken(tx, refreshToken, now()));
    return { detail: "로그아웃되었습니다." };
  }

  async function resetPassword(userId: number, newPassword: string, confirmPassword: string, ip: string) {
    assertPasswordAcceptable(newPassword, confirmPassword);
    const row = requireById(userId);
    takeAttempt(throttles.resetPassword, ip);
    if (await Bun.password.verify(newPassword, row.passwordHash)) throw unprocessable(PASSWORD_SAME);
    const passwordHash = await Bun.password.hash(newPassword, HASH_OPTIONS);
    // Every session ends, this one too: the answer tells the user to log in again with the new password (spec),
    // and a device logged in with the old one (perhaps by whoever knew it) loses its tokens and its sockets.
    const change = db.transaction((tx) => {
      tx.update(users)
        .set({ passwordHash, passwordResetRequired: false, updatedAt: new Date(now()) })
        .where(eq(users.id, userId))
        .run();
      return closeSessionsTx(tx, userId, "password_reset");
    });
    announce(change);
    return { detail: "비밀번호가 성공적으로 변경되었습니다. 새 비밀번호로 다시 로그인해주세요." };
  }

  /** Accepts a numeric id or an e-mail (the CLI's `<email|id>`). */
  function findByEmailOrId(ref: string): UserRow {
    const trimmed = ref.trim();
    const row = /^\d+$/.test(trimmed)
      ? findById(Number(trimmed))
      : db
          .select()
          .from(users)
          .where(eq(users.email, normalizeEmail(trimmed)))
          .get();
    if (!row) throw notFound(USER_NOT_FOUND);
    return row;
  }

  /** Revokes every refresh token and records the closure (sockets, and access tokens issued before it). */
  function closeSessionsTx(tx: DbOrTx, userId: number, reason: string): AccountChange {
    revokeAllForUser(tx, userId, now(), reason);
    const change = { userId, sessionsClosed: reason, identityChanged: false };
    recordAccountChange(tx, origin, change, now());
    return change;
  }

  function requireByIdTx(tx: DbOrTx, userId: number) {
    const row = tx.select().from(users).where(eq(users.id, userId)).get();
    if (!row) throw notFound(USER_NOT_FOUND);
    return row;
  }

  function updateTx(tx: DbOrTx, userId: number, values: Partial<typeof users.$inferInsert>) {
    tx.update(users)
      .set({ ...values, updatedAt: new Date(now()) })
      .where(eq(users.id, userId))
      .run();
  }

  /**
   * The account toggles inside the caller's (synchronous) transaction, so an administrator's audit row commits with
   * them or not at all. Each returns the change to `announce` once the transaction has committed.
   */
  function setActiveTx(tx: DbOrTx, userId: number, active: boolean): AccountChange {
    requireByIdTx(tx, userId);
    updateTx(tx, userId, { isActive: active });
    if (!active) return closeSessionsTx(tx, userId, "deactivated");
    return { userId, sessionsClosed: null, identityChanged: false };
  }

  function setAdminTx(tx: DbOrTx, userId: number, isAdmin: boolean): AccountChange {
    requireByIdTx(tx, userId);
    updateTx(tx, userId, { isAdmin });
    const change = { userId, sessionsClosed: null, identityChanged: true };
    recordAccountChange(tx, origin, change, now());
    return change;
  }

  function requirePasswordResetTx(tx: DbOrTx, userId: number): AccountChange {
    requireByIdTx(tx, userId);
    updateTx(tx, userId, { passwordResetRequired: true });
    return closeSessionsTx(tx, userId, "password_reset_required");
  }

  /**
   * Tells this server's modules about a committed change: a session closure disconnects the user's sockets, any
   * change refreshes what is shown of the user (`accounts.user_updated`). Other processes learn it from the feed.
   */
  function announce(change: AccountChange) {
    if (change.sessionsClosed) {
      events.emit("accounts.sessions_closed", { userId: change.userId, reason: change.sessionsClosed });
    }
    events.emit("accounts.user_updated", { userId: change.userId });
  }

  /** Runs one toggle in its own transaction, announces it, and answers the updated user. */
  function committed(userId: number, toggle: (tx: DbOrTx) => AccountChange) {
    announce(db.transaction(toggle));
    return presentUser(requireById(userId));
  }

  const setActive = (userId: number, active: boolean) => committed(userId, (tx) => setActiveTx(tx, userId, active));
  const setAdmin = (userId: number, isAdmin: boolean) => committed(userId, (tx) => setAdminTx(tx, userId, isAdmin));
  const requirePasswordReset = (userId: number) => committed(userId, (tx) => requirePasswordResetTx(tx, userId));

  /**
   * Renames a user inside the caller's transaction (the admin module writes its audit row in the same one); the
   * caller announces the returned change after the commit. Validation is registration's, plus the administrator's
   * minimum of 2 characters.
   */
  function renameUserTx(tx: DbOrTx, userId: number, newUsername: string) {
    const username = normalizeUsername(newUsername);
    if ([...username].length < 2) throw badRequest("사용자명은 최소 2자 이상이어야 합니다.");
    const check = checkUsername(username);
    if (!check.ok) throw unprocessable(check.error!);
    const row = requireByIdTx(tx, userId);
    if (row.username === username) throw badRequest("현재 사용자명과 같습니다.");
    const clash = tx
      .select({ id: users.id })
      .from(users)
      .where(eq(users.usernameKey, usernameKey(username)))
      .get();
    if (clash && clash.id !== userId) throw conflict(USERNAME_TAKEN);
    updateTx(tx, userId, { username, usernameKey: usernameKey(username) });
    const change: AccountChange = { userId, sessionsClosed: null, identityChanged: true };
    recordAccountChange(tx, origin, change, now());
    return { previous: row.username, username, change };
  }

  function loginHistoryPage(userId: number, page: number, size: number) {
    requireById(userId);
    const rows = db
      .select()
      .from(loginHistory)
      .where(eq(loginHistory.userId, userId))
      .orderBy(desc(loginHistory.loginTime), desc(loginHistory.id))
      .limit(size)
      .offset((page - 1) * size)
      .all();
    const total = db.select({ n: count() }).from(loginHistory).where(eq(loginHistory.userId, userId)).get()?.n ?? 0;
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
    findById,
    requireById,
    findByEmailOrId,
    setActive,
    setAdmin,
    requirePasswordReset,
    setActiveTx,
    setAdminTx,
    requirePasswordResetTx,
    renameUserTx,
    announce,
    sessionsClosedAt: (userId: number) => sessionsClosedAt(db, userId),
    loginHistoryPage,
    me: (userId: number) => presentUser(requireById(userId)),
  };
}
export type AccountsService = ReturnType<typeof createAccountsService>;

export interface GameRewardDelta {
  experience: number;
  coins: number;
  points: number;
  medal: "gold" | "silver" | "bronze" | null;
  won: boolean;
  wpm: number;
  accuracy: number;
}

/** The columns one game changes; prepared once per connection with placeholders of the same names. */
const REWARD_COLUMNS = [
  "level",
  "experience",
  "coins",
  "points",
  "totalEarnedPoints",
  "goldMedals",
  "silverMedals",
  "bronzeMedals",
  "winStreak",
  "maxWinStreak",
  "gamesPlayed",
  "wpmSum",
  "accuracySum",
  "updatedAt",
] as const;

function prepareRewardQueries(db: DbOrTx) {
  const set = Object.fromEntries(REWARD_COLUMNS.map((c) => [c, sql.placeholder(c)]));
  return {
    select: db
      .select()
      .from(users)
      .where(eq(users.id, sql.placeholder("id")))
      .prepare(),
    update: db
      .update(users)
      .set(set)
      .where(eq(users.id, sql.placeholder("id")))
      .prepare(),
    grant: db
      .insert(rewardGrants)
      .values({
        gameKey: sql.placeholder("gameKey"),
        userId: sql.placeholder("userId"),
        grantedAt: sql.placeholder("at"),
      })
      .onConflictDoNothing()
      .returning({ userId: rewardGrants.userId })
      .prepare(),
    prune: db
      .delete(rewardGrants)
      .where(lt(rewardGrants.grantedAt, sql.placeholder("before")))
      .prepare(),
  };
}

// A game of 20 members writes 20 users (and 20 grant rows) in one transaction: building and compiling the queries
// each time cost ~15x the work itself (bench/README.md, scoring). A transaction shares its connection's session, so the
// statements prepared for that session serve every transaction on it.
const rewardQueries = new WeakMap<object, ReturnType<typeof prepareRewardQueries>>();
function rewardQueriesFor(tx: DbOrTx) {
  const key = (tx as unknown as { session?: object }).session ?? tx;
  let queries = rewardQueries.get(key);
  if (!queries) {
    queries = prepareRewardQueries(tx);
    rewardQueries.set(key, queries);
  }
  return queries;
}

/**
 * Applies one game's rewards to a user inside the caller's (synchronous) transaction, levelling up as
 * often as the experience allows. Returns the new figures for `user:stats_update`.
 */
function addGameRewards(tx: DbOrTx, userId: number, delta: GameRewardDelta, at: number) {
  const queries = rewardQueriesFor(tx);
  const row = queries.select.get({ id: userId });
  if (!row) return null;
  let level = row.level;
  let experience = row.experience + delta.experience;
  while (experience >= experienceForNextLevel(level)) {
    experience -= experienceForNextLevel(level);
    level += 1;
  }
  const winStreak = delta.won ? row.winStreak + 1 : 0;
  const next = {
    level,
    experience,
    coins: row.coins + delta.coins,
    points: row.points + delta.points,
    totalEarnedPoints: row.totalEarnedPoints + delta.points,
    goldMedals: row.goldMedals + (delta.medal === "gold" ? 1 : 0),
    silverMedals: row.silverMedals + (delta.medal === "silver" ? 1 : 0),
    bronzeMedals: row.bronzeMedals + (delta.medal === "bronze" ? 1 : 0),
    winStreak,
    maxWinStreak: Math.max(row.maxWinStreak, winStreak),
    gamesPlayed: row.gamesPlayed + 1,
    wpmSum: row.wpmSum + delta.wpm,
    accuracySum: row.accuracySum + delta.accuracy,
    updatedAt: new Date(at),
  };
  queries.update.run({ ...next, id: userId });
  return { ...presentUser({ ...row, ...next }), leveled_up: level > row.level };
}

/** One member's rewards of one game. */
export interface GameRewardGrant {
  userId: number;
  delta: GameRewardDelta;
}

/** A member's figures after a game (`user:stats_update`); `already_granted` when an earlier call paid them. */
export type RewardedFigures = PublicUser & { leveled_up: boolean; already_granted: boolean };

/** A grant row is needed only while a finish may be retried (seconds); a day is far beyond that. */
export const REWARD_GRANT_RETENTION_MS = 86_400_000;

/**
 * Pays one game's rewards to its members in ONE transaction, at most once per (game key, member): each member's
 * grant row is written with the figures, so a retried or repeated call (a finish write tried again after an error)
 * pays nothing twice and answers the member's current figures with `already_granted`. A member deleted meanwhile
 * is skipped. `game.key` must name the game for good (the games module's id: `games:<id>`). The only way game
 * modes change a user's figures.
 */
export async function applyGameRewards(
  db: DbOrTx,
  game: { key: string; at: number },
  grants: readonly GameRewardGrant[],
): Promise<Map<number, RewardedFigures>> {
  return db.transaction((tx) => {
    // Epoch ms: a placeholder in a WHERE is bound as given (only insert values go through the column's mapping).
    rewardQueriesFor(tx).prune.run({ before: game.at - REWARD_GRANT_RETENTION_MS });
    const figures = new Map<number, RewardedFigures>();
    for (const grant of grants) {
      const paid = grantOnce(tx, game, grant);
      if (paid) figures.set(grant.userId, paid);
    }
    return figures;
  });
}

function grantOnce(tx: DbOrTx, game: { key: string; at: number }, { userId, delta }: GameRewardGrant) {
  const queries = rewardQueriesFor(tx);
  const row = queries.select.get({ id: userId });
  if (!row) return null;
  const granted = queries.grant.get({ gameKey: game.key, userId, at: new Date(game.at) });
  if (!granted) return { ...presentUser(row), leveled_up: false, already_granted: true };
  return { ...addGameRewards(tx, userId, delta, game.at)!, already_granted: false };
}
