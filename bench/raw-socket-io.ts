/**
 * The baselines' wire: just enough of socket.io v4 over Bun's own WebSocket pub/sub for the generators'
 * protocol client (engine.io "0{…}" open, "40{auth}" namespace connect, "2" pings to everyone, "42[name,payload]"
 * events, "42<id>[…]" events with an acknowledgement answered as "43<id>[answer]"). No validation beyond JSON
 * shape, no limits: what a server costs with nothing but Bun between the players and the game.
 */
import { createHash } from "node:crypto";
import type { ServerWebSocket } from "bun";

const PING_INTERVAL_MS = 25_000;

/** What every raw connection carries; a baseline adds its own fields through `extra`. */
export interface RawIdentity {
  sid: string;
  clientId: string;
  nickname: string;
  /** The guest's public key, as our server derives it (`g_` + 12 hex of the client id's hash). */
  sessionId: string;
}

export type RawWs<Extra> = ServerWebSocket<RawIdentity & Extra>;

export interface RawServerOptions<Extra> {
  host: string;
  port: number;
  extra: () => Extra;
  onEvent: (ws: RawWs<Extra>, name: string, payload: Record<string, unknown>, ack?: (answer: unknown) => void) => void;
  onClose: (ws: RawWs<Extra>) => void;
}

export const frame = (event: string, payload: unknown) => `42${JSON.stringify([event, payload])}`;
export const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());

/** Our server's guest nickname for a client id (same hash, same range). */
export function guestNickname(clientId: string) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < clientId.length; i++) hash = Math.imul(hash ^ clientId.charCodeAt(i), 0x01000193) >>> 0;
  return `guest_${1000 + (hash % 9000)}`;
}

export function serveRawSocketIo<Extra>(options: RawServerOptions<Extra>) {
  let sequence = 0;
  const server = Bun.serve<RawIdentity & Extra, never>({
    hostname: options.host,
    port: options.port,
    fetch(request, bunServer) {
      if (!new URL(request.url).pathname.startsWith("/socket.io/")) return new Response("not found", { status: 404 });
      const sid = `b${(++sequence).toString(36)}`;
      const data = { sid, clientId: sid, nickname: "", sessionId: "", ...options.extra() } as RawIdentity & Extra;
      // A generic Extra defeats Bun's conditional upgrade() signature; the data is complete here.
      return (bunServer.upgrade as (r: Request, o: { data: unknown }) => boolean)(request, { data })
        ? undefined
        : new Response("upgrade failed", { status: 400 });
    },
    websocket: {
      idleTimeout: Math.ceil(PING_INTERVAL_MS / 1000) + 35,
      open(ws) {
        ws.subscribe("all");
        ws.send(
          `0${JSON.stringify({ sid: ws.data.sid, upgrades: [], pingInterval: PING_INTERVAL_MS, pingTimeout: 20_000, maxPayload: 65_536 })}`,
        );
      },
      message(ws, raw) {
        const data = typeof raw === "string" ? raw : raw.toString();
        if (data.startsWith("42")) onEventFrame(ws, data, options);
        else if (data.startsWith("40")) onConnect(ws, data);
      },
      close(ws) {
        options.onClose(ws);
      },
    },
  });
  const pings = setInterval(() => server.publish("all", "2"), PING_INTERVAL_MS);
  return {
    server,
    stop() {
      clearInterval(pings);
      server.stop(true);
    },
  };
}

function onEventFrame<Extra>(ws: RawWs<Extra>, data: string, options: RawServerOptions<Extra>) {
  const open = data.indexOf("[");
  const ackId = open > 2 ? data.slice(2, open) : undefined;
  try {
    const [name, payload] = JSON.parse(data.slice(open)) as [string, Record<string, unknown> | undefined];
    if (typeof name !== "string") return;
    const ack = ackId === undefined ? undefined : (answer: unknown) => ws.send(`43${ackId}${JSON.stringify([answer])}`);
    options.onEvent(ws, name, payload && typeof payload === "object" ? payload : {}, ack);
  } catch {}
}

function onConnect<Extra>(ws: RawWs<Extra>, data: string) {
  let clientId = ws.data.sid;
  try {
    const auth = data.length > 2 ? JSON.parse(data.slice(2)) : {};
    if (typeof auth.client_id === "string") clientId = auth.client_id;
  } catch {}
  ws.data.clientId = clientId;
  ws.data.nickname = guestNickname(clientId);
  ws.data.sessionId = `g_${createHash("sha256").update(clientId).digest("hex").slice(0, 12)}`;
  ws.send(`40${JSON.stringify({ sid: ws.data.sid })}`);
}
