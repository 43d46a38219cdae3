import { describe, expect, test } from "bun:test";
import { SESSION_END_TEXT } from "../../../../modules/kernel/session-end";
import { type ApiError, AUTH_FAILED_MESSAGE, createApiClient } from "../../lib/api";
import type { AppHistoryState } from "../../lib/navigation";
import { rejection } from "../../lib/test-helpers";
import { createTokenStore, memoryStorage, REFRESH_TOKEN_KEY, SESSION_ENDED_KEY, TOKEN_KEY } from "../../lib/tokens";
import {
  confirmSession,
  followOtherTab,
  initialSession,
  isPasswordResetRequired,
  LOGGED_OUT_ELSEWHERE,
  login,
  logout,
  PasswordResetRequiredError,
  reloadUser,
  type SessionEvent,
  type SessionState,
  sessionEndedByServer,
  sessionLost,
  sessionReducer,
  startSession,
  USER_LOAD_FAILED,
} from "./machine";
import type { User } from "./types";

const user = (over: Partial<User> = {}): User => ({
  id: 7,
  username: "타자왕",
  email: "a@example.com",
  level: 1,
  experience: 0,
  next_level_experience: 100,
  points: 0,
  coins: 0,
  total_earned_points: 0,
  total_spent_points: 0,
  gold_medals: 0,
  silver_medals: 0,
  bronze_medals: 0,
  win_streak: 0,
  max_win_streak: 0,
  games_played: 0,
  avg_wpm: 0,
  avg_accuracy: 0,
  is_admin: false,
  is_active: true,
  password_reset_required: false,
  login_count: 1,
  last_login_at: null,
  created_at: "2025-01-01T00:00:00.000Z",
  ...over,
});

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

type Route = (body: unknown, auth: string | null) => Response;

/** Session actions wired to the real API client over a scripted fake server. */
function harness(stored: Record<string, string>, routes: Record<string, Route>) {
  const storage = memoryStorage(stored);
  const tokens = createTokenStore(() => storage);
  const calls: string[] = [];
  const navigations: { to: string; state?: AppHistoryState }[] = [];
  let state: SessionState = initialSession;
  const events: SessionEvent[] = [];
  const dispatch = (event: SessionEvent) => {
    events.push(event);
    state = sessionReducer(state, event);
  };
  const api = createApiClient({
    tokens,
    navigate: (to, s) => navigations.push({ to, state: s }),
    log: { warn: () => {} },
    onSessionLost: (ended) => sessionLost({ dispatch }, ended),
    fetch: async (input, init) => {
      const key = `${init.method} ${input}`;
      calls.push(key);
      const route = routes[key];
      if (!route) return json(404, { detail: "없음" });
      const auth = ((init.headers ?? {}) as Record<string, string>).authorization ?? null;
      return route(init.body ? JSON.parse(String(init.body)) : undefined, auth);
    },
  });
  const deps = {
    api,
    tokens,
    dispatch,
    navigate: (to: string, s?: AppHistoryState) => navigations.push({ to, state: s }),
  };
  return { deps, storage, calls, navigations, events, state: () => state };
}

describe("start", () => {
  test("no stored token → anonymous, no call", async () => {
    const h = harness({}, {});
    await startSession(h.deps);
    expect(h.state()).toEqual({ status: "anonymous", user: null, error: null, ended: null });
    expect(h.calls).toEqual([]);
  });

  test("stored token and me succeeds → authenticated with the user", async () => {
    const me = user({ level: 3 });
    const h = harness({ [TOKEN_KEY]: "good" }, { "GET /api/users/me": () => json(200, me) });
    expect(h.state().status).toBe("loading");
    await startSession(h.deps);
    expect(h.state()).toEqual({ status: "authenticated", user: me, error: null, ended: null });
  });

  test("me for an account that must reset its password → password_reset_required", async () => {
    const me = user({ password_reset_required: true });
    const h = harness({ [TOKEN_KEY]: "reset-only" }, { "GET /api/users/me": () => json(200, me) });
    await startSession(h.deps);
    expect(h.state().status).toBe("password_reset_required");
    expect(h.state().user).toEqual(me);
  });

  test("me 401 → refresh → me retried once → authenticated, both tokens replaced", async () => {
    const me = user();
    const h = harness(
      { [TOKEN_KEY]: "expired", [REFRESH_TOKEN_KEY]: "r1" },
      {
        "GET /api/users/me": (_b, auth) => (auth === "Bearer fresh" ? json(200, me) : json(401, { detail: "만료" })),
        "POST /api/users/refresh": (body) =>
          (body as { refresh_token: string }).refresh_token === "r1"
            ? json(200, { access_token: "fresh", refresh_token: "r2", token_type: "bearer" })
            : json(401, { detail: "x" }),
      },
    );
    await startSession(h.deps);
    expect(h.calls).toEqual(["GET /api/users/me", "POST /api/users/refresh", "GET /api/users/me"]);
    expect(h.state().status).toBe("authenticated");
    expect(h.storage.dump()).toEqual({ [TOKEN_KEY]: "fresh", [REFRESH_TOKEN_KEY]: "r2" });
  });

  test("me 401 and refresh refused → anonymous with the error, tokens cleared, no redirect", async () => {
    const h = harness(
      { [TOKEN_KEY]: "expired", [REFRESH_TOKEN_KEY]: "revoked" },
      {
        "GET /api/users/me": () => json(401, { detail: "만료" }),
        "POST /api/users/refresh": () => json(401, { detail: "x" }),
      },
    );
    await startSession(h.deps);
    expect(h.state()).toEqual({ status: "anonymous", user: null, error: AUTH_FAILED_MESSAGE, ended: null });
    expect(h.storage.dump()).toEqual({});
    expect(h.navigations).toEqual([]);
  });

  test("me 401 twice (retry also refused) → anonymous with the error, tokens cleared", async () => {
    const h = harness(
      { [TOKEN_KEY]: "expired", [REFRESH_TOKEN_KEY]: "r1" },
      {
        "GET /api/users/me": () => json(401, { detail: "만료" }),
        "POST /api/users/refresh": () => json(200, { access_token: "fresh", refresh_token: "r2" }),
      },
    );
    await startSession(h.deps);
    expect(h.calls.filter((c) => c === "GET /api/users/me")).toHaveLength(2);
    expect(h.state()).toEqual({ status: "anonymous", user: null, error: AUTH_FAILED_MESSAGE, ended: null });
    expect(h.storage.dump()).toEqual({});
  });

  test("me 401 with no refresh token → anonymous with the error, tokens cleared", async () => {
    const h = harness({ [TOKEN_KEY]: "expired" }, { "GET /api/users/me": () => json(401, { detail: "만료" }) });
    await startSession(h.deps);
    expect(h.state().error).toBe(AUTH_FAILED_MESSAGE);
    expect(h.calls).toEqual(["GET /api/users/me"]);
    expect(h.storage.dump()).toEqual({});
  });

  test("server unreachable → anonymous with the user-info error, tokens kept for the next visit", async () => {
    const h = harness({ [TOKEN_KEY]: "good" }, { "GET /api/users/me": () => json(500, { detail: "x" }) });
    await startSession(h.deps);
    expect(h.state()).toEqual({ status: "anonymous", user: null, error: USER_LOAD_FAILED, ended: null });
    expect(h.storage.dump()[TOKEN_KEY]).toBe("good");
  });
});

describe("login", () => {
  const input = { email: "a@example.com", password: "secret1", remember_me: true };

  test("success stores both tokens, sets the user and authenticates; credentials are sent without a bearer", async () => {
    const me = user();
    let sent: unknown;
    let sentAuth: string | null = "unset";
    const h = harness(
      { [TOKEN_KEY]: "old-anon" },
      {
        "POST /api/users/login": (body, auth) => {
          sent = body;
          sentAuth = auth;
          return json(200, {
            access_token: "a1",
            refresh_token: "r1",
            token_type: "bearer",
            user: me,
            password_reset_required: false,
          });
        },
      },
    );
    h.deps.dispatch({ type: "NO_TOKEN" });
    expect(await login(h.deps, input)).toEqual(me);
    expect(sent).toEqual(input);
    expect(sentAuth).toBeNull();
    expect(h.state()).toEqual({ status: "authenticated", user: me, error: null, ended: null });
    expect(h.storage.dump()).toEqual({ [TOKEN_KEY]: "a1", [REFRESH_TOKEN_KEY]: "r1" });
  });

  test("success without a refresh token stores only the access token", async () => {
    const h = harness(
      { [REFRESH_TOKEN_KEY]: "stale" },
      {
        "POST /api/users/login": () =>
          json(200, { access_token: "a1", token_type: "bearer", user: user(), password_reset_required: false }),
      },
    );
    await login(h.deps, { ...input, remember_me: false });
    expect(h.storage.dump()).toEqual({ [TOKEN_KEY]: "a1" });
    expect(h.state().status).toBe("authenticated");
  });

  test("password_reset_required: token and user kept, not authenticated, PASSWORD_RESET_REQUIRED thrown", async () => {
    const me = user({ password_reset_required: true });
    const h = harness(
      {},
      {
        "POST /api/users/login": () =>
          json(200, { access_token: "reset-only", token_type: "bearer", user: me, password_reset_required: true }),
      },
    );
    const error = await rejection<PasswordResetRequiredError & ApiError>(login(h.deps, input));
    expect(error).toBeInstanceOf(PasswordResetRequiredError);
    expect(isPasswordResetRequired(error)).toBe(true);
    expect(error.code).toBe("PASSWORD_RESET_REQUIRED");
    expect(error.user).toEqual(me);
    expect(h.state()).toEqual({ status: "password_reset_required", user: me, error: null, ended: null });
    expect(h.storage.dump()).toEqual({ [TOKEN_KEY]: "reset-only" });
  });

  test("wrong credentials: the server's 401 is thrown, no refresh attempted, nothing stored", async () => {
    const h = harness(
      { [REFRESH_TOKEN_KEY]: "r1" },
      {
        "POST /api/users/login": () =>
          json(401, { detail: "로그인에 실패했습니다. 이메일과 비밀번호를 확인해주세요." }),
      },
    );
    h.deps.dispatch({ type: "NO_TOKEN" });
    const error = await rejection<PasswordResetRequiredError & ApiError>(login(h.deps, input));
    expect(error.status).toBe(401);
    expect(error.detail).toBe("로그인에 실패했습니다. 이메일과 비밀번호를 확인해주세요.");
    expect(h.calls).toEqual(["POST /api/users/login"]);
    expect(h.state().status).toBe("anonymous");
    expect(h.navigations).toEqual([]);
  });
});

describe("logout", () => {
  test("tells the server with the refresh token, clears tokens and user, goes to /", async () => {
    let sent: unknown;
    const h = harness(
      { [TOKEN_KEY]: "a1", [REFRESH_TOKEN_KEY]: "r1" },
      {
        "POST /api/users/logout": (body) => {
          sent = body;
          return json(200, { detail: "ok" });
        },
      },
    );
    h.deps.dispatch({ type: "LOGIN_SUCCEEDED", user: user() });
    await logout(h.deps);
    expect(sent).toEqual({ refresh_token: "r1" });
    expect(h.storage.dump()).toEqual({});
    expect(h.state()).toEqual({ status: "anonymous", user: null, error: null, ended: null });
    expect(h.navigations).toEqual([{ to: "/" }]);
  });

  test("a failing server call is ignored", async () => {
    const h = harness(
      { [TOKEN_KEY]: "a1", [REFRESH_TOKEN_KEY]: "r1" },
      { "POST /api/users/logout": () => json(500, { detail: "x" }) },
    );
    h.deps.dispatch({ type: "LOGIN_SUCCEEDED", user: user() });
    await logout(h.deps, { to: "/login" });
    expect(h.state().status).toBe("anonymous");
    expect(h.storage.dump()).toEqual({});
    expect(h.navigations).toEqual([{ to: "/login" }]);
  });

  test("without a refresh token the server is not called", async () => {
    const h = harness({ [TOKEN_KEY]: "reset-only" }, {});
    h.deps.dispatch({ type: "RESET_REQUIRED", user: user() });
    await logout(h.deps, { to: null });
    expect(h.calls).toEqual([]);
    expect(h.state().status).toBe("anonymous");
    expect(h.navigations).toEqual([]);
  });
});

describe("refresh failure elsewhere", () => {
  test("a request whose refresh fails clears the tokens and ends the session", async () => {
    const h = harness(
      { [TOKEN_KEY]: "expired", [REFRESH_TOKEN_KEY]: "revoked" },
      {
        "GET /api/board/": () => json(401, { detail: "x" }),
        "POST /api/users/refresh": () => json(401, { detail: "x" }),
      },
    );
    h.deps.dispatch({ type: "LOGIN_SUCCEEDED", user: user() });
    await h.deps.api.get("/api/board/").catch(() => {});
    expect(h.state()).toEqual({ status: "anonymous", user: null, error: AUTH_FAILED_MESSAGE, ended: null });
    expect(h.storage.dump()).toEqual({});
    expect(h.navigations.map((n) => n.to)).toEqual(["/login"]);
  });
});

describe("live stats", () => {
  const signedIn = sessionReducer(initialSession, { type: "LOGIN_SUCCEEDED", user: user() });

  test("a subset updates level, coins, points and medals", () => {
    const next = sessionReducer(signedIn, {
      type: "STATS_UPDATED",
      stats: { level: 4, coins: 30, points: 120, gold_medals: 1, silver_medals: 2, bronze_medals: 3 },
    });
    expect(next.user).toMatchObject({
      level: 4,
      coins: 30,
      points: 120,
      gold_medals: 1,
      silver_medals: 2,
      bronze_medals: 3,
    });
    expect(next.status).toBe("authenticated");
  });

  test("another user's figures, unknown fields and non-numbers are ignored", () => {
    expect(sessionReducer(signedIn, { type: "STATS_UPDATED", stats: { id: 99, level: 9 } })).toBe(signedIn);
    const bogus = { is_admin: true, coins: "many" } as unknown as Partial<User>;
    expect(sessionReducer(signedIn, { type: "STATS_UPDATED", stats: bogus })).toBe(signedIn);
  });

  test("without a user nothing changes", () => {
    const anonymous = sessionReducer(initialSession, { type: "NO_TOKEN" });
    expect(sessionReducer(anonymous, { type: "STATS_UPDATED", stats: { level: 2 } })).toBe(anonymous);
  });
});

describe("errors", () => {
  test("the session error can be dismissed without changing the status", () => {
    const failed = sessionReducer(initialSession, { type: "AUTH_FAILED", error: AUTH_FAILED_MESSAGE });
    expect(failed).toEqual({ status: "anonymous", user: null, error: AUTH_FAILED_MESSAGE, ended: null });
    expect(sessionReducer(failed, { type: "ERROR_DISMISSED" })).toEqual({
      status: "anonymous",
      user: null,
      error: null,
      ended: null,
    });
  });

  test("a successful login clears an earlier error", () => {
    const failed = sessionReducer(initialSession, { type: "AUTH_FAILED", error: AUTH_FAILED_MESSAGE });
    expect(sessionReducer(failed, { type: "LOGIN_SUCCEEDED", user: user() }).error).toBeNull();
  });
});

describe("reload", () => {
  test("re-reads the signed-in user", async () => {
    const h = harness({ [TOKEN_KEY]: "good" }, { "GET /api/users/me": () => json(200, user({ coins: 50 })) });
    h.deps.dispatch({ type: "LOGIN_SUCCEEDED", user: user() });
    await reloadUser(h.deps);
    expect(h.state().user?.coins).toBe(50);
    expect(h.state().status).toBe("authenticated");
  });
});

describe("other tabs", () => {
  test("a logout in another tab logs this tab out with a notice; an anonymous tab is not told anything", async () => {
    const h = harness({ [TOKEN_KEY]: "a1" }, { "GET /api/users/me": () => json(200, user()) });
    await startSession(h.deps);
    expect(h.state().status).toBe("authenticated");
    h.storage.removeItem(TOKEN_KEY); // what the other tab did to the shared storage
    await followOtherTab(h.deps, "cleared");
    expect(h.state()).toEqual({ status: "anonymous", user: null, error: LOGGED_OUT_ELSEWHERE, ended: null });
    expect(h.calls).toEqual(["GET /api/users/me"]); // the other tab told the server already

    const anonymous = harness({}, {});
    await startSession(anonymous.deps);
    await followOtherTab(anonymous.deps, "cleared");
    expect(anonymous.state()).toEqual({ status: "anonymous", user: null, error: null, ended: null });
  });

  test("a login in another tab loads that user here", async () => {
    const h = harness({}, { "GET /api/users/me": () => json(200, user({ username: "다른탭" })) });
    await startSession(h.deps);
    h.storage.setItem(TOKEN_KEY, "a2");
    await followOtherTab(h.deps, "set");
    expect(h.state().status).toBe("authenticated");
    expect(h.state().user?.username).toBe("다른탭");
  });
});

describe("the server closed the member's connection", () => {
  const INACTIVE = "비활성화된 계정입니다. 관리자에게 문의해주세요.";

  test("deactivated: logged out with the server's text, tokens cleared, to /login", async () => {
    let active = true;
    const h = harness(
      { [TOKEN_KEY]: "a1", [REFRESH_TOKEN_KEY]: "r1" },
      { "GET /api/users/me": () => (active ? json(200, user()) : json(403, { detail: INACTIVE })) },
    );
    await startSession(h.deps);
    active = false;
    expect(await confirmSession(h.deps)).toBe(true);
    expect(h.state()).toEqual({ status: "anonymous", user: null, error: INACTIVE, ended: null });
    expect(h.storage.dump()).toEqual({});
    expect(h.navigations.at(-1)).toEqual({ to: "/login", state: { loginMessage: INACTIVE } });
  });

  test("the session closed (password changed elsewhere): the refresh fails and the API client ends it", async () => {
    const h = harness(
      { [TOKEN_KEY]: "a1", [REFRESH_TOKEN_KEY]: "r1" },
      {
        "GET /api/users/me": () => json(401, { detail: AUTH_FAILED_MESSAGE }),
        "POST /api/users/refresh": () => json(401, { detail: AUTH_FAILED_MESSAGE }),
      },
    );
    expect(await confirmSession(h.deps)).toBe(true);
    expect(h.state()).toEqual({ status: "anonymous", user: null, error: AUTH_FAILED_MESSAGE, ended: null });
    expect(h.navigations.at(-1)?.to).toBe("/login");
  });

  test("a forced password reset: the session must reset; an account that is fine stays signed in", async () => {
    const forced = harness(
      { [TOKEN_KEY]: "a1" },
      { "GET /api/users/me": () => json(200, user({ password_reset_required: true })) },
    );
    expect(await confirmSession(forced.deps)).toBe(true);
    expect(forced.state().status).toBe("password_reset_required");

    const fine = harness({ [TOKEN_KEY]: "a1" }, { "GET /api/users/me": () => json(200, user({ username: "새이름" })) });
    expect(await confirmSession(fine.deps)).toBe(false);
    expect(fine.state().user?.username).toBe("새이름");

    const down = harness({ [TOKEN_KEY]: "a1" }, { "GET /api/users/me": () => json(503, { detail: "점검 중" }) });
    expect(await confirmSession(down.deps)).toBe(false);
    expect(down.storage.dump()).toEqual({ [TOKEN_KEY]: "a1" });
  });
});

describe("the server ended the session and said why (issue 24)", () => {
  const changed = { reason: "password_changed", detail: SESSION_END_TEXT.password_changed } as const;

  test("start: me 401, the refresh answers a reason → anonymous with that text and `ended`, no generic text", async () => {
    const h = harness(
      { [TOKEN_KEY]: "a1", [REFRESH_TOKEN_KEY]: "r1" },
      {
        "GET /api/users/me": () => json(401, { detail: AUTH_FAILED_MESSAGE }),
        "POST /api/users/refresh": () => json(401, changed),
      },
    );
    await startSession(h.deps);
    expect(h.state()).toEqual({ status: "anonymous", user: null, error: changed.detail, ended: "password_changed" });
    expect(h.storage.dump()).toEqual({ [SESSION_ENDED_KEY]: "password_changed" });
    expect(h.navigations).toEqual([]);
  });

  test("the socket's user:session_closed: signed out with the reason, tokens dropped; an anonymous tab ignores it", async () => {
    const h = harness(
      { [TOKEN_KEY]: "a1", [REFRESH_TOKEN_KEY]: "r1" },
      { "GET /api/users/me": () => json(200, user()) },
    );
    await startSession(h.deps);
    const forced = { reason: "password_reset_required", detail: "관리자가 …" } as const;
    expect(sessionEndedByServer(h.deps, h.state(), forced)).toBe(true);
    expect(h.state()).toEqual({
      status: "anonymous",
      user: null,
      error: "관리자가 …",
      ended: "password_reset_required",
    });
    expect(h.storage.dump()).toEqual({ [SESSION_ENDED_KEY]: "password_reset_required" });
    expect(sessionEndedByServer(h.deps, h.state(), changed)).toBe(false);
    // Its socket's disconnect that follows: the session is over, nothing to ask the server.
    expect(await confirmSession(h.deps)).toBe(true);
    expect(h.calls).toEqual(["GET /api/users/me"]);
  });

  test("another tab dropped the tokens because the server ended the session: this tab says why too", async () => {
    const h = harness({ [TOKEN_KEY]: "a1" }, { "GET /api/users/me": () => json(200, user()) });
    await startSession(h.deps);
    h.storage.setItem(SESSION_ENDED_KEY, "deactivated");
    h.storage.removeItem(TOKEN_KEY);
    await followOtherTab(h.deps, "cleared");
    expect(h.state()).toEqual({
      status: "anonymous",
      user: null,
      error: SESSION_END_TEXT.deactivated,
      ended: "deactivated",
    });
  });

  test("dismissing the notice forgets the reason; a later generic failure does not replace it", () => {
    const ended = sessionReducer(initialSession, { type: "SESSION_ENDED", ended: changed });
    expect(sessionReducer(ended, { type: "AUTH_FAILED", error: AUTH_FAILED_MESSAGE })).toBe(ended);
    expect(sessionReducer(ended, { type: "ERROR_DISMISSED" })).toEqual({
      status: "anonymous",
      user: null,
      error: null,
      ended: null,
    });
    expect(sessionReducer(ended, { type: "LOGIN_SUCCEEDED", user: user() }).ended).toBeNull();
  });
});
