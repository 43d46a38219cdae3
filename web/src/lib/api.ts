/**
 * The one HTTP client (spec part 2 §4 "Request-retry rule"): every request carries the stored access token as a
 * Bearer header; a 401 on a request not yet retried refreshes the session once and repeats the request once; with
 * no refresh token, or a refused refresh, both tokens are cleared and the browser goes to /login. 403, 404, 500
 * and network failures are only logged. Dependencies are injected so the rule is unit-tested without a browser.
 */
import { SESSION_END_TEXT, type SessionClosedPayload, sessionClosedFrom } from "../../../modules/kernel/session-end";
import { type AppHistoryState, navigateTo } from "./navigation";
import { tokens as browserTokens, type TokenStore } from "./tokens";

export const AUTH_FAILED_MESSAGE = "인증에 실패했습니다. 다시 로그인해주세요.";
export const NETWORK_ERROR_MESSAGE = "서버에 연결할 수 없습니다. 잠시 후 다시 시도해주세요.";
const REFRESH_PATH = "/api/users/refresh";
const REFRESH_LOCK = "tajamadang:token-refresh";

const LOGGED: Record<number, string> = {
  403: "권한이 없습니다.",
  404: "요청한 자원을 찾을 수 없습니다.",
  500: "서버 내부 오류가 발생했습니다.",
};

const loggedText = (status: number): string | undefined => LOGGED[Math.min(status, 500)];

/** A failed call. `status` 0 means the server could not be reached; `detail` is always one readable string. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly body: unknown = null,
    /** The session is over because the server ended it, and why (the refused refresh's `reason`). */
    readonly sessionEnded: SessionClosedPayload | null = null,
  ) {
    super(detail);
    this.name = "ApiError";
  }
}

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError;

/** `{detail: string}` or the 422 list `{detail: [{loc, msg}]}` as one string (messages joined by line breaks). */
export function detailOf(body: unknown, fallback: string): string {
  const detail = (body as { detail?: unknown } | null)?.detail;
  if (typeof detail === "string" && detail.trim()) return detail;
  if (Array.isArray(detail)) {
    const messages = detail
      .map((item) => (typeof item === "string" ? item : (item as { msg?: unknown })?.msg))
      .filter((m): m is string => typeof m === "string" && m.length > 0);
    if (messages.length) return messages.join("\n");
  }
  return fallback;
}

export interface RequestOptions {
  method?: string;
  body?: unknown;
  query?: Record<string, string | number | boolean | null | undefined>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Send the Bearer token and apply the retry rule (default). Login, register and logout pass false. */
  auth?: boolean;
  /** When the session is lost, go to /login (default). Callers that explain the failure themselves pass false. */
  redirectOnAuthFailure?: boolean;
}

interface LockManagerLike {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

export interface ApiClientDeps {
  fetch: (input: string, init: RequestInit) => Promise<Response>;
  tokens: TokenStore;
  navigate: (to: string, state?: AppHistoryState) => void;
  /** Serialises refreshes across tabs so two tabs never both rotate the same refresh token. */
  locks?: LockManagerLike | null;
  log?: Pick<Console, "warn">;
  baseUrl?: string;
  /**
   * Called after the tokens were cleared because the session could not be renewed; `ended` when the server said it
   * ended the session and why (then the client does not go to /login itself: the handler tells the player where
   * they are, and the members-only pages' guards send them to /login).
   */
  onSessionLost?: (ended: SessionClosedPayload | null) => void;
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** A refresh's result: a usable token is stored, or the session is over (and, when the server said, why). */
type RefreshOutcome = { renewed: true; ended: null } | { renewed: false; ended: SessionClosedPayload | null };
const RENEWED: RefreshOutcome = { renewed: true, ended: null };
const over = (ended: SessionClosedPayload | null): RefreshOutcome => ({ renewed: false, ended });
const endedElsewhere = (reason: ReturnType<TokenStore["endedReason"]>): SessionClosedPayload | null =>
  reason ? { reason, detail: SESSION_END_TEXT[reason] } : null;

export function createApiClient(deps: ApiClientDeps) {
  const log = deps.log ?? console;
  let inflightRefresh: Promise<RefreshOutcome> | null = null;

  function url(path: string, query?: RequestOptions["query"]) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null) params.set(key, String(value));
    }
    const search = params.toString();
    return `${deps.baseUrl ?? ""}${path}${search ? `?${search}` : ""}`;
  }

  async function send(path: string, options: RequestOptions, token: string | null): Promise<Response> {
    const headers: Record<string, string> = { accept: "application/json", ...options.headers };
    if (token) headers.authorization = `Bearer ${token}`;
    if (options.body !== undefined) headers["content-type"] = "application/json";
    try {
      return await deps.fetch(url(path, options.query), {
        method: options.method ?? "GET",
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: options.signal,
      });
    } catch (error) {
      if ((error as Error)?.name === "AbortError") throw error;
      log.warn(`[api] ${options.method ?? "GET"} ${path}: 네트워크 오류`, error);
      throw new ApiError(0, NETWORK_ERROR_MESSAGE);
    }
  }

  async function readBody(response: Response): Promise<unknown> {
    const text = await response.text().catch(() => "");
    if (!text) return null;
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }

  async function toError(response: Response): Promise<ApiError> {
    const body = await readBody(response);
    const fallback = loggedText(response.status) ?? `요청에 실패했습니다. (${response.status})`;
    return new ApiError(response.status, detailOf(body, fallback), body);
  }

  /**
   * One refresh for every request that failed with the same token: concurrent 401s share the in-flight promise,
   * and a request whose token was already replaced (by this tab or another, under the lock) just retries.
   * Resolves `renewed` true when a usable token is stored, false when the session is over (with `ended` when the
   * server said why). A refresh the server could not answer (network, 5xx) throws instead, so a hiccup does not log
   * the user out.
   */
  function refreshSession(sentToken: string | null): Promise<RefreshOutcome> {
    inflightRefresh ??= (async () => {
      const run = () => rotate(sentToken);
      return deps.locks ? deps.locks.request(REFRESH_LOCK, run) : run();
    })().finally(() => {
      inflightRefresh = null;
    });
    return inflightRefresh;
  }

  async function rotate(sentToken: string | null): Promise<RefreshOutcome> {
    const current = deps.tokens.access();
    if (current && current !== sentToken) return RENEWED;
    const refreshToken = deps.tokens.refresh();
    // No refresh token: another tab may have dropped them because the server ended the session (it left why).
    if (!refreshToken) return over(endedElsewhere(deps.tokens.endedReason()));
    const response = await send(REFRESH_PATH, { method: "POST", body: { refresh_token: refreshToken } }, null);
    if (response.status >= 500) throw await toError(response);
    if (!response.ok) return over(sessionClosedFrom(await readBody(response)));
    const data = (await readBody(response)) as { access_token?: unknown; refresh_token?: unknown } | null;
    if (typeof data?.access_token !== "string") return over(null);
    // The server rotates refresh tokens: the old one is now dead, so the new one must be kept.
    const nextRefresh = typeof data.refresh_token === "string" ? data.refresh_token : refreshToken;
    deps.tokens.rotate(data.access_token, nextRefresh);
    return RENEWED;
  }

  function sessionLost(options: Pick<RequestOptions, "redirectOnAuthFailure">, ended: SessionClosedPayload | null) {
    deps.tokens.clear(ended?.reason);
    deps.onSessionLost?.(ended);
    if (ended) return;
    if (options.redirectOnAuthFailure !== false) deps.navigate("/login", { loginMessage: AUTH_FAILED_MESSAGE });
  }

  async function request<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
    const withAuth = options.auth !== false;
    const sentToken = withAuth ? deps.tokens.access() : null;
    let response = await send(path, options, sentToken);
    if (response.status === 401 && withAuth) {
      const outcome = await refreshSession(sentToken);
      if (outcome.renewed) {
        // Retried once: a second 401 is reported to the caller, never refreshed again.
        response = await send(path, options, deps.tokens.access());
      } else {
        const failed = await toError(response);
        sessionLost(options, outcome.ended);
        throw outcome.ended ? new ApiError(failed.status, outcome.ended.detail, failed.body, outcome.ended) : failed;
      }
    }
    if (!response.ok) {
      const error = await toError(response);
      const logged = loggedText(response.status);
      if (logged) log.warn(`[api] ${options.method ?? "GET"} ${path}: ${logged}`, error.detail);
      throw error;
    }
    return (await readBody(response)) as T;
  }

  return {
    request,
    /**
     * The retry rule for callers that are not HTTP requests (the socket manager after a refused handshake): true
     * when a fresh token is stored; false when the session is over, in which case the tokens are cleared too.
     */
    async renewSession(failedToken: string | null, options: Pick<RequestOptions, "redirectOnAuthFailure"> = {}) {
      const outcome = await refreshSession(failedToken);
      if (outcome.renewed) return true;
      sessionLost(options, outcome.ended);
      return false;
    },
    get: <T = unknown>(path: string, options?: RequestOptions) => request<T>(path, { ...options, method: "GET" }),
    post: <T = unknown>(path: string, body?: unknown, options?: RequestOptions) =>
      request<T>(path, { ...options, method: "POST", body }),
    put: <T = unknown>(path: string, body?: unknown, options?: RequestOptions) =>
      request<T>(path, { ...options, method: "PUT", body }),
    patch: <T = unknown>(path: string, body?: unknown, options?: RequestOptions) =>
      request<T>(path, { ...options, method: "PATCH", body }),
    delete: <T = unknown>(path: string, options?: RequestOptions) => request<T>(path, { ...options, method: "DELETE" }),
  };
}

/** main.tsx tells the session when the client had to drop the tokens (the session module imports this file). */
let onSessionLost: ((ended: SessionClosedPayload | null) => void) | undefined;
export function setSessionLostHandler(handler: (ended: SessionClosedPayload | null) => void) {
  onSessionLost = handler;
}

/** The app's client: same origin, localStorage tokens, router navigation, cross-tab refresh lock. */
export const api = createApiClient({
  fetch: (input, init) => globalThis.fetch(input, init),
  tokens: browserTokens,
  navigate: navigateTo,
  onSessionLost: (ended) => onSessionLost?.(ended),
  get locks() {
    return (globalThis.navigator as { locks?: LockManagerLike } | undefined)?.locks ?? null;
  },
});
