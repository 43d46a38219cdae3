/**
 * The stored client tokens (spec part 1 §9: local-storage keys "token" and "refresh_token"). One small store so
 * the API client, the session and the socket manager agree on what is stored and can react when it changes.
 */
import { isSessionEndReason, type SessionEndReason } from "../../../modules/kernel/session-end";

export const TOKEN_KEY = "token";
export const REFRESH_TOKEN_KEY = "refresh_token";
/** Why the server ended the last session (a SessionEndReason), until the next login: other tabs read it. */
export const SESSION_ENDED_KEY = "session_ended";

export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export type TokenChange = "set" | "refreshed" | "cleared";
/** Who changed the tokens: this tab, or another tab of the same origin (the browser's `storage` event). */
export type TokenOrigin = "this_tab" | "other_tab";
export type TokenListener = (change: TokenChange, origin: TokenOrigin) => void;

export interface TokenStore {
  access(): string | null;
  refresh(): string | null;
  /** A login: the access token, and the refresh token only when the server gave one. */
  set(access: string, refresh?: string | null): void;
  /** A rotation: both tokens are replaced (the old refresh token is dead on the server). */
  rotate(access: string, refresh: string): void;
  /**
   * Drops both tokens. `ended`: the server ended the session and said why; the reason is kept (until the next login)
   * so the other tabs, which hear only that the tokens were cleared, can say why too.
   */
  clear(ended?: SessionEndReason): void;
  /** Why the server ended the last session, when it did and nobody logged in since. */
  endedReason(): SessionEndReason | null;
  subscribe(listener: TokenListener): () => void;
  /**
   * Another tab wrote `key` (a `storage` event: `oldValue` → `newValue`; key null = the storage was cleared).
   * Listeners hear it as a change from the other tab: cleared, set (a login, or another account), or refreshed
   * (the same account's rotated token).
   */
  changedElsewhere(key: string | null, oldValue: string | null, newValue: string | null): void;
}

/** The account a JWT names (its `sub` claim), read without verifying: only to tell a rotation from a new login. */
export function tokenSubject(token: string | null): string | null {
  const payload = token?.split(".")[1];
  if (!payload) return null;
  try {
    const json = atob(payload.replace(/-/g, "+").replace(/_/g, "/"));
    const sub = (JSON.parse(json) as { sub?: unknown }).sub;
    return typeof sub === "string" || typeof sub === "number" ? String(sub) : null;
  } catch {
    return null;
  }
}

/** What another tab's write of the access token means here. */
function otherTabChange(oldValue: string | null, newValue: string | null): TokenChange | null {
  if (!newValue) return oldValue ? "cleared" : null;
  if (!oldValue) return "set";
  return tokenSubject(oldValue) === tokenSubject(newValue) ? "refreshed" : "set";
}

export function createTokenStore(storage: () => KeyValueStorage): TokenStore {
  const listeners = new Set<TokenListener>();
  const notify = (change: TokenChange, origin: TokenOrigin = "this_tab") => {
    for (const listener of listeners) listener(change, origin);
  };
  const read = (key: string) => {
    try {
      return storage().getItem(key) || null;
    } catch {
      return null; // storage disabled (private mode): behave as logged out
    }
  };
  return {
    access: () => read(TOKEN_KEY),
    refresh: () => read(REFRESH_TOKEN_KEY),
    set(access, refresh) {
      storage().removeItem(SESSION_ENDED_KEY);
      storage().setItem(TOKEN_KEY, access);
      if (refresh) storage().setItem(REFRESH_TOKEN_KEY, refresh);
      else storage().removeItem(REFRESH_TOKEN_KEY);
      notify("set");
    },
    rotate(access, refresh) {
      storage().setItem(TOKEN_KEY, access);
      storage().setItem(REFRESH_TOKEN_KEY, refresh);
      notify("refreshed");
    },
    clear(ended) {
      // Written before the tokens go: another tab hears the token's removal after it and finds the reason.
      if (ended) storage().setItem(SESSION_ENDED_KEY, ended);
      storage().removeItem(TOKEN_KEY);
      storage().removeItem(REFRESH_TOKEN_KEY);
      notify("cleared");
    },
    endedReason() {
      const reason = read(SESSION_ENDED_KEY);
      return isSessionEndReason(reason) ? reason : null;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    changedElsewhere(key, oldValue, newValue) {
      // The access token decides; the refresh token is written next to it and changes nothing on its own.
      if (key === REFRESH_TOKEN_KEY || key === SESSION_ENDED_KEY) return;
      const change = key === TOKEN_KEY ? otherTabChange(oldValue, newValue) : read(TOKEN_KEY) ? null : "cleared";
      if (change) notify(change, "other_tab");
    },
  };
}

/** An in-memory Storage for tests and for browsers where localStorage is unavailable. */
export function memoryStorage(
  initial: Record<string, string> = {},
): KeyValueStorage & { dump(): Record<string, string> } {
  const map = new Map(Object.entries(initial));
  return {
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
    dump: () => Object.fromEntries(map),
  };
}

/** The browser's localStorage, looked up lazily so importing this file works outside a browser (bun test). */
let fallback: KeyValueStorage | null = null;
export function browserStorage(): KeyValueStorage {
  try {
    if (globalThis.localStorage) return globalThis.localStorage;
  } catch {}
  fallback ??= memoryStorage();
  return fallback;
}

export const tokens = createTokenStore(browserStorage);

// A login or logout in another tab of this origin reaches this tab's listeners (the session follows it).
globalThis.addEventListener?.("storage", (event: StorageEvent) => {
  if (event.storageArea && event.storageArea !== browserStorage()) return;
  tokens.changedElsewhere(event.key, event.oldValue, event.newValue);
});
