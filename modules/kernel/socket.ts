import type { Static, TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import type { Server, Socket } from "socket.io";
import { isAppError } from "./errors";
import type { Logger } from "./logger";

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

// biome-ignore lint/suspicious/noExplicitAny: event maps are validated at runtime per handler
type AnyEvents = Record<string, (...args: any[]) => void>;
export type AppServer = Server<AnyEvents, AnyEvents, AnyEvents, SocketData>;
export type AppSocket = Socket<AnyEvents, AnyEvents, AnyEvents, SocketData>;

/** The payload of the `error` event: `message` is the Korean text shown to the player. */
export interface SocketErrorPayload {
  message: string;
  code?: string;
  event?: string;
}

export function emitSocketError(socket: AppSocket, message: string, code?: string, event?: string) {
  socket.emit("error", { message, code, event } satisfies SocketErrorPayload);
}

export const INVALID_PAYLOAD = "요청 형식이 올바르지 않습니다.";
export const HANDLER_FAILED = "요청을 처리하지 못했습니다. 잠시 후 다시 시도해주세요.";

/** One client → server event: its payload schema and what to do with a valid payload. */
export interface SocketEvent<S extends TSchema = TSchema> {
  schema: S;
  /** May return a value (sent to an acknowledgement callback) or a promise of one; may throw an AppError. */
  handle: (socket: AppSocket, payload: Static<S>) => unknown;
}

/** A module's client → server events by name (built once per server, shared by every socket). */
// biome-ignore lint/suspicious/noExplicitAny: each entry keeps its own schema type
export type SocketEvents = Record<string, SocketEvent<any>>;

/**
 * Keeps the payload type of `handle` tied to its schema. Socket payloads are JSON as sent: use TypeBox's
 * `Type.Integer`, not Elysia's `t.Integer`, which also accepts numeric strings (HTTP coerces them; a socket
 * handler would get the string).
 */
export const socketEvent = <S extends TSchema>(
  schema: S,
  handle: (socket: AppSocket, payload: Static<S>) => unknown,
): SocketEvent<S> => ({ schema, handle });

type Ack = (result: unknown) => void;

/**
 * One listener shared by every socket (installed with `socket.onAny`, so `this` is the socket): it looks the event
 * up in the server's table, checks the payload against the schema, and turns a bad payload, a thrown AppError or
 * any other failure into an `error` event on that socket; nothing throws out of a handler. When the client passes
 * an acknowledgement callback, it receives `{ success, error? }` or the handler's result. Per-socket closures for
 * each event would cost about 40 objects per connection (bench/README.md, "Memory").
 */
export function createSocketDispatcher(events: ReadonlyMap<string, SocketEvent>, log: Logger) {
  const fail = (socket: AppSocket, event: string, error: unknown, ack: Ack | undefined) => {
    const message = isAppError(error) ? error.detail : HANDLER_FAILED;
    if (!isAppError(error)) log.error("socket handler failed", { event, error: String(error) });
    emitSocketError(socket, message, isAppError(error) ? error.code : "internal", event);
    ack?.({ success: false, error: message });
  };
  return function dispatch(this: AppSocket, event: unknown, ...args: unknown[]) {
    if (typeof event !== "string") return;
    const entry = events.get(event);
    if (!entry) return; // events of features this server does not run are ignored, as socket.io would
    const ack = typeof args[args.length - 1] === "function" ? (args.pop() as Ack) : undefined;
    const raw = args[0] ?? {};
    if (!Value.Check(entry.schema, raw)) {
      emitSocketError(this, INVALID_PAYLOAD, "invalid_payload", event);
      ack?.({ success: false, error: INVALID_PAYLOAD });
      return;
    }
    try {
      const result = entry.handle(this, Value.Clean(entry.schema, Value.Clone(raw)));
      if (result instanceof Promise) {
        result.then(
          (value) => ack?.(value ?? { success: true }),
          (error) => fail(this, event, error, ack),
        );
      } else ack?.(result ?? { success: true });
    } catch (error) {
      fail(this, event, error, ack);
    }
  };
}
