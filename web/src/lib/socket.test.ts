import { describe, expect, test } from "bun:test";
import {
  CONNECTION_TEXT,
  type ConnectionState,
  createSocketManager,
  routeOfPath,
  SERVER_CLOSED,
  type SocketLike,
  type Timers,
} from "./socket";
import type { TokenChange, TokenListener, TokenOrigin } from "./tokens";

type Handler = (...args: never[]) => void;

class FakeEmitter {
  handlers = new Map<string, Set<Handler>>();
  on(event: string, handler: Handler) {
    if (!this.handlers.has(event)) this.handlers.set(event, new Set());
    this.handlers.get(event)!.add(handler);
  }
  off(event: string, handler?: Handler) {
    if (handler) this.handlers.get(event)?.delete(handler);
    else this.handlers.delete(event);
  }
  fire(event: string, ...args: unknown[]) {
    for (const handler of this.handlers.get(event) ?? []) (handler as (...a: unknown[]) => void)(...args);
  }
}

/** socket.io-client's Manager: its `opts.query` goes into the URL of every connection it opens. */
class FakeManager extends FakeEmitter {
  opts: { query?: Record<string, string> } = {};
}

/** Stands in for socket.io-client: records handshakes and emits, lets the test play the server. */
class FakeSocket extends FakeEmitter implements SocketLike {
  connected = false;
  active = false;
  io = new FakeManager();
  handshakes: Record<string, unknown>[] = [];
  /** The handshake URL's query of every connection opened, read when it opens (as socket.io-client does). */
  queries: Record<string, string>[] = [];
  emitted: { event: string; args: unknown[] }[] = [];
  /** Emits, disconnects and connects in the order they happened. */
  calls: string[] = [];
  disconnects = 0;
  constructor(private auth: (cb: (d: Record<string, unknown>) => void) => void) {
    super();
  }
  connect() {
    this.calls.push("connect");
    this.open();
  }
  private open() {
    this.active = true;
    this.queries.push({ ...this.io.opts.query });
    this.auth((data) => this.handshakes.push(data));
  }
  /** The network dropped the connection: socket.io-client reconnects by itself (`reconnect_attempt`, then opens). */
  networkDrops() {
    this.connected = false;
    this.fire("disconnect", "transport close");
    this.io.fire("reconnect_attempt", 1);
    this.open();
  }
  /** The server announces that a proxy routes sockets by these query parameters (ROOM_AFFINITY). */
  serverAnnouncesRouting(params = ["room", "guild"]) {
    this.fire("server:routing", { params });
  }
  disconnect() {
    this.calls.push("disconnect");
    this.disconnects++;
    const was = this.connected;
    this.connected = false;
    this.active = false;
    if (was) this.fire("disconnect", "io client disconnect");
  }
  emit(event: string, ...args: unknown[]) {
    this.calls.push(`emit ${event}`);
    this.emitted.push({ event, args });
  }
  serverAccepts() {
    this.connected = true;
    this.fire("connect");
  }
  serverDisconnects() {
    this.connected = false;
    this.active = false;
    this.fire("disconnect", "io server disconnect");
  }
  serverRefuses(code: string, message = "인증에 실패했습니다.") {
    this.active = false; // a middleware refusal ends the attempt (socket.io-client destroys the socket)
    this.fire("connect_error", Object.assign(new Error(message), { data: { code } }));
  }
}

/** Manual clock: timers run only when the test advances time. */
function fakeTimers() {
  let now = 0;
  let nextId = 1;
  const pending = new Map<number, { at: number; fn: () => void; every?: number }>();
  const timers: Timers = {
    setInterval: (fn, ms) => {
      pending.set(nextId, { at: now + ms, fn, every: ms });
      return nextId++;
    },
    setTimeout: (fn, ms) => {
      pending.set(nextId, { at: now + ms, fn });
      return nextId++;
    },
    clearInterval: (id) => void pending.delete(id as number),
    clearTimeout: (id) => void pending.delete(id as number),
  };
  function advance(ms: number) {
    const end = now + ms;
    for (;;) {
      const due = [...pending.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      const [id, timer] = due;
      now = timer.at;
      if (timer.every) timer.at += timer.every;
      else pending.delete(id);
      timer.fn();
    }
    now = end;
  }
  return { timers, advance, now: () => now };
}

function harness(
  options: {
    token?: string | null;
    renew?: (failed: string) => Promise<boolean>;
    sessionEnded?: () => Promise<boolean>;
  } = {},
) {
  let token = options.token ?? null;
  const clock = fakeTimers();
  const states: ConnectionState[] = [];
  const errors: (string | null)[] = [];
  const tokenListeners = new Set<TokenListener>();
  const renewCalls: string[] = [];
  let fake: FakeSocket | null = null;
  const manager = createSocketManager({
    createSocket: (auth) => {
      fake = new FakeSocket(auth);
      return fake;
    },
    token: () => token,
    clientId: () => "anon12345",
    renewSession: async (failed) => {
      renewCalls.push(failed);
      return options.renew ? options.renew(failed) : false;
    },
    subscribeTokens: (listener) => {
      tokenListeners.add(listener);
      return () => tokenListeners.delete(listener);
    },
    sessionEnded: options.sessionEnded,
    setState: (s) => states.push(s),
    setError: (e) => errors.push(e),
    timers: clock.timers,
    now: clock.now,
    log: { warn: () => {} },
  });
  return {
    manager,
    clock,
    states,
    errors,
    renewCalls,
    socket: () => fake!,
    setToken(next: string | null, change: TokenChange, origin: TokenOrigin = "this_tab") {
      token = next;
      for (const listener of tokenListeners) listener(change, origin);
    },
  };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe("handshake", () => {
  test("carries the token and the anonymous id; a guest sends only the id", () => {
    const member = harness({ token: "t1" });
    member.manager.start();
    expect(member.socket().handshakes).toEqual([{ token: "t1", client_id: "anon12345" }]);
    member.socket().serverAccepts();
    expect(member.states.at(-1)).toBe("open");

    const guest = harness();
    guest.manager.start();
    expect(guest.socket().handshakes).toEqual([{ client_id: "anon12345" }]);
  });

  test("login and logout reconnect with the new identity; a token rotation does not", () => {
    const h = harness();
    h.manager.start();
    h.socket().serverAccepts();
    h.setToken("t1", "set");
    expect(h.socket().handshakes.at(-1)).toEqual({ token: "t1", client_id: "anon12345" });
    h.socket().serverAccepts();
    h.setToken("t2", "refreshed");
    expect(h.socket().handshakes).toHaveLength(2);
    h.setToken(null, "cleared");
    expect(h.socket().handshakes.at(-1)).toEqual({ client_id: "anon12345" });
  });
});

describe("identity changes", () => {
  test("listeners act for the old identity while it is connected, then the new handshake follows", () => {
    const h = harness({ token: "t1" });
    h.manager.start();
    h.socket().serverAccepts();
    const seen: string[] = [];
    const off = h.manager.onIdentityChange(() => {
      seen.push(`connected=${h.socket().connected}`);
      h.socket().emit("leave_room", { room_id: 1 });
    });
    h.setToken(null, "cleared");
    expect(seen).toEqual(["connected=true"]);
    expect(h.socket().emitted.map((e) => e.event)).toEqual(["leave_room"]);
    expect(h.socket().handshakes.at(-1)).toEqual({ client_id: "anon12345" });
    off();
    h.socket().serverAccepts();
    h.setToken("t2", "set");
    expect(seen).toHaveLength(1);
  });

  test("another tab's login or logout is the session's to follow: no reconnect from the token change itself", () => {
    const h = harness({ token: "t1" });
    h.manager.start();
    h.socket().serverAccepts();
    h.setToken(null, "cleared", "other_tab");
    expect(h.socket().handshakes).toHaveLength(1);
    h.manager.changeIdentity(); // what the session does once it has logged out
    expect(h.socket().handshakes.at(-1)).toEqual({ client_id: "anon12345" });
  });
});

describe("the account closed by the server", () => {
  test("deactivated: no connection error, no retry with the dead session, the page goes on as a guest", async () => {
    let h: ReturnType<typeof harness>;
    h = harness({
      token: "t1",
      sessionEnded: async () => {
        h.setToken(null, "cleared"); // the session logged out (and said why)
        return true;
      },
    });
    h.manager.start();
    h.socket().serverAccepts();
    h.socket().serverDisconnects();
    await flush();
    expect(h.errors.filter((e) => e !== null)).toEqual([]);
    expect(h.socket().handshakes.map((x) => x.token ?? "guest")).toEqual(["t1", "guest"]);
    h.clock.advance(60_000);
    expect(h.socket().handshakes).toHaveLength(2);
  });

  test("a session that is still fine: the usual server-closed text", async () => {
    const h = harness({ token: "t1", sessionEnded: async () => false });
    h.manager.start();
    h.socket().serverAccepts();
    h.socket().serverDisconnects();
    await flush();
    expect(h.errors.at(-1)).toBe(CONNECTION_TEXT.failed(SERVER_CLOSED));
  });

  test("a reconnect refused as inactive asks the session too", async () => {
    let asked = 0;
    const h = harness({
      token: "t1",
      sessionEnded: async () => {
        asked++;
        return true;
      },
    });
    h.manager.start();
    h.socket().serverRefuses("inactive", "비활성화된 계정입니다. 관리자에게 문의해주세요.");
    await flush();
    expect(asked).toBe(1);
    expect(h.errors.filter((e) => e !== null)).toEqual([]);
  });

  test("a guest's connection ended by the server is not a session matter", async () => {
    let asked = 0;
    const h = harness({
      sessionEnded: async () => {
        asked++;
        return true;
      },
    });
    h.manager.start();
    h.socket().serverAccepts();
    h.socket().serverDisconnects();
    await flush();
    expect(asked).toBe(0);
    expect(h.errors.at(-1)).toBe(CONNECTION_TEXT.failed(SERVER_CLOSED));
  });
});

describe("auth_failed", () => {
  test("renews the session through the API client, then reconnects with the new token", async () => {
    let h: ReturnType<typeof harness>;
    h = harness({
      token: "expired",
      renew: async () => {
        h.setToken("fresh", "refreshed");
        return true;
      },
    });
    h.manager.start();
    h.socket().serverRefuses("auth_failed");
    await flush();
    expect(h.renewCalls).toEqual(["expired"]);
    expect(h.socket().handshakes.map((x) => x.token)).toEqual(["expired", "fresh"]);
    h.socket().serverAccepts();
    expect(h.states.at(-1)).toBe("open");
  });

  test("when the session cannot be renewed the socket comes back as a guest", async () => {
    let h: ReturnType<typeof harness>;
    h = harness({
      token: "expired",
      renew: async () => {
        h.setToken(null, "cleared");
        return false;
      },
    });
    h.manager.start();
    h.socket().serverRefuses("auth_failed");
    await flush();
    expect(h.socket().handshakes.at(-1)).toEqual({ client_id: "anon12345" });
    expect(h.socket().handshakes).toHaveLength(2);
  });

  test("a second refusal in a row is not renewed again and shows the connection error", async () => {
    const h = harness({ token: "bad", renew: async () => true });
    h.manager.start();
    h.socket().serverRefuses("auth_failed");
    await flush();
    h.socket().serverRefuses("auth_failed", "인증 실패");
    await flush();
    expect(h.renewCalls).toHaveLength(1);
    expect(h.errors.at(-1)).toBe(CONNECTION_TEXT.failed("인증 실패"));
    expect(h.states.at(-1)).toBe("closed");
  });
});

describe("heartbeats", () => {
  test("ping every 15 s; a pong within 3 s keeps the connection", () => {
    const h = harness();
    h.manager.start();
    h.socket().serverAccepts();
    h.clock.advance(15_000);
    expect(h.socket().emitted.map((e) => e.event)).toEqual(["ping"]);
    h.socket().fire("pong", {});
    h.clock.advance(10_000);
    expect(h.socket().disconnects).toBe(0);
  });

  test("a missing pong forces a reconnect after 3 s", () => {
    const h = harness();
    h.manager.start();
    h.socket().serverAccepts();
    h.clock.advance(15_000 + 2_999);
    expect(h.socket().disconnects).toBe(0);
    h.clock.advance(1);
    expect(h.socket().disconnects).toBe(1);
    expect(h.socket().handshakes).toHaveLength(2);
  });

  test("keep_alive every 30 s; a missing alive forces a reconnect after 5 s", () => {
    const h = harness();
    h.manager.start();
    h.socket().serverAccepts();
    for (let t = 0; t < 30_000; t += 15_000) {
      h.clock.advance(15_000);
      h.socket().fire("pong");
    }
    expect(h.socket().emitted.filter((e) => e.event === "keep_alive")).toHaveLength(1);
    h.clock.advance(4_999);
    expect(h.socket().disconnects).toBe(0);
    h.clock.advance(1);
    expect(h.socket().disconnects).toBe(1);
  });
});

describe("connection texts", () => {
  test("a first failure shows the reason; failed reconnects show the reconnect texts", () => {
    const h = harness();
    h.manager.start();
    h.socket().fire("connect_error", new Error("xhr poll error"));
    expect(h.errors.at(-1)).toBe("서버 연결에 실패했습니다: xhr poll error");
    h.socket().io.fire("reconnect_attempt", 1);
    h.socket().io.fire("reconnect_error", new Error("x"));
    expect(h.errors.at(-1)).toBe("재연결에 실패했습니다.");
    h.socket().io.fire("reconnect_failed");
    expect(h.errors.at(-1)).toBe("재연결 시도가 모두 실패했습니다.");
    expect(h.states.at(-1)).toBe("closed");
    h.socket().serverAccepts();
    expect(h.errors.at(-1)).toBeNull();
  });

  test("subscribers receive server events and can unsubscribe", () => {
    const h = harness();
    const seen: unknown[] = [];
    const off = h.manager.subscribe("user:stats_update", (payload: unknown) => seen.push(payload));
    h.socket().fire("user:stats_update", { level: 2 });
    off();
    h.socket().fire("user:stats_update", { level: 3 });
    expect(seen).toEqual([{ level: 2 }]);
  });
});

describe("server-side disconnect", () => {
  test("after a long-lived connection: the text is shown and one reconnect is tried after 5 s", () => {
    const h = harness();
    h.manager.start();
    h.socket().serverAccepts();
    for (let elapsed = 0; elapsed < 60_000; elapsed += 1_000) {
      h.clock.advance(1_000);
      h.socket().fire("pong");
      h.socket().fire("alive");
    }
    expect(h.socket().handshakes).toHaveLength(1);
    h.socket().serverDisconnects();
    expect(h.errors.at(-1)).toBe(CONNECTION_TEXT.failed(SERVER_CLOSED));
    expect(h.states.at(-1)).toBe("closed");
    h.clock.advance(4_999);
    expect(h.socket().handshakes).toHaveLength(1);
    h.clock.advance(1);
    expect(h.socket().handshakes).toHaveLength(2);
  });

  test("a connection the server ends right away is not retried in a loop", () => {
    const h = harness();
    h.manager.start();
    h.socket().serverAccepts();
    h.clock.advance(1_000);
    h.socket().serverDisconnects();
    h.clock.advance(60_000);
    expect(h.socket().handshakes).toHaveLength(1);
    expect(h.errors.at(-1)).toBe(CONNECTION_TEXT.failed(SERVER_CLOSED));
  });
});

describe("room affinity (the handshake query and routing reconnects)", () => {
  /** Connected on the lobby (no route); `announced`: the server said a proxy routes by room and guild. */
  function onTheLobby(announced: boolean) {
    const h = harness();
    h.manager.start();
    h.socket().serverAccepts();
    if (announced) h.socket().serverAnnouncesRouting();
    return h;
  }

  test("the page's route is in the handshake query: room=<id>, guild=<id>, nothing elsewhere", () => {
    const room = harness();
    room.manager.route({ room: 5 });
    room.manager.start();
    const guild = harness();
    guild.manager.route({ guild: 3 });
    guild.manager.start();
    const lobby = harness();
    lobby.manager.start();
    expect([room, guild, lobby].map((h) => h.socket().queries)).toEqual([[{ room: "5" }], [{ guild: "3" }], [{}]]);
  });

  test("the route of a page address: a room, a guild room, and none for every other page", () => {
    expect(routeOfPath("/rooms/5")).toEqual({ room: 5 });
    expect(routeOfPath("/guilds/3/room")).toEqual({ guild: 3 });
    for (const path of ["/", "/rooms", "/rooms/abc", "/rooms/0", "/guilds/3/board", "/guilds/my", "/duel"]) {
      expect(routeOfPath(path)).toBeNull();
    }
  });

  test("announced routable: entering a room reconnects exactly once, with the room in the query", () => {
    const h = onTheLobby(true);
    const statesBefore = h.states.length;
    expect(h.manager.route({ room: 5 })).toBe(true);
    expect(h.socket().disconnects).toBe(1);
    expect(h.socket().queries).toEqual([{}, { room: "5" }]);
    h.socket().serverAccepts();
    h.socket().serverAnnouncesRouting(); // the new connection is announced too: it already carries the route
    expect(h.socket().queries).toHaveLength(2);
    expect(h.states.slice(statesBefore)).toEqual(["opening", "open"]);
  });

  test("not announced (ROOM_AFFINITY off, one process): entering a room keeps the connection", () => {
    const h = onTheLobby(false);
    expect(h.manager.route({ room: 5 })).toBe(false);
    expect(h.manager.route({ guild: 3 })).toBe(false);
    expect(h.socket().disconnects).toBe(0);
    expect(h.socket().queries).toHaveLength(1);
  });

  test("a route the connection already carries never reconnects, however often it is asked for", () => {
    const h = harness();
    h.manager.route({ room: 5 });
    h.manager.start();
    h.socket().serverAccepts();
    h.socket().serverAnnouncesRouting();
    expect(h.manager.route({ room: 5 })).toBe(false);
    expect(h.manager.route({ room: 5 })).toBe(false);
    expect(h.socket().disconnects).toBe(0);
  });

  test("leaving a room for the lobby keeps the connection; the same room again too; another room moves", () => {
    const h = onTheLobby(true);
    h.manager.route({ room: 5 });
    h.socket().serverAccepts();
    h.socket().serverAnnouncesRouting();
    expect(h.manager.route(null)).toBe(false);
    expect(h.manager.route({ room: 5 })).toBe(false);
    expect(h.socket().disconnects).toBe(1);
    expect(h.manager.route({ room: 6 })).toBe(true);
    expect(h.socket().queries).toEqual([{}, { room: "5" }, { room: "6" }]);
  });

  test("joinOn: a page joins on the right connection only, then after every connect, until it stops", () => {
    const moved = onTheLobby(true);
    let joins = 0;
    const stop = moved.manager.joinOn({ room: 5 }, () => joins++);
    expect(joins).toBe(0); // not on the lobby connection being dropped
    moved.socket().serverAccepts();
    expect(joins).toBe(1);
    stop();
    moved.socket().serverAccepts();
    expect(joins).toBe(1);
    expect(moved.socket().disconnects).toBe(1); // giving the route up does not move

    const stays = onTheLobby(false);
    let staysJoins = 0;
    stays.manager.joinOn({ room: 5 }, () => staysJoins++);
    expect(staysJoins).toBe(1); // not routable: joined at once on the connection it has
    expect(stays.socket().disconnects).toBe(0);
  });

  test("from room 1 to room 2: the leave of room 1 goes out on its connection before that connection closes", () => {
    const h = onTheLobby(true);
    h.manager.route({ room: 1 });
    h.socket().serverAccepts();
    h.socket().serverAnnouncesRouting();
    h.socket().calls.length = 0;
    h.manager.emit("leave_room", { room_id: 1 }); // what the room page's cleanup does, before the next page mounts
    h.manager.route(null);
    h.manager.route({ room: 2 });
    expect(h.socket().calls).toEqual(["emit leave_room", "disconnect", "connect"]);
  });

  test("socket.io-client's own reconnects (network loss) carry the route the page wants at that time", () => {
    const h = onTheLobby(true);
    h.manager.route({ room: 5 });
    h.socket().serverAccepts();
    h.socket().networkDrops();
    expect(h.socket().queries.at(-1)).toEqual({ room: "5" });
    h.socket().serverAccepts();
    h.manager.route(null);
    h.socket().networkDrops();
    expect(h.socket().queries.at(-1)).toEqual({});
    // That connection is known to carry no route: entering room 5 again moves it.
    h.socket().serverAccepts();
    h.socket().serverAnnouncesRouting();
    expect(h.manager.route({ room: 5 })).toBe(true);
  });

  test("a route asked for while a connection opens for another moves once that connection is announced", () => {
    const h = harness();
    h.manager.start(); // opening for the lobby
    expect(h.manager.route({ room: 5 })).toBe(false); // not connected yet: nothing to move
    h.socket().serverAccepts();
    expect(h.socket().queries).toEqual([{}]);
    h.socket().serverAnnouncesRouting();
    expect(h.socket().queries).toEqual([{}, { room: "5" }]);
    h.socket().serverAccepts();
    h.socket().serverAnnouncesRouting();
    expect(h.socket().queries).toHaveLength(2);
  });

  test("a parameter the proxy does not route by is no reason to move", () => {
    const h = harness();
    h.manager.start();
    h.socket().serverAccepts();
    h.socket().serverAnnouncesRouting(["room"]);
    expect(h.manager.route({ guild: 3 })).toBe(false);
    expect(h.manager.route({ room: 5 })).toBe(true);
  });

  test("an announcement holds for its own connection only: after a reconnect, no move until announced again", () => {
    const h = onTheLobby(true);
    h.socket().networkDrops();
    h.socket().serverAccepts();
    expect(h.manager.route({ room: 5 })).toBe(false);
    expect(h.socket().disconnects).toBe(0);
  });
});
