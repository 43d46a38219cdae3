import type { Static, TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import type { Server, Socket } from "socket.io";
import type { Clock } from "./clock";
import { isAppError } from "./errors";
import type { Logger } from "./logger";
import { ROUTING_EVENT, type RoutingAnnouncement } from "./routing";
import { SESSION_CLOSED_EVENT, type SessionClosedPayload } from "./session-end";

/** Who is behind a socket: a member (from the handshake token) or a guest (from the anonymous client id). */
export type SocketIdentity =
  | { kind: "user"; userId: number; username: string; isAdmin: boolean; clientId: string }
  | { kind: "guest"; clientId: string; nickname: string };

export interface SocketData {
  identity: SocketIdentity;
  /** The client's address (TRUST_PROXY-aware), set at the handshake. */
  ip: string;
  /** Per-module scratch state keyed by module name (e.g. the room a socket is in). */
  state: Record<string, unknown>;
}

/**
 * The dispatcher's rate budget of one socket: two numbers on `socket.data` (no object, closure, Map or timer per
 * socket; memory per connected player is measured in bench/README.md). Absent until the socket's first event.
 */
export interface SocketBudget {
  /** Tokens left at `budgetAt`; fractional, because the bucket refills continuously. */
  budgetTokens?: number;
  /** Clock time (ms) the bucket was last brought up to date. */
  budgetAt?: number;
  /**
   * The last of this socket's async handlers still running (absent when none is): the next event's handler waits
   * for it, so a socket's events are handled in the order they were sent.
   */
  handling?: Promise<void>;
}

/** The payload of the `error` event: `message` is the Korean text shown to the player. */
export interface SocketErrorPayload {
  message: string;
  code?: string;
  event?: string;
}

/**
 * The wire contract, socket.io style (`name: (payload, ack?) => void`): server → client events, client → server
 * events and the events between server processes. The kernel declares its own here; each module adds its events in
 * its `wire.ts` (`declare module "../kernel/socket" { interface ServerEvents extends … }`), as modules add bus events
 * to `AppEvents`, so the kernel imports no module while `AppServer`, `AppSocket`, the game host and the web's socket
 * manager are typed against the union: a wrong event name or payload is a type error on either side.
 */
export interface ServerEvents {
  error: (payload: SocketErrorPayload) => void;
  [ROUTING_EVENT]: (payload: RoutingAnnouncement) => void;
  [SESSION_CLOSED_EVENT]: (payload: SessionClosedPayload) => void;
}
// biome-ignore lint/suspicious/noEmptyInterface: filled by the modules' wire.ts (declaration merging)
export interface ClientEvents {}
// biome-ignore lint/suspicious/noEmptyInterface: filled by the modules' wire.ts (declaration merging)
export interface InterServerEvents {}

/**
 * The payload of event `E` of an event map (socket.io style, `name: (payload, …) => void`); for a union of events, the
 * union of their payloads.
 */
export type EventPayload<Events, E extends keyof Events> = E extends unknown
  ? Events[E] extends (payload: infer P, ...rest: never[]) => void
    ? P
    : never
  : never;
export type ServerEventName = keyof ServerEvents & string;
/** The payload of a server → client event. */
export type ServerPayload<E extends ServerEventName> = EventPayload<ServerEvents, E>;
export type ClientEventName = keyof ClientEvents & string;
/** The payload of a client → server event. */
export type ClientPayload<E extends ClientEventName> = EventPayload<ClientEvents, E>;

/**
 * What the acknowledgement callback of a client event receives (`createSocketDispatcher`): the handler's answer
 * (`{ success: true }` when it answers nothing), or `{ success: false, error }` when the event was refused.
 */
export type Acknowledgement<Answer = { success: true }> = Answer | Refusal;
export type Refusal = { success: false; error: string };

/**
 * A client → server event whose payload is `P` (the `Static` of the schema that validates it) and whose handler
 * answers `Answer`. The payload may be left out when `P` accepts `undefined` (events that carry nothing).
 */
export type ClientEvent<P, Answer = { success: true }> = undefined extends P
  ? (payload?: P, ack?: (answer: Acknowledgement<Answer>) => void) => void
  : (payload: P, ack?: (answer: Acknowledgement<Answer>) => void) => void;

/** What the acknowledgement callback of client event `E` receives. */
export type ClientAnswer<E extends ClientEventName> = ClientEvents[E] extends (
  payload: never,
  ack: (answer: infer A) => void,
) => void
  ? A
  : never;

export type AppServer = Server<ClientEvents, ServerEvents, InterServerEvents, SocketData & SocketBudget>;
export type AppSocket = Socket<ClientEvents, ServerEvents, InterServerEvents, SocketData & SocketBudget>;

// biome-ignore lint/suspicious/noExplicitAny: a transport carries events it does not look into
type AnyEvents = Record<string, (...args: any[]) => void>;
/** The server without the wire contract: for the transport (the game host's emitters) and its own tests. */
export type UntypedServer = Server<AnyEvents, AnyEvents, AnyEvents, SocketData & SocketBudget>;
export type UntypedSocket = Socket<AnyEvents, AnyEvents, AnyEvents, SocketData & SocketBudget>;
export const untypedServer = (io: AppServer) => io as unknown as UntypedServer;
export const untypedSocket = (socket: AppSocket) => socket as unknown as UntypedSocket;

export function emitSocketError(socket: AppSocket, message: string, code?: string, event?: string) {
  socket.emit("error", { message, code, event } satisfies SocketErrorPayload);
}

export const INVALID_PAYLOAD = "요청 형식이 올바르지 않습니다.";
export const HANDLER_FAILED = "요청을 처리하지 못했습니다. 잠시 후 다시 시도해주세요.";
export const RATE_LIMITED = "요청이 너무 많습니다. 잠시 후 다시 시도해주세요.";

export interface BudgetLimits {
  capacity: number;
  refillPerSecond: number;
}

/**
 * Every socket's event budget (the figures are explained in modules/kernel/README.md): 40 tokens cover the busiest
 * instant of a real player with room to spare, and 5 tokens a second are three times what a player chatting at
 * chat's own limit spends, while a flood is cut to one room list, or one join or leave, a second.
 */
export const SOCKET_BUDGET: BudgetLimits = { capacity: 40, refillPerSecond: 5 };
/** The cost of an event that declares none, and of any payload its schema refuses (its handler never runs). */
export const DEFAULT_EVENT_COST = 1;

/**
 * Token bucket: refills continuously at `refillPerSecond` up to `capacity` (a fresh socket starts full) and takes
 * `cost` when that much is left. A refused event takes nothing, so a client that stops flooding is served again
 * after cost ÷ refill seconds. A clock that goes back refills nothing.
 */
export function spendBudget(budget: SocketBudget, cost: number, now: number, limits = SOCKET_BUDGET): boolean {
  const last = budget.budgetAt ?? now;
  const refill = (Math.max(0, now - last) * limits.refillPerSecond) / 1000;
  const available = Math.min(limits.capacity, (budget.budgetTokens ?? limits.capacity) + refill);
  const allowed = available >= cost;
  budget.budgetTokens = allowed ? available - cost : available;
  budget.budgetAt = Math.max(now, last);
  return allowed;
}

/** One client → server event: its payload schema and what to do with a valid payload. */
export interface SocketEvent<S extends TSchema = TSchema> {
  schema: S;
  /** May return a value (sent to an acknowledgement callback) or a promise of one; may throw an AppError. */
  handle: (socket: AppSocket, payload: Static<S>) => unknown;
  /**
   * Tokens a valid payload takes from the socket's budget (`SOCKET_BUDGET`); `DEFAULT_EVENT_COST` when absent.
   * Price what the event makes the server send: 1 for an answer to the sender only, 5 for a full room list or
   * a join or leave that is broadcast to a whole room.
   */
  cost?: number;
}

export interface SocketEventOptions {
  /** See `SocketEvent.cost`. */
  cost?: number;
}

/** A module's client → server events by name (built once per server, shared by every socket). */
// biome-ignore lint/suspicious/noExplicitAny: each entry keeps its own schema type
export type SocketEvents = Record<string, SocketEvent<any>>;

/**
 * A module's handler table for its client events (`Events`, from its wire.ts): one entry per event, none other, so
 * an event declared and not handled, or handled and not declared, is a type error.
 */
// biome-ignore lint/suspicious/noExplicitAny: each entry keeps its own schema type
export type ClientHandlers<Events> = { [E in keyof Events]: SocketEvent<any> };

type Handler<S extends TSchema> = (socket: AppSocket, payload: Static<S>) => unknown;

/**
 * Keeps the payload type of `handle` tied to its schema. Socket payloads are JSON as sent: use TypeBox's
 * `Type.Integer`, not Elysia's `t.Integer`, which also accepts numeric strings (HTTP coerces them; a socket
 * handler would get the string). Options (the cost) go between schema and handler, as in Fastify's
 * `get(path, options, handler)`, so the handler stays last.
 */
export function socketEvent<S extends TSchema>(schema: S, handle: Handler<S>): SocketEvent<S>;
export function socketEvent<S extends TSchema>(
  schema: S,
  options: SocketEventOptions,
  handle: Handler<S>,
): SocketEvent<S>;
export function socketEvent<S extends TSchema>(
  schema: S,
  optionsOrHandle: SocketEventOptions | Handler<S>,
  lastHandle?: Handler<S>,
): SocketEvent<S> {
  const options = typeof optionsOrHandle === "function" ? {} : optionsOrHandle;
  const handle = typeof optionsOrHandle === "function" ? optionsOrHandle : (lastHandle as Handler<S>);
  return { schema, handle, cost: options.cost ?? DEFAULT_EVENT_COST };
}

type Ack = (result: unknown) => void;

/**
 * One listener shared by every socket (installed with `socket.onAny`, so `this` is the socket): it looks the event
 * up in the server's table, checks the payload against the schema, takes the event's cost from the socket's budget
 * (`spendBudget`), and turns an event over budget, a bad payload, a thrown AppError or any other failure into an
 * `error` event on that socket; nothing throws out of a handler. When the client passes an acknowledgement
 * callback, it receives `{ success, error? }` or the handler's result. Per-socket closures for each event would
 * cost about 40 objects per connection (bench/README.md, "Memory").
 */
export function createSocketDispatcher(events: ReadonlyMap<string, SocketEvent>, ctx: { log: Logger; clock: Clock }) {
  const { log, clock } = ctx;
  const refuse = (socket: AppSocket, event: string, message: string, code: string | undefined, ack?: Ack) => {
    emitSocketError(socket, message, code, event);
    ack?.({ success: false, error: message });
  };
  const fail = (socket: AppSocket, event: string, error: unknown, ack: Ack | undefined) => {
    if (isAppError(error)) return refuse(socket, event, error.detail, error.code, ack);
    log.error("socket handler failed", { event, error: String(error) });
    refuse(socket, event, HANDLER_FAILED, "internal", ack);
  };
  return function dispatch(this: AppSocket, event: unknown, ...args: unknown[]) {
    if (typeof event !== "string") return;
    const entry = events.get(event);
    if (!entry) return; // events of features this server does not run are ignored, as socket.io would
    const ack = typeof args[args.length - 1] === "function" ? (args.pop() as Ack) : undefined;
    const raw = args[0] ?? {};
    const valid = Value.Check(entry.schema, raw);
    // A payload its schema refuses never reaches the handler, so it costs the default (the cheapest event).
    const cost = valid ? (entry.cost ?? DEFAULT_EVENT_COST) : DEFAULT_EVENT_COST;
    if (!spendBudget(this.data, cost, clock.now())) {
      log.debug("socket event over budget", { event, socket: this.id });
      return refuse(this, event, RATE_LIMITED, "rate_limited", ack);
    }
    if (!valid) return refuse(this, event, INVALID_PAYLOAD, "invalid_payload", ack);
    const payload = Value.Clean(entry.schema, Value.Clone(raw));
    const run = (): Promise<void> | undefined => {
      try {
        const result = entry.handle(this, payload);
        if (!(result instanceof Promise)) {
          ack?.(result ?? { success: true });
          return undefined;
        }
        return result.then(
          (value) => ack?.(value ?? { success: true }),
          (error) => fail(this, event, error, ack),
        );
      } catch (error) {
        fail(this, event, error, ack);
        return undefined;
      }
    };
    // In order per socket: a handler that awaits the database (PostgreSQL takes a round trip where SQLite answers
    // within the tick) must not let the socket's next event overtake it (a chat line sent right after
    // `join_room` would find the player not yet in the room). Synchronous handlers run at once when nothing waits.
    const before = this.data.handling;
    const running = before ? before.then(run) : run();
    if (running) trackHandling(this.data, running);
  };
}

function trackHandling(data: SocketBudget, running: Promise<void>) {
  data.handling = running;
  void running.then(() => {
    if (data.handling === running) data.handling = undefined;
  });
}
