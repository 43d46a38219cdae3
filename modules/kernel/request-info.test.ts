import { describe, expect, test } from "bun:test";
import { loadConfig } from "./config";
import {
  addressLimitKey,
  DEFAULT_TRUSTED_PROXIES,
  formatIp,
  inRange,
  parseIp,
  parseIpRange,
  parseTrustedProxies,
  resolveClientIp,
} from "./request-info";

const defaults = parseTrustedProxies(DEFAULT_TRUSTED_PROXIES);
const text = (raw: string) => {
  const ip = parseIp(raw);
  return ip ? formatIp(ip) : null;
};

describe("parseIp / formatIp", () => {
  test.each([
    ["1.2.3.4", "1.2.3.4"],
    [" 10.0.0.1 ", "10.0.0.1"],
    ["1.2.3.4:5678", "1.2.3.4"],
    ["2001:DB8:0:0::1", "2001:db8::1"],
    ["0:0:0:0:0:0:0:1", "::1"],
    ["[2001:db8::1]:443", "2001:db8::1"],
    ["[::1]", "::1"],
    ["fe80::1%eth0", "fe80::1"],
    ["::ffff:203.0.113.9", "203.0.113.9"],
    ["::ffff:cb00:7109", "203.0.113.9"],
    ["2001:db8:0:1:0:0:0:1", "2001:db8:0:1::1"],
    ["2001:0:0:1:0:0:0:0", "2001:0:0:1::"],
    ["::", "::"],
  ])("%s reads as %s", (raw, expected) => {
    expect(text(raw)).toBe(expected);
  });

  test.each([
    "",
    "unknown",
    "example.com",
    "1.2.3",
    "1.2.3.4.5",
    "256.1.1.1",
    "01.2.3.4",
    "1.2.3.-4",
    "1::2::3",
    "1:2:3:4:5:6:7:8:9",
    "1:2:3:4:5:6:7",
    "12345::1",
    "::g",
    "[1.2.3.4",
    "_",
  ])("%p is not an address", (raw) => {
    expect(parseIp(raw)).toBeNull();
  });
});

describe("ranges", () => {
  test("CIDR membership for IPv4 and IPv6, single addresses as /32 and /128", () => {
    const range = (r: string) => parseIpRange(r)!;
    const ip = (a: string) => parseIp(a)!;
    expect(inRange(ip("172.31.255.255"), range("172.16.0.0/12"))).toBe(true);
    expect(inRange(ip("172.32.0.1"), range("172.16.0.0/12"))).toBe(false);
    expect(inRange(ip("fd12:3456::1"), range("fc00::/7"))).toBe(true);
    expect(inRange(ip("fe00::1"), range("fc00::/7"))).toBe(false);
    expect(inRange(ip("203.0.113.7"), range("203.0.113.7"))).toBe(true);
    expect(inRange(ip("203.0.113.8"), range("203.0.113.7"))).toBe(false);
    expect(inRange(ip("10.0.0.1"), range("::ffff:10.0.0.0/104"))).toBe(true);
    expect(inRange(ip("::ffff:10.1.1.1"), range("10.0.0.0/8"))).toBe(true);
    expect(inRange(ip("10.0.0.1"), range("::/0"))).toBe(false);
    expect(inRange(ip("8.8.8.8"), range("0.0.0.0/0"))).toBe(true);
  });

  test("a malformed TRUSTED_PROXIES entry fails at boot", () => {
    for (const bad of ["10.0.0.0/33", "10.0.0.0/8/1", "proxy.internal", "[::1]", "1.2.3.4:80", "::1/129"]) {
      expect(() => parseTrustedProxies([bad])).toThrow("TRUSTED_PROXIES");
    }
    expect(() => loadConfig({ DATA_DIR: "/tmp", TRUST_PROXY: "1", TRUSTED_PROXIES: "10.0.0.1, nope" })).toThrow("nope");
  });

  test("TRUST_PROXY off ignores the header; on, TRUSTED_PROXIES replaces the default list", () => {
    expect(loadConfig({ DATA_DIR: "/tmp", JWT_SECRET: "x".repeat(32) }).trustProxy).toBeNull();
    const listed = loadConfig({ DATA_DIR: "/tmp", TRUST_PROXY: "1", TRUSTED_PROXIES: "203.0.113.0/24" }).trustProxy;
    expect(resolveClientIp("203.0.113.1", "198.51.100.2", listed)).toBe("198.51.100.2");
    expect(resolveClientIp("10.0.0.1", "198.51.100.2", listed)).toBe("10.0.0.1");
  });
});

describe("resolveClientIp: the right-most hop that is not our proxy", () => {
  test("without TRUST_PROXY the peer is the client, whatever the header says", () => {
    expect(resolveClientIp("127.0.0.1", "6.6.6.6", null)).toBe("127.0.0.1");
  });

  test("a spoofed left hop is ignored: the proxy appended the real peer on the right", () => {
    expect(resolveClientIp("127.0.0.1", "6.6.6.6, 203.0.113.5", defaults)).toBe("203.0.113.5");
    expect(resolveClientIp("127.0.0.1", "6.6.6.6,1.1.1.1, 203.0.113.5", defaults)).toBe("203.0.113.5");
  });

  test("a chain of our own proxies is skipped", () => {
    expect(resolveClientIp("10.0.0.2", "203.0.113.5, 192.168.1.1, 10.0.0.3", defaults)).toBe("203.0.113.5");
  });

  test("a peer that is not a trusted proxy is the client: its header is the client's own text", () => {
    expect(resolveClientIp("198.51.100.7", "127.0.0.1", defaults)).toBe("198.51.100.7");
  });

  test("IPv6 hops, with brackets, ports and IPv4-mapped peers", () => {
    expect(resolveClientIp("::1", "2001:DB8::5", defaults)).toBe("2001:db8::5");
    expect(resolveClientIp("::ffff:127.0.0.1", "[2001:db8::5]:1234", defaults)).toBe("2001:db8::5");
    expect(resolveClientIp("fd00::1", "203.0.113.5:61000, fd00::2", defaults)).toBe("203.0.113.5");
  });

  test("a malformed hop stops the walk at the last address reached", () => {
    expect(resolveClientIp("127.0.0.1", "203.0.113.5, garbage", defaults)).toBe("127.0.0.1");
    expect(resolveClientIp("127.0.0.1", "garbage, 10.0.0.9", defaults)).toBe("10.0.0.9");
    expect(resolveClientIp("127.0.0.1", "", defaults)).toBe("127.0.0.1");
    expect(resolveClientIp("127.0.0.1", ",,,", defaults)).toBe("127.0.0.1");
  });

  test("only our own proxies in the chain: the left-most is the client", () => {
    expect(resolveClientIp("127.0.0.1", "10.1.1.1, 10.0.0.1", defaults)).toBe("10.1.1.1");
  });

  test("no peer address", () => {
    expect(resolveClientIp(undefined, "203.0.113.5", defaults)).toBe("unknown");
  });
});

test("limits count an IPv6 client by its /64, an IPv4 client by its address", () => {
  expect(addressLimitKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
  expect(addressLimitKey("2001:db8:1:2:bbbb::9")).toBe("2001:db8:1:2::/64");
  expect(addressLimitKey("203.0.113.5")).toBe("203.0.113.5");
  expect(addressLimitKey("unknown")).toBe("unknown");
});
