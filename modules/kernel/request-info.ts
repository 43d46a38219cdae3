import type { Server } from "bun";

/**
 * Client addresses behind reverse proxies. X-Forwarded-For is a list every proxy appends its peer to, so only the
 * right end is written by proxies we run: the client is the right-most hop that is not one of our proxies. The
 * left hops are whatever the client sent (anyone can write `X-Forwarded-For: 1.2.3.4`).
 */

/** An IPv4 (4 bytes) or IPv6 (16 bytes) address; an IPv4-mapped IPv6 address is read as the IPv4 address. */
export interface IpAddress {
  bytes: Uint8Array;
}

/** A network: the address's first `prefix` bits. */
export interface IpRange {
  bytes: Uint8Array;
  prefix: number;
}

/** The proxies whose X-Forwarded-For entries are believed; `null` (TRUST_PROXY off) ignores the header. */
export type TrustedProxies = readonly IpRange[] | null;

/** Loopback, private (RFC 1918, IPv6 unique local) and link-local: where a reverse proxy of our own sits. */
export const DEFAULT_TRUSTED_PROXIES = [
  "127.0.0.0/8",
  "10.0.0.0/8",
  "172.16.0.0/12",
  "192.168.0.0/16",
  "169.254.0.0/16",
  "::1/128",
  "fc00::/7",
  "fe80::/10",
] as const;

function parseIpv4(text: string): Uint8Array | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  const bytes = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    if (!/^(0|[1-9]\d{0,2})$/.test(parts[i])) return null;
    const value = Number(parts[i]);
    if (value > 255) return null;
    bytes[i] = value;
  }
  return bytes;
}

/** 16-bit groups of an IPv6 text without `::` (an IPv4 tail counts as two groups). */
function ipv6Groups(text: string): number[] | null {
  if (text === "") return [];
  const groups: number[] = [];
  const parts = text.split(":");
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (i === parts.length - 1 && part.includes(".")) {
      const v4 = parseIpv4(part);
      if (!v4) return null;
      groups.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
    } else if (/^[0-9a-f]{1,4}$/i.test(part)) {
      groups.push(Number.parseInt(part, 16));
    } else {
      return null;
    }
  }
  return groups;
}

function parseIpv6(text: string): Uint8Array | null {
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const head = ipv6Groups(halves[0]);
  const tail = halves.length === 2 ? ipv6Groups(halves[1]) : [];
  if (!head || !tail) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...head, ...new Array<number>(missing).fill(0), ...tail];
  const bytes = new Uint8Array(16);
  groups.forEach((group, i) => {
    bytes[2 * i] = group >> 8;
    bytes[2 * i + 1] = group & 0xff;
  });
  return bytes;
}

const isV4Mapped = (bytes: Uint8Array) =>
  bytes.length === 16 && bytes.subarray(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;

/**
 * Reads one address as proxies write it: `1.2.3.4`, `1.2.3.4:5678`, `2001:db8::1`, `[2001:db8::1]:443`, with an
 * IPv6 zone (`%eth0`) dropped. Anything else (a host name, `unknown`, garbage) is `null`.
 */
export function parseIp(raw: string): IpAddress | null {
  let text = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(text);
  if (bracketed) text = bracketed[1];
  else if (/^[\d.]+:\d{1,5}$/.test(text)) text = text.slice(0, text.lastIndexOf(":"));
  text = text.replace(/%[\w.-]+$/, "");
  const bytes = text.includes(":") ? parseIpv6(text) : parseIpv4(text);
  if (!bytes) return null;
  return { bytes: isV4Mapped(bytes) ? bytes.slice(12) : bytes };
}

/** The canonical text (RFC 5952 for IPv6: lower case, the longest run of zero groups as `::`). */
export function formatIp(ip: IpAddress): string {
  if (ip.bytes.length === 4) return ip.bytes.join(".");
  const groups = Array.from({ length: 8 }, (_, i) => (ip.bytes[2 * i] << 8) | ip.bytes[2 * i + 1]);
  let best = { start: -1, length: 0 };
  for (let i = 0; i < 8; ) {
    let end = i;
    while (end < 8 && groups[end] === 0) end++;
    if (end - i > best.length && end - i > 1) best = { start: i, length: end - i };
    i = end > i ? end : i + 1;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best.start < 0) return hex.join(":");
  const head = hex.slice(0, best.start).join(":");
  const tail = hex.slice(best.start + best.length).join(":");
  return `${head}::${tail}`;
}

/** `10.0.0.0/8`, `fc00::/7`, or a single address (a /32 or /128). `null` when malformed. */
export function parseIpRange(text: string): IpRange | null {
  const [address, prefixText, ...rest] = text.trim().split("/");
  if (rest.length > 0) return null;
  // A range is written bare: no brackets, port or zone.
  if (/[[\]%]/.test(address) || /^[\d.]+:/.test(address)) return null;
  const ip = parseIp(address);
  if (!ip) return null;
  if (prefixText === undefined) return { bytes: ip.bytes, prefix: ip.bytes.length * 8 };
  const written = address.includes(":") ? 128 : 32;
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > written) return null;
  // An IPv4-mapped range (::ffff:10.0.0.0/104) is the IPv4 range it maps.
  const prefix = Number(prefixText) - (written - ip.bytes.length * 8);
  if (prefix < 0) return null;
  return { bytes: ip.bytes, prefix };
}

export function inRange(ip: IpAddress, range: IpRange): boolean {
  if (ip.bytes.length !== range.bytes.length) return false;
  const full = range.prefix >> 3;
  for (let i = 0; i < full; i++) if (ip.bytes[i] !== range.bytes[i]) return false;
  const rest = range.prefix & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return (ip.bytes[full] & mask) === (range.bytes[full] & mask);
}

/** Parses a TRUSTED_PROXIES list; throws on a malformed entry so a typo fails at boot, not silently. */
export function parseTrustedProxies(entries: readonly string[]): IpRange[] {
  return entries.map((entry) => {
    const range = parseIpRange(entry);
    if (!range) throw new Error(`TRUSTED_PROXIES: not an IP address or CIDR range: ${entry}`);
    return range;
  });
}

const isTrusted = (ip: IpAddress, proxies: readonly IpRange[]) => proxies.some((range) => inRange(ip, range));

/**
 * The client of a request that reached us from `peer` with this X-Forwarded-For. Walks from the right: the peer,
 * then each hop, skipping our own proxies; the first address that is not one of them is the client. A hop that
 * is not an address stops the walk at the last address reached (what lies left of it cannot be trusted either).
 * When every hop is one of our proxies, the left-most is the client (a health check from inside the network).
 */
export function resolveClientIp(peer: string | null | undefined, forwardedFor: string | null, proxies: TrustedProxies) {
  const peerIp = peer ? parseIp(peer) : null;
  if (!peerIp) return peer || "unknown";
  if (!proxies || !forwardedFor || !isTrusted(peerIp, proxies)) return formatIp(peerIp);
  const hops = forwardedFor.split(",");
  let client = peerIp;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = parseIp(hops[i]);
    if (!hop) break;
    client = hop;
    if (!isTrusted(hop, proxies)) break;
  }
  return formatIp(client);
}

/** The client's IP of an HTTP request: the socket peer, or per X-Forwarded-For when the peer is a trusted proxy. */
export function clientIp(request: Request, server: Server<unknown> | null | undefined, proxies: TrustedProxies) {
  return resolveClientIp(server?.requestIP(request)?.address, request.headers.get("x-forwarded-for"), proxies);
}

/**
 * What per-address limits count by: the IPv4 address, or the /64 network of an IPv6 address (one subscriber gets
 * a whole /64 and can change addresses inside it at will).
 */
export function addressLimitKey(ip: string): string {
  const parsed = parseIp(ip);
  if (!parsed || parsed.bytes.length === 4) return ip;
  const network = new Uint8Array(16);
  network.set(parsed.bytes.subarray(0, 8));
  return `${formatIp({ bytes: network })}/64`;
}
