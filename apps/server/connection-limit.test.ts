import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { io as connect, type Socket } from "socket.io-client";
import { TOO_MANY_CONNECTIONS } from "./connection-limit";
import { startTestServer, type TestServer } from "./testing";

// Behind our own proxy (the test client on 127.0.0.1 is one), each address is the right-most X-Forwarded-For hop.
const CAP = 3;
let server: TestServer;
const opened: Socket[] = [];
beforeAll(async () => {
  server = await startTestServer({ env: { TRUST_PROXY: "1", MAX_CONNECTIONS_PER_IP: String(CAP) } });
});
afterAll(async () => {
  for (const socket of opened) socket.disconnect();
  await server.stop();
});

type Refusal = Error & { data?: { code?: string } };

function open(forwardedFor?: string, transport: "websocket" | "polling" = "websocket") {
  const socket = connect(server.url, {
    path: "/socket.io/",
    transports: [transport],
    reconnection: false,
    forceNew: true,
    extraHeaders: forwardedFor ? { "x-forwarded-for": forwardedFor } : undefined,
  });
  opened.push(socket);
  return new Promise<{ socket: Socket; error?: Refusal }>((resolve) => {
    socket.once("connect", () => resolve({ socket }));
    socket.once("connect_error", (error: Refusal) => resolve({ socket, error }));
  });
}

async function serverSocketOf(client: Socket) {
  return (await server.io.fetchSockets()).find((s) => s.id === client.id);
}

/** Until the server has seen `client`'s transport close (no timing asserted: it just has to happen). */
async function closed(client: Socket) {
  client.disconnect();
  for (let i = 0; i < 500 && (await serverSocketOf(client)); i++) await Bun.sleep(10);
}

describe("simultaneous socket.io connections per address", () => {
  test("one more than the cap is refused with a Korean connect_error; others and the address's own stay", async () => {
    const first = await Promise.all(Array.from({ length: CAP }, () => open("203.0.113.1")));
    expect(first.map((r) => r.error)).toEqual([undefined, undefined, undefined]);
    const extra = await open("203.0.113.1");
    expect(extra.error?.message).toBe(TOO_MANY_CONNECTIONS);
    expect(extra.error?.data?.code).toBe("too_many_connections");
    expect((await open("203.0.113.2")).error).toBeUndefined();
    // The refused one did not take a place: the first three still answer.
    for (const { socket } of first) expect(socket.connected).toBe(true);
  });

  test("a spoofed left hop does not make a new address", async () => {
    await Promise.all(Array.from({ length: CAP }, () => open("203.0.113.3")));
    const spoofed = await open("198.51.100.7, 203.0.113.3");
    expect(spoofed.error?.message).toBe(TOO_MANY_CONNECTIONS);
  });

  test("a parallel burst is cut exactly at the cap, over websocket and long-polling", async () => {
    for (const [ip, transport] of [
      ["203.0.113.4", "websocket"],
      ["203.0.113.5", "polling"],
    ] as const) {
      const burst = await Promise.all(Array.from({ length: 2 * CAP }, () => open(ip, transport)));
      expect(burst.filter((r) => !r.error)).toHaveLength(CAP);
      expect(burst.filter((r) => r.error?.message === TOO_MANY_CONNECTIONS)).toHaveLength(CAP);
    }
    // Beyond twice the cap in flight, handshakes are refused before they open a transport: still only CAP connect.
    const flood = await Promise.all(Array.from({ length: 20 }, () => open("203.0.113.7")));
    expect(flood.filter((r) => !r.error)).toHaveLength(CAP);
  });

  test("a closed connection frees its place", async () => {
    const held = await Promise.all(Array.from({ length: CAP }, () => open("203.0.113.6")));
    expect((await open("203.0.113.6")).error?.message).toBe(TOO_MANY_CONNECTIONS);
    await closed(held[0].socket);
    expect((await open("203.0.113.6")).error).toBeUndefined();
  });

  test("the server knows each socket's address as socket.data.ip", async () => {
    const { socket } = await open("198.51.100.1, 2001:DB8::7");
    expect((await serverSocketOf(socket))?.data.ip).toBe("2001:db8::7");
    const local = await open();
    expect((await serverSocketOf(local.socket))?.data.ip).toBe("127.0.0.1");
  });

  test("IPv6 addresses of one /64 share the cap", async () => {
    await Promise.all(Array.from({ length: CAP }, (_, i) => open(`2001:db8:5:6::${i + 1}`)));
    expect((await open("2001:db8:5:6:ffff::1")).error?.message).toBe(TOO_MANY_CONNECTIONS);
  });

  test("loopback (this machine) is not limited", async () => {
    const local = await Promise.all(Array.from({ length: CAP + 3 }, () => open()));
    expect(local.filter((r) => r.error)).toEqual([]);
  });

  test("transports that never join are refused at twice the cap, with the Korean text", async () => {
    const handshake = () =>
      fetch(`${server.url}/socket.io/?EIO=4&transport=polling`, { headers: { "x-forwarded-for": "203.0.113.9" } });
    for (let i = 0; i < 2 * CAP; i++) expect((await handshake()).status).toBe(200);
    const refused = await handshake();
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toBe(TOO_MANY_CONNECTIONS);
  });
});
