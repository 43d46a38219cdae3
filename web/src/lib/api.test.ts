import { describe, expect, test } from "bun:test";
import { SESSION_END_TEXT } from "../../../modules/kernel/session-end";
import { ApiError, AUTH_FAILED_MESSAGE, createApiClient, detailOf } from "./api";
import { rejection } from "./test-helpers";
import { createTokenStore, memoryStorage, REFRESH_TOKEN_KEY, SESSION_ENDED_KEY, TOKEN_KEY } from "./tokens";

interface Call {
  path: string;
  method: string;
  auth: string | null;
  body: unknown;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/**
 * A fake server: protected paths accept only the token "valid-N" for the current N; /api/users/refresh accepts
 * only the current refresh token and rotates both.
 */
function setup(initial: Record<string, string> = {}, overrides: { refresh?: (call: Call) => Response } = {}) {
  const storage = memoryStorage(initial);
  const tokens = createTokenStore(() => storage);
  const calls: Call[] = [];
  const navigations: { to: string; state?: unknown }[] = [];
  const warnings: string[] = [];
  let generation = 1;
  let currentRefresh = "refresh-1";
  const validAccess = () => `valid-${generation}`;
  let protectedHandler: (call: Call) => Response = (call) =>
    call.auth === `Bearer ${validAccess()}` ? json(200, { ok: true, path: call.path }) : json(401, { detail: "no" });

  const fetch = async (input: string, init: RequestInit) => {
    const headers = (init.headers ?? {}) as Record<string, string>;
    const call: Call = {
      path: input,
      method: init.method ?? "GET",
      auth: headers.authorization ?? null,
      body: init.body ? JSON.parse(String(init.body)) : undefined,
    };
    calls.push(call);
    await Bun.sleep(1);
    if (call.path === "/api/users/refresh") {
      if (overrides.refresh) return overrides.refresh(call);
      const offered = (call.body as { refresh_token: string }).refresh_token;
      if (offered !== currentRefresh) return json(401, { detail: AUTH_FAILED_MESSAGE });
      generation++;
      currentRefresh = `refresh-${generation}`;
      return json(200, { access_token: validAccess(), refresh_token: currentRefresh, token_type: "bearer" });
    }
    return protectedHandler(call);
  };
  let sessionLost = 0;
  const endings: unknown[] = [];
  const client = createApiClient({
    fetch,
    tokens,
    navigate: (to, state) => navigations.push({ to, state }),
    log: { warn: (message: string) => warnings.push(message) },
    onSessionLost: (ended) => {
      sessionLost++;
      endings.push(ended);
    },
  });
  return {
    client,
    tokens,
    endings,
    storage,
    calls,
    navigations,
    warnings,
    sessionLost: () => sessionLost,
    refreshCalls: () => calls.filter((c) => c.path === "/api/users/refresh"),
    setHandler: (handler: (call: Call) => Response) => {
      protectedHandler = handler;
    },
  };
}

describe("bearer header", () => {
  test("the stored access token is sent; no token sends no header", async () => {
    const withToken = setup({ [TOKEN_KEY]: "valid-1" });
    await withToken.client.get("/api/x");
    expect(withToken.calls[0].auth).toBe("Bearer valid-1");

    const without = setup();
    without.setHandler(() => json(200, {}));
    await without.client.get("/api/x");
    expect(without.calls[0].auth).toBeNull();
  });

  test("auth: false sends no header and a 401 is not retried", async () => {
    const s = setup({ [TOKEN_KEY]: "valid-1", [REFRESH_TOKEN_KEY]: "refresh-1" });
    s.setHandler(() => json(401, { detail: "로그인에 실패했습니다." }));
    const error = await rejection(s.client.post("/api/users/login", { email: "a" }, { auth: false }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(401);
    expect(s.calls).toHaveLength(1);
    expect(s.calls[0].auth).toBeNull();
    expect(s.storage.dump()[TOKEN_KEY]).toBe("valid-1");
  });
});

describe("401 → refresh → retry once", () => {
  test("an expired token is refreshed, both new tokens are stored and the request is repeated", async () => {
    const s = setup({ [TOKEN_KEY]: "expired", [REFRESH_TOKEN_KEY]: "refresh-1" });
    const result = await s.client.get<{ ok: boolean }>("/api/users/me");
    expect(result.ok).toBe(true);
    expect(s.calls.map((c) => c.path)).toEqual(["/api/users/me", "/api/users/refresh", "/api/users/me"]);
    expect(s.calls[1].body).toEqual({ refresh_token: "refresh-1" });
    expect(s.calls[2].auth).toBe("Bearer valid-2");
    expect(s.storage.dump()).toEqual({ [TOKEN_KEY]: "valid-2", [REFRESH_TOKEN_KEY]: "refresh-2" });
    expect(s.navigations).toEqual([]);
  });

  test("no refresh token: both tokens cleared and the browser goes to /login", async () => {
    const s = setup({ [TOKEN_KEY]: "expired" });
    const error = await rejection(s.client.get("/api/users/me"));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(401);
    expect(s.refreshCalls()).toHaveLength(0);
    expect(s.storage.dump()).toEqual({});
    expect(s.navigations).toEqual([{ to: "/login", state: { loginMessage: AUTH_FAILED_MESSAGE } }]);
    expect(s.sessionLost()).toBe(1);
  });

  test("renewSession without a usable refresh token ends the session (socket handshake path)", async () => {
    const s = setup({ [TOKEN_KEY]: "expired", [REFRESH_TOKEN_KEY]: "revoked" });
    expect(await s.client.renewSession("expired", { redirectOnAuthFailure: false })).toBe(false);
    expect(s.storage.dump()).toEqual({});
    expect(s.sessionLost()).toBe(1);
    expect(s.navigations).toEqual([]);
  });

  test("a refused refresh clears both tokens and goes to /login", async () => {
    const s = setup({ [TOKEN_KEY]: "expired", [REFRESH_TOKEN_KEY]: "stolen-and-rotated" });
    const error = await rejection(s.client.get("/api/users/me"));
    expect(error.status).toBe(401);
    expect(s.refreshCalls()).toHaveLength(1);
    expect(s.calls.filter((c) => c.path === "/api/users/me")).toHaveLength(1);
    expect(s.storage.dump()).toEqual({});
    expect(s.navigations.map((n) => n.to)).toEqual(["/login"]);
  });

  test("redirectOnAuthFailure: false clears the tokens but leaves navigation to the caller", async () => {
    const s = setup({ [TOKEN_KEY]: "expired" });
    await s.client.get("/api/users/me", { redirectOnAuthFailure: false }).catch(() => {});
    expect(s.storage.dump()).toEqual({});
    expect(s.navigations).toEqual([]);
  });

  test("a second 401 after a successful refresh is not retried again", async () => {
    const s = setup({ [TOKEN_KEY]: "expired", [REFRESH_TOKEN_KEY]: "refresh-1" });
    s.setHandler(() => json(401, { detail: "여전히 거부" }));
    const error = await rejection(s.client.get("/api/x"));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(401);
    expect(error.detail).toBe("여전히 거부");
    expect(s.refreshCalls()).toHaveLength(1);
    expect(s.calls.filter((c) => c.path === "/api/x")).toHaveLength(2);
  });

  test("concurrent 401s share one refresh and all retry with the new token", async () => {
    const s = setup({ [TOKEN_KEY]: "expired", [REFRESH_TOKEN_KEY]: "refresh-1" });
    const results = await Promise.all([s.client.get("/api/a"), s.client.get("/api/b"), s.client.get("/api/c")]);
    expect(results).toHaveLength(3);
    expect(s.refreshCalls()).toHaveLength(1);
    const retries = s.calls.filter((c) => c.path !== "/api/users/refresh" && c.auth === "Bearer valid-2");
    expect(retries).toHaveLength(3);
    expect(s.storage.dump()[REFRESH_TOKEN_KEY]).toBe("refresh-2");
  });

  test("a 401 for a token that was already replaced retries without refreshing again", async () => {
    const s = setup({ [TOKEN_KEY]: "expired", [REFRESH_TOKEN_KEY]: "refresh-1" });
    await s.client.get("/api/a");
    // Another tab (or an earlier request) rotated the tokens after this request was sent with the old token.
    s.storage.setItem(TOKEN_KEY, "valid-2");
    const refreshed = await s.client.renewSession("expired");
    expect(refreshed).toBe(true);
    expect(s.refreshCalls()).toHaveLength(1);
  });

  test("refreshes are run under the cross-tab lock when navigator.locks exists", async () => {
    const storage = memoryStorage({ [TOKEN_KEY]: "old", [REFRESH_TOKEN_KEY]: "r1" });
    const tokens = createTokenStore(() => storage);
    const lockNames: string[] = [];
    let refreshes = 0;
    const client = createApiClient({
      tokens,
      navigate: () => {},
      log: { warn: () => {} },
      locks: {
        async request(name, callback) {
          lockNames.push(name);
          // Simulates the other tab finishing its rotation while this tab waited for the lock.
          storage.setItem(TOKEN_KEY, "from-other-tab");
          return callback();
        },
      },
      fetch: async (input, init) => {
        if (input === "/api/users/refresh") {
          refreshes++;
          return json(200, { access_token: "mine", refresh_token: "r2" });
        }
        const auth = (init.headers as Record<string, string>).authorization;
        return auth === "Bearer from-other-tab" ? json(200, { ok: 1 }) : json(401, { detail: "x" });
      },
    });
    expect(await client.get("/api/x")).toEqual({ ok: 1 });
    expect(lockNames).toHaveLength(1);
    expect(refreshes).toBe(0);
  });

  test("a refresh the server could not answer (5xx) keeps the tokens", async () => {
    const s = setup(
      { [TOKEN_KEY]: "expired", [REFRESH_TOKEN_KEY]: "refresh-1" },
      { refresh: () => json(503, { detail: "점검 중" }) },
    );
    const error = await rejection(s.client.get("/api/x"));
    expect(error.status).toBe(503);
    expect(s.storage.dump()).toEqual({ [TOKEN_KEY]: "expired", [REFRESH_TOKEN_KEY]: "refresh-1" });
    expect(s.navigations).toEqual([]);
  });
});

describe("other failures are only logged", () => {
  for (const status of [403, 404, 500]) {
    test(`${status} is thrown and logged, never retried, tokens kept`, async () => {
      const s = setup({ [TOKEN_KEY]: "valid-1", [REFRESH_TOKEN_KEY]: "refresh-1" });
      s.setHandler(() => json(status, { detail: `서버 ${status}` }));
      const error = await rejection(s.client.get("/api/x"));
      expect(error).toBeInstanceOf(ApiError);
      expect(error.status).toBe(status);
      expect(error.detail).toBe(`서버 ${status}`);
      expect(s.calls).toHaveLength(1);
      expect(s.warnings).toHaveLength(1);
      expect(s.navigations).toEqual([]);
      expect(s.storage.dump()[TOKEN_KEY]).toBe("valid-1");
    });
  }

  test("a network failure becomes ApiError status 0 and is logged", async () => {
    const warnings: string[] = [];
    const client = createApiClient({
      tokens: createTokenStore(() => memoryStorage()),
      navigate: () => {},
      log: { warn: (m: string) => warnings.push(m) },
      fetch: async () => {
        throw new TypeError("Failed to fetch");
      },
    });
    const error = await rejection(client.get("/api/x"));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(0);
    expect(warnings).toHaveLength(1);
  });
});

describe("error details", () => {
  test("a string detail is kept; a 422 list is joined; otherwise a fallback", () => {
    expect(detailOf({ detail: "이미 사용 중인 아이디입니다." }, "x")).toBe("이미 사용 중인 아이디입니다.");
    expect(
      detailOf(
        {
          detail: [
            { loc: ["body", "email"], msg: "이메일 오류" },
            { loc: ["body", "password"], msg: "비밀번호 오류" },
          ],
        },
        "x",
      ),
    ).toBe("이메일 오류\n비밀번호 오류");
    expect(detailOf(null, "대체 문구")).toBe("대체 문구");
    expect(detailOf({ detail: [] }, "대체 문구")).toBe("대체 문구");
  });

  test("query parameters are encoded and empty ones dropped", async () => {
    const s = setup({ [TOKEN_KEY]: "valid-1" });
    await s.client.get("/api/board/", { query: { page: 2, q: "가 나", skip: undefined, none: null } });
    expect(s.calls[0].path).toBe("/api/board/?page=2&q=%EA%B0%80+%EB%82%98");
  });
});

describe("a session the server ended (issue 24)", () => {
  const ended = { reason: "password_changed", detail: SESSION_END_TEXT.password_changed } as const;

  test("a refused refresh with a reason: the session is told why, the reason kept for other tabs, no /login jump", async () => {
    const s = setup({ [TOKEN_KEY]: "closed", [REFRESH_TOKEN_KEY]: "refresh-1" }, { refresh: () => json(401, ended) });
    const error = await rejection(s.client.get("/api/users/me"));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(401);
    expect(error.detail).toBe(ended.detail);
    expect(error.sessionEnded).toEqual(ended);
    expect(s.endings).toEqual([ended]);
    expect(s.storage.dump()).toEqual({ [SESSION_ENDED_KEY]: "password_changed" });
    // The handler says it where the player is; members-only pages' guards go to /login with it.
    expect(s.navigations).toEqual([]);
  });

  test("an unknown reason or none: the plain rule (AUTH_FAILED, /login)", async () => {
    for (const body of [{ detail: "인증에 실패했습니다." }, { detail: "x", reason: "stolen" }]) {
      const s = setup({ [TOKEN_KEY]: "closed", [REFRESH_TOKEN_KEY]: "refresh-1" }, { refresh: () => json(401, body) });
      const error = await rejection(s.client.get("/api/users/me"));
      expect(error.sessionEnded).toBeNull();
      expect(s.endings).toEqual([null]);
      expect(s.storage.dump()).toEqual({});
      expect(s.navigations).toEqual([{ to: "/login", state: { loginMessage: AUTH_FAILED_MESSAGE } }]);
    }
  });

  test("the socket path (renewSession) hears the reason too; a tab whose tokens another tab dropped reads it", async () => {
    const s = setup(
      { [TOKEN_KEY]: "closed", [REFRESH_TOKEN_KEY]: "refresh-1" },
      {
        refresh: () =>
          json(403, {
            detail: SESSION_END_TEXT.deactivated,
            reason: "deactivated",
          }),
      },
    );
    expect(await s.client.renewSession("closed", { redirectOnAuthFailure: false })).toBe(false);
    expect(s.endings).toEqual([{ reason: "deactivated", detail: SESSION_END_TEXT.deactivated }]);

    const other = setup({ [TOKEN_KEY]: "closed", [SESSION_ENDED_KEY]: "password_reset_required" });
    const error = await rejection(other.client.get("/api/users/me"));
    expect(error.sessionEnded?.reason).toBe("password_reset_required");
    expect(other.refreshCalls()).toHaveLength(0);
  });

  test("the stored reason lasts until the next login", () => {
    const s = setup();
    s.tokens.set("a", "r");
    s.tokens.clear("deactivated");
    expect(s.tokens.endedReason()).toBe("deactivated");
    s.tokens.clear();
    expect(s.tokens.endedReason()).toBe("deactivated");
    s.tokens.set("b", "r2");
    expect(s.tokens.endedReason()).toBeNull();
  });
});
