import type { Server } from "bun";
import { addressLimitKey, clientIp, parseIp, type TrustedProxies } from "../../modules/kernel/request-info";
import type { AppSocket } from "../../modules/kernel/socket";
import type { SharedAdmissions } from "./shared-admissions";

export const TOO_MANY_CONNECTIONS = "같은 주소에서 너무 많이 접속했습니다. 잠시 후 다시 시도해주세요.";

/** What the limiter keeps on an engine connection (the transport under one socket.io socket). */
interface Transport {
  /** The client's address (TRUST_PROXY-aware), read by the socket.io middleware into `socket.data.ip`. */
  clientIp?: string;
  /** The address key this transport is counted under; unset for loopback, which is not limited. */
  limitKey?: string;
  /** Counted as one of the address's socket.io connections. */
  admitted?: boolean;
  /** Closed while its shared admission was still being asked (the answer must then be given back). */
  closed?: boolean;
  on(event: "close", listener: (this: Transport) => void): unknown;
}

/** Loopback is this machine: a benchmark, or a proxy on the same host whose X-Forwarded-For is not trusted. */
const isLoopback = (ip: string) => {
  const bytes = parseIp(ip)?.bytes;
  if (!bytes) return false;
  return bytes.length === 4 ? bytes[0] === 127 : bytes.every((b, i) => b === (i === 15 ? 1 : 0));
};

const SESSION_REQUEST = /[?&]sid=/;

function increment(counts: Map<string, number>, key: string) {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}
function decrement(counts: Map<string, number>, key: string) {
  const left = (counts.get(key) ?? 0) - 1;
  if (left > 0) counts.set(key, left);
  else counts.delete(key);
}

/**
 * Simultaneous socket.io connections per client address (IPv6 by its /64). Every connection is a guest that can
 * take a seat in a room, so one address holding hundreds would fill every room. Two counts:
 * - socket.io connections admitted: at most `cap`; one more is refused by the socket.io middleware, so the client
 *   reads a Korean `connect_error` (code `too_many_connections`) instead of a bare transport failure;
 * - engine transports, admitted or not: counted synchronously at the handshake, so a burst cannot slip between
 *   check and count; at `2 × cap` new handshakes are refused outright (403), against scripts that open transports
 *   and never join.
 * Both go down when the transport closes. Loopback addresses are not limited.
 *
 * With several processes (`shared`, Redis) the admitted count is the address's across every process, so the cap
 * holds however a load balancer spreads one address; the transport count stays per process (it only guards this
 * process against transports that never join, and must be synchronous with the handshake).
 */
export class ConnectionLimiter {
  private readonly transports = new Map<string, number>();
  private readonly admitted = new Map<string, number>();
  /** The address of a handshake, read before the engine upgrades it (Bun knows no peer of an upgraded request). */
  private readonly handshakes = new WeakMap<Request, { ip: string; key?: string }>();

  /** One listener shared by every transport (the engine calls it with `this` = the transport): no closure each. */
  private readonly onTransportClose: (this: Transport) => void;

  constructor(
    private readonly cap: number,
    private readonly proxies: TrustedProxies,
    private readonly shared: SharedAdmissions | null = null,
  ) {
    const limiter = this;
    this.onTransportClose = function onTransportClose(this: Transport) {
      limiter.release(this);
    };
  }

  private keyOf(request: Request, server: Server<unknown>) {
    const ip = clientIp(request, server, this.proxies);
    return { ip, key: isLoopback(ip) ? undefined : addressLimitKey(ip) };
  }

  /** `allowRequest`: throws the refusal text for a new handshake of an address at its transport limit. */
  checkHandshake(request: Request, server: Server<unknown>) {
    if (SESSION_REQUEST.test(request.url)) return; // polling or upgrade of an open session
    const address = this.keyOf(request, server);
    if (address.key && (this.transports.get(address.key) ?? 0) >= 2 * this.cap) throw TOO_MANY_CONNECTIONS;
    this.handshakes.set(request, address);
  }

  /** The engine's `connection` event (synchronous with the handshake): remembers and counts the address. */
  onTransportOpen(transport: Transport, request: Request) {
    const { ip, key } = this.handshakes.get(request) ?? { ip: "unknown" };
    transport.clientIp = ip;
    if (!key) return;
    transport.limitKey = key;
    increment(this.transports, key);
    transport.on("close", this.onTransportClose);
  }

  /** socket.io middleware, before authentication: sets `socket.data.ip` and admits or refuses the connection. */
  admit(socket: AppSocket): Error | undefined | Promise<Error | undefined> {
    const transport = socket.conn as unknown as Transport;
    socket.data.ip = transport.clientIp ?? "unknown";
    const key = transport.limitKey;
    if (!key || transport.admitted) return undefined;
    if (this.shared) return this.admitShared(transport, key, this.shared);
    if ((this.admitted.get(key) ?? 0) >= this.cap) return tooMany();
    transport.admitted = true;
    increment(this.admitted, key);
    return undefined;
  }

  private async admitShared(transport: Transport, key: string, shared: SharedAdmissions) {
    if (!(await shared.admit(key, this.cap))) return tooMany();
    if (transport.closed) {
      await shared.release(key);
      return tooMany();
    }
    transport.admitted = true;
    return undefined;
  }

  /** A transport closed: its place (and its admission) is free again. */
  release(transport: Transport) {
    transport.closed = true;
    if (!transport.limitKey) return;
    decrement(this.transports, transport.limitKey);
    if (transport.admitted && this.shared) void this.shared.release(transport.limitKey);
    else if (transport.admitted) decrement(this.admitted, transport.limitKey);
    transport.admitted = false;
    transport.limitKey = undefined;
  }
}

const tooMany = () => Object.assign(new Error(TOO_MANY_CONNECTIONS), { data: { code: "too_many_connections" } });
