import { describe, expect, test } from "bun:test";
import { lazySocket } from "./lazy-socket";
import type { SocketLike } from "./socket";

/** A stand-in for socket.io-client's socket that writes down what was done to it, in order. */
function recordingSocket(calls: string[]): SocketLike {
  let connected = false;
  const opts: { query?: Record<string, string> } = {};
  return {
    get connected() {
      return connected;
    },
    get active() {
      return connected;
    },
    connect: () => {
      calls.push(`connect ${new URLSearchParams(opts.query).toString()}`);
      connected = true;
    },
    disconnect: () => calls.push("disconnect"),
    on: (event: string) => calls.push(`on ${event}`),
    off: (event: string) => calls.push(`off ${event}`),
    emit: (event: string) => calls.push(`emit ${event}`),
    io: { on: (event: string) => calls.push(`io.on ${event}`), opts },
  };
}

describe("lazySocket", () => {
  test("calls made before the library arrives are replayed on the real socket, in order", async () => {
    const calls: string[] = [];
    let arrive: (create: () => SocketLike) => void = () => {};
    const socket = lazySocket(() => new Promise((resolve) => (arrive = resolve)));
    socket.on("connect", () => {});
    socket.io.on("reconnect_attempt", () => {});
    socket.io.opts.query = { room: "1" };
    socket.connect();
    socket.io.opts.query = { room: "2" };
    socket.emit("join_room", { room_id: 1 });
    socket.off("connect");
    expect(socket.connected).toBe(false);
    expect(calls).toEqual([]);

    arrive(() => recordingSocket(calls));
    await Bun.sleep(0);
    expect(calls).toEqual(["on connect", "io.on reconnect_attempt", "connect room=1", "emit join_room", "off connect"]);
    expect(socket.connected).toBe(true);
    expect(socket.io.opts.query).toEqual({ room: "2" }); // the real socket's, for its next connection
  });

  test("once the library is there, calls go straight through", async () => {
    const calls: string[] = [];
    const socket = lazySocket(async () => () => recordingSocket(calls));
    await Bun.sleep(0);
    socket.emit("chat_message");
    expect(calls).toEqual(["emit chat_message"]);
  });
});
