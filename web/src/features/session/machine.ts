/**
 * The session state machine of spec part 1 §4 "Session", as a pure reducer plus async actions that take their
 * dependencies (API client, token store, dispatch, navigation) so tests drive every transition without a browser.
 *
 *   loading ─ no token ───────────────────────────────▶ anonymous
 *   loading ─ me ok ──────────────────────────────────▶ authenticated (password_reset_required if the user must)
 *   loading ─ me 401 → refresh → retry once fails ─────▶ anonymous + error, tokens cleared
 *   any ─ login ok ───────────────────────────────────▶ authenticated
 *   any ─ login with password_reset_required ─────────▶ password_reset_required (PASSWORD_RESET_REQUIRED thrown)
 *   any ─ logout ─────────────────────────────────────▶ anonymous, tokens cleared, go to "/"
 *   any ─ refresh failure (from any request) ─────────▶ anonymous + error, tokens cleared
 *   signed in ─ logout in another tab ─────────────────▶ anonymous + notice (the other tab cleared the tokens)
 *   any ─ login in another tab ───────────────────────▶ as "loading" with the new token
 *   signed in ─ server closed the socket, me 403 ──────▶ anonymous + the server's text, tokens cleared, /login
 *   signed in ─ the server ended the session ──────────▶ anonymous + why (`ended`), tokens cleared (the socket's
 *                (user:session_closed, or a refused       `user:session_closed`, or a refresh answered with a reason;
 *                refresh with a reason)                   another tab: the reason it left in the storage)
 */
import {
  SESSION_END_TEXT,
  type SessionClosedPayload,
  type SessionEndReason,
} from "../../../../modules/kernel/session-end";
import { type ApiClient, ApiError, AUTH_FAILED_MESSAGE } from "../../lib/api";
import type { Navigator } from "../../lib/navigation";
import type { TokenStore } from "../../lib/tokens";
import { LIVE_STAT_FIELDS, type LoginInput, type LoginResponse, type User } from "./types";

export type SessionStatus = "loading" | "anonymous" | "authenticated" | "password_reset_required";

export interface SessionState {
  status: SessionStatus;
  user: User | null;
  error: string | null;
  /** The server ended the session and `error` says why: the shell offers the login, guards return here after it. */
  ended: SessionEndReason | null;
}

export const initialSession: SessionState = { status: "loading", user: null, error: null, ended: null };

export const USER_LOAD_FAILED = "사용자 정보를 불러오는데 실패했습니다.";
export const LOGIN_FAILED = "로그인에 실패했습니다. 이메일과 비밀번호를 확인해주세요.";
export const LOGGED_OUT_ELSEWHERE = "다른 탭에서 로그아웃하여 이 탭에서도 로그아웃되었습니다.";

export type SessionEvent =
  | { type: "NO_TOKEN" }
  | { type: "USER_LOADED"; user: User }
  | { type: "LOAD_FAILED"; error: string }
  | { type: "AUTH_FAILED"; error: string }
  | { type: "LOGIN_SUCCEEDED"; user: User }
  | { type: "RESET_REQUIRED"; user: User }
  | { type: "LOGGED_OUT" }
  | { type: "LOGGED_OUT_ELSEWHERE" }
  | { type: "SESSION_ENDED"; ended: SessionClosedPayload }
  | { type: "SESSION_ENDED_ELSEWHERE"; ended: SessionClosedPayload }
  | { type: "STATS_UPDATED"; stats: Partial<User> }
  | { type: "ERROR_DISMISSED" };

const signedIn = (state: SessionState) =>
  state.status === "authenticated" || state.status === "password_reset_required";

export function sessionReducer(state: SessionState, event: SessionEvent): SessionState {
  switch (event.type) {
    case "NO_TOKEN":
      return { status: "anonymous", user: null, error: null, ended: null };
    case "USER_LOADED":
      return {
        status: event.user.password_reset_required ? "password_reset_required" : "authenticated",
        user: event.user,
        error: null,
        ended: null,
      };
    case "LOAD_FAILED":
    case "AUTH_FAILED":
      // The server already said why the session ended (the refused refresh came first): keep that, not the generic.
      if (state.ended && state.status === "anonymous") return state;
      return { status: "anonymous", user: null, error: event.error, ended: null };
    case "LOGIN_SUCCEEDED":
      return { status: "authenticated", user: event.user, error: null, ended: null };
    case "RESET_REQUIRED":
      return { status: "password_reset_required", user: event.user, error: null, ended: null };
    case "LOGGED_OUT":
      return { status: "anonymous", user: null, error: null, ended: null };
    case "LOGGED_OUT_ELSEWHERE":
      // Only a tab that was signed in has something to be told.
      return signedIn(state)
        ? { status: "anonymous", user: null, error: LOGGED_OUT_ELSEWHERE, ended: null }
        : { ...state, status: "anonymous", user: null };
    case "SESSION_ENDED":
      return { status: "anonymous", user: null, error: event.ended.detail, ended: event.ended.reason };
    case "SESSION_ENDED_ELSEWHERE":
      return signedIn(state)
        ? { status: "anonymous", user: null, error: event.ended.detail, ended: event.ended.reason }
        : { ...state, status: "anonymous", user: null };
    case "STATS_UPDATED":
      return applyStats(state, event.stats);
    case "ERROR_DISMISSED":
      return state.error === null && state.ended === null ? state : { ...state, error: null, ended: null };
  }
}

/** Live figures from `user:stats_update`: only known numeric fields, only for the signed-in user. */
function applyStats(state: SessionState, stats: Partial<User>): SessionState {
  const user = state.user;
  if (!user || !stats || typeof stats !== "object") return state;
  if (typeof stats.id === "number" && stats.id !== user.id) return state;
  const next: Record<string, unknown> = { ...user };
  let changed = false;
  for (const field of LIVE_STAT_FIELDS) {
    const value = stats[field];
    if (typeof value === "number" && Number.isFinite(value) && value !== user[field]) {
      next[field] = value;
      changed = true;
    }
  }
  if (typeof stats.username === "string" && stats.username && stats.username !== user.username) {
    next.username = stats.username;
    changed = true;
  }
  return changed ? { ...state, user: next as unknown as User } : state;
}

/** Thrown by `login` when the account must set a new password; the caller goes to /password-reset with `user`. */
export class PasswordResetRequiredError extends Error {
  readonly code = "PASSWORD_RESET_REQUIRED";
  constructor(readonly user: User) {
    super("PASSWORD_RESET_REQUIRED");
    this.name = "PasswordResetRequiredError";
  }
}

export const isPasswordResetRequired = (error: unknown): error is PasswordResetRequiredError =>
  error instanceof PasswordResetRequiredError;

export interface SessionDeps {
  api: Pick<ApiClient, "get" | "post">;
  tokens: TokenStore;
  dispatch: (event: SessionEvent) => void;
  navigate: Navigator;
}

/** Start: resolve the loading state from the stored token (the API client does me → 401 → refresh → retry once). */
export async function startSession(deps: SessionDeps): Promise<void> {
  if (!deps.tokens.access()) {
    deps.dispatch({ type: "NO_TOKEN" });
    return;
  }
  try {
    const user = await deps.api.get<User>("/api/users/me", { redirectOnAuthFailure: false });
    deps.dispatch({ type: "USER_LOADED", user });
  } catch (error) {
    deps.dispatch(failureEvent(deps, error));
  }
}

function failureEvent(deps: SessionDeps, error: unknown): SessionEvent {
  // The server ended the session and said why (the API client already dropped the tokens, keeping the reason).
  if (error instanceof ApiError && error.sessionEnded) return { type: "SESSION_ENDED", ended: error.sessionEnded };
  const status = error instanceof ApiError ? error.status : 0;
  if (status === 401 || status === 403) {
    // Refused for good (expired and not renewable, or deactivated): the stored tokens are useless.
    deps.tokens.clear();
    return {
      type: "AUTH_FAILED",
      error: status === 403 && error instanceof ApiError ? error.detail : AUTH_FAILED_MESSAGE,
    };
  }
  // The server could not answer: keep the tokens so the next visit can try again.
  return { type: "LOAD_FAILED", error: USER_LOAD_FAILED };
}

/** Re-reads the signed-in user (after a profile change, for example). */
export async function reloadUser(deps: SessionDeps): Promise<void> {
  if (!deps.tokens.access()) return;
  try {
    deps.dispatch({ type: "USER_LOADED", user: await deps.api.get<User>("/api/users/me") });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) deps.dispatch(failureEvent(deps, error));
  }
}

/**
 * Login. Success stores the access token (and the refresh token only when returned) and authenticates. An account
 * that must reset its password gets its reset-only token stored and the user set, but stays unauthenticated:
 * PasswordResetRequiredError is thrown. Other failures throw ApiError (the caller shows the text).
 */
export async function login(deps: SessionDeps, input: LoginInput): Promise<User> {
  const answer = await deps.api.post<LoginResponse>("/api/users/login", input, { auth: false });
  if (answer.password_reset_required) {
    // State first: listeners of the token change (the socket) must already see a reset-only session.
    deps.dispatch({ type: "RESET_REQUIRED", user: answer.user });
    deps.tokens.set(answer.access_token, null);
    throw new PasswordResetRequiredError(answer.user);
  }
  deps.tokens.set(answer.access_token, answer.refresh_token ?? null);
  deps.dispatch({ type: "LOGIN_SUCCEEDED", user: answer.user });
  return answer.user;
}

/** Logout: the server ends the refresh token if one exists (failure ignored); tokens and user are cleared. */
export async function logout(deps: SessionDeps, options: { to?: string | null } = {}): Promise<void> {
  const refreshToken = deps.tokens.refresh();
  if (refreshToken) {
    await deps.api.post("/api/users/logout", { refresh_token: refreshToken }, { auth: false }).catch(() => {});
  }
  deps.tokens.clear();
  deps.dispatch({ type: "LOGGED_OUT" });
  const to = options.to === undefined ? "/" : options.to;
  if (to) deps.navigate(to);
}

/** The API client dropped the tokens because a refresh failed: the session is over (`ended`: the server said why). */
export function sessionLost(deps: Pick<SessionDeps, "dispatch">, ended: SessionClosedPayload | null = null): void {
  deps.dispatch(ended ? { type: "SESSION_ENDED", ended } : { type: "AUTH_FAILED", error: AUTH_FAILED_MESSAGE });
}

/**
 * The server ended the session and told this tab's socket why (`user:session_closed`, just before it closes the
 * connection): signed out here with the reason, the tokens dropped (the reason kept for the other tabs). State
 * first: the token listeners (the socket) must already see a signed-out session. False when nobody was signed in.
 */
export function sessionEndedByServer(
  deps: Pick<SessionDeps, "dispatch" | "tokens">,
  state: SessionState,
  ended: SessionClosedPayload,
): boolean {
  if (!signedIn(state)) return false;
  deps.dispatch({ type: "SESSION_ENDED", ended });
  deps.tokens.clear(ended.reason);
  return true;
}

/**
 * Another tab of this browser changed the stored tokens (the browser's storage is shared): a logout there
 * (tokens cleared) logs this tab out too, with a notice (why the server ended it, when that tab was told); a login
 * there (a new token) loads that user here.
 */
export async function followOtherTab(deps: SessionDeps, change: "set" | "cleared"): Promise<void> {
  if (change === "set") return startSession(deps);
  const reason = deps.tokens.endedReason();
  deps.dispatch(
    reason
      ? { type: "SESSION_ENDED_ELSEWHERE", ended: { reason, detail: SESSION_END_TEXT[reason] } }
      : { type: "LOGGED_OUT_ELSEWHERE" },
  );
}

/**
 * The server ended the member's connection: asks it why through `/api/users/me`. A deactivated account (403) is
 * logged out here with the server's text and sent to /login; a closed session (401 that cannot be renewed: the
 * password changed) was ended by the API client, which goes to /login; a forced password reset turns the session
 * into `password_reset_required`. Resolves true when this tab is no longer signed in as a member, false when the
 * account is fine or the server could not answer.
 */
export async function confirmSession(deps: SessionDeps): Promise<boolean> {
  // Already signed out because the server said it ended the session (its socket event came first): over.
  if (!deps.tokens.access()) return deps.tokens.endedReason() !== null;
  try {
    const user = await deps.api.get<User>("/api/users/me");
    deps.dispatch({ type: "USER_LOADED", user });
    return user.password_reset_required === true;
  } catch (error) {
    if (!(error instanceof ApiError)) return false;
    if (error.status === 403) {
      // State first: the token listeners (the socket) must already see a signed-out session.
      deps.dispatch({ type: "AUTH_FAILED", error: error.detail });
      deps.tokens.clear();
      deps.navigate("/login", { loginMessage: error.detail });
      return true;
    }
    return error.status === 401;
  }
}
