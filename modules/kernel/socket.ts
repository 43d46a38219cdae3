import type { TSchema } from "@sinclair/typebox";
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

/**
 * Registers a handler whose payload is checked against a TypeBox schema first. A bad payload, a thrown
 * AppError or any other failure becomes an `error` event on that socket; nothing throws out of a handler.
 * When the client passes an acknowledgement callback, it receives `{ success, error? }` or the result.
 */
export function onEvent<S extends TSchema>(
  socket: AppSocket,
  log: Logger,
  event: string,
  schema: S,
  handler: (payload: import("@sinclair/typebox").Static<S>) => unknown,
) {
  socket.on(event, async (...args: unknown[]) => {
    const ack = typeof args[args.length - 1] === "function" ? (args.pop() as (r: unknown) => void) : undefined;
    const raw = args[0] ?? {};
    if (!Value.Check(schema, raw)) {
      emitSocketError(socket, INVALID_PAYLOAD, "invalid_payload", event);
      ack?.({ success: false, error: INVALID_PAYLOAD });
      return;
    }
    try {
      const result = await handler(Value.Clean(schema, Value.Clone(raw)) as never);
      ack?.(result ?? { success: true });
    } catch (error) {
      const message = isAppError(error) ? error.detail : "요청을 처리하지 못했습니다. 잠시 후 다시 시도해주세요.";
      if (!isAppError(error)) log.error("socket handler failed", { event, error: String(error) });
      emitSocketError(socket, message, isAppError(error) ? error.code : "internal", event);
      ack?.({ success: false, error: message });
    }
  });
}
