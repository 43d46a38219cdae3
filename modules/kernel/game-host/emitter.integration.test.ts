import { afterAll, beforeAll, expect, test } from "bun:test";
import { io as connect, type Socket } from "socket.io-client";
import { startTestServer, type TestServer } from "../../../apps/server/testing";
import { type GameEmitter, socketIoEmitter } from "./emitter";
import { sharedScheduler } from "./scheduler";

/** The events these tests send: made up, not the app's wire contract. */
type ToyEvents = Record<`toy:${string}`, (payload: unknown) => void>;

let server: TestServer;
let emitter: GameEmitter<ToyEvents>;

beforeAll(async () => {
  server = await startTestServer();
  emitter = socketIoEmitter<ToyEvents>(server.io);
});
afterAll(() => server.stop());

interface Client {
  socket: Socket;
  /** Every event received, in order, as `name:payload-json`. */
  seen: string[];
  /** Resolves at the next event of that name. */
  next(event: string): Promise<unknown>;
}

async function open(auth: Record<string, string>): Promise<Client> {
  const socket = connect(server.url, { path: "/socket.io/", transports: ["websocket"], forceNew: true, auth });
  const seen: string[] = [];
  socket.onAny((event: string, payload: unknown) => seen.push(`${event}:${JSON.stringify(payload)}`));
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", reject);
  });
  const next = (event: string) => new Promise((resolve) => socket.once(event, resolve));
  return { socket, seen, next };
}

const toyEvents = (client: Client) => client.seen.filter((e) => e.startsWith("toy:"));

test("the socket.io emitter: channel broadcasts, one player's sockets, a member's user channel, join and leave", async () => {
  const member = await server.createUser("emitter");
  const a = await open({ token: member.token, client_id: "emitter-a" });
  const b = await open({ client_id: "emitter-b" });
  const [idA, idB] = [a.socket.id!, b.socket.id!];

  emitter.join(idA, "toy:1");
  emitter.toChannel("toy:1", "toy:hello", { to: "channel" });
  emitter.toSockets([idB], "toy:hello", { to: "b" });
  emitter.toUser(member.id, "toy:hello", { to: "user" });
  emitter.leave(idA, "toy:1");
  emitter.toChannel("toy:1", "toy:hello", { to: "channel again" });
  // A marker sent after everything: once it arrives, everything sent before it to that socket has arrived.
  const markers = [a.next("toy:marker"), b.next("toy:marker")];
  emitter.toSockets([idA, idB], "toy:marker", {});
  await Promise.all(markers);

  expect(toyEvents(a)).toEqual(['toy:hello:{"to":"channel"}', 'toy:hello:{"to":"user"}', "toy:marker:{}"]);
  expect(toyEvents(b)).toEqual(['toy:hello:{"to":"b"}', "toy:marker:{}"]);
  a.socket.disconnect();
  b.socket.disconnect();
});

test("one scheduler per module context: every module of a server shares it", () => {
  expect(sharedScheduler(server.ctx)).toBe(sharedScheduler(server.ctx));
  expect(sharedScheduler(server.ctx).clock).toBe(server.ctx.clock);
});
