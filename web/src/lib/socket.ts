/**
 * The one socket.io connection (spec part 1 §4 "Connection", §8, §9). Reconnects forever (1 s growing to 5 s,
 * 10 s connect timeout); pings every 15 s and expects `pong` within 3 s, sends `keep_alive` every 30 s and
 * expects `alive` within 5 s, and forces a reconnect when an answer is missing. The handshake carries the current
 * token and the anonymous id; a refused token (`auth_failed`) renews the session through the API client and
 * reconnects. Logging in or out reconnects with the new identity. Pages subscribe with `socketManager.subscribe`
 * or `useSocketEvent`; listeners survive reconnects (the Socket object is kept for the app's lifetime).
 * Room affinity: the handshake URL carries the page's route (`room=<id>`, `guild=<id>`); when the server announces
 * that a proxy routes by it (`server:routing`), entering a room on a connection opened for another route reconnects
 * once with the new query (see `route`).
 */
import { atom } from "jotai";
import { useEffect, useRef } from "react";
import { ROUTING_EVENT, type RoutingAnnouncement } from "../../../modules/kernel/routing";
import type { ClientEventName, ClientEvents, ServerEventName, ServerEvents } from "../../../modules/kernel/socket";
import { anonymousId } from "./anonymous-id";
import { api } from "./api";
import { lazySocket } from "./lazy-socket";
import { appStore } from "./store";
import { type TokenListener, tokens } from "./tokens";

export type ConnectionState = "closed" | "opening" | "open";

export const CONNECTION_TEXT = {
  failed: (reason: string) => `서버 연결에 실패했습니다: ${reason}`,
  reconnectFailed: "재연결에 실패했습니다.",
  reconnectExhausted: "재연결 시도가 모두 실패했습니다.",
} as const;

export const SOCKET_OPTIONS = {
  path: "/socket.io",
  transports: ["websocket", "polling"],
  reconnection: true,
  reconnectionAttempts: Number.POSITIVE_INFINITY,
  reconnectionDelay: 1000,
  reconnectionDelayMax: 5000,
  timeout: 10_000,
  autoConnect: false,
} as const;

export const HEARTBEATS = [
  { send: "ping", answer: "pong", everyMs: 15_000, waitMs: 3_000 },
  { send: "keep_alive", answer: "alive", everyMs: 30_000, waitMs: 5_000 },
] as const;

/** Shown as the {reason} when the server ended the connection itself. */
export const SERVER_CLOSED = "서버가 연결을 종료했습니다";
/** A connection that lasted this long before the server ended it is retried once (a restart, not a refusal). */
export const STABLE_CONNECTION_MS = 10_000;

type Handler = (...args: never[]) => void;
type AuthCallback = (data: Record<string, unknown>) => void;

/** The part of socket.io-client's Socket the manager uses (a fake one in tests). */
export interface SocketLike {
  readonly connected: boolean;
  readonly active: boolean;
  connect(): unknown;
  disconnect(): unknown;
  on(event: string, handler: Handler): unknown;
  off(event: string, handler?: Handler): unknown;
  emit(event: string, ...args: unknown[]): unknown;
  /** socket.io-client's Manager: its `opts.query` is read each time it opens a connection (reconnects too). */
  io: { on(event: string, handler: Handler): unknown; opts: { query?: Record<string, string> } };
}

/**
 * What the page's connection is for: a typing room or a guild room (a proxy may send a room's players to one
 * process by it), or nothing in particular (the lobby and every other page).
 */
export type SocketRoute = { room: number } | { guild: number } | null;

/** The handshake query of a route: `room=<id>`, `guild=<id>`, or nothing. */
export function routeQuery(route: SocketRoute): Record<string, string> {
  if (!route) return {};
  return "room" in route ? { room: String(route.room) } : { guild: String(route.guild) };
}

const routeKey = (route: SocketRoute) => new URLSearchParams(routeQuery(route)).toString();

const validId = (text: string | undefined) => {
  const id = Number(text);
  return Number.isSafeInteger(id) && id >= 1 ? id : null;
};

/**
 * The route of a page address (/rooms/<id>, /guilds/<id>/room), so that the first connection of a page opened at a
 * room already carries it (main.tsx) instead of reconnecting once the page has mounted.
 */
export function routeOfPath(pathname: string): SocketRoute {
  const room = validId(/^\/rooms\/(\d+)\/?$/.exec(pathname)?.[1]);
  if (room) return { room };
  const guild = validId(/^\/guilds\/(\d+)\/room\/?$/.exec(pathname)?.[1]);
  return guild ? { guild } : null;
}

export interface Timers {
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(id: unknown): void;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
}

export interface SocketManagerDeps {
  createSocket(auth: (cb: AuthCallback) => void): SocketLike;
  /** The token the handshake should carry now (null: connect as a guest). */
  token(): string | null;
  clientId(): string;
  /** The retry rule for a refused handshake: true when a fresh token is stored (see api.renewSession). */
  renewSession(failedToken: string): Promise<boolean>;
  subscribeTokens?(listener: TokenListener): () => void;
  /**
   * The server ended a member's connection (or refused it as `inactive`): asks the session whether the account is
   * still usable. Resolves true when the session is over here (deactivated, password changed: the session logged
   * out and said why), so the connection needs no error text and goes on as a guest; false otherwise.
   */
  sessionEnded?(): Promise<boolean>;
  setState(state: ConnectionState): void;
  setError(text: string | null): void;
  timers?: Timers;
  now?: () => number;
  log?: Pick<Console, "warn">;
}

export type SocketManager = ReturnType<typeof createSocketManager>;

export function createSocketManager(deps: SocketManagerDeps) {
  const timers: Timers = deps.timers ?? {
    setInterval: (fn, ms) => setInterval(fn, ms),
    clearInterval: (id) => clearInterval(id as ReturnType<typeof setInterval>),
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
  };
  const now = deps.now ?? Date.now;
  const log = deps.log ?? console;
  let socket: SocketLike | null = null;
  let started = false;
  let reconnecting = false;
  let authRetried = false;
  let sentToken: string | null = null;
  let connectedAt = 0;
  let heartbeatTimers: unknown[] = [];
  /** The route the current page wants (`route`). */
  let wanted: SocketRoute = null;
  /** The query of the connection attempt under way (or of the last one): what the next `connect` is opened with. */
  let attemptRoute = "";
  /** The query the open connection was opened with; null while not connected. */
  let connectionRoute: string | null = null;
  /** The parameters a proxy routes by, as announced on the open connection (`server:routing`); empty: none. */
  let routedBy: readonly string[] = [];
  /** A deliberate reconnect is dropping the connection: the state stays "opening", not "closed" in between. */
  let switching = false;
  const awaiting = new Map<string, unknown>();
  const identityListeners = new Set<() => void>();

  function ensureSocket(): SocketLike {
    if (socket) return socket;
    const created = deps.createSocket((cb) => {
      sentToken = deps.token();
      cb(sentToken ? { token: sentToken, client_id: deps.clientId() } : { client_id: deps.clientId() });
    });
    socket = created;
    created.on("connect", onConnect);
    created.on("disconnect", onDisconnect as Handler);
    created.on("connect_error", onConnectError as Handler);
    created.on(ROUTING_EVENT, onRouting as Handler);
    for (const beat of HEARTBEATS) created.on(beat.answer, () => answered(beat.answer));
    created.io.on("reconnect_attempt", () => {
      // socket.io-client opens the new engine right after this event, with the query set here.
      openWithRoute(created);
      reconnecting = true;
      deps.setState("opening");
    });
    created.io.on("reconnect_error", () => deps.setError(CONNECTION_TEXT.reconnectFailed));
    created.io.on("reconnect_failed", () => {
      deps.setError(CONNECTION_TEXT.reconnectExhausted);
      deps.setState("closed");
    });
    deps.subscribeTokens?.((change, origin) => {
      // A new identity (login, logout, session lost) needs a new handshake; a rotation does not: the next
      // handshake reads the newest token anyway. Another tab's change is the session's to follow first (it loads
      // the new user or logs out), which then calls changeIdentity.
      if (change !== "refreshed" && origin !== "other_tab") changeIdentity();
    });
    return created;
  }

  function onConnect() {
    connectionRoute = attemptRoute;
    routedBy = [];
    connectedAt = now();
    reconnecting = false;
    authRetried = false;
    deps.setError(null);
    deps.setState("open");
    startHeartbeats();
  }

  function onDisconnect(reason: string) {
    stopHeartbeats();
    connectionRoute = null;
    routedBy = [];
    if (switching) return;
    if (reason === "io server disconnect" && sentToken && deps.sessionEnded) {
      // The server ends a member's sockets when the account is deactivated or its password changes: ask first,
      // so the player learns that instead of a connection failure, and no reconnect with a dead session follows.
      deps.setState("closed");
      const ended = deps.sessionEnded();
      ended.then(
        (over) => (over ? resumeAsGuest() : serverClosed()),
        () => serverClosed(),
      );
      return;
    }
    if (reason === "io server disconnect") {
      serverClosed();
      return;
    }
    deps.setState(socket?.active ? "opening" : "closed");
  }

  /**
   * socket.io does not reconnect after a server-side disconnect. A long-lived connection ended this way is most
   * likely a server restart: try once more after the longest reconnect delay. A connection the server ends right
   * away (deliberately refused) is not retried in a loop; the reload prompt remains.
   */
  function serverClosed() {
    log.warn("[socket] 서버가 연결을 종료했습니다.");
    deps.setError(CONNECTION_TEXT.failed(SERVER_CLOSED));
    deps.setState("closed");
    if (started && now() - connectedAt >= STABLE_CONNECTION_MS) {
      timers.setTimeout(() => {
        if (started) connectIfIdle();
      }, SOCKET_OPTIONS.reconnectionDelayMax);
    }
  }

  /** The session is over here: whoever stays on the page goes on as a guest (the handshake reads no token now). */
  function resumeAsGuest() {
    if (started) connectIfIdle();
  }

  function onConnectError(error: Error & { data?: { code?: string } }) {
    const code = error?.data?.code;
    if (code === "inactive" && sentToken && deps.sessionEnded) {
      // A reconnect (after a restart) with a deactivated account: say so through the session, not as a failure.
      deps.setState("closed");
      deps.sessionEnded().then(
        (over) => (over ? resumeAsGuest() : deps.setError(CONNECTION_TEXT.failed(error.message))),
        () => deps.setError(CONNECTION_TEXT.failed(error.message)),
      );
      return;
    }
    if (code === "auth_failed" && sentToken && !authRetried) {
      authRetried = true;
      deps.setState("opening");
      const failed = sentToken;
      deps.renewSession(failed).then(
        () => connectIfIdle(),
        (renewError: unknown) => {
          // The server could not be reached to renew: try again later with whatever token is stored then.
          deps.setError(CONNECTION_TEXT.failed((renewError as Error)?.message ?? "unknown"));
          deps.setState("closed");
          timers.setTimeout(() => {
            authRetried = false;
            connectIfIdle();
          }, SOCKET_OPTIONS.reconnectionDelayMax);
        },
      );
      return;
    }
    if (code || !reconnecting) deps.setError(CONNECTION_TEXT.failed(error?.message || "unknown"));
    deps.setState(socket?.active ? "opening" : "closed");
  }

  function connectIfIdle() {
    const current = ensureSocket();
    if (!current.connected && !current.active) {
      deps.setState("opening");
      openWithRoute(current);
      current.connect();
    }
  }

  /** The next connection (ours or socket.io-client's own reconnect) is opened with the route the page wants now. */
  function openWithRoute(current: SocketLike) {
    current.io.opts.query = routeQuery(wanted);
    attemptRoute = routeKey(wanted);
  }

  /** The server says a proxy routes by these parameters (ROOM_AFFINITY): a connection off its route moves now. */
  function onRouting(announcement: RoutingAnnouncement) {
    routedBy = Array.isArray(announcement?.params) ? announcement.params : [];
    if (offRoute()) reconnect();
  }

  /**
   * Worth a reconnect: the open connection was announced routable by the wanted route's parameter and was opened
   * for another route. The lobby and other pages want no route: any process will do, so they never move.
   */
  function offRoute(): boolean {
    if (!started || !socket?.connected || connectionRoute === null || !wanted) return false;
    const param = Object.keys(routeQuery(wanted))[0] ?? "";
    return routedBy.includes(param) && routeKey(wanted) !== connectionRoute;
  }

  /**
   * The page's route (a room page on mount, null when it unmounts). Later handshakes carry it; true when it starts a
   * reconnect to reach it (the page then joins on the next `connect`, not on the connection being dropped).
   */
  function route(next: SocketRoute): boolean {
    wanted = next;
    // Also socket.io-client's own reconnects (after a network loss) must carry the route the page wants now.
    ensureSocket().io.opts.query = routeQuery(next);
    if (!offRoute()) return false;
    reconnect();
    return true;
  }

  function startHeartbeats() {
    stopHeartbeats();
    heartbeatTimers = HEARTBEATS.map((beat) =>
      timers.setInterval(() => {
        if (!socket?.connected || awaiting.has(beat.answer)) return;
        socket.emit(beat.send, { timestamp: now() });
        awaiting.set(
          beat.answer,
          timers.setTimeout(() => {
            awaiting.delete(beat.answer);
            log.warn(`[socket] ${beat.answer} 응답이 ${beat.waitMs}ms 안에 오지 않아 다시 연결합니다.`);
            reconnect();
          }, beat.waitMs),
        );
      }, beat.everyMs),
    );
  }

  function answered(answer: string) {
    const timer = awaiting.get(answer);
    if (timer !== undefined) timers.clearTimeout(timer);
    awaiting.delete(answer);
  }

  function stopHeartbeats() {
    for (const id of heartbeatTimers) timers.clearInterval(id);
    heartbeatTimers = [];
    for (const id of awaiting.values()) timers.clearTimeout(id);
    awaiting.clear();
  }

  /**
   * The signed-in identity changed (login, logout, here or in another tab; the session lost): listeners act for
   * the old identity while its connection is still open (a room is left at once instead of after the server's
   * reconnect grace), then a new handshake carries the new one.
   */
  function changeIdentity() {
    if (socket?.connected) for (const listener of [...identityListeners]) listener();
    reconnect();
  }

  /** Drops the current connection and opens a new one (fresh handshake with the current token). */
  function reconnect() {
    if (!started) return;
    const current = ensureSocket();
    stopHeartbeats();
    authRetried = false;
    reconnecting = false;
    switching = true;
    try {
      if (current.connected || current.active) current.disconnect();
    } finally {
      switching = false;
    }
    deps.setState("opening");
    openWithRoute(current);
    current.connect();
  }

  return {
    /** Opens the connection once (main.tsx calls it when the session is resolved). */
    start() {
      if (started) return;
      started = true;
      connectIfIdle();
    },
    reconnect,
    route,
    /**
     * A page's presence in a room or a guild room: takes the page's route (`route`), runs `join` now when the open
     * connection already is the right one, and again after every connect (a routing move, a reconnect). The returned
     * function stops that and gives the route up; the page's own leave may go before or after it, since giving a
     * route up never reconnects.
     */
    joinOn(next: SocketRoute, join: () => void): () => void {
      route(next);
      // A routing move has already dropped the connection (disconnect is synchronous): the join waits for the new one.
      const current = ensureSocket();
      if (current.connected) join();
      current.on("connect", join);
      return () => {
        current.off("connect", join);
        route(null);
      };
    },
    changeIdentity,
    /** Runs before the connection changes identity, while the old one is still open (see changeIdentity). */
    onIdentityChange(listener: () => void): () => void {
      identityListeners.add(listener);
      return () => {
        identityListeners.delete(listener);
      };
    },
    stop() {
      started = false;
      stopHeartbeats();
      socket?.disconnect();
      deps.setState("closed");
    },
    /** The socket (created on first use; connected once `start` ran). */
    getSocket: (): SocketLike => ensureSocket(),
    /** Sends a client event of the wire contract (modules/<m>/wire.ts): its payload and, if any, its ack callback. */
    emit<E extends ClientEventName>(event: E, ...args: Parameters<ClientEvents[E]>) {
      ensureSocket().emit(event, ...args);
    },
    /** Listens to a server event of the wire contract until the returned function is called. */
    subscribe<E extends ServerEventName>(event: E, handler: ServerEvents[E]): () => void {
      const current = ensureSocket();
      const listener = handler as unknown as Handler;
      current.on(event, listener);
      return () => {
        current.off(event, listener);
      };
    },
  };
}

const connectionState = atom<ConnectionState>("closed");
const connectionError = atom<string | null>(null);
/** closed / opening / open (spec part 1 §4 "Connection"). */
export const connectionStateAtom = atom((get) => get(connectionState));
/** The spec §8 connection text to show with a reload prompt, or null. */
export const connectionErrorAtom = atom((get) => get(connectionError));

/** Set by the session (features/session/atoms.ts): is the account still usable after the server closed it? */
let sessionCheck: () => Promise<boolean> = async () => false;
export function setSessionCheck(check: () => Promise<boolean>) {
  sessionCheck = check;
}

/** Tokens for sockets are chosen by the session (a reset-only token must not open a member socket). */
let tokenSource: () => string | null = () => tokens.access();
export function setSocketTokenSource(source: () => string | null) {
  tokenSource = source;
}

export const socketManager = createSocketManager({
  // The library comes after the first render (lazy-socket.ts): no page needs it to draw itself.
  createSocket: (auth) =>
    lazySocket(async () => {
      const { io } = await import("socket.io-client");
      return () => io({ ...SOCKET_OPTIONS, transports: [...SOCKET_OPTIONS.transports], auth });
    }),
  token: () => tokenSource(),
  clientId: () => anonymousId(),
  renewSession: (failedToken) => api.renewSession(failedToken, { redirectOnAuthFailure: false }),
  subscribeTokens: (listener) => tokens.subscribe(listener),
  sessionEnded: () => sessionCheck(),
  setState: (state) => appStore.set(connectionState, state),
  setError: (text) => appStore.set(connectionError, text),
});

/** Subscribes a component to a server event for as long as it is mounted (the latest handler is always used). */
export function useSocketEvent<E extends ServerEventName>(event: E, handler: ServerEvents[E]) {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    const forward = (...args: Parameters<ServerEvents[E]>) => (latest.current as (...a: typeof args) => void)(...args);
    return socketManager.subscribe(event, forward as ServerEvents[E]);
  }, [event]);
}
