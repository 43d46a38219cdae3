/**
 * The stored client tokens (spec part 1 §9: local-storage keys "token" and "refresh_token"). One small store so
 * the API client, the session and the socket manager agree on what is stored and can react when it changes.
 */
export const TOKEN_KEY = "token";
export const REFRESH_TOKEN_KEY = "refresh_token";

export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export type TokenChange = "set" | "refreshed" | "cleared";

export interface TokenStore {
  access(): string | null;
  refresh(): string | null;
  /** A login: the access token, and the refresh token only when the server gave one. */
  set(access: string, refresh?: string | null): void;
  /** A rotation: both tokens are replaced (the old refresh token is dead on the server). */
  rotate(access: string, refresh: string): void;
  clear(): void;
  subscribe(listener: (change: TokenChange) => void): () => void;
}

export function createTokenStore(storage: () => KeyValueStorage): TokenStore {
  const listeners = new Set<(change: TokenChange) => void>();
  const notify = (change: TokenChange) => {
    for (const listener of listeners) listener(change);
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
    clear() {
      storage().removeItem(TOKEN_KEY);
      storage().removeItem(REFRESH_TOKEN_KEY);
      notify("cleared");
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
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
